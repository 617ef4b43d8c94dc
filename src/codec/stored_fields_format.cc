// Stored fields and the blocked document container: writer, reader, and the
// checks that turn corrupt bytes into kDataLoss (docs/format-docfiles.md).
#include "codec/stored_fields_format.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "codec/byte_io.h"
#include "util/absl_compat.h"
#include "util/varint.h"

namespace invert {
namespace internal {
namespace {

// A decoded block larger than this is not kept as the reader's cache.
constexpr size_t kMaxCachedBlockBytes = size_t{4} << 20;

std::string FileName(std::string_view segment, std::string_view extension) {
  return absl::StrCat(Sv(segment), ".", Sv(extension));
}

absl::StatusOr<std::unique_ptr<BlockCompressor>> NewCompressor(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::kNone:
      return NewNoneCompressor();
    case CompressionCodec::kLz4:
      return NewLz4Compressor();
    case CompressionCodec::kZstd:
      return NewZstdCompressor(1);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown compression codec ", static_cast<int>(codec)));
}

// The same code, with what was being opened in front of the message.
absl::Status WithContext(const absl::Status& status, std::string_view what,
                         std::string_view segment) {
  return absl::Status(status.code(), absl::StrCat("opening ", Sv(what), " of segment ", Sv(segment),
                                                  ": ", status.message()));
}

}  // namespace

// ---------------------------------------------------------------- writer

DocBlockWriter::~DocBlockWriter() = default;

absl::StatusOr<std::unique_ptr<DocBlockWriter>> DocBlockWriter::Create(
    Directory* dir, std::string_view segment_name, const SegmentId& id, const DocFileFormat& format,
    CompressionCodec codec, size_t block_bytes) {
  if (block_bytes == 0 || block_bytes > kMaxBlockBytesOption) {
    return absl::InvalidArgumentError(absl::StrCat(Sv(format.what), ": block_bytes ", block_bytes,
                                                   " outside [1, ", kMaxBlockBytesOption, "]"));
  }
  absl::StatusOr<std::unique_ptr<BlockCompressor>> compressor = NewCompressor(codec);
  if (!compressor.ok()) return compressor.status();
  std::unique_ptr<DocBlockWriter> w(new DocBlockWriter);
  w->compressor_ = *std::move(compressor);
  w->codec_ = codec;
  w->block_bytes_ = block_bytes;
  w->data_name_ = FileName(segment_name, format.data_extension);
  w->index_name_ = FileName(segment_name, format.index_extension);

  absl::StatusOr<std::unique_ptr<IndexOutput>> data = CreateOutput(dir, w->data_name_);
  if (!data.ok()) return data.status();
  w->data_ = *std::move(data);
  absl::StatusOr<std::unique_ptr<IndexOutput>> index = CreateOutput(dir, w->index_name_);
  absl::Status status = index.status();
  if (status.ok()) {
    w->index_ = *std::move(index);
    status = WriteHeader(*w->data_, format.data_codec, format.version_current, id);
    w->data_->WriteByte(static_cast<uint8_t>(codec));
    if (status.ok()) status = w->data_->status();
    if (status.ok())
      status = WriteHeader(*w->index_, format.index_codec, format.version_current, id);
  }
  if (!status.ok()) {
    // Abandon and remove what was created; the caller gets the first error.
    const bool created_index = w->index_ != nullptr;
    w->data_.reset();
    w->index_.reset();
    (void)dir->DeleteFile(w->data_name_);
    if (created_index) (void)dir->DeleteFile(w->index_name_);
    return status;
  }
  return w;
}

absl::Status DocBlockWriter::Fail(absl::Status status) {
  if (status_.ok()) status_ = std::move(status);
  return status_;
}

absl::Status DocBlockWriter::AddDocument(std::span<const uint8_t> doc) {
  if (!status_.ok()) return status_;
  if (finished_) return absl::FailedPreconditionError("AddDocument after Finish");
  if (doc.size() > kMaxDocumentBytes) {
    return absl::InvalidArgumentError(absl::StrCat("document ", num_docs_, " is ", doc.size(),
                                                   " bytes serialized; the limit is ",
                                                   kMaxDocumentBytes));
  }
  if (num_docs_ == UINT32_MAX) {
    return absl::InvalidArgumentError("a segment holds at most 2^32 - 1 documents");
  }
  if (!pending_lengths_.empty() && pending_.size() + doc.size() > block_bytes_) {
    FlushBlock();
    if (!status_.ok()) return status_;
  }
  pending_.append(AsChars(doc));
  pending_lengths_.push_back(static_cast<uint32_t>(doc.size()));
  ++num_docs_;
  if (pending_.size() >= block_bytes_ || pending_lengths_.size() >= kMaxDocsPerBlock) FlushBlock();
  return status_;
}

void DocBlockWriter::FlushBlock() {
  const uint32_t doc_count = static_cast<uint32_t>(pending_lengths_.size());
  compressed_.clear();
  if (absl::Status s = compressor_->Compress(AsBytes(pending_), &compressed_); !s.ok()) {
    (void)Fail(std::move(s));
    return;
  }
  const uint64_t start = data_->file_pointer();
  data_->WriteVInt32(num_docs_ - doc_count);  // first_doc
  data_->WriteVInt32(doc_count);
  for (uint32_t length : pending_lengths_) data_->WriteVInt32(length);
  data_->WriteVInt32(static_cast<uint32_t>(compressed_.size()));
  data_->WriteBytes(compressed_.data(), compressed_.size());
  blocks_.push_back({doc_count, data_->file_pointer() - start});
  max_block_bytes_ = std::max(max_block_bytes_, static_cast<uint32_t>(pending_.size()));
  pending_.clear();
  pending_lengths_.clear();
  // A huge document leaves huge buffers behind; do not keep them.
  if (pending_.capacity() > 4 * block_bytes_) std::string().swap(pending_);
  if (compressed_.capacity() > 4 * block_bytes_) std::string().swap(compressed_);
  if (!data_->ok()) (void)Fail(data_->status());
}

absl::Status DocBlockWriter::AddRawBlock(const RawDocBlock& block) {
  if (!status_.ok()) return status_;
  if (finished_) return absl::FailedPreconditionError("AddRawBlock after Finish");
  if (block.codec != codec_) {
    return absl::InvalidArgumentError(
        absl::StrCat("a block compressed with codec ", static_cast<int>(block.codec),
                     " cannot be copied into a file of codec ", static_cast<int>(codec_)));
  }
  if (block.doc_count == 0 || block.doc_count > UINT32_MAX - 1 - num_docs_) {
    return absl::InvalidArgumentError(
        absl::StrCat("a raw block of ", block.doc_count, " documents after ", num_docs_));
  }
  if (!pending_lengths_.empty()) {
    FlushBlock();
    if (!status_.ok()) return status_;
  }
  const uint64_t start = data_->file_pointer();
  data_->WriteVInt32(num_docs_);  // first_doc: the only field that changes
  data_->WriteBytes(block.rest.data(), block.rest.size());
  blocks_.push_back({block.doc_count, data_->file_pointer() - start});
  max_block_bytes_ = std::max(max_block_bytes_, block.uncompressed_bytes);
  num_docs_ += block.doc_count;
  if (!data_->ok()) (void)Fail(data_->status());
  return status_;
}

absl::Status DocBlockWriter::Finish() {
  if (finished_) return status_;
  finished_ = true;
  if (!status_.ok()) return status_;
  if (!pending_lengths_.empty()) FlushBlock();
  if (!status_.ok()) return status_;
  if (absl::Status s = WriteFooter(*data_); !s.ok()) return Fail(std::move(s));
  if (absl::Status s = data_->Close(); !s.ok()) return Fail(std::move(s));
  index_->WriteVInt32(num_docs_);
  index_->WriteVInt32(static_cast<uint32_t>(blocks_.size()));
  index_->WriteVInt32(max_block_bytes_);
  for (const BlockEntry& block : blocks_) {
    index_->WriteVInt32(block.doc_count);
    index_->WriteVInt64(block.length);
  }
  if (absl::Status s = WriteFooter(*index_); !s.ok()) return Fail(std::move(s));
  if (absl::Status s = index_->Close(); !s.ok()) return Fail(std::move(s));
  return status_;
}

// ---------------------------------------------------------------- reader

absl::StatusOr<std::unique_ptr<DocBlockReader>> DocBlockReader::Open(
    Directory* dir, std::string_view segment_name, const SegmentId& id, const DocFileFormat& format,
    uint32_t num_docs, const DocFilesReaderOptions& options) {
  auto context = [&](const absl::Status& s) { return WithContext(s, format.what, segment_name); };
  const std::string data_name = FileName(segment_name, format.data_extension);
  const std::string index_name = FileName(segment_name, format.index_extension);
  absl::StatusOr<IndexInput> data = OpenInput(dir, data_name);
  if (!data.ok()) return context(data.status());
  absl::StatusOr<IndexInput> index = OpenInput(dir, index_name);
  if (!index.ok()) return context(index.status());
  std::unique_ptr<DocBlockReader> r(new DocBlockReader(*std::move(data), *std::move(index)));
  r->data_name_ = data_name;
  r->num_docs_ = num_docs;

  // Data file: header, compression byte, footer structure.
  IndexInput& d = r->data_;
  absl::StatusOr<uint32_t> version =
      CheckHeader(d, format.data_codec, format.version_start, format.version_current, id);
  if (!version.ok()) return context(version.status());
  uint8_t codec;
  if (!d.ReadByte(&codec)) {
    return context(absl::DataLossError(absl::StrCat("truncated file ", data_name)));
  }
  absl::StatusOr<std::unique_ptr<BlockCompressor>> decompressor = NewDecompressor(codec);
  if (!decompressor.ok()) {
    return context(
        absl::DataLossError(absl::StrCat("unknown compression codec ", codec, " in ", data_name)));
  }
  r->decompressor_ = *std::move(decompressor);
  r->codec_ = static_cast<CompressionCodec>(codec);
  if (absl::StatusOr<uint64_t> footer = ReadFooterChecksum(d); !footer.ok()) {
    return context(footer.status());
  }
  if (d.position() > d.length() - kFooterLength) {
    return context(absl::DataLossError(
        absl::StrCat("truncated file ", data_name, ": header and footer overlap")));
  }

  // Index file: header (same version), footer, optionally the checksum.
  IndexInput& x = r->index_;
  absl::StatusOr<uint32_t> index_version =
      CheckHeader(x, format.index_codec, format.version_start, format.version_current, id);
  if (!index_version.ok()) return context(index_version.status());
  if (*index_version != *version) {
    return context(
        absl::DataLossError(absl::StrCat("version ", *index_version, " of ", index_name,
                                         " does not match version ", *version, " of ", data_name)));
  }
  if (absl::StatusOr<uint64_t> footer = ReadFooterChecksum(x); !footer.ok()) {
    return context(footer.status());
  }
  if (options.verify_index_checksum) {
    if (absl::StatusOr<uint64_t> sum = VerifyChecksum(x); !sum.ok()) return context(sum.status());
  }
  if (absl::Status s = r->LoadIndex(num_docs, d.position(), d.length() - kFooterLength); !s.ok()) {
    return context(s);
  }
  return r;
}

absl::Status DocBlockReader::LoadIndex(uint32_t num_docs, uint64_t data_start, uint64_t data_end) {
  const std::string& name = index_.name();
  auto corrupt = [&](std::string_view what) {
    return absl::DataLossError(absl::StrCat("corrupt index ", name, ": ", Sv(what)));
  };
  const std::span<const uint8_t> rest = index_.remaining();
  if (rest.size() < kFooterLength) return corrupt("header and footer overlap");
  ByteReader in(rest.first(rest.size() - kFooterLength));
  uint32_t file_docs, block_count, max_block_bytes;
  if (!in.ReadVInt32(&file_docs) || !in.ReadVInt32(&block_count) ||
      !in.ReadVInt32(&max_block_bytes)) {
    return corrupt("truncated");
  }
  if (file_docs != num_docs) {
    return corrupt(absl::StrCat("it holds ", file_docs, " documents, the segment ", num_docs));
  }
  if (max_block_bytes > kMaxDocumentBytes) {
    return corrupt(absl::StrCat("largest block of ", max_block_bytes, " bytes"));
  }
  if (block_count > in.remaining() / 2) {  // an entry takes at least 2 bytes
    return corrupt(absl::StrCat(block_count, " blocks cannot fit in ", in.remaining(), " bytes"));
  }
  max_block_bytes_ = max_block_bytes;
  first_docs_.reserve(size_t{block_count} + 1);
  block_offsets_.reserve(size_t{block_count} + 1);
  uint64_t doc = 0;
  uint64_t offset = data_start;
  for (uint32_t b = 0; b < block_count; ++b) {
    uint32_t doc_count;
    uint64_t length;
    if (!in.ReadVInt32(&doc_count) || !in.ReadVInt64(&length)) return corrupt("truncated");
    if (doc_count == 0 || length == 0) return corrupt(absl::StrCat("block ", b, " is empty"));
    if (doc_count > num_docs - doc || length > data_end - offset) {
      return corrupt(absl::StrCat("block ", b, " ends past the last document or the data"));
    }
    first_docs_.push_back(static_cast<uint32_t>(doc));
    block_offsets_.push_back(offset);
    doc += doc_count;
    offset += length;
  }
  if (doc != num_docs || offset != data_end) {
    return corrupt(absl::StrCat("blocks hold ", doc, " documents and ", offset - data_start,
                                " bytes; expected ", num_docs, " and ", data_end - data_start));
  }
  if (!in.empty()) return corrupt("bytes after the last block");
  first_docs_.push_back(static_cast<uint32_t>(doc));
  block_offsets_.push_back(offset);
  return absl::OkStatus();
}

size_t DocBlockReader::BlockOf(uint32_t doc) const {
  // first_docs_ is strictly increasing, starts at 0 and ends with num_docs_.
  return static_cast<size_t>(std::upper_bound(first_docs_.begin(), first_docs_.end(), doc) -
                             first_docs_.begin()) -
         1;
}

absl::Status DocBlockReader::Corrupt(size_t block, std::string_view what) const {
  return absl::DataLossError(absl::StrCat("corrupt block ", block, " (documents ",
                                          first_docs_[block], " to ", first_docs_[block + 1] - 1,
                                          ") in ", data_name_, ": ", Sv(what)));
}

absl::StatusOr<RawDocBlock> DocBlockReader::RawBlock(size_t block) const {
  const std::span<const uint8_t> bytes = data_.bytes().subspan(
      block_offsets_[block], block_offsets_[block + 1] - block_offsets_[block]);
  ByteReader in(bytes);
  RawDocBlock raw;
  raw.codec = codec_;
  if (!in.ReadVInt32(&raw.first_doc)) return Corrupt(block, "truncated block header");
  raw.rest = std::span<const uint8_t>(in.position(), in.remaining());
  if (!in.ReadVInt32(&raw.doc_count)) return Corrupt(block, "truncated block header");
  if (raw.first_doc != first_docs_[block] ||
      raw.doc_count != first_docs_[block + 1] - first_docs_[block]) {
    return Corrupt(block, absl::StrCat("the block says it holds ", raw.doc_count,
                                       " documents from ", raw.first_doc));
  }
  uint64_t total = 0;
  for (uint32_t i = 0; i < raw.doc_count; ++i) {
    uint32_t length;
    if (!in.ReadVInt32(&length)) return Corrupt(block, "truncated document lengths");
    total += length;
    if (total > max_block_bytes_) {
      return Corrupt(block, absl::StrCat("documents add up to more than the largest block (",
                                         max_block_bytes_, " bytes)"));
    }
  }
  uint32_t compressed_length;
  if (!in.ReadVInt32(&compressed_length)) return Corrupt(block, "truncated block header");
  if (compressed_length != in.remaining()) {
    return Corrupt(block, absl::StrCat("compressed length ", compressed_length, ", but ",
                                       in.remaining(), " bytes left in the block"));
  }
  if (codec_ == CompressionCodec::kNone && compressed_length != total) {
    return Corrupt(
        block, absl::StrCat(compressed_length, " stored bytes for ", total, " bytes of documents"));
  }
  raw.uncompressed_bytes = static_cast<uint32_t>(total);
  return raw;
}

absl::Status DocBlockReader::DecodeBlock(size_t block) const {
  cache_.block = SIZE_MAX;
  const std::span<const uint8_t> bytes = data_.bytes().subspan(
      block_offsets_[block], block_offsets_[block + 1] - block_offsets_[block]);
  ByteReader in(bytes);
  uint32_t first_doc, doc_count;
  if (!in.ReadVInt32(&first_doc) || !in.ReadVInt32(&doc_count)) {
    return Corrupt(block, "truncated block header");
  }
  if (first_doc != first_docs_[block] || doc_count != first_docs_[block + 1] - first_docs_[block]) {
    return Corrupt(
        block, absl::StrCat("the block says it holds ", doc_count, " documents from ", first_doc));
  }
  cache_.starts.resize(size_t{doc_count} + 1);
  cache_.starts[0] = 0;
  uint64_t total = 0;
  for (uint32_t i = 0; i < doc_count; ++i) {
    uint32_t length;
    if (!in.ReadVInt32(&length)) return Corrupt(block, "truncated document lengths");
    total += length;
    if (total > max_block_bytes_) {
      return Corrupt(block, absl::StrCat("documents add up to more than the largest block (",
                                         max_block_bytes_, " bytes)"));
    }
    cache_.starts[i + 1] = static_cast<uint32_t>(total);
  }
  uint32_t compressed_length;
  if (!in.ReadVInt32(&compressed_length)) return Corrupt(block, "truncated block header");
  if (compressed_length != in.remaining()) {
    return Corrupt(block, absl::StrCat("compressed length ", compressed_length, ", but ",
                                       in.remaining(), " bytes left in the block"));
  }
  const std::span<const uint8_t> compressed(in.position(), compressed_length);
  if (codec_ == CompressionCodec::kNone) {
    if (compressed_length != total) {
      return Corrupt(block, absl::StrCat(compressed_length, " stored bytes for ", total,
                                         " bytes of documents"));
    }
    cache_.bytes = compressed;  // read in place
  } else {
    if (cache_.capacity < total || cache_.buffer == nullptr) {
      cache_.buffer = std::make_unique_for_overwrite<uint8_t[]>(std::max<size_t>(total, 1));
      cache_.capacity = total;
    }
    const std::span<uint8_t> out(cache_.buffer.get(), total);
    if (absl::Status s = decompressor_->DecompressTo(compressed, out); !s.ok()) {
      return Corrupt(block, StdSv(s.message()));
    }
    cache_.bytes = out;
  }
  cache_.block = block;
  return absl::OkStatus();
}

absl::Status DocBlockReader::ReadDocuments(std::span<const uint32_t> docs, DocFn fn) const {
  for (uint32_t doc : docs) {
    if (doc >= num_docs_) {
      return absl::OutOfRangeError(
          absl::StrCat("doc ", doc, " out of range: ", data_name_, " holds ", num_docs_));
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  auto emit = [&](size_t i, uint32_t doc) {
    const uint32_t k = doc - first_docs_[cache_.block];
    return fn(i, cache_.bytes.subspan(cache_.starts[k], cache_.starts[k + 1] - cache_.starts[k]));
  };
  absl::Status status;
  if (docs.size() == 1) {
    const size_t block = BlockOf(docs[0]);
    if (cache_.block != block) {
      // Even one block is worth a prefetch: under MADV_RANDOM its pages
      // would otherwise fault in one at a time.
      status =
          data_.Prefetch(block_offsets_[block], block_offsets_[block + 1] - block_offsets_[block]);
      if (status.ok()) status = DecodeBlock(block);
    }
    if (status.ok()) status = emit(0, docs[0]);
  } else {
    // (block, index into docs), grouped by block.
    std::vector<std::pair<size_t, size_t>> order(docs.size());
    for (size_t i = 0; i < docs.size(); ++i) order[i] = {BlockOf(docs[i]), i};
    std::sort(order.begin(), order.end());
    size_t to_decode = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      if ((i == 0 || order[i].first != order[i - 1].first) && order[i].first != cache_.block) {
        ++to_decode;
      }
    }
    if (to_decode >= 1) {  // start every block's I/O before touching the first
      for (size_t i = 0; i < order.size() && status.ok(); ++i) {
        const size_t b = order[i].first;
        if ((i == 0 || b != order[i - 1].first) && b != cache_.block) {
          status = data_.Prefetch(block_offsets_[b], block_offsets_[b + 1] - block_offsets_[b]);
        }
      }
    }
    for (size_t i = 0; i < order.size() && status.ok(); ++i) {
      if (cache_.block != order[i].first) status = DecodeBlock(order[i].first);
      if (status.ok()) status = emit(order[i].second, docs[order[i].second]);
    }
  }
  if (cache_.capacity > kMaxCachedBlockBytes) {
    cache_.block = SIZE_MAX;
    cache_.buffer.reset();
    cache_.capacity = 0;
  }
  return status;
}

absl::Status DocBlockReader::CheckIntegrity() const {
  if (absl::StatusOr<uint64_t> s = VerifyChecksum(index_); !s.ok()) return s.status();
  if (absl::StatusOr<uint64_t> s = VerifyChecksum(data_); !s.ok()) return s.status();
  return absl::OkStatus();
}

}  // namespace internal

// ---------------------------------------------------------------- stored fields

namespace {

// The fields of a stored document as views into `bytes`.
absl::Status ParseStoredDocumentViews(std::span<const uint8_t> bytes,
                                      std::vector<StoredFieldValue>* out) {
  out->clear();
  ByteReader in(bytes);
  uint32_t count;
  if (!in.ReadVInt32(&count)) return absl::DataLossError("truncated field count");
  if (count > in.remaining() / 2) {  // a field takes at least 2 bytes
    return absl::DataLossError(
        absl::StrCat(count, " fields cannot fit in ", in.remaining(), " bytes"));
  }
  out->reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t number, length;
    const uint8_t* value;
    if (!in.ReadVInt32(&number) || !in.ReadVInt32(&length) || !in.ReadBytes(length, &value)) {
      return absl::DataLossError(absl::StrCat("truncated field ", i));
    }
    out->push_back({number, std::string_view(reinterpret_cast<const char*>(value), length)});
  }
  if (!in.empty()) return absl::DataLossError("bytes after the last field");
  return absl::OkStatus();
}

absl::Status ParseStoredDocument(std::span<const uint8_t> bytes, std::vector<StoredField>* out) {
  ByteReader in(bytes);
  uint32_t count;
  if (!in.ReadVInt32(&count)) return absl::DataLossError("truncated field count");
  if (count > in.remaining() / 2) {  // a field takes at least 2 bytes
    return absl::DataLossError(
        absl::StrCat(count, " fields cannot fit in ", in.remaining(), " bytes"));
  }
  out->reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t number, length;
    const uint8_t* value;
    if (!in.ReadVInt32(&number) || !in.ReadVInt32(&length) || !in.ReadBytes(length, &value)) {
      return absl::DataLossError(absl::StrCat("truncated field ", i));
    }
    out->push_back({number, std::string(reinterpret_cast<const char*>(value), length)});
  }
  if (!in.empty()) return absl::DataLossError("bytes after the last field");
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<StoredFieldsWriter>> StoredFieldsWriter::Create(
    Directory* dir, std::string_view segment_name, const SegmentId& id,
    const StoredFieldsWriterOptions& options) {
  absl::StatusOr<std::unique_ptr<internal::DocBlockWriter>> blocks =
      internal::DocBlockWriter::Create(dir, segment_name, id, internal::kStoredFieldsFileFormat,
                                       options.codec, options.block_bytes);
  if (!blocks.ok()) return blocks.status();
  return std::unique_ptr<StoredFieldsWriter>(new StoredFieldsWriter(*std::move(blocks)));
}

absl::Status StoredFieldsWriter::AddDocument(std::span<const StoredFieldValue> fields) {
  uint64_t size = VIntSize(fields.size());
  for (const StoredFieldValue& f : fields) {
    size += VIntSize(f.field_number) + VIntSize(f.value.size()) + f.value.size();
  }
  if (size > kMaxDocumentBytes) {
    return absl::InvalidArgumentError(absl::StrCat("stored document ", num_docs(), " is ", size,
                                                   " bytes serialized; the limit is ",
                                                   kMaxDocumentBytes));
  }
  scratch_.clear();
  scratch_.reserve(size);
  PutVInt(&scratch_, fields.size());
  for (const StoredFieldValue& f : fields) {
    PutVInt(&scratch_, f.field_number);
    PutVInt(&scratch_, f.value.size());
    scratch_.append(f.value);
  }
  absl::Status status = blocks_->AddDocument(AsBytes(scratch_));
  if (scratch_.capacity() > (size_t{1} << 20)) std::string().swap(scratch_);
  return status;
}

absl::Status StoredFieldsWriter::Finish() { return blocks_->Finish(); }

absl::StatusOr<std::unique_ptr<StoredFieldsReader>> StoredFieldsReader::Open(
    Directory* dir, std::string_view segment_name, const SegmentId& id, uint32_t num_docs,
    const DocFilesReaderOptions& options) {
  absl::StatusOr<std::unique_ptr<internal::DocBlockReader>> blocks = internal::DocBlockReader::Open(
      dir, segment_name, id, internal::kStoredFieldsFileFormat, num_docs, options);
  if (!blocks.ok()) return blocks.status();
  return std::unique_ptr<StoredFieldsReader>(new StoredFieldsReader(*std::move(blocks)));
}

absl::StatusOr<std::vector<StoredField>> StoredFieldsReader::Document(uint32_t doc) const {
  std::vector<StoredField> fields;
  absl::Status status = blocks_->ReadDocuments(
      std::span<const uint32_t>(&doc, 1), [&](size_t, std::span<const uint8_t> bytes) {
        absl::Status s = ParseStoredDocument(bytes, &fields);
        if (!s.ok()) {
          return absl::DataLossError(absl::StrCat("corrupt stored document ", doc, " in ",
                                                  blocks_->data_name(), ": ", s.message()));
        }
        return s;
      });
  if (!status.ok()) return status;
  return fields;
}

absl::StatusOr<std::vector<std::vector<StoredField>>> StoredFieldsReader::Documents(
    std::span<const uint32_t> docs) const {
  std::vector<std::vector<StoredField>> result(docs.size());
  absl::Status status = blocks_->ReadDocuments(docs, [&](size_t i, std::span<const uint8_t> bytes) {
    absl::Status s = ParseStoredDocument(bytes, &result[i]);
    if (!s.ok()) {
      return absl::DataLossError(absl::StrCat("corrupt stored document ", docs[i], " in ",
                                              blocks_->data_name(), ": ", s.message()));
    }
    return s;
  });
  if (!status.ok()) return status;
  return result;
}

absl::Status StoredFieldsReader::VisitDocuments(std::span<const uint32_t> docs, FieldsFn fn) const {
  std::vector<StoredFieldValue> fields;
  return blocks_->ReadDocuments(docs, [&](size_t i, std::span<const uint8_t> bytes) {
    if (absl::Status s = ParseStoredDocumentViews(bytes, &fields); !s.ok()) {
      return absl::DataLossError(absl::StrCat("corrupt stored document ", docs[i], " in ",
                                              blocks_->data_name(), ": ", s.message()));
    }
    return fn(i, fields);
  });
}

}  // namespace invert

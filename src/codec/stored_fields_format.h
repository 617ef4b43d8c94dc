// Stored fields: the file pair of a segment that keeps every stored field
// value, retrievable per document, and the blocked document container both
// per-document files of a segment are built on (the term vectors reuse it,
// codec/term_vectors_format.h). The byte layout is specified in
// docs/format-docfiles.md; this file holds its constants and the API.
//
// Files (segment "_0"):
//
//   _0.fdt  header | compression byte | block[0] .. block[n-1] | footer
//   _0.fdx  header | num_docs | block_count | max_block_bytes
//                  | per block: doc_count, block_length | footer
//
//   block := first_doc doc_count length[doc_count] compressed_length
//            compressed bytes (BlockCompressor output of the concatenated
//            documents)
//   a stored document := VInt field_count, then per field
//            VInt field_number, VInt value length, value bytes
//
// Documents are numbered 0, 1, 2, ... in AddDocument order and grouped into
// blocks of about block_bytes uncompressed bytes; a document that does not
// fit the rest of a block starts the next one, and a document larger than
// block_bytes gets a block of its own. The reader loads the index at open
// (block_count + 1 entries of doc and file offset) and finds a document's
// block by binary search, then decompresses the block.
//
// Validation: Open checks both headers (codec, version, segment id), both
// footers' structure, and the whole index (counts add up to num_docs, block
// lengths add up to the data between header and footer); by default it also
// verifies the index file's checksum (a few bytes per 60 KiB block).
// Reading a block checks it against the index and decodes it with bounds
// checks only, so corrupt data gives kDataLoss and never a crash or an
// out-of-bounds read, whether or not checksums were verified; only
// CheckIntegrity() hashes the data file.
//
// Thread safety: writers belong to one thread. Readers' const methods may be
// called from several threads at once: Document(), Documents() and the
// term-vector Get()s serialize on an internal mutex (they share the cached
// last decoded block, the decompressor and the data input's prefetch
// counters); CheckIntegrity() only reads the immutable mapping. data_input()
// is for setup and counters while no other thread reads.
#ifndef INVERT_CODEC_STORED_FIELDS_FORMAT_H_
#define INVERT_CODEC_STORED_FIELDS_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "codec/block_compressor.h"
#include "invert/directory.h"
#include "store/codec_util.h"
#include "store/index_input.h"
#include "store/index_output.h"

namespace invert {

// Frozen: do not change these values; they are part of the persistent format.
inline constexpr std::string_view kStoredFieldsDataCodec = "InvertStoredFieldsData";
inline constexpr std::string_view kStoredFieldsIndexCodec = "InvertStoredFieldsIndex";
inline constexpr std::string_view kStoredFieldsDataExtension = "fdt";
inline constexpr std::string_view kStoredFieldsIndexExtension = "fdx";
inline constexpr uint32_t kStoredFieldsVersionStart = 1;
inline constexpr uint32_t kStoredFieldsVersionCurrent = 1;

// Largest serialized document (field count, numbers, lengths and values):
// 1 GiB. Also bounds a block's uncompressed size, and so what a reader
// allocates for one block whatever the file says.
inline constexpr size_t kMaxDocumentBytes = size_t{1} << 30;
// Largest block_bytes option: 16 MiB.
inline constexpr size_t kMaxBlockBytesOption = size_t{16} << 20;
// A block is closed once it holds this many documents, so that very small
// documents do not make blocks with huge length tables (writer policy, not
// part of the format: readers accept any count).
inline constexpr uint32_t kMaxDocsPerBlock = 1024;

// Options shared by both per-document files' readers.
struct DocFilesReaderOptions {
  // Verify the index file's (.fdx / .tvx) checksum at open. It is read whole
  // at open anyway and is ~10 bytes per block. false: structure checks only
  // (for callers that verified the files already, and for corruption tests).
  bool verify_index_checksum = true;
};

namespace internal {

// What distinguishes the two per-document files built on the container.
struct DocFileFormat {
  std::string_view what;  // "stored fields", for messages
  std::string_view data_extension;
  std::string_view index_extension;
  std::string_view data_codec;
  std::string_view index_codec;
  uint32_t version_start;
  uint32_t version_current;
};
inline constexpr DocFileFormat kStoredFieldsFileFormat = {"stored fields",
                                                          kStoredFieldsDataExtension,
                                                          kStoredFieldsIndexExtension,
                                                          kStoredFieldsDataCodec,
                                                          kStoredFieldsIndexCodec,
                                                          kStoredFieldsVersionStart,
                                                          kStoredFieldsVersionCurrent};

// One block of a data file as stored, for copying it into another segment
// without decompressing (a merge). `rest` is the block after its first_doc
// VInt: doc_count, the lengths, compressed_length and the compressed bytes,
// all of which stay valid in another segment; only first_doc changes.
struct RawDocBlock {
  uint32_t first_doc = 0;
  uint32_t doc_count = 0;
  uint32_t uncompressed_bytes = 0;  // sum of the documents' lengths
  CompressionCodec codec = CompressionCodec::kNone;
  std::span<const uint8_t> rest;
};

// Writes the data and index files of one segment's per-document file: each
// document an opaque byte string, grouped into compressed blocks. Sticky
// errors: after the first failure every call returns it; the files are left
// for the caller to delete (file_names()).
class DocBlockWriter {
 public:
  // Creates both files and writes their headers. InvalidArgument for a bad
  // codec or block_bytes outside [1, kMaxBlockBytesOption]; on a create
  // error no file is left behind.
  static absl::StatusOr<std::unique_ptr<DocBlockWriter>> Create(
      Directory* dir, std::string_view segment_name, const SegmentId& id,
      const DocFileFormat& format, CompressionCodec codec, size_t block_bytes);
  ~DocBlockWriter();

  // Appends `doc` as document num_docs(). InvalidArgument (nothing changes)
  // if it is longer than kMaxDocumentBytes or the segment holds 2^32 - 1
  // documents; FailedPrecondition after Finish().
  absl::Status AddDocument(std::span<const uint8_t> doc);
  // Appends a block read from another segment's file of the same format as
  // documents num_docs() .. num_docs() + block.doc_count - 1, with its
  // first_doc rewritten: the block in the making (if any) is written first,
  // so raw blocks and added documents may alternate (the blocks keep their
  // source's grouping; see "Block boundaries" in docs/format-docfiles.md).
  // InvalidArgument (nothing changes) if the block's codec is not this
  // writer's or the segment would pass 2^32 - 1 documents.
  absl::Status AddRawBlock(const RawDocBlock& block);
  // Flushes the last block, writes the index and both footers, closes both
  // files. Calling it again returns the first result.
  absl::Status Finish();

  std::vector<std::string> file_names() const { return {data_name_, index_name_}; }
  uint32_t num_docs() const { return num_docs_; }
  CompressionCodec codec() const { return codec_; }
  // Blocks written so far (raw ones included).
  size_t block_count() const { return blocks_.size(); }
  // Bytes held: the block in the making and the compression scratch.
  size_t buffered_bytes() const { return pending_.capacity() + compressed_.capacity(); }
  const absl::Status& status() const { return status_; }

 private:
  struct BlockEntry {
    uint32_t doc_count;
    uint64_t length;
  };
  DocBlockWriter() = default;
  void FlushBlock();
  absl::Status Fail(absl::Status status);

  std::string data_name_, index_name_;
  std::unique_ptr<IndexOutput> data_, index_;
  std::unique_ptr<BlockCompressor> compressor_;
  CompressionCodec codec_ = CompressionCodec::kNone;
  size_t block_bytes_ = 0;
  std::string pending_;  // the current block's documents, concatenated
  std::vector<uint32_t> pending_lengths_;
  std::string compressed_;  // scratch
  std::vector<BlockEntry> blocks_;
  uint32_t num_docs_ = 0;
  uint32_t max_block_bytes_ = 0;
  bool finished_ = false;
  absl::Status status_;
};

// Reads what DocBlockWriter wrote. See the top of this file for what Open
// validates and for thread safety.
class DocBlockReader {
 public:
  // Called with (i, bytes of document docs[i]); a non-OK result stops the read.
  using DocFn = absl::FunctionRef<absl::Status(size_t, std::span<const uint8_t>)>;

  // Opens the files of `segment_name`, which must hold `num_docs` documents.
  // kNotFound for a missing file, kDataLoss for corrupt or mismatched files,
  // kFailedPrecondition for an unsupported version.
  static absl::StatusOr<std::unique_ptr<DocBlockReader>> Open(
      Directory* dir, std::string_view segment_name, const SegmentId& id,
      const DocFileFormat& format, uint32_t num_docs, const DocFilesReaderOptions& options);

  // Calls fn(i, document docs[i]) for every i, in block order (input order
  // within a block). Decodes each needed block once, and prefetches every
  // block it must decode (even one: under MADV_RANDOM a cold block would fault
  // in page by page) before decoding the first. kOutOfRange (before any
  // call of fn) if a doc is >= num_docs(); kDataLoss for a corrupt block.
  absl::Status ReadDocuments(std::span<const uint32_t> docs, DocFn fn) const;

  // Block `block` as stored (REQUIRES: block < block_count()), its header
  // checked as a read checks it (first_doc and doc_count against the index,
  // the lengths against max_block_bytes, compressed_length against the
  // block's size); the compressed bytes are not looked at: a caller copying
  // them verifies the file's checksum first (CheckIntegrity). kDataLoss
  // naming the file and block otherwise.
  absl::StatusOr<RawDocBlock> RawBlock(size_t block) const;

  // Verifies the checksums of both files.
  absl::Status CheckIntegrity() const;

  uint32_t num_docs() const { return num_docs_; }
  size_t block_count() const { return block_offsets_.size() - 1; }
  // Documents of block b: [block_first_doc(b), block_first_doc(b + 1)).
  // REQUIRES: b <= block_count().
  uint32_t block_first_doc(size_t b) const { return first_docs_[b]; }
  CompressionCodec codec() const { return codec_; }
  const std::string& data_name() const { return data_name_; }
  // The data file's input (prefetch policy and counters). Not while other
  // threads read.
  IndexInput& data_input() { return data_; }
  const IndexInput& data_input() const { return data_; }

 private:
  struct DecodedBlock {
    size_t block = SIZE_MAX;            // SIZE_MAX: none
    std::span<const uint8_t> bytes;     // the documents, into buffer or the mapping
    std::unique_ptr<uint8_t[]> buffer;  // decompressed bytes (not for kNone)
    size_t capacity = 0;                // of buffer
    std::vector<uint32_t> starts;       // doc_count + 1 offsets into bytes
  };

  DocBlockReader(IndexInput data, IndexInput index)
      : data_(std::move(data)), index_(std::move(index)) {}
  absl::Status LoadIndex(uint32_t num_docs, uint64_t data_start, uint64_t data_end);
  size_t BlockOf(uint32_t doc) const;
  // Makes cache_ hold `block`. REQUIRES: mutex_ held.
  absl::Status DecodeBlock(size_t block) const;
  absl::Status Corrupt(size_t block, std::string_view what) const;

  std::string data_name_;
  CompressionCodec codec_ = CompressionCodec::kNone;
  uint32_t num_docs_ = 0;
  uint32_t max_block_bytes_ = 0;
  // block b holds docs [first_docs_[b], first_docs_[b + 1]) at data offsets
  // [block_offsets_[b], block_offsets_[b + 1]); one sentinel entry each.
  std::vector<uint32_t> first_docs_;
  std::vector<uint64_t> block_offsets_;

  mutable std::mutex mutex_;
  mutable IndexInput data_;  // guarded by mutex_ (Prefetch counts)
  IndexInput index_;
  mutable std::unique_ptr<BlockCompressor> decompressor_;  // guarded by mutex_
  mutable DecodedBlock cache_;                             // guarded by mutex_
};

}  // namespace internal

// One stored value of a document being written; `value` is any bytes.
struct StoredFieldValue {
  uint32_t field_number;
  std::string_view value;
};

struct StoredFieldsWriterOptions {
  // Block compression. kLz4 (default): cheapest to write and read, ~1.3x on
  // the sample corpus; kZstd: zstd level 1, ~1.8x at ~half LZ4's
  // decompression speed; kNone: stored as is. docs/codec-primitives.md.
  CompressionCodec codec = CompressionCodec::kLz4;
  // Target uncompressed bytes per block, 1 .. kMaxBlockBytesOption. Keep LZ4
  // blocks under 64 KiB (its hash table halves above). Larger blocks compress
  // better and cost more per random Document().
  size_t block_bytes = 60 * 1024;
};

// Writes <segment>.fdt and <segment>.fdx. Usage: Create, AddDocument per
// document in doc order, Finish. Sticky errors (see DocBlockWriter).
class StoredFieldsWriter {
 public:
  static absl::StatusOr<std::unique_ptr<StoredFieldsWriter>> Create(
      Directory* dir, std::string_view segment_name, const SegmentId& id,
      const StoredFieldsWriterOptions& options = {});

  // Adds the next document (number num_docs()) with `fields` in the given
  // order; a field number may repeat (multi-valued), and any bytes are fine.
  // InvalidArgument (nothing written) if the serialized document exceeds
  // kMaxDocumentBytes.
  absl::Status AddDocument(std::span<const StoredFieldValue> fields);
  absl::Status Finish();
  std::vector<std::string> file_names() const { return blocks_->file_names(); }
  uint32_t num_docs() const { return blocks_->num_docs(); }

  // ---- Copying from another segment (merges) without re-encoding

  // A document exactly as StoredFieldsReader::ReadSerialized gave it (the
  // "stored document" bytes); its field numbers must be this segment's.
  absl::Status AddSerializedDocument(std::span<const uint8_t> doc) {
    return blocks_->AddDocument(doc);
  }
  // A block from StoredFieldsReader::RawBlock (see DocBlockWriter::AddRawBlock).
  absl::Status AddRawBlock(const internal::RawDocBlock& block) {
    return blocks_->AddRawBlock(block);
  }
  CompressionCodec codec() const { return blocks_->codec(); }
  size_t block_count() const { return blocks_->block_count(); }
  size_t buffered_bytes() const { return blocks_->buffered_bytes() + scratch_.capacity(); }

 private:
  explicit StoredFieldsWriter(std::unique_ptr<internal::DocBlockWriter> blocks)
      : blocks_(std::move(blocks)) {}
  std::unique_ptr<internal::DocBlockWriter> blocks_;
  std::string scratch_;
};

// A stored value read back.
struct StoredField {
  uint32_t field_number;
  std::string value;
  bool operator==(const StoredField&) const = default;
};

class StoredFieldsReader {
 public:
  // Opens <segment>.fdt and <segment>.fdx, written for `num_docs` documents.
  static absl::StatusOr<std::unique_ptr<StoredFieldsReader>> Open(
      Directory* dir, std::string_view segment_name, const SegmentId& id, uint32_t num_docs,
      const DocFilesReaderOptions& options = {});

  // The fields of `doc` in the order they were added. kOutOfRange if doc >=
  // num_docs(), kDataLoss for corrupt data.
  absl::StatusOr<std::vector<StoredField>> Document(uint32_t doc) const;
  // The same for K documents at once (any order, repeats allowed): prefetches
  // every block needed, then decodes each block once. Result i is docs[i].
  absl::StatusOr<std::vector<std::vector<StoredField>>> Documents(
      std::span<const uint32_t> docs) const;

  // ---- Reading for a merge, without building strings

  // Calls fn(i, fields of docs[i]) for every i, block by block as
  // Documents(): the values are views into the decoded block, valid during
  // the call. Errors as Documents().
  using FieldsFn = absl::FunctionRef<absl::Status(size_t, std::span<const StoredFieldValue>)>;
  absl::Status VisitDocuments(std::span<const uint32_t> docs, FieldsFn fn) const;
  // Calls fn(i, the serialized bytes of docs[i]) (unparsed: for
  // StoredFieldsWriter::AddSerializedDocument after CheckIntegrity()).
  absl::Status ReadSerialized(std::span<const uint32_t> docs,
                              internal::DocBlockReader::DocFn fn) const {
    return blocks_->ReadDocuments(docs, fn);
  }
  // Block `b` as stored (internal::DocBlockReader::RawBlock).
  absl::StatusOr<internal::RawDocBlock> RawBlock(size_t b) const { return blocks_->RawBlock(b); }
  CompressionCodec codec() const { return blocks_->codec(); }
  uint32_t block_first_doc(size_t b) const { return blocks_->block_first_doc(b); }

  // Verifies the checksums of both files (reads them whole).
  absl::Status CheckIntegrity() const { return blocks_->CheckIntegrity(); }
  uint32_t num_docs() const { return blocks_->num_docs(); }
  size_t block_count() const { return blocks_->block_count(); }
  // The data file's input: prefetch policy and counters (not while other
  // threads read).
  IndexInput& data_input() { return blocks_->data_input(); }
  const IndexInput& data_input() const { return blocks_->data_input(); }

 private:
  explicit StoredFieldsReader(std::unique_ptr<internal::DocBlockReader> blocks)
      : blocks_(std::move(blocks)) {}
  std::unique_ptr<internal::DocBlockReader> blocks_;
};

}  // namespace invert

#endif  // INVERT_CODEC_STORED_FIELDS_FORMAT_H_

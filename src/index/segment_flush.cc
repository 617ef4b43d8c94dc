// FlushSegment: in-memory segment -> segment files.
#include "index/segment_flush.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <span>
#include <vector>

#include "codec/field_infos_format.h"
#include "codec/norms_format.h"
#include "codec/postings_format.h"
#include "codec/segment_files.h"
#include "codec/stored_fields_format.h"
#include "codec/term_vectors_format.h"
#include "index/in_memory_postings.h"
#include "invert/version.h"
#include "util/byte_slices.h"
#include "util/varint.h"

namespace invert {

namespace {

SegmentId RandomId() {
  static thread_local std::mt19937_64 rng = [] {
    std::random_device device;
    std::seed_seq seed{
        device(), device(), device(), device(),
        static_cast<unsigned>(std::chrono::steady_clock::now().time_since_epoch().count())};
    return std::mt19937_64(seed);
  }();
  SegmentId id;
  for (size_t i = 0; i < id.size(); i += 8) {
    const uint64_t word = rng();
    for (size_t j = 0; j < 8; ++j) id[i + j] = static_cast<uint8_t>(word >> (8 * j));
  }
  return id;
}

constexpr size_t kIndexIdPrefix = 8;

}  // namespace

SegmentId NewIndexId() { return RandomId(); }

SegmentId NewSegmentId(const SegmentId& index_id) {
  SegmentId id = RandomId();
  std::copy(index_id.begin(), index_id.begin() + kIndexIdPrefix, id.begin());
  return id;
}

bool SegmentBelongsToIndex(const SegmentId& segment_id, const SegmentId& index_id) {
  return std::equal(index_id.begin(), index_id.begin() + kIndexIdPrefix, segment_id.begin());
}

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

// Copies stream `stream` of term `term_id` to the start of *buffer (grown
// as needed, never shrunk; at least 256 bytes) and returns its length. A
// stream's slices hold 1 to 196 bytes each; decoding from one contiguous copy
// costs less than following the links value by value.
size_t CopyStream(const TermsHashPerField<PostingState>& terms, uint32_t term_id, int stream,
                  std::vector<uint8_t>* buffer) {
  const auto bounds = terms.Bounds(term_id, stream);
  const uint32_t length = bounds.end - bounds.start;
  if (length < kFirstSliceSize) {
    // In its first slice (a term seen once or twice; every uuid term):
    // one fixed copy of the slice's payload bytes, all in the slice.
    static_assert(kFirstSliceSize - 1 <= 256, "the buffers start at 256 bytes");
    std::memcpy(buffer->data(), terms.byte_pool().At(bounds.start), kFirstSliceSize - 1);
    return length;
  }
  SliceReader reader(&terms.byte_pool(), bounds.start, bounds.end);
  size_t n = 0;
  const uint8_t* data;
  while (size_t chunk = reader.NextChunk(&data)) {
    if (n + chunk > buffer->size()) buffer->resize(std::max(2 * buffer->size(), n + chunk));
    std::memcpy(buffer->data() + n, data, chunk);
    n += chunk;
  }
  return n;
}

// A VInt of a copied stream. The streams were written by this process: a
// short read is a bug.
inline uint32_t ReadStreamVInt(const uint8_t** p, const uint8_t* end) {
  if (*p != end && **p < 0x80) return *(*p)++;
  uint32_t value;
  if (!DecodeVInt32(p, end, &value)) std::abort();
  return value;
}

// Appends the code(s) of a term's pending last doc, as
// PostingsWriterPerField::FlushPendingDoc would write them, after the
// `length` bytes of its doc stream copied into *buffer; returns the new
// length. The stream plus these bytes are the term's .doc tail when all of
// its docs go to the tail (PostingsWriter::FinishTerm copies it then). Out
// of line: inlined, it made GCC stop inlining the flush's position loop.
__attribute__((noinline)) size_t AppendPendingDoc(const PostingState& state, bool freqs,
                                                  size_t length, std::vector<uint8_t>* buffer) {
  if (length + 2 * kMaxVInt32Bytes > buffer->size()) {
    buffer->resize(2 * buffer->size() + 2 * kMaxVInt32Bytes);
  }
  uint8_t* const start = buffer->data() + length;
  uint8_t* out = start;
  if (!freqs) {
    out += EncodeVInt(state.last_doc_code, out);
  } else if (state.term_freq == 1) {
    out += EncodeVInt(state.last_doc_code | 1, out);
  } else {
    out += EncodeVInt(state.last_doc_code, out);
    out += EncodeVInt(state.term_freq, out);
  }
  return length + static_cast<size_t>(out - start);
}

// Writes everything but the segment info; appends each created file to *files.
absl::Status WriteFiles(IndexingChain& chain, Directory* dir, std::string_view segment,
                        const SegmentId& id, std::vector<std::string>* files, FlushStats* stats) {
  const FieldInfos& infos = chain.field_infos();
  std::vector<FieldInfo> fields(infos.all().begin(), infos.all().begin() + infos.size());
  absl::StatusOr<std::string> fnm = WriteFieldInfos(dir, segment, id, fields);
  if (!fnm.ok()) return fnm.status();
  files->push_back(*fnm);

  // Postings, field by field.
  absl::StatusOr<std::unique_ptr<PostingsWriter>> postings =
      PostingsWriter::Create(dir, segment, id);
  if (!postings.ok()) return postings.status();
  for (const std::string& name : (*postings)->file_names()) files->push_back(name);
  PostingsWriter& pw = **postings;
  std::vector<uint8_t> has_field(chain.num_docs());
  std::vector<uint8_t> doc_bytes(256);  // a term's streams, copied (CopyStream)
  std::vector<uint8_t> prox_bytes(256);
  // The field's norm of each document, for the postings' impacts (1 for
  // every document of a field without norms).
  std::vector<uint8_t> norms(chain.num_docs());
  for (const FieldInfo& field : fields) {
    const PostingsWriterPerField* p = chain.postings(field.number);
    if (p == nullptr || p->terms().size() == 0) continue;
    const auto sort_start = Clock::now();
    const std::vector<uint32_t> ids = chain.SortTermIdsForFlush(field.number);
    const auto write_start = Clock::now();
    if (stats != nullptr)
      stats->sort_seconds += std::chrono::duration<double>(write_start - sort_start).count();
    std::fill(has_field.begin(), has_field.end(), 0);
    uint32_t doc_count = 0;
    const bool freqs = HasFreqs(field.type.index_options);
    const bool positions = HasPositions(field.type.index_options);
    const bool offsets = HasOffsets(field.type.index_options);
    for (uint32_t doc = 0; doc < chain.num_docs(); ++doc) {
      norms[doc] = field.type.has_norms() ? chain.norm(field.number, doc) : 1;
    }
    auto add_doc = [&](uint32_t doc, uint32_t freq) {
      pw.AddDoc(doc, freq, norms[doc]);
      doc_count += has_field[doc] ^ 1;
      has_field[doc] = 1;
    };
    pw.StartField(field);
    // Read-ahead over the terms in sorted order, which is not the order
    // their records and streams were written in (TermsHashPerField's
    // PrefetchRecord / PrefetchTermData): the record kRecordAhead terms
    // ahead, the rest kDataAhead ahead, so that the misses of several terms
    // overlap instead of queueing one after the other.
    constexpr size_t kRecordAhead = 16;
    constexpr size_t kDataAhead = 8;
    const auto& field_terms = p->terms();
    for (size_t n = 0; n < ids.size(); ++n) {
      if (n + kRecordAhead < ids.size()) field_terms.PrefetchRecord(ids[n + kRecordAhead]);
      if (n + kDataAhead < ids.size()) field_terms.PrefetchTermData(ids[n + kDataAhead]);
      const uint32_t term_id = ids[n];
      pw.StartTerm();
      if (p->has_payloads()) {
        InMemoryPostingsIterator it(*p, term_id);
        while (it.NextDoc()) {
          add_doc(it.doc(), it.freq());
          for (uint32_t i = 0; i < it.freq(); ++i) {
            it.NextPosition();
            pw.AddPosition(it.position(), it.start_offset(), it.end_offset(), it.payload());
          }
        }
      } else {
        // Without payloads every stored delta is what the postings writer
        // stores: feed them as they are (AddPositionDeltas), from contiguous
        // copies of the streams. And the position stream is the .pos tail's
        // bytes (postings_writer_per_field.h): when the term cannot fill a
        // doc block, its docs go first and only the positions that fill
        // whole position blocks are decoded; the rest of the stream is
        // handed over as the tail. A term of 127 docs or more (it may fill a
        // doc block, whose skip entry records where its positions stand)
        // adds each doc's positions after it.
        const auto& terms = p->terms();
        const size_t doc_length =
            CopyStream(terms, term_id, PostingsWriterPerField::kDocStream, &doc_bytes);
        const size_t prox_length =
            positions
                ? CopyStream(terms, term_id, PostingsWriterPerField::kPositionStream, &prox_bytes)
                : 0;
        const uint8_t* d = doc_bytes.data();
        const uint8_t* const d_end = d + doc_length;
        const uint8_t* x = prox_bytes.data();
        const uint8_t* const x_end = x + prox_length;
        auto add_positions = [&](uint32_t freq) {
          for (uint32_t i = 0; i < freq; ++i) {
            const uint32_t position_delta = ReadStreamVInt(&x, x_end);
            uint32_t start_delta = 0;
            uint32_t length = 0;
            if (offsets) {
              start_delta = ReadStreamVInt(&x, x_end);
              length = ReadStreamVInt(&x, x_end);
            }
            pw.AddPositionDeltas(position_delta, {}, start_delta, length);
          }
        };
        // The stream's docs, then the term's last doc, still pending in its
        // state: one loop, so that each lambda has one call site (GCC
        // inlines those; with two it left add_positions out of line).
        const PostingState& state = terms.state(term_id);
        // Each doc of the stream takes at least one byte; the pending doc
        // is one more.
        const bool positions_last = positions && doc_length + 1 < kForBlockSize;
        uint32_t total_freq = 0;
        uint32_t doc = 0;
        for (bool pending = false; !pending;) {
          uint32_t freq = 1;
          if (d == d_end) {
            pending = true;
            doc = state.last_doc_id;
            if (freqs) freq = state.term_freq;
          } else {
            const uint32_t code = ReadStreamVInt(&d, d_end);
            if (!freqs) {
              doc += code;
            } else {
              doc += code >> 1;
              if ((code & 1) == 0) freq = ReadStreamVInt(&d, d_end);
            }
          }
          add_doc(doc, freq);
          total_freq += freq;
          // One call site for add_positions, so that it is inlined.
          const uint32_t to_add = !positions_last ? freq
                                  : pending       ? total_freq - total_freq % kForBlockSize
                                                  : 0;
          if (positions && to_add > 0) add_positions(to_add);
        }
        const std::span<const uint8_t> pos_tail(x, x_end);
        if (!positions_last && x != x_end) std::abort();  // written by this process: a bug
        // A singleton's doc goes to the dictionary: no tail to hand over.
        const std::span<const uint8_t> doc_tail =
            doc_length == 0
                ? std::span<const uint8_t>()
                : std::span<const uint8_t>(doc_bytes.data(),
                                           AppendPendingDoc(state, freqs, doc_length, &doc_bytes));
        if (absl::Status s = pw.FinishTerm(terms.term(term_id), doc_tail,
                                           positions_last ? pos_tail : std::span<const uint8_t>());
            !s.ok())
          return s;
        continue;
      }
      if (absl::Status s = pw.FinishTerm(p->terms().term(term_id)); !s.ok()) return s;
    }
    if (stats != nullptr) {
      stats->terms += ids.size();
      stats->write_seconds += Seconds(write_start);
    }
    if (absl::Status s = pw.FinishField(doc_count); !s.ok()) return s;
  }
  if (absl::Status s = pw.Finish(); !s.ok()) return s;

  // Norms.
  std::vector<uint32_t> norm_fields;
  for (const FieldInfo& field : fields) {
    if (field.type.has_norms()) norm_fields.push_back(field.number);
  }
  absl::StatusOr<std::string> nvd =
      WriteNorms(dir, segment, id, chain.num_docs(), norm_fields,
                 [&chain](uint32_t field, uint32_t doc) { return chain.norm(field, doc); });
  if (!nvd.ok()) return nvd.status();
  files->push_back(*nvd);

  // Stored fields.
  absl::StatusOr<std::unique_ptr<StoredFieldsWriter>> stored =
      StoredFieldsWriter::Create(dir, segment, id);
  if (!stored.ok()) return stored.status();
  for (const std::string& name : (*stored)->file_names()) files->push_back(name);
  std::vector<StoredFieldValue> values;
  for (uint32_t doc = 0; doc < chain.num_docs(); ++doc) {
    values.clear();
    for (const BufferedStoredValue& v : chain.StoredFields(doc))
      values.push_back({v.field_number, v.value});
    if (absl::Status s = (*stored)->AddDocument(values); !s.ok()) return s;
  }
  if (absl::Status s = (*stored)->Finish(); !s.ok()) return s;

  // Term vectors.
  absl::StatusOr<std::unique_ptr<TermVectorsWriter>> vectors =
      TermVectorsWriter::Create(dir, segment, id);
  if (!vectors.ok()) return vectors.status();
  for (const std::string& name : (*vectors)->file_names()) files->push_back(name);
  std::vector<TermVectorFieldData> doc_vectors;
  for (uint32_t doc = 0; doc < chain.num_docs(); ++doc) {
    doc_vectors.clear();
    for (BufferedVectorField& f : chain.TermVectors(doc)) {
      const FieldType& type = fields[f.field_number].type;
      TermVectorFieldData data;
      data.field_number = f.field_number;
      data.has_positions = type.term_vector_positions;
      data.has_offsets = type.term_vector_offsets;
      data.has_payloads = type.term_vector_payloads;
      data.terms.reserve(f.terms.size());
      for (BufferedVectorTerm& t : f.terms) {
        data.terms.push_back(TermVectorTermData{std::string(t.term), t.freq, std::move(t.positions),
                                                std::move(t.start_offsets),
                                                std::move(t.end_offsets), std::move(t.payloads)});
      }
      doc_vectors.push_back(std::move(data));
    }
    if (absl::Status s = (*vectors)->AddDocument(doc_vectors); !s.ok()) return s;
  }
  return (*vectors)->Finish();
}

}  // namespace

absl::StatusOr<SegmentInfo> FlushSegment(IndexingChain& chain, Directory* dir,
                                         std::string_view segment_name, FlushStats* stats,
                                         const SegmentId& index_id) {
  SegmentInfo info;
  info.name = std::string(segment_name);
  info.id = NewSegmentId(index_id);
  info.doc_count = chain.num_docs();
  info.term_bytes_layout = std::string(TermBytesLayoutName(chain.layout()));
  info.created_by = std::string("invert ") + Version();
  std::vector<std::string> files;
  absl::Status status = WriteFiles(chain, dir, segment_name, info.id, &files, stats);
  if (status.ok()) {
    for (const std::string& f : files) info.files.push_back(SegmentFile{f, 0, 0});
    absl::StatusOr<std::string> si = WriteSegmentInfo(dir, &info);
    if (si.ok()) {
      files.push_back(*si);
      status = dir->Sync(files);
    } else {
      status = si.status();
      // A .si that exists already is not ours to delete.
      if (!absl::IsAlreadyExists(status)) files.push_back(SegmentFileName(segment_name, "si"));
    }
  }
  if (!status.ok()) {
    for (const std::string& f : files) (void)dir->DeleteFile(f);
    return status;
  }
  if (stats != nullptr) {
    for (const SegmentFile& f : info.files) stats->bytes_written += f.length;
  }
  return info;
}

}  // namespace invert

// IndexingChain: the in-memory segment one indexing thread fills. It takes
// documents, analyzes and validates each one whole, then inverts it into
// postings (primary TermsHash), term vectors (chained TermsHash), norms and
// stored fields, all held in pools and counted arrays whose every byte is on
// the chain's RamCounter. The read-back methods at the bottom are what a flush
// (and the tests) read the segment through.
//
// Documents are atomic: AddDocument() runs in two phases.
//   1. Resolve every field's type (new fields stay pending), analyze every
//      value into one reused TokenBuffer, and check everything that can fail:
//      invalid UTF-8, a term longer than 32,766 bytes, a position past
//      kMaxPosition, a first position increment of 0, offsets that go
//      backwards or overflow, a conflicting or invalid field type, a segment
//      too full to take the document. Nothing in the segment changes.
//   2. Commit the pending fields and invert. Nothing in this phase can fail
//      (short of running out of memory, which aborts the segment).
// A failed document therefore leaves the segment exactly as it was.
//
// Positions: a field's first token lands on position (increment - 1); each
// further value of a multi-valued field continues at the last position +
// position_increment_gap. Offsets of a further value are shifted by the end
// of the previous value (its length, or its largest end offset for tokens)
// plus offset_gap.
//
// Thread safety: none; one chain per indexing thread.
#ifndef INVERT_INDEX_INDEXING_CHAIN_H_
#define INVERT_INDEX_INDEXING_CHAIN_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "index/field_infos.h"
#include "index/postings_writer_per_field.h"
#include "index/term_vectors_writer_per_field.h"
#include "index/terms_hash.h"
#include "invert/analysis.h"
#include "invert/document.h"
#include "invert/term_bytes_layout.h"
#include "invert/token_buffer.h"
#include "util/block_allocator.h"
#include "util/counted_array.h"
#include "util/ram_counter.h"

namespace invert {

using AnalyzerFactory = std::function<std::unique_ptr<Analyzer>()>;

struct IndexingChainOptions {
  // Where term bytes live (docs/benchmarks.md has the measurements).
  TermBytesLayout layout = TermBytesLayout::kSeparate;
  // Analyzer for tokenized text fields: the standard analyzer by default.
  AnalyzerFactory analyzer;
  // Per-field analyzers, overriding `analyzer`.
  absl::flat_hash_map<std::string, AnalyzerFactory> field_analyzers;
  // Positions skipped between the values of a multi-valued field.
  uint32_t position_increment_gap = 0;
  // Offsets skipped between the values of a multi-valued field.
  uint32_t offset_gap = 1;
  // Freed pool blocks kept for reuse (per-document term-vector resets).
  size_t recycled_blocks = 64;
};

// One document's term vector for one field, decoded.
struct TermVectorTerm {
  std::string_view term;
  uint32_t freq;
  std::vector<uint32_t> positions;      // empty unless positions are recorded
  std::vector<uint32_t> start_offsets;  // empty unless offsets are recorded
  std::vector<uint32_t> end_offsets;
  std::vector<std::string> payloads;  // empty unless payloads are recorded
};
struct TermVectorField {
  uint32_t field_number;
  std::vector<TermVectorTerm> terms;  // in term byte order
};

struct StoredValue {
  uint32_t field_number;
  std::string_view value;
};

class IndexingChain {
 public:
  // Largest position a token may have (as Lucene: 2^31 - 1 - 128).
  static constexpr uint32_t kMaxPosition = INT32_MAX - 128;
  // A pool address must stay below this for a document to be accepted; the
  // writer flushes long before (pools address at most 4 GiB).
  static constexpr uint32_t kMaxPoolAddress = 0xE0000000u;

  // `parent` (may be null) also receives every byte this chain counts.
  explicit IndexingChain(IndexingChainOptions options, RamCounter* parent = nullptr);
  ~IndexingChain();
  IndexingChain(const IndexingChain&) = delete;
  IndexingChain& operator=(const IndexingChain&) = delete;

  // Adds `doc` as document num_docs(), or fails leaving the segment as if it
  // had never been called.
  absl::Status AddDocument(const Document& doc);

  uint32_t num_docs() const { return num_docs_; }
  // Exact bytes held by the segment: pool blocks, hash tables, per-term
  // records, norms, stored fields and term vectors.
  int64_t ram_bytes_used() const { return counter_.bytes(); }
  const FieldInfos& field_infos() const { return field_infos_; }
  // Unique terms of an indexed field so far (0 for unknown or unindexed).
  uint32_t unique_terms(std::string_view field) const;
  TermBytesLayout layout() const { return options_.layout; }

  // ---- Read-back view (flush and tests) ----

  // The postings of field `number`, or null if it is not inverted.
  const PostingsWriterPerField* postings(uint32_t number) const;
  // Term ids of field `number` in term order, without disturbing the hash.
  std::vector<uint32_t> SortedTermIds(uint32_t number) const;
  // The same, sorting in place with the radix sort: faster, but afterwards
  // the field takes no more terms (a flush).
  std::vector<uint32_t> SortTermIdsForFlush(uint32_t number);
  // Norm byte of field `number` in document `doc` (0 if absent or no norms).
  uint8_t norm(uint32_t number, uint32_t doc) const;
  // Stored values of `doc`, in document order.
  std::vector<StoredValue> StoredFields(uint32_t doc) const;
  // Term vectors of `doc`, by field number.
  std::vector<TermVectorField> TermVectors(uint32_t doc) const;
  // Raw serialized term vectors of `doc` (format in
  // term_vectors_writer_per_field.h); terms are entry addresses into
  // term_pool().
  std::string_view RawTermVectors(uint32_t doc) const;
  const ByteBlockPool& term_pool() const { return primary_->term_byte_pool(); }

  // A canonical text dump of everything in the segment (fields, terms,
  // postings, norms, stored fields, term vectors): two chains hold the same
  // data iff their dumps are equal. For tests and debugging.
  std::string DebugDump() const;

 private:
  struct PerField;
  struct DocField;
  struct TokenPlacement {
    uint32_t position;
    uint32_t start_offset;
    uint32_t end_offset;
  };

  absl::Status Prepare(const Document& doc);
  absl::Status AnalyzeField(DocField& df, const FieldType& type, std::string_view name);
  void Invert();
  PerField& GetOrCreatePerField(uint32_t number);
  Analyzer* AnalyzerFor(std::string_view field);

  IndexingChainOptions options_;
  RamCounter counter_;
  BlockAllocator allocator_;
  std::unique_ptr<TermsHash> primary_;
  std::unique_ptr<TermsHash> vectors_;
  FieldInfos field_infos_;
  std::vector<std::unique_ptr<PerField>> fields_;  // by field number
  absl::flat_hash_map<std::string, std::unique_ptr<Analyzer>> analyzers_;
  std::unique_ptr<Analyzer> keyword_analyzer_;
  uint32_t num_docs_ = 0;

  // Stored fields: per doc, VInt count, then (VInt field, VInt length, bytes).
  CountedArray<uint8_t> stored_bytes_;
  CountedArray<uint64_t> stored_starts_;
  // Term vectors: per doc, VInt field count, then field entries.
  CountedArray<uint8_t> vector_bytes_;
  CountedArray<uint64_t> vector_starts_;

  // Per-document scratch, reused.
  std::vector<DocField> doc_fields_;
  absl::flat_hash_map<uint32_t, size_t> doc_field_index_;
  TokenBuffer tokens_;
  std::vector<TokenPlacement> placements_;
  std::vector<InvertedToken> inverted_;
  std::vector<uint32_t> term_ids_;
  std::vector<StoredValue> stored_scratch_;
};

}  // namespace invert

#endif  // INVERT_INDEX_INDEXING_CHAIN_H_

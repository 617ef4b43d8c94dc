// IndexingChain: the in-memory segment one indexing thread fills. It takes
// documents, analyzes and validates each one whole, then inverts it into
// postings (primary TermsHash), term vectors (chained TermsHash), norms and
// stored fields, all held in pools and counted arrays. The read-back methods
// at the bottom are what a flush (and the tests) read the segment through.
//
// Documents are atomic: AddDocument() runs in two phases.
//   1. Prepare. Resolve every field's type (new fields stay pending), analyze
//      every text value into one reused TokenBuffer (pre-analyzed values are
//      read in place, never copied), and check everything that can
//      fail: invalid UTF-8, a term longer than 32,766 bytes, a position past
//      kMaxPosition, a first position increment of 0, offsets that go
//      backwards or overflow, a conflicting or invalid field type, a document
//      over max_document_bytes, a segment too full (or a RAM buffer too close
//      to its limit) to take the document, and last the index-wide schema.
//      Nothing in the segment changes.
//   2. Invert. Commit the pending fields and invert, in chunks of
//      kInvertChunk tokens. Nothing in this phase can fail short of running
//      out of memory, which breaks the chain (see AddDocument).
// A failed document therefore leaves the segment exactly as it was.
//
// Memory accounting: every byte the chain holds for the segment (pool
// blocks, hash tables, per-term records, norms, stored fields, term vectors)
// and for the document in hand (the per-document scratch: tokens, the field
// list, stored-value list, inversion chunk) is on the chain's RamCounter:
// ram_bytes_used() is what the chain holds, exactly, apart from per-field
// objects, field infos and the analyzers' own buffers (each a few hundred
// bytes, not per token). Pools and arrays count as they allocate; scratch is
// counted by deltas after each phase (never per token). A document whose
// scratch exceeds kRetainedScratchBytes releases it afterwards, so one huge
// document does not pin its memory; smaller scratch is kept for reuse.
//
// Per-document memory: a document's own memory is its scratch plus a bound
// on what it adds to the pools and arrays (EstimateGrowth in the .cc spells
// it out): first from its token counts alone (O(fields)), and only if that
// is over the limit or the headroom, from its counted distinct and new
// terms (a hash and a sort per token; the hashes count as scratch while
// held). With max_document_bytes set, the TokenBuffer is capped while
// analyzing, so a document far over the limit is rejected without ever
// holding much more than the limit. Pre-analyzed tokens are charged against
// the same cap as if they were in the buffer (32 bytes each plus their term
// and payload bytes): the caller holds them, but the limit means the same
// whichever way a document's tokens come.
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
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "analysis/limited_token_buffer.h"
#include "index/field_infos.h"
#include "index/index_schema.h"
#include "index/postings_writer_per_field.h"
#include "index/term_vectors_writer_per_field.h"
#include "index/terms_hash.h"
#include "invert/analysis.h"
#include "invert/document.h"
#include "invert/term_bytes_layout.h"
#include "util/block_allocator.h"
#include "util/counted_array.h"
#include "util/ram_counter.h"

namespace invert {

struct IndexingChainOptions {
  // Where term bytes live (docs/benchmarks.md has the measurements).
  TermBytesLayout layout = kDefaultTermBytesLayout;
  // Analyzer for tokenized text fields: the standard analyzer by default.
  AnalyzerFactory analyzer;
  // Per-field analyzers, overriding `analyzer`.
  std::map<std::string, AnalyzerFactory, std::less<>> field_analyzers;
  // Positions skipped between the values of a multi-valued field.
  uint32_t position_increment_gap = 0;
  // Offsets skipped between the values of a multi-valued field.
  uint32_t offset_gap = 1;
  // Freed pool blocks kept for reuse (per-document term-vector resets).
  size_t recycled_blocks = 64;
  // Where the chain's pool blocks go when it is destroyed (after a flush)
  // and where it takes blocks from first: the same thread's next chain
  // reuses them instead of fresh pages (block_allocator.h, contract 4). Null:
  // blocks go back to the system. Must outlive the chain.
  BlockCache* block_cache = nullptr;
  // The index-wide schema (the writer's), or null for a chain on its own. A
  // document's fields new to this chain are registered there as the last
  // step of validation: a conflict with another chain's (or an earlier
  // commit's) type rejects the document. Must outlive the chain.
  IndexSchema* schema = nullptr;
  // The most memory one document may take while it is indexed, in bytes: its
  // scratch (tokens, ...) plus a bound on what it adds to the pools and
  // arrays. A document that needs more is rejected with kInvalidArgument
  // before it holds much more than this (see AddDocument). 0 (default):
  // unlimited.
  int64_t max_document_bytes = 0;
  // Said right after the limit in that rejection message, e.g. "(half of
  // each thread's share of the RAM buffer)"; empty: nothing.
  std::string max_document_bytes_note;
};

// One document's term vector for one field, decoded.
struct BufferedVectorTerm {
  std::string_view term;
  uint32_t freq;
  std::vector<uint32_t> positions;      // empty unless positions are recorded
  std::vector<uint32_t> start_offsets;  // empty unless offsets are recorded
  std::vector<uint32_t> end_offsets;
  std::vector<std::string> payloads;  // empty unless payloads are recorded
};
struct BufferedVectorField {
  uint32_t field_number;
  std::vector<BufferedVectorTerm> terms;  // in term byte order
};

struct BufferedStoredValue {
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
  // Scratch above this is released after the document (and counted off).
  // 1 MiB holds the tokens of ~25,000-token documents, far above the usual,
  // so ordinary documents reuse their scratch and allocate nothing.
  static constexpr int64_t kRetainedScratchBytes = int64_t{1} << 20;
  // Tokens inverted per PostingsWriterPerField::AddTokens call: the
  // InvertedToken chunk is 48 KiB, L2-resident, instead of 48 bytes per
  // token of the whole document.
  static constexpr size_t kInvertChunk = 1024;

  // `parent` (may be null) also receives every byte this chain counts.
  explicit IndexingChain(IndexingChainOptions options, RamCounter* parent = nullptr);
  ~IndexingChain();
  IndexingChain(const IndexingChain&) = delete;
  IndexingChain& operator=(const IndexingChain&) = delete;

  // Adds `doc` as document num_docs(), or fails leaving the segment as if it
  // had never been called (DebugDump() unchanged). Never throws.
  //
  // `ram_headroom` is how many more bytes the caller's RAM buffer can take.
  // Errors:
  //   kInvalidArgument   bad input (see the top comment), or the document
  //                      needs more than options.max_document_bytes; the
  //                      message names the field and the numbers.
  //   kResourceExhausted the segment cannot take the document now: it holds
  //                      the maximum number of documents or its pools are
  //                      near 4 GiB; or num_docs() > 0 and the document's
  //                      estimated growth of ram_bytes_used() (its scratch
  //                      growth plus the bound on what it adds, including
  //                      array reallocations it triggers) exceeds
  //                      `ram_headroom` ("in-memory segment full: flush, then
  //                      add the document again"); or memory ran out during
  //                      phase 1 (std::bad_alloc or any other exception,
  //                      caught): the scratch is released and nothing was
  //                      added. With num_docs() == 0 the headroom is not
  //                      checked: the document goes in.
  //   kAborted           memory ran out during phase 2 (inversion), which
  //                      cannot be undone: the chain is broken() and every
  //                      later AddDocument() returns kAborted. Its documents
  //                      are lost: a broken chain must not be flushed or read
  //                      back, only destroyed.
  absl::Status AddDocument(const Document& doc, int64_t ram_headroom = INT64_MAX);

  // Returns true iff an inversion failed half-way (see AddDocument).
  bool broken() const { return broken_; }

  uint32_t num_docs() const { return num_docs_; }
  // Exact bytes held: the segment's pool blocks, hash tables, per-term
  // records, norms, stored fields and term vectors, plus the per-document
  // scratch (see the top comment).
  int64_t ram_bytes_used() const { return counter_.bytes(); }
  // The per-document scratch part of ram_bytes_used().
  int64_t scratch_bytes() const { return counted_scratch_; }
  // The most scratch held at once since construction (sampled after each
  // phase, which is when it peaks).
  int64_t peak_scratch_bytes() const { return peak_scratch_; }
  // ram_bytes_used() recomputed from the structures themselves (pool block
  // counts, table and array capacities, scratch capacities), not from the
  // counter: the two are equal. O(fields); for tests and debugging.
  int64_t RecomputeRamBytes() const;
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
  std::vector<BufferedStoredValue> StoredFields(uint32_t doc) const;
  // Term vectors of `doc`, by field number.
  std::vector<BufferedVectorField> TermVectors(uint32_t doc) const;
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
  struct Growth;

  absl::Status Prepare(const Document& doc, int64_t ram_headroom, int64_t scratch_at_start);
  absl::Status AnalyzeField(DocField& df, const FieldType& type, std::string_view name);
  // What the document in hand adds to the pools and arrays; with
  // `exact_terms` the number of its new and distinct terms is counted (one
  // hash probe per token) instead of bounded by its token count.
  Growth EstimateGrowth(bool exact_terms);
  [[gnu::cold, gnu::noinline]] void CountTerms(const DocField& df, const PerField* pf,
                                               uint64_t* distinct, uint64_t* new_terms,
                                               uint64_t* new_term_bytes);
  // Term `i` of `df` (numbered across its values). Cold: a search per call.
  std::string_view TermOf(const DocField& df, size_t i) const;
  // Charges `tokens` pre-analyzed tokens with `bytes` of terms and payloads
  // against the per-document limit as if they were in tokens_ (kBytesPerToken
  // each, plus their bytes), so that the limit means the same however a
  // document's tokens come, and lowers tokens_' limit to what is left.
  absl::Status ChargePreAnalyzed(size_t tokens, uint64_t bytes, std::string_view name,
                                 const DocField& df);
  // The document's tokens as the limit counts them: those in tokens_ (their
  // bytes and bookkeeping, not the buffer's spare room) plus the charge.
  uint64_t TokenBytesWithCharge() const;
  [[gnu::cold, gnu::noinline]] absl::Status DocumentTooLarge(int64_t needed, std::string_view field,
                                                             size_t tokens, bool so_far) const;
  void Invert();
  void InvertField(const DocField& df, PerField& pf, uint32_t doc);
  PerField& GetOrCreatePerField(uint32_t number);
  Analyzer* AnalyzerFor(std::string_view field);
  // Bytes of scratch held now, from the containers' capacities.
  int64_t ScratchBytesNow() const;
  // Brings the counter's scratch share up to date.
  void SyncScratch() noexcept;
  // Frees all scratch memory (noexcept; SyncScratch() after).
  void ReleaseScratch() noexcept;
  // After a document: releases scratch above kRetainedScratchBytes, syncs.
  void FinishScratch() noexcept;

  IndexingChainOptions options_;
  RamCounter counter_;
  BlockAllocator allocator_;
  std::unique_ptr<TermsHash> primary_;
  std::unique_ptr<TermsHash> vectors_;
  FieldInfos field_infos_;
  std::vector<std::unique_ptr<PerField>> fields_;  // by field number
  // Node map: its insert is exception-safe (see FieldInfos::by_name_).
  std::map<std::string, std::unique_ptr<Analyzer>, std::less<>> analyzers_;
  std::unique_ptr<Analyzer> keyword_analyzer_;
  uint32_t num_docs_ = 0;
  bool broken_ = false;
  // Made at construction, so that reporting running out of memory does not
  // need memory.
  absl::Status analyze_oom_;
  absl::Status broken_status_;

  // Stored fields: per doc, VInt count, then (VInt field, VInt length, bytes).
  CountedArray<uint8_t> stored_bytes_;
  CountedArray<uint64_t> stored_starts_;
  // Term vectors: per doc, VInt field count, then field entries.
  CountedArray<uint8_t> vector_bytes_;
  CountedArray<uint64_t> vector_starts_;

  // Per-document scratch, reused; its capacity is on counter_ (as
  // counted_scratch_) after each phase.
  std::vector<DocField> doc_fields_;
  std::vector<int32_t> doc_field_index_;  // by field number: into doc_fields_, or -1
  LimitedTokenBuffer tokens_;         // text values' tokens (pre-analyzed ones are read in place)
  size_t tokens_limit_ = SIZE_MAX;    // for tokens_ and the pre-analyzed charge together
  uint64_t pre_analyzed_charge_ = 0;  // this document's, see ChargePreAnalyzed
  std::vector<InvertedToken> inverted_;  // one chunk
  std::vector<uint32_t> term_ids_;       // one chunk, for term vectors
  std::vector<BufferedStoredValue> stored_scratch_;
  std::vector<IndexSchema::NewField> new_fields_;
  // EstimateGrowth(true): (term hash, token index) of one field's tokens.
  std::vector<std::pair<uint64_t, size_t>> term_hashes_;
  int64_t counted_scratch_ = 0;
  int64_t peak_scratch_ = 0;
};

}  // namespace invert

#endif  // INVERT_INDEX_INDEXING_CHAIN_H_

// Weight: a query resolved against one index: its fields checked, its
// index-wide statistics read and its BM25 weights fixed (boosts multiplied
// in). It makes a DocScorer per segment. Immutable: one Weight serves every
// search thread.
//
// CreateWeight rewrites as Lucene 8.8 does where it matters for matching or
// scores: a phrase of one term is a term query, an empty phrase and an
// empty boolean query match nothing.
#ifndef INVERT_SEARCH_WEIGHT_H_
#define INVERT_SEARCH_WEIGHT_H_

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "invert/index_reader.h"
#include "invert/leaf_reader.h"
#include "invert/search.h"
#include "search/bm25.h"
#include "search/doc_scorer.h"

namespace invert::search_internal {

class Weight {
 public:
  virtual ~Weight() = default;
  // A cursor over the segment's matches; null when it has none.
  virtual absl::StatusOr<std::unique_ptr<DocScorer>> MakeScorer(const LeafReader& leaf) const = 0;
  // What the query is (Lucene's query string), for explanations.
  virtual std::string Describe() const = 0;
};

// `boost`: the product of the parents' boosts.
absl::StatusOr<std::unique_ptr<Weight>> CreateWeight(const IndexReader& reader, const Query& query,
                                                     const Bm25Params& params, float boost = 1.0f);

// The BM25 part shared by term and phrase weights: the scorer and what
// Explain prints about it.
struct Bm25Part {
  Bm25Part(float boost, double idf, const Bm25FieldStats& stats, const Bm25Params& params,
           bool norms, Explanation idf_explanation);
  // A document's norm byte (1 for a field without norms, as Lucene).
  absl::StatusOr<uint8_t> Norm(const LeafReader& leaf, const std::string& field,
                               uint32_t doc) const;
  // The segment's norm bytes of `field`, one per document, when `leaf` is
  // invert's own and the field has norms there (Norm(doc) is then
  // bytes[doc], read without Norm's field lookups); empty otherwise.
  std::span<const uint8_t> NormBytes(const LeafReader& leaf, const std::string& field) const;
  Explanation Explain(float score, float freq, std::string_view freq_name, uint8_t norm) const;

  Bm25Scorer scorer;
  float boost;
  Bm25Params params;
  bool norms;
  Explanation idf;
};

// Explanation of one term's idf.
Explanation IdfExplanation(uint64_t doc_freq, uint64_t doc_count);

// The per-kind weights (term_scorer.cc, phrase_scorer.cc,
// constant_scorer.cc, boolean_scorer.cc).
std::unique_ptr<Weight> NewTermWeight(std::string field, std::string term, FieldType type,
                                      std::unique_ptr<Bm25Part> sim, std::string description);
std::unique_ptr<Weight> NewPhraseWeight(std::string field, std::vector<std::string> terms,
                                        std::vector<int32_t> offsets, uint32_t slop,
                                        std::unique_ptr<Bm25Part> sim, std::string description);
std::unique_ptr<Weight> NewPrefixWeight(std::string field, std::string prefix, float score,
                                        std::string description);
std::unique_ptr<Weight> NewMatchAllWeight(float score, std::string description);
std::unique_ptr<Weight> NewMatchNoneWeight(std::string description);

struct BooleanWeights {
  std::vector<std::unique_ptr<Weight>> must, should, must_not, filter;
  uint32_t minimum_should_match = 0;
};
std::unique_ptr<Weight> NewBooleanWeight(BooleanWeights clauses, std::string description);

}  // namespace invert::search_internal

#endif  // INVERT_SEARCH_WEIGHT_H_

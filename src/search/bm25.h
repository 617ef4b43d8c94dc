// BM25 as Lucene 8.8's BM25Similarity computes it, in the same float and
// double operations so that scores agree with Lucene's to the last bits
// (docs/scoring.md has the formulas and where each rounding happens).
//
//   idf(df, N)  = (float) ln(1 + (N - df + 0.5) / (df + 0.5))     in double
//                 N = documents with the field (CollectionStatistics.docCount)
//                 A phrase sums its terms' idfs (in double, then float).
//   avgdl       = (float) (sum_total_term_freq / (double) N)
//   weight      = boost * idf                                      (float)
//   inv_norm[b] = 1 / (k1 * ((1 - b_param) + b_param * length(b) / avgdl))
//                 (float), one per norm byte b, length(b) its decoded length
//                 (SmallFloat.byte4ToInt, codec/norm_encoding.h)
//   score       = weight - weight / (1 + freq * inv_norm[norm])    (float)
//
// The (k1 + 1) factor of the textbook formula is gone since Lucene 8.0: it
// scales every score alike and does not change the ranking.
//
// Thread safety: immutable after construction.
#ifndef INVERT_SEARCH_BM25_H_
#define INVERT_SEARCH_BM25_H_

#include <array>
#include <cstdint>

namespace invert {

struct Bm25Params {
  float k1 = 1.2f;
  float b = 0.75f;
};

// Index-wide statistics of one field (Lucene's CollectionStatistics).
struct Bm25FieldStats {
  uint64_t doc_count = 0;            // documents with at least one term in the field
  uint64_t sum_total_term_freq = 0;  // the field's tokens over all documents
};

// Lucene's idf of one term: df documents of `doc_count`.
double Bm25Idf(uint64_t doc_freq, uint64_t doc_count);

// The scorer of one query term (or phrase, with the summed idf) in one field.
class Bm25Scorer {
 public:
  // `idf`: Bm25Idf of the term, or the sum of its terms' for a phrase.
  Bm25Scorer(float boost, double idf, const Bm25FieldStats& field, const Bm25Params& params = {});

  // The score of a document where the term occurs `freq` times (a phrase:
  // its phrase frequency, fractional when sloppy) and whose field has norm
  // byte `norm`.
  float Score(float freq, uint8_t norm) const {
    return weight_ - weight_ / (1.0f + freq * inverse_norm_[norm]);
  }

  // Score(freq, norm) from its product freq * inverse_norm(norm), rounded
  // to float as Score rounds it: the same float. With weight() >= 0 it never
  // decreases as the product grows (every step is a monotonic float
  // operation), so the largest score of several (freq, norm) pairs is
  // ScoreOfProduct of their largest product: one division instead of one
  // per pair (search/term_scorer.cc's block bounds).
  float ScoreOfProduct(float product) const { return weight_ - weight_ / (1.0f + product); }

  float weight() const { return weight_; }  // boost * idf
  float avgdl() const { return avgdl_; }
  float inverse_norm(uint8_t norm) const { return inverse_norm_[norm]; }

 private:
  float weight_;
  float avgdl_;
  std::array<float, 256> inverse_norm_;
};

}  // namespace invert

#endif  // INVERT_SEARCH_BM25_H_

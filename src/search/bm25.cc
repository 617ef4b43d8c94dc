// Bm25Scorer: the per-norm-byte cache and idf, in Lucene 8.8's arithmetic.
#include "search/bm25.h"

#include <cmath>

#include "index/norm_encoding.h"

namespace invert {

double Bm25Idf(uint64_t doc_freq, uint64_t doc_count) {
  const double df = static_cast<double>(doc_freq);
  const double n = static_cast<double>(doc_count);
  return static_cast<float>(std::log(1 + (n - df + 0.5) / (df + 0.5)));
}

Bm25Scorer::Bm25Scorer(float boost, double idf, const Bm25FieldStats& field,
                       const Bm25Params& params) {
  weight_ = boost * static_cast<float>(idf);
  avgdl_ = field.doc_count == 0
               ? 1.0f
               : static_cast<float>(static_cast<double>(field.sum_total_term_freq) /
                                    static_cast<double>(field.doc_count));
  for (int i = 0; i < 256; ++i) {
    const float length = static_cast<float>(DecodeNorm(static_cast<uint8_t>(i)));
    inverse_norm_[i] = 1.0f / (params.k1 * ((1 - params.b) + params.b * length / avgdl_));
  }
}

}  // namespace invert

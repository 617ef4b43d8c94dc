// Bm25Scorer: the per-norm-byte cache and idf, in Lucene 8.8's arithmetic.
#include "search/bm25.h"

#include <cmath>
#include <cstdint>

#include "codec/norm_encoding.h"

namespace invert {

double Bm25Idf(uint64_t doc_freq, uint64_t doc_count) {
  // As Lucene: the difference in 64-bit integers, then in double.
  const double rest = static_cast<double>(static_cast<int64_t>(doc_count - doc_freq));
  return static_cast<float>(std::log(1 + (rest + 0.5) / (static_cast<double>(doc_freq) + 0.5)));
}

Bm25Scorer::Bm25Scorer(float boost, double idf, const Bm25FieldStats& field,
                       const Bm25Params& params) {
  weight_ = boost * static_cast<float>(idf);
  avgdl_ = field.doc_count == 0
               ? 1.0f
               : static_cast<float>(static_cast<double>(field.sum_total_term_freq) /
                                    static_cast<double>(field.doc_count));
  for (int i = 0; i < 256; ++i) {
    // Lucene's length table: SmallFloat.byte4ToInt of the byte, as a float.
    const float length = static_cast<float>(DecodeNorm(static_cast<uint8_t>(i)));
    inverse_norm_[i] = 1.0f / (params.k1 * ((1 - params.b) + params.b * length / avgdl_));
  }
}

}  // namespace invert

// The arithmetic of dynamic pruning: upper bounds of scores that stay upper
// bounds after every float and double rounding the scorers do.
//
// A term's bound is exact: BM25's score(freq, norm) (search/bm25.h) is a
// chain of IEEE operations each monotonic in its inputs (round-to-nearest is
// monotonic), non-decreasing in freq and non-increasing in the norm byte (the
// decoded length grows with the byte; k1 >= 0, 0 <= b <= 1), so the largest
// score(freq, norm) over a frontier of (freq, norm) pairs, computed by the
// same Bm25Scorer, is >= the float score of every document the frontier
// covers. No margin is needed there.
//
// A boolean query's score is float(sum of its must scores, in double) +
// float(sum of its matching should scores, in double): three roundings to
// float (each within a relative 2^-24 of its input, all inputs >= 0) of sums
// of clause scores that are each <= the clause's bound. SumBound takes the
// sum of the bounds in double (a relative error below n * 2^-53 for n
// clauses) and scales it up by (1 + 2^-20) before rounding up to a float:
// 2^-20 is more than the at most ~3 * 2^-24 + n * 2^-53 the two sides can
// differ by, for any n below 2^30. So SumBound(sum of bounds) >= Score().
// An infinite bound (a clause that cannot bound its scores) stays infinite.
//
// Thread safety: pure functions.
#ifndef INVERT_SEARCH_PRUNE_H_
#define INVERT_SEARCH_PRUNE_H_

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "search/bm25.h"

namespace invert::search_internal {

// A float >= every score a sum of clause scores can have whose bounds sum
// (in double) to `sum`.
inline float SumBound(double sum) {
  const double scaled = sum * (1.0 + 0x1p-20);
  float f = static_cast<float>(scaled);
  if (static_cast<double>(f) < scaled) {
    // The next float up: for +0 and finite positive floats below the
    // largest (bit patterns below 0x7f7fffff; negatives have the sign bit)
    // the bit pattern plus one (pruning's hot path: no libm call), else
    // std::nextafter.
    const uint32_t bits = std::bit_cast<uint32_t>(f);
    f = bits < 0x7f7fffffu ? std::bit_cast<float>(bits + 1)
                           : std::nextafter(f, std::numeric_limits<float>::infinity());
  }
  return f;
}

// True iff BM25 with these parameters is monotonic as the bounds assume
// (else every bound is +infinity and nothing is pruned).
inline bool Bm25Monotonic(const Bm25Params& p) { return p.k1 >= 0 && p.b >= 0 && p.b <= 1; }

}  // namespace invert::search_internal

#endif  // INVERT_SEARCH_PRUNE_H_

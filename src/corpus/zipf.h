// TwoRegimeZipf: samples word ranks from the two-regime rank-frequency law
// observed in large English corpora (Ferrer i Cancho & Sole 2001: exponent ~1
// for the "kernel" lexicon of the first ~10^4 ranks, ~2 beyond):
//
//   p(r) ∝ (r + q)^-a                              1 <= r <= head_ranks
//   p(r) ∝ (h + q)^(b - a) * (r + q)^-b            r > head_ranks   (h = head_ranks)
//
// continuous at r = h. The Mandelbrot shift q flattens the first few ranks
// (q = 1 gives the top word ~5% of tokens, as "the" in English).
//
// Why two regimes: with i.i.d. draws from a law whose tail decays as r^-b,
// the number of distinct ranks seen after n draws grows as n^(1/b) (Karlin
// 1967), i.e. Heaps' law with beta = 1/b. A single a = 1 law gives beta -> 1
// (every few tokens a new word); b = 1.8 gives beta ~ 0.56 while keeping the
// Zipf exponent 1 where most occurrences are.
//
// Sampling: an alias table (Walker/Vose) over the head ranks plus one bucket
// for the whole tail: two random numbers per draw. A tail draw inverts the
// continuous Pareto law of density ∝ (x + q)^-b on x >= h + 1/2 and rounds to
// the nearest rank; ranks above max_rank are redrawn.
//
// Thread safety: Sample() is const and may run concurrently with its own
// Random per thread.
#ifndef INVERT_CORPUS_ZIPF_H_
#define INVERT_CORPUS_ZIPF_H_

#include <cstdint>
#include <vector>

#include "util/random.h"

namespace invert {

struct ZipfOptions {
  uint32_t head_ranks = 10000;  // h: last rank of the a-regime
  double head_exponent = 1.0;   // a
  double tail_exponent = 1.75;  // b > 1; Heaps' beta -> 1/b
  double shift = 1.0;           // q >= 0
  uint64_t max_rank = uint64_t{1} << 48;
};

class TwoRegimeZipf {
 public:
  // REQUIRES: head_ranks >= 1, tail_exponent > 1, shift >= 0,
  // max_rank > head_ranks.
  explicit TwoRegimeZipf(const ZipfOptions& options);

  // A rank in [1, max_rank].
  uint64_t Sample(Random& rng) const;

  // p(rank) (the tail by the continuous law over [rank - 1/2, rank + 1/2)).
  double Probability(uint64_t rank) const;

  // Total probability of ranks > head_ranks.
  double tail_mass() const { return tail_mass_; }

  const ZipfOptions& options() const { return options_; }

 private:
  ZipfOptions options_;
  double norm_;                   // sum of all weights
  double tail_mass_;              // tail weight / norm_
  double tail_base_;              // h + 1/2 + q
  double tail_inverse_exponent_;  // -1 / (b - 1)
  // Alias table over head_ranks + 1 buckets (the last one is the tail).
  std::vector<uint64_t> threshold_;  // keep bucket i iff Next() < threshold_[i]
  std::vector<uint32_t> alias_;
};

}  // namespace invert

#endif  // INVERT_CORPUS_ZIPF_H_

// TwoRegimeZipf: the alias table and the Pareto tail.
#include "corpus/zipf.h"

#include <cassert>
#include <cmath>

namespace invert {

TwoRegimeZipf::TwoRegimeZipf(const ZipfOptions& options) : options_(options) {
  assert(options.head_ranks >= 1 && options.tail_exponent > 1 && options.shift >= 0 &&
         options.max_rank > options.head_ranks);
  const uint32_t h = options.head_ranks;
  const double a = options.head_exponent;
  const double b = options.tail_exponent;
  const double q = options.shift;
  std::vector<double> weights(h + 1);
  double head = 0;
  for (uint32_t r = 1; r <= h; ++r) head += weights[r - 1] = std::pow(r + q, -a);
  // Tail weight: integral of c (x + q)^-b over [h + 1/2, inf), with c making
  // the density meet the head at r = h.
  tail_base_ = h + 0.5 + q;
  const double c = std::pow(h + q, b - a);
  const double tail = c * std::pow(tail_base_, 1 - b) / (b - 1);
  weights[h] = tail;
  norm_ = head + tail;
  tail_mass_ = tail / norm_;
  tail_inverse_exponent_ = -1.0 / (b - 1);

  // Vose's alias method over n = h + 1 buckets.
  const size_t n = weights.size();
  std::vector<double> scaled(n);
  std::vector<uint32_t> small, large;
  for (size_t i = 0; i < n; ++i) {
    scaled[i] = weights[i] * n / norm_;
    (scaled[i] < 1.0 ? small : large).push_back(static_cast<uint32_t>(i));
  }
  threshold_.assign(n, ~uint64_t{0});
  alias_.resize(n);
  for (size_t i = 0; i < n; ++i) alias_[i] = static_cast<uint32_t>(i);
  while (!small.empty() && !large.empty()) {
    const uint32_t s = small.back();
    small.pop_back();
    const uint32_t l = large.back();
    const double t = std::ldexp(scaled[s], 64);
    threshold_[s] = t <= 0 ? 0 : t >= 0x1p64 ? ~uint64_t{0} : static_cast<uint64_t>(t);
    alias_[s] = l;
    scaled[l] -= 1.0 - scaled[s];
    if (scaled[l] < 1.0) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // Leftovers are 1 up to rounding: always keep (threshold stays at max).
}

uint64_t TwoRegimeZipf::Sample(Random& rng) const {
  const uint64_t n = threshold_.size();
  for (;;) {
    uint64_t bucket = rng.Uniform(n);
    if (rng.Next() >= threshold_[bucket]) bucket = alias_[bucket];
    if (bucket + 1 < n) return bucket + 1;
    // Tail: P(X + q > y) = (y / tail_base_)^(1 - b) for y >= tail_base_.
    const double u = 1.0 - rng.NextDouble();  // (0, 1]
    const double y = tail_base_ * std::pow(u, tail_inverse_exponent_);
    const double x = y - options_.shift;
    if (x < static_cast<double>(options_.max_rank)) {
      const uint64_t rank = static_cast<uint64_t>(x + 0.5);
      if (rank > options_.head_ranks && rank <= options_.max_rank) return rank;
    }
  }
}

double TwoRegimeZipf::Probability(uint64_t rank) const {
  const double q = options_.shift;
  const double a = options_.head_exponent;
  const double b = options_.tail_exponent;
  if (rank <= options_.head_ranks) return std::pow(rank + q, -a) / norm_;
  const double c = std::pow(options_.head_ranks + q, b - a);
  auto upper = [&](double x) { return c * std::pow(x + q, 1 - b) / (b - 1); };
  return (upper(rank - 0.5) - upper(rank + 0.5)) / norm_;
}

}  // namespace invert

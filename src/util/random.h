// Random: a small, fast, deterministic PRNG (xoshiro256** seeded through
// splitmix64). Unlike <random>'s distributions its output is the same on every
// platform and library, so generated workloads and test inputs are
// reproducible from their seed alone.
#ifndef INVERT_UTIL_RANDOM_H_
#define INVERT_UTIL_RANDOM_H_

#include <cstdint>

namespace invert {

__extension__ typedef unsigned __int128 RandomUint128;

class Random {
 public:
  explicit Random(uint64_t seed) {
    for (uint64_t& word : state_) word = SplitMix64(seed);
  }

  uint64_t Next() {
    const uint64_t result = Rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = Rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, n). REQUIRES: n > 0. (Lemire's multiply-shift; the bias is
  // below 2^-32 for the n used here.)
  uint64_t Uniform(uint64_t n) {
    return static_cast<uint64_t>((static_cast<RandomUint128>(Next()) * n) >> 64);
  }

  // Uniform in [lo, hi]. REQUIRES: lo <= hi.
  uint64_t Range(uint64_t lo, uint64_t hi) { return lo + Uniform(hi - lo + 1); }

  // Uniform double in [0, 1).
  double NextDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // True with probability p.
  bool Bernoulli(double p) { return NextDouble() < p; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t SplitMix64(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  uint64_t state_[4];
};

}  // namespace invert

#endif  // INVERT_UTIL_RANDOM_H_

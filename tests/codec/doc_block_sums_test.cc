// PrefixSumDocBlock, every variant (the baseline, AVX2 where this CPU has
// it, and the dispatching entry point) against a plain loop on random
// blocks: values around 2^24, zeros, values that wrap the 32-bit sums, and
// the all-ones block.
#include "codec/doc_block_sums.h"

#include <array>
#include <cstdint>
#include <cstdio>

#include "codec/for_block.h"
#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using Block = std::array<uint32_t, kForBlockSize>;

Block ReferencePrefixSum(uint32_t base, const Block& a) {
  Block out;
  for (size_t i = 0; i < kForBlockSize; ++i) out[i] = base += a[i];
  return out;
}

// A value of one of the shapes blocks have: small gaps and freqs, ones,
// values just under, at and over 2^24, zero, anything.
uint32_t RandomValue(Random& rng) {
  switch (rng.Uniform(6)) {
    case 0:
      return static_cast<uint32_t>(rng.Range(1, 300));
    case 1:
      return 1;
    case 2:
      return static_cast<uint32_t>(rng.Range((1u << 24) - 2, (1u << 24) + 2));
    case 3:
      return 0;
    case 4:
      return UINT32_MAX - static_cast<uint32_t>(rng.Uniform(3));
    default:
      return static_cast<uint32_t>(rng.Next());
  }
}

// One of: every value of one shape, or shapes mixed, or a clean block
// (every value in [1, 300]) with at most one odd value placed anywhere.
Block RandomBlock(Random& rng) {
  Block b;
  const uint64_t kind = rng.Uniform(3);
  if (kind == 0) {
    const uint32_t v = RandomValue(rng);
    b.fill(v);
  } else if (kind == 1) {
    for (uint32_t& v : b) v = RandomValue(rng);
  } else {
    for (uint32_t& v : b) v = static_cast<uint32_t>(rng.Range(1, 300));
    if (rng.Bernoulli(0.5)) b[rng.Uniform(kForBlockSize)] = RandomValue(rng);
  }
  return b;
}

TEST(DocBlockSumsTest, EveryVariantMatchesPlainLoops) {
  Random rng(testing::TestSeed(2424));
  const bool avx2 = postings_internal::CpuHasAvx2();
  std::printf("AVX2 variants %s\n", avx2 ? "tested (this CPU has AVX2)" : "not run: no AVX2 here");
  for (int round = 0; round < 20000; ++round) {
    const Block docs = RandomBlock(rng);
    const uint32_t base = rng.Bernoulli(0.5) ? static_cast<uint32_t>(rng.Uniform(1u << 30))
                                             : static_cast<uint32_t>(rng.Next());
    const Block want_sums = ReferencePrefixSum(base, docs);
    auto expect_sums = [&](void (*sum)(uint32_t, uint32_t*), const char* variant) {
      Block a = docs;
      sum(base, a.data());
      ASSERT_EQ(a, want_sums) << variant << ", round " << round;
    };
    expect_sums(&postings_internal::PrefixSumDocBlockBaseline, "baseline");
    expect_sums(&postings_internal::PrefixSumDocBlock, "dispatched");
    if (avx2) {
      expect_sums(&postings_internal::PrefixSumDocBlockAvx2, "AVX2");
    }
  }
}

// Lane boundaries: a single 1 in each position shows which lanes its sum
// reaches (every later one, none earlier), the same in every variant.
TEST(DocBlockSumsTest, OneValueReachesEveryLaterLane) {
  for (size_t at = 0; at < kForBlockSize; ++at) {
    Block a{};
    a[at] = 1;
    Block want{};
    for (size_t i = at; i < kForBlockSize; ++i) want[i] = 8;  // base 7, plus the 1
    for (size_t i = 0; i < at; ++i) want[i] = 7;
    Block got = a;
    postings_internal::PrefixSumDocBlock(7, got.data());
    ASSERT_EQ(got, want) << "the 1 at " << at;
    got = a;
    postings_internal::PrefixSumDocBlockBaseline(7, got.data());
    ASSERT_EQ(got, want) << "baseline, the 1 at " << at;
  }
}

}  // namespace
}  // namespace invert

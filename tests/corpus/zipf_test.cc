// Tests of TwoRegimeZipf: the law is normalized and continuous at the regime
// change, sample frequencies match it in the head and the tail, and the
// Heaps exponent of its samples approaches 1 / tail_exponent.
#include "corpus/zipf.h"

#include <cmath>
#include <unordered_set>
#include <vector>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

TEST(CorpusZipfTest, LawIsNormalizedAndContinuous) {
  ZipfOptions options;
  TwoRegimeZipf zipf(options);
  double head = 0;
  for (uint64_t r = 1; r <= options.head_ranks; ++r) head += zipf.Probability(r);
  EXPECT_NEAR(head + zipf.tail_mass(), 1.0, 1e-9);
  // Head exponent 1: p(r) (r + q) is constant in the head.
  EXPECT_NEAR(zipf.Probability(10) * 11, zipf.Probability(1000) * 1001, 1e-12);
  // The tail starts where the head ends, then falls as r^-b.
  EXPECT_NEAR(zipf.Probability(options.head_ranks + 1) / zipf.Probability(options.head_ranks), 1.0,
              0.01);
  const double slope =
      std::log(zipf.Probability(1000000) / zipf.Probability(100000)) / std::log(10);
  EXPECT_NEAR(slope, -options.tail_exponent, 0.01);
  // The top word takes about 5% of the tokens, as "the" in English.
  EXPECT_GT(zipf.Probability(1), 0.04);
  EXPECT_LT(zipf.Probability(1), 0.06);
}

TEST(CorpusZipfTest, SampleFrequenciesMatchTheLaw) {
  ZipfOptions options;
  TwoRegimeZipf zipf(options);
  Random rng(testing::TestSeed(5));
  constexpr int kDraws = 2000000;
  std::vector<uint64_t> head(options.head_ranks + 1);
  uint64_t tail = 0, beyond_1e5 = 0, beyond_1e7 = 0;
  for (int i = 0; i < kDraws; ++i) {
    const uint64_t rank = zipf.Sample(rng);
    ASSERT_GE(rank, 1u);
    ASSERT_LE(rank, options.max_rank);
    if (rank <= options.head_ranks) {
      ++head[rank];
    } else {
      ++tail;
      beyond_1e5 += rank > 100000;
      beyond_1e7 += rank > 10000000;
    }
  }
  auto expect_count = [&](double observed, double p) {
    const double mean = p * kDraws;
    EXPECT_NEAR(observed, mean, 5 * std::sqrt(mean) + 1) << "p " << p;
  };
  for (uint64_t r : {1, 2, 3, 10, 100, 1000, 10000}) expect_count(head[r], zipf.Probability(r));
  expect_count(tail, zipf.tail_mass());
  // P(rank > R) in the tail: tail_mass * ((R + 1/2 + q) / (h + 1/2 + q))^(1 - b).
  auto above = [&](double r) {
    return zipf.tail_mass() *
           std::pow((r + 0.5 + options.shift) / (options.head_ranks + 0.5 + options.shift),
                    1 - options.tail_exponent);
  };
  expect_count(beyond_1e5, above(100000));
  expect_count(beyond_1e7, above(10000000));
}

TEST(CorpusZipfTest, DistinctRanksFollowHeapsLaw) {
  ZipfOptions options;
  TwoRegimeZipf zipf(options);
  Random rng(testing::TestSeed(6));
  std::unordered_set<uint64_t> seen;
  uint64_t at_quarter = 0;
  for (int i = 1; i <= 1000000; ++i) {
    seen.insert(zipf.Sample(rng));
    if (i == 250000) at_quarter = seen.size();
  }
  // Local exponent between 2.5 * 10^5 and 10^6 draws: above 1/b while the
  // head is still filling, well below 1.
  const double beta = std::log(static_cast<double>(seen.size()) / at_quarter) / std::log(4.0);
  EXPECT_GT(beta, 1 / options.tail_exponent - 0.02);
  EXPECT_LT(beta, 0.68);
}

TEST(CorpusZipfTest, SameSeedSameRanks) {
  TwoRegimeZipf zipf{ZipfOptions()};
  Random a(99), b(99), c(100);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t x = zipf.Sample(a);
    ASSERT_EQ(x, zipf.Sample(b));
    differs |= x != zipf.Sample(c);
  }
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace invert

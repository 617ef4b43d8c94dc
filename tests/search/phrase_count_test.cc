// ExactPhraseCount (the searcher's exact phrase frequency over positions as
// the postings give them) against ExactPhraseFreq (the reference's binary
// searches): random phrases of 2-5 terms, repeated terms included, over
// random position lists from sparse to dense and of very different lengths
// (so both the merge and the gallop run), with increasing positions; and
// ExactPhrasePairCount, the two-term merge, against both.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "gtest/gtest.h"
#include "search/phrase_freq.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert::search_internal {
namespace {

std::vector<uint32_t> RandomPositions(Random& rng, uint32_t span) {
  const size_t n = rng.Bernoulli(0.3) ? 1 : rng.Range(1, rng.Bernoulli(0.5) ? 8 : 600);
  std::vector<uint32_t> p;
  for (size_t k = 0; k < n; ++k) p.push_back(static_cast<uint32_t>(rng.Uniform(span)));
  std::sort(p.begin(), p.end());
  p.erase(std::unique(p.begin(), p.end()), p.end());
  return p;
}

TEST(PhraseCountTest, SameAsExactPhraseFreq) {
  Random rng(testing::TestSeed(1316));
  std::vector<int64_t> places = {-1, -1};  // stale scratch is fine
  uint64_t matched = 0;
  uint64_t pairs_merged = 0;  // two-term trials with a match, through the merge
  for (int trial = 0; trial < 20000; ++trial) {
    const size_t n = rng.Range(2, 5);
    const uint32_t span = static_cast<uint32_t>(rng.Bernoulli(0.5) ? rng.Range(4, 40) : 3000);
    std::vector<std::vector<uint32_t>> lists(n);
    std::vector<std::vector<int32_t>> signed_lists(n);
    std::vector<PhraseTermPositions> reference(n);
    std::vector<PhraseTermPostings> postings(n);
    int32_t offset = 0;
    for (size_t i = 0; i < n; ++i) {
      // A repeated term: the same positions at another offset.
      const bool repeat = i > 0 && rng.Bernoulli(0.2);
      lists[i] = repeat ? lists[i - 1] : RandomPositions(rng, span);
      signed_lists[i].assign(lists[i].begin(), lists[i].end());
      if (i > 0) offset += static_cast<int32_t>(rng.Range(rng.Bernoulli(0.1) ? 0 : 1, 3));
      reference[i] = {offset, repeat ? reference[i - 1].term_id : static_cast<int32_t>(i),
                      signed_lists[i]};
      postings[i] = {offset, lists[i]};
    }
    const float want = ExactPhraseFreq(reference);
    ASSERT_EQ(static_cast<float>(ExactPhraseCount(postings, &places)), want) << "trial " << trial;
    if (n == 2) {
      ASSERT_EQ(static_cast<float>(ExactPhrasePairCount(postings[0], postings[1], &places)), want)
          << "trial " << trial;
      ASSERT_EQ(static_cast<float>(ExactPhrasePairCount(postings[1], postings[0], &places)),
                static_cast<float>(ExactPhraseCount(
                    std::vector<PhraseTermPostings>{postings[1], postings[0]}, &places)))
          << "trial " << trial << " (terms swapped)";
      pairs_merged += lists[0].size() <= 8 * lists[1].size() &&
                      lists[1].size() <= 8 * lists[0].size() && want > 0;
    }
    matched += want > 0;
  }
  EXPECT_GT(matched, 1000u);
  EXPECT_GT(pairs_merged, 300u);
}

// SloppyPairFreq against SloppyPhraseFreq's general walk: the same float,
// bit for bit, over random two-term phrases (offsets 0 and 0..3, slops
// 1..6) and position lists from sparse to dense, shared positions included.
TEST(PhraseCountTest, SloppyPairFreqIsTheWalksFrequency) {
  Random rng(testing::TestSeed(1317));
  uint64_t matched = 0;
  for (int trial = 0; trial < 40000; ++trial) {
    const uint32_t span = static_cast<uint32_t>(rng.Bernoulli(0.5) ? rng.Range(3, 30) : 2000);
    std::vector<int32_t> lists[2];
    for (auto& list : lists) {
      const std::vector<uint32_t> p = RandomPositions(rng, span);
      list.assign(p.begin(), p.end());
    }
    const int32_t offset = static_cast<int32_t>(rng.Range(0, 3));
    const bool swapped = rng.Bernoulli(0.3);  // the later term first
    const PhraseTermPositions a{swapped ? offset : 0, 0, lists[0]};
    const PhraseTermPositions b{swapped ? 0 : offset, 1, lists[1]};
    const uint32_t slop = static_cast<uint32_t>(rng.Range(1, 6));
    const PhraseTermPositions terms[2] = {a, b};
    const float want = SloppyPhraseFreq(terms, slop);
    const float got = SloppyPairFreq(a, b, slop);
    ASSERT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want))
        << "trial " << trial << ": " << got << " vs " << want;
    matched += want > 0;
  }
  EXPECT_GT(matched, 10000u);
  // "a b"~3 in "b a b b": two matches with one "a" (1 + 1/2).
  const std::vector<int32_t> a = {1}, b = {0, 2, 3};
  EXPECT_EQ(SloppyPairFreq({0, 0, a}, {1, 1, b}, 3), 1.5f);
}

// The pruning bound of a sloppy two-term phrase (search/phrase_scorer.cc):
// SloppyPairFreq is at most 2 min(freq_a, freq_b), however large the slop,
// over random lists from sparse to dense, one of them often of 1-3
// positions (a large slop counts every window). Most trials have
// 2 min < freq_a + freq_b - 1, the other bound; the largest freq / bound
// seen is printed and must be over 1/2 (one "a" between two "b"s: 1).
TEST(PhraseCountTest, SloppyPairFreqAtMostTwiceTheRarerTerm) {
  Random rng(testing::TestSeed(1318));
  uint64_t tighter = 0;  // trials where 2 min < freq_a + freq_b - 1
  float largest_ratio = 0;
  for (int trial = 0; trial < 40000; ++trial) {
    const uint32_t span = static_cast<uint32_t>(rng.Bernoulli(0.5) ? rng.Range(2, 12) : 400);
    std::vector<int32_t> lists[2];
    for (auto& list : lists) {
      const std::vector<uint32_t> p = RandomPositions(rng, span);
      list.assign(p.begin(), p.end());
    }
    if (rng.Bernoulli(0.5)) lists[0].resize(std::min<size_t>(lists[0].size(), rng.Range(1, 3)));
    const int32_t offset = static_cast<int32_t>(rng.Range(0, 3));
    const bool swapped = rng.Bernoulli(0.3);
    const PhraseTermPositions a{swapped ? offset : 0, 0, lists[0]};
    const PhraseTermPositions b{swapped ? 0 : offset, 1, lists[1]};
    const uint32_t slop = rng.Bernoulli(0.5) ? static_cast<uint32_t>(rng.Range(1, 6)) : 1u << 20;
    const float freq = SloppyPairFreq(a, b, slop);
    const size_t fewer = std::min(lists[0].size(), lists[1].size());
    const float bound = static_cast<float>(2 * fewer);
    ASSERT_LE(freq, bound) << "trial " << trial << ": " << lists[0].size() << " and "
                           << lists[1].size() << " positions, slop " << slop;
    tighter += 2 * fewer < lists[0].size() + lists[1].size() - 1;
    largest_ratio = std::max(largest_ratio, freq / bound);
  }
  std::printf("[   INFO   ] %llu of 40000 trials below the sum bound; largest freq / bound %g\n",
              static_cast<unsigned long long>(tighter), largest_ratio);
  EXPECT_GT(tighter, 10000u);
  EXPECT_GT(largest_ratio, 0.5f);
  // "b a b"~4: a window of length 1 on each side of the "a".
  const std::vector<int32_t> one_a = {1}, two_b = {0, 2};
  EXPECT_EQ(SloppyPairFreq({0, 0, one_a}, {0, 1, two_b}, 4), 1.0f);
}

TEST(PhraseCountTest, CountsEveryOccurrenceAndOverlaps) {
  std::vector<int64_t> places;
  const std::vector<uint32_t> a = {0, 2}, b = {1, 3}, aaa = {0, 1, 2};
  // In "a b a b": "a b" twice, "b a" once. "a a" in "a a a" (overlapping):
  // twice. Two terms both only at 0: never one after the other.
  EXPECT_EQ(ExactPhraseCount(std::vector<PhraseTermPostings>{{0, a}, {1, b}}, &places), 2u);
  EXPECT_EQ(ExactPhraseCount(std::vector<PhraseTermPostings>{{0, aaa}, {1, aaa}}, &places), 2u);
  EXPECT_EQ(ExactPhraseCount(std::vector<PhraseTermPostings>{{0, b}, {1, a}}, &places), 1u);
  const std::vector<uint32_t> zero = {0};
  EXPECT_EQ(ExactPhraseCount(std::vector<PhraseTermPostings>{{0, zero}, {1, zero}}, &places), 0u);
  EXPECT_EQ(ExactPhrasePairCount({0, a}, {1, b}, &places), 2u);
  EXPECT_EQ(ExactPhrasePairCount({0, aaa}, {1, aaa}, &places), 2u);
  EXPECT_EQ(ExactPhrasePairCount({0, b}, {1, a}, &places), 1u);
  EXPECT_EQ(ExactPhrasePairCount({0, zero}, {1, zero}, &places), 0u);
  // Repeated positions (non-decreasing, as the postings allow): each
  // position matches once.
  const std::vector<uint32_t> twice = {4, 4}, after = {5, 5, 5};
  EXPECT_EQ(ExactPhrasePairCount({0, twice}, {1, after}, &places), 2u);
  EXPECT_EQ(ExactPhraseCount(std::vector<PhraseTermPostings>{{0, twice}, {1, after}}, &places), 2u);
}

}  // namespace
}  // namespace invert::search_internal

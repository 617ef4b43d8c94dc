// Tests of Vocabulary: the grammar's counts against brute-force enumeration,
// unambiguity (distinct numbers give distinct strings), one word per rank
// over the whole head and a sample of the tail, well-formed spellings, and
// lengths that grow with rank.
#include "corpus/vocabulary.h"

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

// Lowercase ASCII letters, at most one 2-byte accented letter (C3 xx) not in
// first position.
bool WellFormed(std::string_view word) {
  if (word.empty() || word.size() > Vocabulary::kMaxWordBytes) return false;
  int accents = 0;
  for (size_t i = 0; i < word.size(); ++i) {
    const unsigned char c = word[i];
    if (c >= 'a' && c <= 'z') continue;
    if (c != 0xC3 || i == 0 || i + 1 >= word.size()) return false;
    const unsigned char next = word[++i];
    if (next < 0x80 || next > 0xBF) return false;
    ++accents;
  }
  return accents <= 1;
}

TEST(CorpusVocabularyTest, GrammarCountsMatchEnumeration) {
  const Vocabulary& vocabulary = Vocabulary::Default();
  // V0 (5 vowels) + coda (15) and onset (19) + nucleus (5).
  EXPECT_EQ(vocabulary.GrammarWords(1), 5u);
  EXPECT_EQ(vocabulary.GrammarWords(2), 5u * 15 + 19 * 5);
  for (size_t length = 1; length <= 4; ++length) {
    const uint64_t n = vocabulary.GrammarWords(length);
    std::unordered_set<std::string> seen;
    for (uint64_t i = 0; i < n; ++i) {
      const std::string word = vocabulary.GrammarWord(length, i);
      ASSERT_EQ(word.size(), length);
      ASSERT_TRUE(WellFormed(word)) << word;
      ASSERT_TRUE(seen.insert(word).second) << "two derivations of " << word;
    }
  }
  // Counts grow about 11x per byte and stay exact up to 2^64.
  for (size_t length = 5; length <= 17; ++length) {
    EXPECT_GT(vocabulary.GrammarWords(length), 8 * vocabulary.GrammarWords(length - 1));
  }
}

TEST(CorpusVocabularyTest, LongGrammarWordsAreDistinct) {
  const Vocabulary& vocabulary = Vocabulary::Default();
  Random rng(testing::TestSeed(7));
  for (size_t length : {8u, 12u, 17u}) {
    std::unordered_map<std::string, uint64_t> seen;
    const uint64_t n = vocabulary.GrammarWords(length);
    for (int i = 0; i < 20000; ++i) {
      const uint64_t index = rng.Uniform(n);
      const std::string word = vocabulary.GrammarWord(length, index);
      ASSERT_TRUE(WellFormed(word)) << word;
      auto [it, inserted] = seen.emplace(word, index);
      ASSERT_TRUE(inserted || it->second == index) << word;
    }
  }
}

TEST(CorpusVocabularyTest, HeadWordsAreUniqueAndWellFormed) {
  const Vocabulary& vocabulary = Vocabulary::Default();
  Vocabulary::WordBuffer buffer;
  std::unordered_set<std::string_view> seen;
  size_t accented = 0;
  for (uint64_t rank = 1; rank <= Vocabulary::kHeadRanks; ++rank) {
    const std::string_view word = vocabulary.Word(rank, &buffer);
    ASSERT_TRUE(WellFormed(word)) << rank << " " << word;
    ASSERT_TRUE(seen.insert(word).second) << rank << " " << word;
    accented += word.find('\xc3') != std::string_view::npos;
  }
  // 1.2% of ranks > 500 are foreign (a few have no letter to accent).
  EXPECT_GT(accented, Vocabulary::kHeadRanks * 0.010);
  EXPECT_LT(accented, Vocabulary::kHeadRanks * 0.014);
  // The two 1-letter words go to top ranks.
  EXPECT_LE(vocabulary.Word(1, &buffer).size(), 3u);
}

TEST(CorpusVocabularyTest, TailWordsAreUniqueAcrossHeadAndTail) {
  const Vocabulary& vocabulary = Vocabulary::Default();
  Random rng(testing::TestSeed(11));
  Vocabulary::WordBuffer buffer;
  std::unordered_map<std::string, uint64_t> seen;
  for (uint64_t rank = 1; rank <= Vocabulary::kHeadRanks; ++rank) {
    seen.emplace(std::string(vocabulary.Word(rank, &buffer)), rank);
  }
  auto check = [&](uint64_t rank) {
    const std::string word(vocabulary.Word(rank, &buffer));
    ASSERT_TRUE(WellFormed(word)) << rank << " " << word;
    auto [it, inserted] = seen.emplace(word, rank);
    ASSERT_TRUE(inserted || it->second == rank) << word << ": ranks " << it->second << ", " << rank;
  };
  // Consecutive tail ranks (the first length classes fill up), then ranks
  // spread log-uniformly up to kMaxRank, and the very last.
  for (uint64_t rank = Vocabulary::kHeadRanks + 1; rank <= Vocabulary::kHeadRanks + 50000; ++rank) {
    check(rank);
  }
  for (int i = 0; i < 30000; ++i) {
    const int bits = 18 + static_cast<int>(rng.Uniform(30));
    check((uint64_t{1} << bits) + rng.Uniform(uint64_t{1} << bits));
  }
  check(Vocabulary::kMaxRank);
  check(Vocabulary::kMaxRank - 1);
}

TEST(CorpusVocabularyTest, WordsGetLongerWithRank) {
  const Vocabulary& vocabulary = Vocabulary::Default();
  Vocabulary::WordBuffer buffer;
  auto mean_length = [&](uint64_t from, uint64_t to, uint64_t step) {
    double sum = 0, n = 0;
    for (uint64_t rank = from; rank < to; rank += step, ++n) {
      sum += vocabulary.Word(rank, &buffer).size();
    }
    return sum / n;
  };
  const double top = mean_length(1, 11, 1);
  const double hundreds = mean_length(100, 1000, 1);
  const double ten_thousands = mean_length(10000, 100000, 7);
  const double tail = mean_length(1000000, 100000000, 9973);
  EXPECT_LT(top, 4.0);
  EXPECT_LT(top, hundreds);
  EXPECT_LT(hundreds, ten_thousands);
  EXPECT_LT(ten_thousands, tail);
  EXPECT_LT(tail, 16.0);
}

TEST(CorpusVocabularyTest, TraitsAreFixedPerRank) {
  const Vocabulary& vocabulary = Vocabulary::Default();
  int proper = 0, acronyms = 0;
  for (uint64_t rank = 1; rank <= 100000; ++rank) {
    const Vocabulary::Traits traits = vocabulary.TraitsOf(rank);
    if (rank <= 200) {
      ASSERT_FALSE(traits.proper);
    }
    if (rank <= 100) {
      ASSERT_FALSE(traits.acronym);
    }
    proper += traits.proper;
    acronyms += traits.acronym;
  }
  EXPECT_NEAR(proper / 100000.0, 0.25, 0.01);
  EXPECT_GT(acronyms, 0);
  EXPECT_LT(acronyms, 1000);
}

}  // namespace
}  // namespace invert

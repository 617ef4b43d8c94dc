// Bm25Scorer (search/bm25.h): scores against values computed by hand from
// the textbook formula in double (tolerance 1e-6 relative: the scorer works
// in float as Lucene does), the norm byte's quantised length, and the
// properties the searcher relies on (monotonic in freq, non-increasing in
// the norm's length). Bm25LuceneTest compares with Lucene 8.8's own
// BM25Similarity bit for bit when scripts/bm25_vs_lucene.sh hands it
// Lucene's outputs (INVERT_BM25_LUCENE_FILE, INVERT_NORMS_LUCENE_FILE);
// without them it reads a sample of those outputs kept in
// tests/data/lucene88_bm25/ (made by the script, seed 8: the first 2,000
// scores; the 256 bytes, every length below 4,096, then every 250th line of
// the rest), so CI compares with Lucene too without running Java.
#include "search/bm25.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "codec/norm_encoding.h"
#include "gtest/gtest.h"

namespace invert {
namespace {

void ExpectNear(double actual, double expected) {
  EXPECT_NEAR(actual, expected, std::abs(expected) * 1e-6) << "expected " << expected;
}

TEST(Bm25Test, IdfIsLucenes) {
  // ln(1 + (N - df + 0.5) / (df + 0.5)), rounded to float.
  ExpectNear(Bm25Idf(2, 10), 1.4816045409242156);  // ln 4.4
  ExpectNear(Bm25Idf(5, 10), 0.6931471805599453);  // ln 2
  ExpectNear(Bm25Idf(1, 1000), 6.503289671207057);
  ExpectNear(Bm25Idf(1000, 1000), 0.0004996252914324798);  // every doc: tiny, > 0
  EXPECT_EQ(Bm25Idf(2, 10), static_cast<double>(static_cast<float>(std::log(4.4))));
}

TEST(Bm25Test, ScoresEqualTheTextbookFormulaOnDecodedLengths) {
  // N = 10 documents, 100 tokens: avgdl 10. idf(df 2) = ln 4.4.
  const Bm25FieldStats field{.doc_count = 10, .sum_total_term_freq = 100};
  const Bm25Scorer scorer(1.0f, Bm25Idf(2, 10), field);
  EXPECT_EQ(scorer.avgdl(), 10.0f);
  // freq 3, length 10 = avgdl: idf * 3 / (3 + 1.2).
  ExpectNear(scorer.Score(3, EncodeNorm(10)), 1.058288957803011);
  // freq 2, length 40: idf * 2 / (2 + 1.2 * (0.25 + 0.75 * 4)).
  ExpectNear(scorer.Score(2, EncodeNorm(40)), 0.5022388274319375);
  // Without a norm (byte 0, length 0): idf * f / (f + 1.2 * 0.25).
  ExpectNear(scorer.Score(1, 0), 1.4816045409242156 * 1 / (1 + 0.3));

  // Boost 2, N = 1000, avgdl 250.5, a 1000-token field: its byte decodes to
  // 984 (24 + 15 << 6), and the score is the one of length 984.
  ASSERT_EQ(DecodeNorm(EncodeNorm(1000)), 984u);
  const Bm25Scorer boosted(2.0f, Bm25Idf(1, 1000),
                           {.doc_count = 1000, .sum_total_term_freq = 250500});
  ExpectNear(boosted.Score(1, EncodeNorm(1000)), 2.6899055729822376);

  // A phrase: the idfs of its terms summed (df 2 and 5 of 10), freq 1.5
  // (sloppy), length 7.
  const Bm25Scorer phrase(1.0f, Bm25Idf(2, 10) + Bm25Idf(5, 10), field);
  ExpectNear(phrase.Score(1.5f, EncodeNorm(7)), 1.3424393342494823);
}

TEST(Bm25Test, ParametersK1AndB) {
  const Bm25FieldStats field{.doc_count = 10, .sum_total_term_freq = 100};
  const double idf = Bm25Idf(2, 10);
  // b = 0: no length normalisation; k1 = 2: idf * f / (f + 2).
  const Bm25Scorer no_b(1.0f, idf, field, {.k1 = 2.0f, .b = 0.0f});
  ExpectNear(no_b.Score(3, EncodeNorm(5)), 1.4816045409242156 * 3 / 5);
  ExpectNear(no_b.Score(3, EncodeNorm(500)), 1.4816045409242156 * 3 / 5);
  // k1 = 0: the score is idf whatever the freq (> 0) and length.
  const Bm25Scorer no_k1(1.0f, idf, field, {.k1 = 0.0f, .b = 0.75f});
  EXPECT_EQ(no_k1.Score(1, EncodeNorm(3)), no_k1.weight());
  EXPECT_EQ(no_k1.Score(17, EncodeNorm(300)), no_k1.weight());
}

TEST(Bm25Test, MonotonicInFreqAndNonIncreasingInLength) {
  for (const Bm25FieldStats field :
       {Bm25FieldStats{.doc_count = 10, .sum_total_term_freq = 100},
        Bm25FieldStats{.doc_count = 1, .sum_total_term_freq = 1},
        Bm25FieldStats{.doc_count = 123456789, .sum_total_term_freq = 98765432109}}) {
    for (const Bm25Params params :
         {Bm25Params{}, Bm25Params{.k1 = 0.5f, .b = 1.0f}, Bm25Params{.k1 = 3.0f, .b = 0.1f}}) {
      const Bm25Scorer scorer(1.7f, Bm25Idf(3, field.doc_count + 3), field, params);
      for (int norm = 0; norm < 256; ++norm) {
        float last = 0;
        for (float freq = 1; freq < 1e6f; freq = freq * 1.37f + 1) {
          const float score = scorer.Score(freq, static_cast<uint8_t>(norm));
          ASSERT_GE(score, last) << "freq " << freq << " norm " << norm;
          ASSERT_LE(score, scorer.weight());
          last = score;
        }
      }
      for (float freq : {1.0f, 2.5f, 10.0f, 1000.0f}) {
        float last = scorer.Score(freq, 0);
        for (int norm = 1; norm < 256; ++norm) {
          const float score = scorer.Score(freq, static_cast<uint8_t>(norm));
          ASSERT_LE(score, last) << "freq " << freq << " norm " << norm;
          last = score;
        }
      }
    }
  }
}

float FromBits(const std::string& hex) {
  return std::bit_cast<float>(static_cast<uint32_t>(std::stoul(hex, nullptr, 16)));
}

// The file named by environment variable `var` (the script's full run), or
// the sample of Lucene's outputs kept with the tests.
std::string LuceneFile(const char* var, const char* name) {
  const char* path = std::getenv(var);
  if (path != nullptr && *path != '\0') return path;
  return (std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "lucene88_bm25" /
          name)
      .string();
}

// Lines of `LuceneBm25 random N SEED` (benchmarks/peers/LuceneBm25.java):
//   k1 b boost freq doc_count sum_total_term_freq norm n df_1..df_n score
TEST(Bm25LuceneTest, ScoresAreBitIdenticalToLucenes) {
  const std::string path = LuceneFile("INVERT_BM25_LUCENE_FILE", "scores.txt");
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string line;
  uint64_t identical = 0, differing = 0, within_1e6 = 0;
  double worst = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string k1, b, boost, freq, score;
    uint64_t doc_count = 0, sum_ttf = 0;
    int norm = 0, n = 0;
    fields >> k1 >> b >> boost >> freq >> doc_count >> sum_ttf >> norm >> n;
    double idf = 0;  // summed in double as Lucene's idfExplain does
    for (int i = 0; i < n; ++i) {
      uint64_t df = 0;
      fields >> df;
      idf += Bm25Idf(df, doc_count);
    }
    fields >> score;
    ASSERT_FALSE(fields.fail()) << line;
    const Bm25Scorer scorer(FromBits(boost), idf, {doc_count, sum_ttf},
                            {.k1 = FromBits(k1), .b = FromBits(b)});
    const float ours = scorer.Score(FromBits(freq), static_cast<uint8_t>(norm));
    const float theirs = FromBits(score);
    if (std::bit_cast<uint32_t>(ours) == std::bit_cast<uint32_t>(theirs)) {
      ++identical;
    } else {
      ++differing;
      const double rel = std::abs(static_cast<double>(ours) - theirs) /
                         std::max(std::abs(static_cast<double>(theirs)), 1e-30);
      worst = std::max(worst, rel);
      if (rel <= 1e-6) ++within_1e6;
      if (differing <= 10) {
        ADD_FAILURE() << "differs: " << line << " ours " << ours << " (" << std::hex
                      << std::bit_cast<uint32_t>(ours) << std::dec << ") Lucene " << theirs;
      }
    }
  }
  std::printf(
      "[ LUCENE   ] BM25 scores: %llu identical, %llu differing (%llu within 1e-6 "
      "relative, worst %.3g)\n",
      static_cast<unsigned long long>(identical), static_cast<unsigned long long>(differing),
      static_cast<unsigned long long>(within_1e6), worst);
  EXPECT_GT(identical, 0u);
  EXPECT_EQ(differing, 0u);
}

// Lines of `LuceneBm25 norms`: 256 "byte byte4ToInt(byte)", then
// "length intToByte4(length)".
TEST(Bm25LuceneTest, NormBytesAreLucenes) {
  const std::string path = LuceneFile("INVERT_NORMS_LUCENE_FILE", "norms.txt");
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  uint64_t a = 0, v = 0, lines = 0, differing = 0;
  while (in >> a >> v) {
    if (lines < 256) {
      if (DecodeNorm(static_cast<uint8_t>(a)) != v) ++differing;
    } else if (EncodeNorm(a) != v) {
      ++differing;
    }
    ++lines;
  }
  std::printf("[ LUCENE   ] norms: %llu lines (256 decoded bytes, then lengths), %llu differing\n",
              static_cast<unsigned long long>(lines), static_cast<unsigned long long>(differing));
  EXPECT_GT(lines, 256u);
  EXPECT_EQ(differing, 0u);
}

}  // namespace
}  // namespace invert

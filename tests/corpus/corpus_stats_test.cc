// Tests of CorpusStats: the statistics tokenization, the least-squares fits
// on exact power laws, and the size figures.
#include "corpus/corpus_stats.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace invert {
namespace {

std::vector<std::string> Tokens(std::string_view text) {
  std::vector<std::string> tokens;
  std::string scratch;
  ForEachStatsToken(text, &scratch, [&](std::string_view t) { tokens.emplace_back(t); });
  return tokens;
}

TEST(CorpusStatsTest, TokenizationIsAsDocumented) {
  EXPECT_EQ(Tokens("Hello, World! 1,234.5 don't (NATO) B737 x"),
            (std::vector<std::string>{"hello", "world", "1", "234", "5", "don", "t", "nato", "b737",
                                      "x"}));
  // UTF-8 letters stay inside tokens; the dashes and curly quotes split.
  EXPECT_EQ(Tokens("Caf\xc3\xa9 1914\xe2\x80\x93"
                   "1918 \xe2\x80\x9cQuoted\xe2\x80\x9d \xe6\x9d\xb1\xe4\xba\xac"),
            (std::vector<std::string>{"caf\xc3\xa9", "1914", "1918", "quoted",
                                      "\xe6\x9d\xb1\xe4\xba\xac"}));
  EXPECT_TRUE(Tokens("").empty());
  EXPECT_TRUE(Tokens(" ,.;\t-").empty());
  EXPECT_EQ(Tokens("\xe2\x80"), (std::vector<std::string>{"\xe2\x80"}));  // truncated mark
}

TEST(CorpusStatsTest, FitSlopeOfALine) {
  std::vector<std::pair<double, double>> points;
  for (int x = 0; x < 10; ++x) points.emplace_back(x, 3 - 0.75 * x);
  EXPECT_NEAR(FitSlope(points), -0.75, 1e-12);
}

TEST(CorpusStatsTest, ExactZipfAndHeapsLaws) {
  // Term r appears round(100000 / r) times: Zipf exponent 1. Every term is
  // introduced first, in rank order, so V(n) = n for n <= 20000.
  CorpusStats stats(/*count_terms=*/true);
  constexpr int kTerms = 20000;
  std::string body;
  for (int r = 1; r <= kTerms; ++r) absl::StrAppend(&body, "t", r, " ");
  stats.AddDocument(body.size() + 1, body);
  for (int r = 1; r <= kTerms; ++r) {
    body.clear();
    const int extra = static_cast<int>(std::lround(100000.0 / r)) - 1;
    for (int i = 0; i < extra; ++i) absl::StrAppend(&body, "t", r, " ");
    if (!body.empty()) stats.AddDocument(body.size() + 1, body);
  }
  const CorpusReport report = stats.Report();
  EXPECT_EQ(report.unique_terms, static_cast<uint64_t>(kTerms));
  EXPECT_NEAR(report.zipf_exponent, 1.0, 0.01);
  // Checkpoints up to 20000 lie on V = n; the rest add no terms. The fit over
  // [N / 1000, N] therefore lies between 0 and 1; the first checkpoint is
  // exact.
  ASSERT_FALSE(report.heaps_checkpoints.empty());
  for (const auto& [n, v] : report.heaps_checkpoints) {
    if (n <= kTerms) {
      ASSERT_EQ(v, n);
    }
  }
  EXPECT_GT(report.heaps_beta, 0.0);
  EXPECT_LT(report.heaps_beta, 1.0);
  EXPECT_NEAR(report.heaps_beta_last_decade, 0.0, 1e-9);
  EXPECT_EQ(report.tokens, report.heaps_checkpoints.back().first);
}

TEST(CorpusStatsTest, AllNewTermsGiveBetaOne) {
  CorpusStats stats(/*count_terms=*/true);
  std::string body;
  for (int i = 0; i < 50000; ++i) absl::StrAppend(&body, "w", i, " ");
  stats.AddDocument(body.size() + 1, body);
  const CorpusReport report = stats.Report();
  EXPECT_NEAR(report.heaps_beta, 1.0, 1e-9);
  EXPECT_NEAR(report.heaps_k, 1.0, 1e-6);
  EXPECT_EQ(report.hapax_terms, 50000u);
}

TEST(CorpusStatsTest, SizesAndBodyPercentiles) {
  CorpusStats stats(/*count_terms=*/false);
  stats.AddBytes(10);
  for (int length = 1; length <= 100; ++length) {
    stats.AddDocument(length + 5, std::string(length, 'a'));
  }
  const CorpusReport report = stats.Report();
  EXPECT_EQ(report.docs, 100u);
  EXPECT_EQ(report.bytes, 10u + 5050 + 500);
  EXPECT_EQ(report.body_bytes, 5050u);
  EXPECT_DOUBLE_EQ(report.body_mean, 50.5);
  EXPECT_EQ(report.body_median, 50u);
  EXPECT_EQ(report.body_p10, 10u);
  EXPECT_EQ(report.body_p90, 90u);
  EXPECT_EQ(report.body_max, 100u);
  EXPECT_EQ(report.tokens, 0u);
  EXPECT_NE(CorpusStats::Format(report, false).find("median 50"), std::string::npos);
}

}  // namespace
}  // namespace invert

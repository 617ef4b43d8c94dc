// Tests of WikiGenerator: same seed, same bytes; other seed, other bytes;
// well-formed fields (no separators, valid UTF-8, luceneutil dates); a round
// trip through OpenLineDocs; and the corpus statistics of a moderately sized
// run landing in the ranges docs/corpus.md states.
#include "corpus/wiki_gen.h"

#include <cstdio>
#include <string>

#include "corpus/corpus_stats.h"
#include "corpus/temp_file.h"
#include "gtest/gtest.h"
#include "invert/line_docs.h"
#include "test_seed.h"

namespace invert {
namespace {

std::string Generate(uint64_t seed, int docs, bool header = true) {
  GenOptions options;
  options.seed = seed;
  WikiGenerator generator(options);
  std::string out;
  if (header) {
    out.append(WikiGenerator::kHeader);
    out.push_back('\n');
  }
  GenDoc doc;
  for (int i = 0; i < docs; ++i) {
    generator.Next(&doc);
    WikiGenerator::AppendLine(doc, &out);
  }
  return out;
}

bool ValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = s[i];
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

TEST(WikiGenTest, SameSeedSameBytesOtherSeedOtherBytes) {
  const uint64_t seed = testing::TestSeed(1);
  const std::string a = Generate(seed, 200);
  EXPECT_EQ(a, Generate(seed, 200));
  const std::string b = Generate(seed + 1, 200);
  EXPECT_NE(a, b);
  // Not just a shifted stream: the first documents differ.
  EXPECT_NE(a.substr(0, 200), b.substr(0, 200));
}

TEST(WikiGenTest, FieldsAreWellFormed) {
  GenOptions options;
  options.seed = testing::TestSeed(2);
  WikiGenerator generator(options);
  GenDoc doc;
  for (int i = 0; i < 2000; ++i) {
    generator.Next(&doc);
    for (const std::string* field : {&doc.title, &doc.date, &doc.body}) {
      ASSERT_EQ(field->find_first_of("\t\r\n"), std::string::npos) << *field;
      ASSERT_TRUE(ValidUtf8(*field)) << *field;
    }
    ASSERT_FALSE(doc.title.empty());
    ASSERT_GE(doc.body.size(), options.body_min_bytes);
    ASSERT_LE(doc.body.size(), options.body_max_bytes);
    // 24-MAR-2012 04:19:53.000, between 2001-01-15 and 2012-05-02.
    int day, year, hour, minute, second;
    char month[4];
    ASSERT_EQ(std::sscanf(doc.date.c_str(), "%2d-%3[A-Z]-%4d %2d:%2d:%2d.000", &day, month, &year,
                          &hour, &minute, &second),
              6)
        << doc.date;
    ASSERT_EQ(doc.date.size(), 24u) << doc.date;
    ASSERT_GE(year, 2001);
    ASSERT_LE(year, 2012);
    ASSERT_TRUE(day >= 1 && day <= 31 && hour < 24 && minute < 60 && second < 60) << doc.date;
  }
}

TEST(WikiGenTest, RoundTripThroughLineDocs) {
  const uint64_t seed = testing::TestSeed(3);
  for (const bool header : {true, false}) {
    const std::string contents = Generate(seed, 500, header);
    testing::TempFile file(contents);
    auto source = OpenLineDocs(file.path());
    ASSERT_TRUE(source.ok()) << source.status();
    GenOptions options;
    options.seed = seed;
    WikiGenerator generator(options);
    GenDoc expected;
    for (int i = 0; i < 500; ++i) {
      generator.Next(&expected);
      auto doc = (*source)->Next();
      ASSERT_TRUE(doc.ok()) << doc.status();
      EXPECT_EQ(doc->title, expected.title);
      EXPECT_EQ(doc->date, expected.date);
      EXPECT_EQ(doc->body, expected.body);
      EXPECT_EQ(doc->line_number, static_cast<uint64_t>(i + (header ? 2 : 1)));
      EXPECT_EQ(doc->id, std::to_string(doc->line_number));
    }
    EXPECT_TRUE(absl::IsOutOfRange((*source)->Next().status()));
    EXPECT_EQ((*source)->bytes_read(), contents.size());
  }
}

// ~3 MB, ~460K tokens: the ranges docs/corpus.md gives for runs of this size.
TEST(WikiGenTest, StatisticsOfAModerateRun) {
  GenOptions options;
  options.seed = testing::TestSeed(4);
  WikiGenerator generator(options);
  CorpusStats stats(/*count_terms=*/true);
  GenDoc doc;
  std::string line;
  for (int i = 0; i < 3000; ++i) {
    generator.Next(&doc);
    line.clear();
    WikiGenerator::AppendLine(doc, &line);
    stats.AddDocument(line.size(), doc.body);
  }
  const CorpusReport report = stats.Report();
  std::printf("%s", CorpusStats::Format(report, true).c_str());
  EXPECT_GT(report.zipf_exponent, 0.9);
  EXPECT_LT(report.zipf_exponent, 1.1);
  EXPECT_GT(report.heaps_beta_last_decade, 0.5);
  EXPECT_LT(report.heaps_beta_last_decade, 0.68);
  EXPECT_GT(report.heaps_beta, 0.6);
  EXPECT_LT(report.heaps_beta, 0.8);
  EXPECT_GT(report.token_share_le5, 0.50);
  EXPECT_LT(report.token_share_le5, 0.65);
  EXPECT_GT(report.body_mean, 850);
  EXPECT_LT(report.body_mean, 1200);
  EXPECT_GT(report.body_median, 700u);
  EXPECT_LT(report.body_median, 950u);
  EXPECT_GT(report.non_ascii_token_share, 0.002);
  EXPECT_LT(report.non_ascii_token_share, 0.01);
  EXPECT_GT(report.unique_terms, 40000u);
}

}  // namespace
}  // namespace invert

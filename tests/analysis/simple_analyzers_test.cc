// Tests of the whitespace and keyword analyzers: hand-written tokens and
// offsets, every White_Space code point, a random comparison with a reference
// splitter built on ICU's u_isUWhiteSpace, empty values and invalid UTF-8.
#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "invert/analysis.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

struct Token {
  std::string term;
  uint32_t start_offset;
  uint32_t end_offset;
  uint32_t position_increment = 1;
  bool operator==(const Token&) const = default;
};

void PrintTo(const Token& t, std::ostream* os) {
  *os << "{" << ::testing::PrintToString(t.term) << " " << t.start_offset << ".." << t.end_offset
      << " +" << t.position_increment << "}";
}

std::vector<Token> Tokens(const TokenBuffer& buffer) {
  std::vector<Token> tokens;
  for (size_t i = 0; i < buffer.size(); ++i) {
    const AnalyzedToken t = buffer[i];
    EXPECT_TRUE(t.payload.empty());
    tokens.push_back({std::string(t.term), t.start_offset, t.end_offset, t.position_increment});
  }
  return tokens;
}

std::vector<Token> Analyze(Analyzer& analyzer, std::string_view text) {
  TokenBuffer buffer;
  const absl::Status status = analyzer.Analyze(text, &buffer);
  EXPECT_TRUE(status.ok()) << status;
  return Tokens(buffer);
}

// Reference: decode with ICU's U8_NEXT and split on u_isUWhiteSpace.
std::vector<Token> ReferenceWhitespaceSplit(std::string_view text) {
  std::vector<Token> tokens;
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const auto n = static_cast<int32_t>(text.size());
  int32_t i = 0;
  int32_t begin = -1;
  while (i < n) {
    const int32_t at = i;
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (u_isUWhiteSpace(c)) {
      if (begin >= 0)
        tokens.push_back({std::string(text.substr(begin, at - begin)), static_cast<uint32_t>(begin),
                          static_cast<uint32_t>(at)});
      begin = -1;
    } else if (begin < 0) {
      begin = at;
    }
  }
  if (begin >= 0)
    tokens.push_back(
        {std::string(text.substr(begin)), static_cast<uint32_t>(begin), static_cast<uint32_t>(n)});
  return tokens;
}

TEST(WhitespaceAnalyzerTest, SplitsOnWhiteSpaceWithoutCaseChange) {
  auto analyzer = NewWhitespaceAnalyzer();
  EXPECT_EQ(Analyze(*analyzer, "  Hello\tWORLD\n can't,stop  "),
            (std::vector<Token>{{"Hello", 2, 7}, {"WORLD", 8, 13}, {"can't,stop", 15, 25}}));
  EXPECT_EQ(Analyze(*analyzer, ""), std::vector<Token>{});
  EXPECT_EQ(Analyze(*analyzer, " \r\n\t\v\f"), std::vector<Token>{});
  // No-break space, ideographic space, line separator and NEL are White_Space;
  // zero-width space (U+200B) is not.
  EXPECT_EQ(
      Analyze(*analyzer, "a\u00A0b\u3000c\u2028d\u0085Caf\u00E9\u200Bx"),
      (std::vector<Token>{
          {"a", 0, 1}, {"b", 3, 4}, {"c", 7, 8}, {"d", 11, 12}, {"Caf\u00E9\u200Bx", 14, 23}}));
}

TEST(WhitespaceAnalyzerTest, MatchesIcuReferenceOnRandomText) {
  Random rng(testing::TestSeed(801));
  const char* kPieces[] = {"a",      "Z",      "é",      "東",     "😀",      " ",
                           "\t",     "\n",     "\u00A0", "\u1680", "\u2000", "\u200A",
                           "\u200B", "\u2028", "\u2029", "\u202F", "\u205F", "\u3000",
                           "\u0085", "\u180E", "\u2060", "\uFEFF", "\u2007", ","};
  auto analyzer = NewWhitespaceAnalyzer();
  TokenBuffer buffer;
  for (int i = 0; i < 50000; ++i) {
    std::string text;
    const size_t length = rng.Uniform(30);
    for (size_t k = 0; k < length; ++k) text += kPieces[rng.Uniform(std::size(kPieces))];
    buffer.Clear();
    ASSERT_TRUE(analyzer->Analyze(text, &buffer).ok());
    ASSERT_EQ(Tokens(buffer), ReferenceWhitespaceSplit(text)) << ::testing::PrintToString(text);
  }
}

TEST(KeywordAnalyzerTest, WholeValueIsOneToken) {
  auto analyzer = NewKeywordAnalyzer();
  EXPECT_EQ(Analyze(*analyzer, "Hello, World  "), (std::vector<Token>{{"Hello, World  ", 0, 14}}));
  EXPECT_EQ(Analyze(*analyzer, "東京 Café"), (std::vector<Token>{{"東京 Café", 0, 12}}));
  // An empty value gives one empty token.
  EXPECT_EQ(Analyze(*analyzer, ""), (std::vector<Token>{{"", 0, 0}}));
}

TEST(SimpleAnalyzersTest, InvalidUtf8LeavesTheBufferUnchanged) {
  std::unique_ptr<Analyzer> analyzers[] = {NewWhitespaceAnalyzer(), NewKeywordAnalyzer()};
  for (auto& analyzer : analyzers) {
    TokenBuffer buffer;
    ASSERT_TRUE(analyzer->Analyze("kept tokens", &buffer).ok());
    const std::vector<Token> before = Tokens(buffer);
    for (const char* bad : {"\x80", "\xC1\x81", "\xE0\x9F\x80", "\xED\xB0\x80", "\xF4\x90\x80\x80",
                            "\xFE", "\xF0\x9F\x98"}) {
      const absl::Status status = analyzer->Analyze(std::string("ok ") + bad + " x", &buffer);
      EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
      EXPECT_NE(status.message().find("byte offset 3"), std::string::npos) << status;
      EXPECT_EQ(Tokens(buffer), before);
    }
  }
}

}  // namespace
}  // namespace invert

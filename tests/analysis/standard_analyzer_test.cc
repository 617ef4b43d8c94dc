// Tests of the standard analyzer against hand-written tokens and byte offsets:
// English, accents and decomposed marks, Greek, CJK, Thai, Korean, emoji,
// numbers, mixed scripts, NFKC on and off, max_token_length splitting,
// invalid UTF-8 (buffer unchanged), and buffer reuse across documents. Each
// expectation is checked on both paths (automatic and ICU only).
#include "analysis/standard_analyzer.h"

#include <ostream>
#include <string>
#include <vector>

#include "analysis/limited_token_buffer.h"
#include "gtest/gtest.h"
#include "invert/analysis.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using internal::StandardPath;

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

std::vector<Token> Tokens(const TokenBuffer& buffer, size_t from = 0) {
  std::vector<Token> tokens;
  for (size_t i = from; i < buffer.size(); ++i) {
    const AnalyzedToken t = buffer[i];
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

// Checks `expected` on both paths.
void ExpectTokens(const StandardAnalyzerOptions& options, std::string_view text,
                  const std::vector<Token>& expected) {
  for (StandardPath path : {StandardPath::kAuto, StandardPath::kIcuOnly}) {
    auto analyzer = internal::NewStandardAnalyzer(options, path);
    EXPECT_EQ(Analyze(*analyzer, text), expected)
        << ::testing::PrintToString(std::string(text))
        << (path == StandardPath::kAuto ? " (auto)" : " (ICU only)");
  }
}

void ExpectTokens(std::string_view text, const std::vector<Token>& expected) {
  ExpectTokens(StandardAnalyzerOptions{}, text, expected);
}

TEST(StandardAnalyzerTest, English) {
  const char* text = "The Quick brown-fox can't jump 3.14 meters, U.S.A. style!";
  ExpectTokens(text, {{"the", 0, 3},
                      {"quick", 4, 9},
                      {"brown", 10, 15},
                      {"fox", 16, 19},
                      {"can't", 20, 25},
                      {"jump", 26, 30},
                      {"3.14", 31, 35},
                      {"meters", 36, 42},
                      {"u.s.a", 44, 49},
                      {"style", 51, 56}});
  ExpectTokens("", {});
  ExpectTokens(" \t\n.,;:!?", {});
  // '_' joins (ExtendNumLet); ':' and '-' split; '@' is a letter for ICU (CLDR
  // tailoring), so an e-mail address stays one token.
  text = "foo_bar __init__ a:b e-mail user@example.com";
  ExpectTokens(text, {{"foo_bar", 0, 7},
                      {"__init__", 8, 16},
                      {"a", 17, 18},
                      {"b", 19, 20},
                      {"e", 21, 22},
                      {"mail", 23, 27},
                      {"user@example.com", 28, 44}});
}

TEST(StandardAnalyzerTest, AccentsAndFolding) {
  // Offsets are UTF-8 byte offsets: "é" is two bytes.
  ExpectTokens("Café Ñandú naïve ÉCOLE Straße", {{"café", 0, 5},
                                                 {"ñandú", 6, 13},
                                                 {"naïve", 14, 20},
                                                 {"école", 21, 27},
                                                 {"strasse", 28, 35}});
  // Combining marks stay with their base letter (WB4) and are not composed.
  ExpectTokens("e\u0301te\u0301 x", {{"e\u0301te\u0301", 0, 7}, {"x", 8, 9}});
  // Case folding, not lower-casing: final sigma folds to σ.
  ExpectTokens("ΣΊΣΥΦΟΣ", {{"σίσυφοσ", 0, 14}});
  // Typographic apostrophe (MidNumLet) joins like the ASCII one.
  ExpectTokens("Don\u2019t", {{"don\u2019t", 0, 7}});
}

TEST(StandardAnalyzerTest, CjkThaiKorean) {
  // Han and kana use ICU's dictionary; each segment is one token.
  ExpectTokens("東京都に住む", {{"東京", 0, 6}, {"都", 6, 9}, {"に", 9, 12}, {"住む", 12, 18}});
  ExpectTokens("カタカナ", {{"カタカナ", 0, 12}});
  ExpectTokens("ภาษาไทย", {{"ภาษา", 0, 12}, {"ไทย", 12, 21}});
  ExpectTokens("안녕하세요 세계", {{"안녕하세요", 0, 15}, {"세계", 16, 22}});
}

TEST(StandardAnalyzerTest, EmojiAreDropped) {
  // Emoji segments have rule status UBRK_WORD_NONE: dropped like punctuation,
  // including modifier sequences and flags.
  ExpectTokens("I \u2764\uFE0F NY \U0001F600 \U0001F44D\U0001F3FDx \U0001F1FA\U0001F1F8",
               {{"i", 0, 1}, {"ny", 9, 11}, {"x", 25, 26}});
  ExpectTokens("a\U0001F600b", {{"a", 0, 1}, {"b", 5, 6}});
}

TEST(StandardAnalyzerTest, Numbers) {
  ExpectTokens("1,000.50 42nd 3.14.15 \u0663\u0664\u0665 1,000, x2",
               {{"1,000.50", 0, 8},
                {"42nd", 9, 13},
                {"3.14.15", 14, 21},
                {"\u0663\u0664\u0665", 22, 28},
                {"1,000", 29, 34},
                {"x2", 36, 38}});
  // Vulgar fractions and superscripts are not Numeric for UAX #29.
  ExpectTokens("\u00BD x\u00B2", {{"x", 3, 4}});
}

TEST(StandardAnalyzerTest, MixedScripts) {
  ExpectTokens("Moscow Москва 東京 café",
               {{"moscow", 0, 6}, {"москва", 7, 19}, {"東京", 20, 26}, {"café", 27, 32}});
  // Hebrew letters join across a double quote (WB7b/c): acronyms like צה"ל.
  ExpectTokens("צה\"ל x\"y", {{"צה\"ל", 0, 7}, {"x", 8, 9}, {"y", 10, 11}});
}

TEST(StandardAnalyzerTest, NfkcOffFoldsOnly) {
  StandardAnalyzerOptions options;
  ExpectTokens(options, "ＡＢＣ１２３", {{"ａｂｃ１２３", 0, 18}});
  ExpectTokens(options, "\u0133ssel", {{"\u0133ssel", 0, 6}});
  ExpectTokens(options, "\u216B", {{"\u217B", 0, 3}});
  ExpectTokens(options, "ｶﾀｶﾅ", {{"ｶﾀｶﾅ", 0, 12}});
  ExpectTokens(options, "soft\u00ADhyphen", {{"soft\u00ADhyphen", 0, 12}});
  // Full case folding already expands the Latin ligatures (CaseFolding.txt
  // maps U+FB01 to "fi"), so "ﬁ" becomes "fi" with or without NFKC.
  ExpectTokens(options, "\uFB01ne", {{"fine", 0, 5}});
  ExpectTokens(options, "\u3164 word", {{"\u3164", 0, 3}, {"word", 4, 8}});
}

TEST(StandardAnalyzerTest, NfkcOnMapsCompatibilityForms) {
  StandardAnalyzerOptions options;
  options.nfkc = true;
  ExpectTokens(options, "ＡＢＣ１２３", {{"abc123", 0, 18}});
  ExpectTokens(options, "\u0133ssel", {{"ijssel", 0, 6}});
  ExpectTokens(options, "\u216B", {{"xii", 0, 3}});
  ExpectTokens(options, "ｶﾀｶﾅ", {{"カタカナ", 0, 12}});
  ExpectTokens(options, "soft\u00ADhyphen", {{"softhyphen", 0, 12}});
  ExpectTokens(options, "\uFB01ne", {{"fine", 0, 5}});
  ExpectTokens(options, "Straße CAFÉ", {{"strasse", 0, 7}, {"café", 8, 13}});
  // Canonical composition: decomposed é becomes U+00E9.
  ExpectTokens(options, "e\u0301te\u0301", {{"\u00E9t\u00E9", 0, 7}});
  // A word that NFKC_Casefold erases (U+3164 HANGUL FILLER is default
  // ignorable) is dropped; the next token keeps the position.
  ExpectTokens(options, "\u3164 word", {{"word", 4, 8, 2}});
  ExpectTokens(options, "plain ascii", {{"plain", 0, 5}, {"ascii", 6, 11}});
}

TEST(StandardAnalyzerTest, LongWordsAreSplitAtMaxTokenLength) {
  StandardAnalyzerOptions options;
  options.max_token_length = 4;
  ExpectTokens(options, "abcdefghij xy 1234.5678",
               {{"abcd", 0, 4},
                {"efgh", 4, 8},
                {"ij", 8, 10},
                {"xy", 11, 13},
                {"1234", 14, 18},
                {".567", 18, 22},
                {"8", 22, 23}});
  // Counted in code points of the input, before folding.
  options.max_token_length = 2;
  ExpectTokens(options, "ÉÉÉÉÉ", {{"éé", 0, 4}, {"éé", 4, 8}, {"é", 8, 10}});
  ExpectTokens(options, "ßßß", {{"ssss", 0, 4}, {"ss", 4, 6}});
  // Values below 1 act as 1.
  options.max_token_length = 0;
  ExpectTokens(options, "abc", {{"a", 0, 1}, {"b", 1, 2}, {"c", 2, 3}});
  // Default 255.
  const std::string long_word(300, 'A');
  ExpectTokens(
      long_word + " b",
      {{std::string(255, 'a'), 0, 255}, {std::string(45, 'a'), 255, 300}, {"b", 301, 302}});
}

TEST(StandardAnalyzerTest, InvalidUtf8LeavesTheBufferUnchanged) {
  const std::string kBad[] = {
      "\x80",
      "\xC0\xAF",
      "\xE0\x80\xAF",
      "\xF0\x80\x80\xAF",
      "\xED\xA0\x80",
      "\xF4\x90\x80\x80",
      "\xFF",
      "\xE2\x82",
      "\xF0\x9F\x98 end",
  };
  for (StandardPath path : {StandardPath::kAuto, StandardPath::kIcuOnly}) {
    for (bool nfkc : {false, true}) {
      auto analyzer = internal::NewStandardAnalyzer({.nfkc = nfkc}, path);
      LimitedTokenBuffer buffer;
      ASSERT_TRUE(analyzer->Analyze("already here, café", &buffer).ok());
      const std::vector<Token> before = Tokens(buffer);
      const size_t arena_before = buffer.arena_bytes();
      for (const std::string& bad : kBad) {
        const std::string text = "Some words \xC3\xA9t\xC3\xA9 then " + bad + " more words";
        const absl::Status status = analyzer->Analyze(text, &buffer);
        EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
        EXPECT_NE(status.message().find("byte offset 22"), std::string::npos) << status;
        EXPECT_EQ(Tokens(buffer), before);
        EXPECT_EQ(buffer.arena_bytes(), arena_before);
      }
      // The analyzer is still usable.
      ASSERT_TRUE(analyzer->Analyze("Next", &buffer).ok());
      EXPECT_EQ(Tokens(buffer, before.size()), (std::vector<Token>{{"next", 0, 4}}));
    }
  }
}

TEST(StandardAnalyzerTest, ValuesAppendAndOffsetsAreRelativeToEachValue) {
  auto analyzer = NewStandardAnalyzer();
  TokenBuffer buffer;
  ASSERT_TRUE(analyzer->Analyze("Hello world", &buffer).ok());
  ASSERT_TRUE(analyzer->Analyze("Grüße, Welt", &buffer).ok());
  EXPECT_EQ(
      Tokens(buffer),
      (std::vector<Token>{{"hello", 0, 5}, {"world", 6, 11}, {"grüsse", 0, 7}, {"welt", 9, 13}}));
}

// Random documents of mixed text through one analyzer and one buffer (cleared
// per document) give the same tokens as a fresh analyzer and buffer each time.
TEST(StandardAnalyzerTest, ReuseAcrossDocumentsMatchesFreshAnalyzers) {
  Random rng(testing::TestSeed(601));
  const char* kWords[] = {"The",    "quick",  "café",  "ΣΟΦΙΑ", "東京都", "can't", "3.14",
                          "ＡＢＣ", "\u3164", "naïve", "😀",     "x_y",    "ﬁne",   "ภาษาไทย"};
  for (bool nfkc : {false, true}) {
    auto reused = NewStandardAnalyzer({.nfkc = nfkc});
    TokenBuffer buffer;
    for (int doc = 0; doc < 300; ++doc) {
      std::string text;
      const size_t words = rng.Uniform(200);
      for (size_t w = 0; w < words; ++w) {
        text += kWords[rng.Uniform(std::size(kWords))];
        text += rng.Bernoulli(0.8) ? " " : ", ";
      }
      buffer.Clear();
      ASSERT_TRUE(reused->Analyze(text, &buffer).ok());
      auto fresh = NewStandardAnalyzer({.nfkc = nfkc});
      ASSERT_EQ(Tokens(buffer), Analyze(*fresh, text)) << doc;
    }
  }
}

}  // namespace
}  // namespace invert

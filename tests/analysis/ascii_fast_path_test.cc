// The proof that the standard analyzer's fast paths are byte-identical to ICU:
// every token (term, offsets, increments) of the automatic path must equal
// that of the ICU-only path
//   * for every ASCII character between every pair of word classes,
//   * exhaustively for all strings of up to 4 characters over one
//     representative of each ASCII Word_Break class,
//   * on random ASCII strings rich in the joining characters (. ' , ; : _),
//   * on random mixed ASCII/non-ASCII text (piece splitting, ASCII folding
//     inside ICU pieces), with NFKC on and off and tiny max_token_length,
// plus named edge cases with hand-written results.
#include <string>
#include <vector>

#include "analysis/standard_analyzer.h"
#include "gtest/gtest.h"
#include "invert/analysis.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using internal::StandardPath;

// Both paths of one configuration and a buffer each.
class Paths {
 public:
  explicit Paths(const StandardAnalyzerOptions& options = {})
      : automatic_(internal::NewStandardAnalyzer(options, StandardPath::kAuto)),
        icu_(internal::NewStandardAnalyzer(options, StandardPath::kIcuOnly)) {}

  // Returns true iff both paths give the same tokens; explains a difference.
  ::testing::AssertionResult Agree(std::string_view text) {
    a_.Clear();
    b_.Clear();
    const absl::Status sa = automatic_->Analyze(text, &a_);
    const absl::Status sb = icu_->Analyze(text, &b_);
    if (!sa.ok() || !sb.ok()) {
      return ::testing::AssertionFailure() << "status " << sa << " / " << sb;
    }
    if (a_.size() != b_.size()) {
      return ::testing::AssertionFailure()
             << ::testing::PrintToString(std::string(text)) << ": " << Describe(a_) << " (auto) vs "
             << Describe(b_) << " (ICU)";
    }
    for (size_t i = 0; i < a_.size(); ++i) {
      const AnalyzedToken x = a_[i], y = b_[i];
      if (x.term != y.term || x.start_offset != y.start_offset || x.end_offset != y.end_offset ||
          x.position_increment != y.position_increment) {
        return ::testing::AssertionFailure()
               << ::testing::PrintToString(std::string(text)) << ": " << Describe(a_)
               << " (auto) vs " << Describe(b_) << " (ICU)";
      }
    }
    return ::testing::AssertionSuccess();
  }

  std::vector<std::string> Terms(std::string_view text) {
    a_.Clear();
    EXPECT_TRUE(automatic_->Analyze(text, &a_).ok());
    std::vector<std::string> terms;
    for (size_t i = 0; i < a_.size(); ++i) terms.emplace_back(a_[i].term);
    return terms;
  }

 private:
  static std::string Describe(const TokenBuffer& buffer) {
    std::string s = "[";
    for (size_t i = 0; i < buffer.size(); ++i) {
      const AnalyzedToken t = buffer[i];
      s += ::testing::PrintToString(std::string(t.term)) + " " + std::to_string(t.start_offset) +
           ".." + std::to_string(t.end_offset) + " +" + std::to_string(t.position_increment) +
           (i + 1 < buffer.size() ? ", " : "");
    }
    return s + "]";
  }

  std::unique_ptr<Analyzer> automatic_;
  std::unique_ptr<Analyzer> icu_;
  TokenBuffer a_;
  TokenBuffer b_;
};

TEST(StandardAnalyzerFastPathTest, NamedEdgeCases) {
  Paths paths;
  struct Case {
    const char* text;
    std::vector<std::string> terms;
  };
  const Case kCases[] = {
      {"can't", {"can't"}},
      {"U.S.A.", {"u.s.a"}},
      {"3.14", {"3.14"}},
      {"1,000", {"1,000"}},
      {"1;2", {"1;2"}},
      {"1'000", {"1'000"}},
      {"a:b", {"a", "b"}},  // ICU root rules take ':' out of MidLetter
      {"1:2", {"1", "2"}},
      {"a,b a;b", {"a", "b", "a", "b"}},  // MidNum joins digits only
      {"foo_bar", {"foo_bar"}},
      {"abc123", {"abc123"}},
      {"42nd", {"42nd"}},
      {"_", {}},  // a lone ExtendNumLet has no word status
      {"__ ___", {"__", "___"}},
      {"_a a_ _1 1_", {"_a", "a_", "_1", "1_"}},
      {"a..b", {"a", "b"}},
      {"a.b.1", {"a.b", "1"}},
      {"1.a a.1", {"1", "a", "a", "1"}},
      {"1_.2", {"1_", "2"}},  // the character before '.' must be a digit
      {"a_.b", {"a_", "b"}},
      {"_1.2", {"_1.2"}},
      {"a_b.c", {"a_b.c"}},
      {"a'b'c'", {"a'b'c"}},
      {"'quoted'", {"quoted"}},
      {"a\"b", {"a", "b"}},
      {"x.", {"x"}},
      {".x", {"x"}},
      {"1.2.3.4", {"1.2.3.4"}},
      {"1..2", {"1", "2"}},
      {"a.'b", {"a", "b"}},
      {"hello\r\nworld", {"hello", "world"}},
      {"tab\tsep\vand\fff", {"tab", "sep", "and", "ff"}},
      {"MiXeD CaSe", {"mixed", "case"}},
      {"user@Example.com", {"user@example.com"}},  // CLDR: '@' is ALetter
      {"@ @@ 1@2", {"@", "@@", "1@2"}},
  };
  for (const Case& c : kCases) {
    EXPECT_EQ(paths.Terms(c.text), c.terms) << c.text;
    EXPECT_TRUE(paths.Agree(c.text));
  }
}

TEST(StandardAnalyzerFastPathTest, EveryAsciiCharacterInEveryContext) {
  Paths paths;
  const char* kContexts[] = {"%",    "%%",   "a%b",  "1%2",   "a%1",   "1%a",
                             "_%_",  "a%",   "%a",   "ab%cd", "12%34", "a_%b",
                             "1_%2", "a%%b", "1%%2", "a.b%c", "1.2%3", "x'%y"};
  for (int c = 0; c < 128; ++c) {
    for (const char* context : kContexts) {
      std::string text;
      for (const char* p = context; *p != '\0'; ++p) {
        if (*p == '%') {
          text.push_back(static_cast<char>(c));
        } else {
          text.push_back(*p);
        }
      }
      ASSERT_TRUE(paths.Agree(text)) << "character " << c;
    }
  }
}

// One character of each ASCII Word_Break class (and both cases of letters):
// a string over these of length <= 4 covers every local context the rules
// look at (one character behind, two ahead).
constexpr char kRepresentatives[] = {'a', 'Z', '7',  '_',  '.',  ',', ';', ':', '\'',
                                     '"', ' ', '\n', '\r', '\t', '-', '@', '\v'};

TEST(StandardAnalyzerFastPathTest, AllShortStringsOverTheWordBreakClasses) {
  Paths paths;
  Paths split({.max_token_length = 2});
  constexpr size_t k = sizeof(kRepresentatives);
  std::string text;
  size_t count = 0;
  for (size_t length = 1; length <= 4; ++length) {
    size_t total = 1;
    for (size_t i = 0; i < length; ++i) total *= k;
    for (size_t index = 0; index < total; ++index) {
      text.clear();
      for (size_t i = 0, x = index; i < length; ++i, x /= k)
        text.push_back(kRepresentatives[x % k]);
      ASSERT_TRUE(paths.Agree(text));
      ASSERT_TRUE(split.Agree(text));
      ++count;
    }
  }
  EXPECT_EQ(count, 17u + 17 * 17 + 17 * 17 * 17 + 17 * 17 * 17 * 17);
}

std::string RandomText(Random& rng, const std::vector<std::string>& alphabet, size_t max_length) {
  std::string text;
  const size_t length = rng.Uniform(max_length + 1);
  for (size_t i = 0; i < length; ++i) {
    // Runs of letters and digits make words long enough for the joiners to matter.
    text += alphabet[rng.Bernoulli(0.5) ? rng.Uniform(8) : rng.Uniform(alphabet.size())];
  }
  return text;
}

TEST(StandardAnalyzerFastPathTest, RandomAsciiStrings) {
  Random rng(testing::TestSeed(701));
  // First 8 entries: letters and digits (favoured by RandomText).
  const std::vector<std::string> alphabet = {
      "a",   "b",  "Q",  "Z",  "0", "5", "9",  "x", "_", ".",
      ".",   ",",  ";",  ":",  "'", "'", "\"", " ", " ", "\t",
      "\n",  "\r", "\v", "\f", "-", "@", "/",  "!", "?", "(",
      ")",   "#",  "$",  "%",  "&", "*", "+",  "=", "<", ">",
      "[",   "]",  "\\", "^",  "`", "{", "|",  "}", "~", std::string(1, '\0'),
      "\x7f"};
  Paths paths;
  Paths split({.max_token_length = 3});
  for (int i = 0; i < 200000; ++i) {
    const std::string text = RandomText(rng, alphabet, 40);
    ASSERT_TRUE(paths.Agree(text)) << "case " << i;
    ASSERT_TRUE(split.Agree(text)) << "case " << i;
  }
}

TEST(StandardAnalyzerFastPathTest, RandomMixedText) {
  Random rng(testing::TestSeed(702));
  const std::vector<std::string> alphabet = {
      "a", "B", "z", "3", "é", "É", "ß", "x",
      // ASCII joiners and separators
      "_", ".", ",", ";", ":", "'", "\"", " ", " ", " ", "\t", "\n", "\r", "-",
      // Non-ASCII that interacts with its neighbours
      "\u0301",      // combining acute (Extend)
      "\u200D",      // ZWJ
      "\u00AD",      // soft hyphen (Format)
      "\u2060",      // word joiner (Format)
      "\u2019",      // right single quotation mark (MidNumLet)
      "\u00B7",      // middle dot (MidLetter)
      "\u00A0",      // no-break space
      "\u3000",      // ideographic space
      "\U0001F600",  // emoji
      "\U0001F3FD",  // skin tone modifier
      "\U0001F1FA",  // regional indicator
      "東", "京", "カ", "ｶ", "ไ", "ท", "한", "א", "ב", "\u0663", "Ａ", "１", "\uFB01", "\u3164",
      "\u0390", "Σ"};
  for (bool nfkc : {false, true}) {
    Paths paths({.nfkc = nfkc});
    Paths split({.nfkc = nfkc, .max_token_length = 3});
    for (int i = 0; i < 30000; ++i) {
      // Long texts with runs of plain ASCII around the non-ASCII.
      std::string text;
      const size_t parts = rng.Uniform(6);
      for (size_t p = 0; p < parts; ++p) {
        text += RandomText(rng, alphabet, 30);
        if (rng.Bernoulli(0.5)) text += " plain ASCII words, can't 3.14 and more ";
      }
      ASSERT_TRUE(paths.Agree(text)) << "case " << i << " nfkc " << nfkc;
      ASSERT_TRUE(split.Agree(text)) << "case " << i << " nfkc " << nfkc;
    }
  }
}

}  // namespace
}  // namespace invert

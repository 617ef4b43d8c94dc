// Tests of the analyzers' UTF-8 check against a plain decoder written from the
// definition (length from the lead byte, then minimum, surrogate and maximum
// checks on the decoded value): exhaustively for every string of up to three
// bytes, and on random strings; plus the reason named for each error class,
// and White_Space detection against ICU for every code point. The public
// IsValidUtf8 (invert/utf8.h) is checked to give the same answers.
#include "analysis/utf8.h"

#include <unicode/uchar.h>

#include <string>

#include "gtest/gtest.h"
#include "invert/utf8.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert::internal {
namespace {

// Returns the offset of the first ill-formed sequence, or npos.
size_t ReferenceFirstError(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t i = 0;
  while (i < s.size()) {
    const unsigned c = p[i];
    size_t length;
    uint32_t cp;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      length = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      length = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      length = 4;
      cp = c & 0x07;
    } else {
      return i;
    }
    if (i + length > s.size()) return i;
    for (size_t k = 1; k < length; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
      cp = cp << 6 | (p[i + k] & 0x3F);
    }
    const uint32_t min = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
    if (cp < min || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return i;
    i += length;
  }
  return std::string_view::npos;
}

void ExpectAgreesWithReference(std::string_view s) {
  Utf8Error error;
  size_t first_non_ascii = 12345;
  const bool ok = ValidateUtf8(s, &error, &first_non_ascii);
  const size_t expected = ReferenceFirstError(s);
  ASSERT_EQ(ok, expected == std::string_view::npos) << ::testing::PrintToString(s);
  if (!ok) {
    ASSERT_EQ(error.offset, expected) << ::testing::PrintToString(s);
  }
  size_t non_ascii = 0;
  while (non_ascii < s.size() && static_cast<unsigned char>(s[non_ascii]) < 0x80) ++non_ascii;
  ASSERT_EQ(first_non_ascii, non_ascii) << ::testing::PrintToString(s);
}

TEST(AnalysisUtf8Test, AllStringsOfUpToThreeBytes) {
  std::string s;
  for (int a = 0; a < 256; ++a) {
    s.assign(1, static_cast<char>(a));
    ASSERT_NO_FATAL_FAILURE(ExpectAgreesWithReference(s));
    for (int b = 0; b < 256; ++b) {
      s.assign({static_cast<char>(a), static_cast<char>(b)});
      ASSERT_NO_FATAL_FAILURE(ExpectAgreesWithReference(s));
      for (int c = 0; c < 256; ++c) {
        const char bytes[3] = {static_cast<char>(a), static_cast<char>(b), static_cast<char>(c)};
        Utf8Error error;
        const bool ok = ValidateUtf8(std::string_view(bytes, 3), &error);
        const size_t expected = ReferenceFirstError(std::string_view(bytes, 3));
        ASSERT_EQ(ok, expected == std::string_view::npos) << a << " " << b << " " << c;
        if (!ok) {
          ASSERT_EQ(error.offset, expected) << a << " " << b << " " << c;
        }
      }
    }
  }
}

TEST(AnalysisUtf8Test, RandomStrings) {
  Random rng(testing::TestSeed(501));
  // Bytes around every range edge of Table 3-7, plus ASCII runs.
  const unsigned char kBytes[] = {'a',  ' ',  0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0,
                                  0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED,
                                  0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF};
  std::string s;
  for (int i = 0; i < 300000; ++i) {
    s.clear();
    const size_t length = rng.Uniform(24);
    for (size_t k = 0; k < length; ++k) {
      if (rng.Bernoulli(0.05)) {
        s.append(rng.Uniform(20), 'x');  // exercises the 8-byte ASCII skip
      } else {
        s.push_back(static_cast<char>(kBytes[rng.Uniform(sizeof(kBytes))]));
      }
    }
    ASSERT_NO_FATAL_FAILURE(ExpectAgreesWithReference(s));
  }
}

TEST(AnalysisUtf8Test, NamesEachErrorClassAndItsOffset) {
  struct Case {
    std::string bytes;
    const char* reason;
  };
  const Case kCases[] = {
      {"\x80", "unexpected continuation byte"},
      {"\xBF", "unexpected continuation byte"},
      {"\xC0\xAF", "overlong encoding"},
      {"\xC1\xBF", "overlong encoding"},
      {"\xE0\x80\xAF", "overlong encoding"},
      {"\xE0\x9F\xBF", "overlong encoding"},
      {"\xF0\x80\x80\xAF", "overlong encoding"},
      {"\xF0\x8F\xBF\xBF", "overlong encoding"},
      {"\xED\xA0\x80", "surrogate code point"},
      {"\xED\xBF\xBF", "surrogate code point"},
      {"\xF4\x90\x80\x80", "code point above U+10FFFF"},
      {"\xF5\x80\x80\x80", "code point above U+10FFFF"},
      {"\xF7\xBF\xBF\xBF", "code point above U+10FFFF"},
      {"\xF8\x88\x80\x80\x80", "byte that never occurs in UTF-8"},
      {"\xFF", "byte that never occurs in UTF-8"},
      {"\xC3", "truncated sequence"},
      {"\xE2\x82", "truncated sequence"},
      {"\xE2\x82x", "truncated sequence"},
      {"\xF0\x9F\x98", "truncated sequence"},
      {"\xF0\x9F\x98\xC3\xA9", "truncated sequence"},
  };
  const std::string prefix = "valid prefix caf\xC3\xA9 ";  // 19 bytes
  for (const Case& c : kCases) {
    Utf8Error error;
    ASSERT_FALSE(ValidateUtf8(prefix + c.bytes + " tail", &error)) << c.reason;
    EXPECT_EQ(error.offset, prefix.size()) << c.reason;
    EXPECT_STREQ(error.reason, c.reason);
    const absl::Status status = CheckAnalyzerInput(prefix + c.bytes);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(), "invalid UTF-8 at byte offset 19: " + std::string(c.reason));
    // The public function: the same error, and the error argument is optional.
    Utf8Error public_error;
    EXPECT_FALSE(IsValidUtf8(prefix + c.bytes, &public_error)) << c.reason;
    EXPECT_EQ(public_error.offset, prefix.size()) << c.reason;
    EXPECT_STREQ(public_error.reason, c.reason);
    EXPECT_FALSE(IsValidUtf8(prefix + c.bytes)) << c.reason;
  }
}

TEST(AnalysisUtf8Test, AcceptsTheExtremesOfEachRange) {
  using namespace std::literals;
  for (std::string_view s :
       {""sv, "\x00"sv, "\x7F"sv, "\xC2\x80"sv, "\xDF\xBF"sv, "\xE0\xA0\x80"sv, "\xED\x9F\xBF"sv,
        "\xEE\x80\x80"sv, "\xEF\xBF\xBF"sv, "\xF0\x90\x80\x80"sv, "\xF4\x8F\xBF\xBF"sv}) {
    Utf8Error error;
    EXPECT_TRUE(ValidateUtf8(s, &error)) << ::testing::PrintToString(std::string(s));
    EXPECT_TRUE(IsValidUtf8(s)) << ::testing::PrintToString(std::string(s));
  }
}

std::string EncodeUtf8(UChar32 cp) {
  std::string s;
  if (cp < 0x80) {
    s.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    s.push_back(static_cast<char>(0xC0 | cp >> 6));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    s.push_back(static_cast<char>(0xE0 | cp >> 12));
    s.push_back(static_cast<char>(0x80 | (cp >> 6 & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    s.push_back(static_cast<char>(0xF0 | cp >> 18));
    s.push_back(static_cast<char>(0x80 | (cp >> 12 & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp >> 6 & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
  return s;
}

TEST(AnalysisUtf8Test, WhiteSpaceMatchesIcuForEveryCodePoint) {
  int white_space = 0;
  for (UChar32 cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    const std::string s = EncodeUtf8(cp);
    const bool expected = u_isUWhiteSpace(cp);
    ASSERT_EQ(WhiteSpaceLength(s, 0), expected ? s.size() : 0) << std::hex << cp;
    // A continuation byte is never taken for White_Space.
    for (size_t k = 1; k < s.size(); ++k) ASSERT_EQ(WhiteSpaceLength(s, k), 0u) << std::hex << cp;
    white_space += expected;
  }
  EXPECT_EQ(white_space, 25);
}

}  // namespace
}  // namespace invert::internal

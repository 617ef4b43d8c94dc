// Tests of OpenJsonLines: fields and ids of every JSON type, escapes and
// \u sequences, unknown and nested keys, malformed lines with their numbers
// and recovery, blank lines, CRLF, over-long lines, and a randomized
// round trip of documents through a plain JSON encoder.
#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "corpus/temp_file.h"
#include "gtest/gtest.h"
#include "invert/line_docs.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using testing::TempFile;

struct Doc {
  std::string id, title, date, body;
  uint64_t line_number;
  bool operator==(const Doc&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Doc& d) {
  return os << "{" << d.id << "|" << d.title << "|" << d.date << "|" << d.body << "|"
            << d.line_number << "}";
}

std::vector<Doc> ReadAll(const std::string& contents, std::vector<std::string>* errors = nullptr,
                         const DocSourceOptions& options = {}) {
  TempFile file(contents);
  auto source = OpenJsonLines(file.path(), options);
  EXPECT_TRUE(source.ok()) << source.status();
  std::vector<Doc> docs;
  if (!source.ok()) return docs;
  for (;;) {
    auto doc = (*source)->Next();
    if (absl::IsOutOfRange(doc.status())) break;
    if (!doc.ok()) {
      EXPECT_TRUE(absl::IsInvalidArgument(doc.status())) << doc.status();
      if (!absl::IsInvalidArgument(doc.status())) break;
      if (errors != nullptr) errors->push_back(std::string(doc.status().message()));
      continue;
    }
    docs.push_back(Doc{std::string(doc->id), std::string(doc->title), std::string(doc->date),
                       std::string(doc->body), doc->line_number});
  }
  EXPECT_EQ((*source)->bytes_read(), contents.size());
  EXPECT_EQ((*source)->total_bytes(), contents.size());
  return docs;
}

TEST(JsonLinesTest, FieldsAndIdsOfEveryType) {
  const std::vector<Doc> docs =
      ReadAll(R"({"id": 7, "title": "T", "date": "24-MAR-2012 04:19:53.000", "body": "b"})"
              "\n"
              R"({"body": "no id", "id": "abc"})"
              "\n"
              R"({"body": "line number as id"})"
              "\n"
              R"({"id": null, "title": null, "date": null, "body": ""})"
              "\n"
              R"({"id": -3, "body": "x"})"
              "\n"
              R"({"id": 18446744073709551615, "body": "x"})"
              "\n"
              R"({"id": 1.5, "body": "x"})"
              "\n"
              R"({"id": 1e3, "body": "x"})"
              "\n");
  ASSERT_EQ(docs.size(), 8u);
  EXPECT_EQ(docs[0], (Doc{"7", "T", "24-MAR-2012 04:19:53.000", "b", 1}));
  EXPECT_EQ(docs[1], (Doc{"abc", "", "", "no id", 2}));
  EXPECT_EQ(docs[2], (Doc{"3", "", "", "line number as id", 3}));
  EXPECT_EQ(docs[3], (Doc{"4", "", "", "", 4}));
  EXPECT_EQ(docs[4].id, "-3");
  EXPECT_EQ(docs[5].id, "18446744073709551615");
  EXPECT_EQ(docs[6].id, "1.5");
  EXPECT_EQ(docs[7].id, "1000");
}

TEST(JsonLinesTest, EscapesAndUnicodeAreDecoded) {
  const std::vector<Doc> docs = ReadAll(
      R"({"title": "caf\u00e9 \u6771\u4eac", "body": "q\"b\\s\/ \b\f\n\r\t \ud83d\ude00 é"})"
      "\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].title, "caf\xc3\xa9 \xe6\x9d\xb1\xe4\xba\xac");
  EXPECT_EQ(docs[0].body, "q\"b\\s/ \b\f\n\r\t \xf0\x9f\x98\x80 \xc3\xa9");
}

TEST(JsonLinesTest, UnknownKeysAreIgnoredAndTheLastDuplicateWins) {
  const std::vector<Doc> docs = ReadAll(
      R"({"url": "x", "nested": {"body": "not me", "a": [1, {"b": null}]}, "body": "first",)"
      R"( "tags": ["a", "b"], "views": 1.5e9, "ok": true, "body": "second"})"
      "\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].body, "second");
}

TEST(JsonLinesTest, MalformedLinesReportLineNumbersAndReadingGoesOn) {
  std::vector<std::string> errors;
  const std::vector<Doc> docs = ReadAll(
      "{\"body\": \"ok\"}\n"               // 1
      "{\"body\": \"unterminated}\n"       // 2
      "{\"title\": \"no body\"}\n"         // 3
      "{\"body\": 42}\n"                   // 4
      "[\"body\", \"x\"]\n"                // 5
      "{\"body\": \"x\", \"title\": 1}\n"  // 6
      "{\"body\": \"x\", \"id\": [1]}\n"   // 7
      "{\"body\": \"x\"} trailing\n"       // 8
      "{\"body\": \"bad utf8 \xff\"}\n"    // 9
      "{\"body\": \"last\"}",              // 10, no LF
      &errors);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].line_number, 1u);
  EXPECT_EQ(docs[1], (Doc{"10", "", "", "last", 10}));
  ASSERT_EQ(errors.size(), 8u);
  EXPECT_TRUE(errors[0].starts_with("line 2: invalid JSON")) << errors[0];
  EXPECT_EQ(errors[1], "line 3: missing \"body\"");
  EXPECT_EQ(errors[2], "line 4: \"body\" is not a string");
  EXPECT_EQ(errors[3], "line 5: not a JSON object");
  EXPECT_EQ(errors[4], "line 6: \"title\" is not a string");
  EXPECT_EQ(errors[5], "line 7: \"id\" is not a string or a number");
  EXPECT_TRUE(errors[6].starts_with("line 8: invalid JSON")) << errors[6];
  EXPECT_TRUE(errors[7].starts_with("line 9: invalid JSON")) << errors[7];
}

TEST(JsonLinesTest, BlankLinesAreSkippedAndCrlfIsAccepted) {
  const std::vector<Doc> docs =
      ReadAll("\n  \t\r\n{\"body\": \"a\"}\r\n\r\n{\"body\": \"b\"}\r\n   ");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0], (Doc{"3", "", "", "a", 3}));
  EXPECT_EQ(docs[1], (Doc{"5", "", "", "b", 5}));
}

TEST(JsonLinesTest, ByteOrderMarkIsSkipped) {
  const std::vector<Doc> docs = ReadAll("\xEF\xBB\xBF{\"body\": \"a\"}\n{\"body\": \"b\"}\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0], (Doc{"1", "", "", "a", 1}));
}

TEST(JsonLinesTest, OverLongLineIsSkipped) {
  DocSourceOptions options;
  options.max_line_bytes = 64;
  options.read_bytes = 16;
  std::vector<std::string> errors;
  const std::vector<Doc> docs =
      ReadAll(absl::StrCat("{\"body\": \"", std::string(100, 'x'), "\"}\n{\"body\": \"y\"}\n"),
              &errors, options);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].body, "y");
  EXPECT_EQ(errors, std::vector<std::string>{"line 1: longer than 64 bytes"});
}

// A minimal JSON string encoder: escapes what JSON requires, and sometimes
// more (\u escapes of ASCII), to exercise the decoder.
std::string Quote(const std::string& s, Random& rng) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || (c < 0x80 && rng.Bernoulli(0.05))) {
      char escape[8];
      std::snprintf(escape, sizeof(escape), "\\u%04x", c);
      out += escape;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

TEST(JsonLinesTest, RandomizedRoundTrip) {
  Random rng(testing::TestSeed(4242));
  const std::string alphabet[] = {
      "a",  "Z",  " ",    "\"",       "\\",           "/",
      "\n", "\t", "\x01", "\xc3\xa9", "\xe6\x9d\xb1", "\xf0\x9f\x98\x80",
      "{",  "}"};
  auto text = [&](uint64_t max_pieces) {
    std::string s;
    for (uint64_t n = rng.Uniform(max_pieces + 1); n > 0; --n) {
      s += alphabet[rng.Uniform(std::size(alphabet))];
    }
    return s;
  };
  std::string contents;
  std::vector<Doc> expected;
  for (uint64_t line = 1; line <= 500; ++line) {
    Doc doc{rng.Bernoulli(0.5) ? text(10) : std::to_string(rng.Next() >> 1), text(8), text(5),
            text(300), line};
    std::vector<std::string> members = {
        absl::StrCat("\"title\":", Quote(doc.title, rng)),
        absl::StrCat("\"date\": ", Quote(doc.date, rng)),
        absl::StrCat("\"body\" :", Quote(doc.body, rng)),
        absl::StrCat("\"extra\": {\"body\": ", Quote(text(5), rng), "}")};
    const bool numeric_id =
        !doc.id.empty() &&
        std::all_of(doc.id.begin(), doc.id.end(), [](char c) { return c >= '0' && c <= '9'; });
    members.push_back(absl::StrCat("\"id\": ", numeric_id ? doc.id : Quote(doc.id, rng)));
    for (size_t i = members.size() - 1; i > 0; --i)
      std::swap(members[i], members[rng.Uniform(i + 1)]);
    contents += "{";
    for (size_t i = 0; i < members.size(); ++i)
      absl::StrAppend(&contents, i ? ", " : "", members[i]);
    contents += rng.Bernoulli(0.2) ? "}\r\n" : "}\n";
    expected.push_back(doc);
  }
  const std::vector<Doc> docs = ReadAll(contents);
  ASSERT_EQ(docs.size(), expected.size());
  for (size_t i = 0; i < docs.size(); ++i) ASSERT_EQ(docs[i], expected[i]) << i;
}

}  // namespace
}  // namespace invert

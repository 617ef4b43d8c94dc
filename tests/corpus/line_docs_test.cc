// Tests of OpenLineDocs: the three-field format, header detection (Lucene's
// and luceneutil's variants), ids, malformed lines with their numbers and
// recovery, CRLF, the last line without LF, over-long lines, progress, and a
// randomized comparison with a naive splitter under tiny buffers.
#include "invert/line_docs.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "corpus/temp_file.h"
#include "gtest/gtest.h"
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

Doc Copy(const SourceDoc& d) {
  return Doc{std::string(d.id), std::string(d.title), std::string(d.date), std::string(d.body),
             d.line_number};
}

std::unique_ptr<DocSource> Open(const TempFile& file, const DocSourceOptions& options = {}) {
  auto source = OpenLineDocs(file.path(), options);
  EXPECT_TRUE(source.ok()) << source.status();
  return source.ok() ? std::move(*source) : nullptr;
}

// Reads to the end; malformed lines are recorded as their status messages.
std::vector<Doc> ReadAll(DocSource* source, std::vector<std::string>* errors = nullptr) {
  std::vector<Doc> docs;
  for (;;) {
    auto doc = source->Next();
    if (absl::IsOutOfRange(doc.status())) break;
    if (!doc.ok()) {
      EXPECT_TRUE(absl::IsInvalidArgument(doc.status())) << doc.status();
      if (!absl::IsInvalidArgument(doc.status())) break;
      if (errors != nullptr) errors->push_back(std::string(doc.status().message()));
      continue;
    }
    docs.push_back(Copy(*doc));
  }
  return docs;
}

TEST(LineDocsTest, ThreeFieldsWithoutHeader) {
  TempFile file("Title one\t24-MAR-2012 04:19:53.000\tbody one\nT2\tD2\t\n\t\tb3\n");
  auto source = Open(file);
  const std::vector<Doc> docs = ReadAll(source.get());
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[0], (Doc{"1", "Title one", "24-MAR-2012 04:19:53.000", "body one", 1}));
  EXPECT_EQ(docs[1], (Doc{"2", "T2", "D2", "", 2}));
  EXPECT_EQ(docs[2], (Doc{"3", "", "", "b3", 3}));
  // The end is sticky.
  EXPECT_TRUE(absl::IsOutOfRange(source->Next().status()));
  EXPECT_TRUE(absl::IsOutOfRange(source->Next().status()));
}

TEST(LineDocsTest, LuceneHeaderIsDetectedAndCounted) {
  TempFile file("FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\tbody\nt\td\tb\n");
  auto source = Open(file);
  const std::vector<Doc> docs = ReadAll(source.get());
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], (Doc{"2", "t", "d", "b", 2}));
}

TEST(LineDocsTest, ByteOrderMarkBeforeHeader) {
  TempFile file(
      "\xEF\xBB\xBF"
      "FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\tbody\nt\td\tb\n");
  auto source = Open(file);
  const std::vector<Doc> docs = ReadAll(source.get());
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], (Doc{"2", "t", "d", "b", 2}));
}

TEST(LineDocsTest, HeaderWithoutTabAfterIndicator) {
  TempFile file("FIELDS_HEADER_INDICATOR###doctitle\tdocdate\tbody\r\nt\td\tb\r\n");
  auto source = Open(file);
  const std::vector<Doc> docs = ReadAll(source.get());
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], (Doc{"2", "t", "d", "b", 2}));
}

TEST(LineDocsTest, LuceneutilHeaderWithExtraColumns) {
  TempFile file(
      "FIELDS_HEADER_INDICATOR###\ttitle\ttimestamp\ttext\tusername\tRandomLabel\n"
      "t1\td1\tbody 1\tuser\tlabel\n"
      "t2\td2\tbody 2\tuser\n"
      "FIELDS_HEADER_INDICATOR###\ttext\tid\n");
  auto source = Open(file);
  std::vector<std::string> errors;
  const std::vector<Doc> docs = ReadAll(source.get(), &errors);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], (Doc{"2", "t1", "d1", "body 1", 2}));
  // Every line must have the header's field count (a header after line 1 is
  // just a malformed line).
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0], "line 3: expected 5 tab-separated fields, found 4");
  EXPECT_EQ(errors[1], "line 4: expected 5 tab-separated fields, found 3");
}

TEST(LineDocsTest, HeaderMayNameAnIdAndOmitTitleAndDate) {
  TempFile file("FIELDS_HEADER_INDICATOR###\tid\tbody\nabc-7\tthe body\n");
  auto source = Open(file);
  const std::vector<Doc> docs = ReadAll(source.get());
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0], (Doc{"abc-7", "", "", "the body", 2}));
}

TEST(LineDocsTest, HeaderWithoutBodyFailsToOpen) {
  TempFile file("FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\nt\td\n");
  auto source = OpenLineDocs(file.path());
  EXPECT_TRUE(absl::IsInvalidArgument(source.status())) << source.status();
  EXPECT_NE(source.status().message().find("line 1"), absl::string_view::npos);
}

TEST(LineDocsTest, MissingFileAndDirectory) {
  EXPECT_TRUE(absl::IsNotFound(OpenLineDocs(::testing::TempDir() + "no/such/file").status()));
  EXPECT_FALSE(OpenLineDocs(::testing::TempDir()).ok());
}

TEST(LineDocsTest, WrongFieldCountsReportLineNumbersAndReadingGoesOn) {
  TempFile file(
      "a\tb\tc\n"       // 1 ok
      "only\tone\n"     // 2: two fields
      "\n"              // 3: empty line, one field
      "a\tb\tc\td\n"    // 4: four fields
      "x\ty\tz\n"       // 5 ok
      "no tabs at all"  // 6: one field, no final LF
  );
  auto source = Open(file);
  std::vector<std::string> errors;
  const std::vector<Doc> docs = ReadAll(source.get(), &errors);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[0].line_number, 1u);
  EXPECT_EQ(docs[1], (Doc{"5", "x", "y", "z", 5}));
  const std::vector<std::string> expected = {"line 2: expected 3 tab-separated fields, found 2",
                                             "line 3: expected 3 tab-separated fields, found 1",
                                             "line 4: expected 3 tab-separated fields, found 4",
                                             "line 6: expected 3 tab-separated fields, found 1"};
  EXPECT_EQ(errors, expected);
}

TEST(LineDocsTest, CrlfAndLastLineWithoutNewline) {
  TempFile file("t1\td1\tb1\r\nt2\td2\tb2 has\rinner CR\r\nt3\td3\tlast\r");
  auto source = Open(file);
  const std::vector<Doc> docs = ReadAll(source.get());
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[0].body, "b1");
  EXPECT_EQ(docs[1].body, "b2 has\rinner CR");
  EXPECT_EQ(docs[2].body, "last");
  EXPECT_EQ(source->bytes_read(), *source->total_bytes());
}

TEST(LineDocsTest, EmptyFile) {
  TempFile file("");
  auto source = Open(file);
  EXPECT_TRUE(absl::IsOutOfRange(source->Next().status()));
  EXPECT_EQ(source->total_bytes(), 0u);
}

TEST(LineDocsTest, OverLongLinesAreSkippedWithTheirNumbers) {
  const std::string limit_body(100 - 4, 'x');                       // "t\td\t" + body = 100 bytes
  std::string contents = absl::StrCat("t\td\t", limit_body, "\n");  // 1: exactly the limit
  absl::StrAppend(&contents, "t\td\t", limit_body, "y\n");          // 2: 101 bytes
  absl::StrAppend(&contents, "t\td\t", std::string(5000, 'z'), "\r\n");  // 3: far too long
  absl::StrAppend(&contents, "t\td\t", limit_body, "\r\n");              // 4: limit + CRLF
  absl::StrAppend(&contents, "t\td\tshort\n");                           // 5
  absl::StrAppend(&contents, "t\td\t", std::string(3000, 'w'));          // 6: too long, at EOF
  TempFile file(contents);
  DocSourceOptions options;
  options.max_line_bytes = 100;
  options.read_bytes = 16;
  auto source = Open(file, options);
  std::vector<std::string> errors;
  const std::vector<Doc> docs = ReadAll(source.get(), &errors);
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[0].line_number, 1u);
  EXPECT_EQ(docs[0].body, limit_body);
  EXPECT_EQ(docs[1].line_number, 4u);
  EXPECT_EQ(docs[2], (Doc{"5", "t", "d", "short", 5}));
  const std::vector<std::string> expected = {"line 2: longer than 100 bytes",
                                             "line 3: longer than 100 bytes",
                                             "line 6: longer than 100 bytes"};
  EXPECT_EQ(errors, expected);
  EXPECT_EQ(source->bytes_read(), contents.size());
}

TEST(LineDocsTest, OverLongFirstLineIsNotTakenForAHeader) {
  TempFile file("FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\tbody\nt\td\tb\n");
  DocSourceOptions options;
  options.max_line_bytes = 20;
  auto source = Open(file, options);
  std::vector<std::string> errors;
  const std::vector<Doc> docs = ReadAll(source.get(), &errors);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].line_number, 2u);
  EXPECT_EQ(errors, std::vector<std::string>{"line 1: longer than 20 bytes"});
}

TEST(LineDocsTest, ProgressCountsConsumedBytes) {
  const std::string line = "title\tdate\tbody\n";
  std::string contents;
  for (int i = 0; i < 1000; ++i) contents += line;
  TempFile file(contents);
  auto source = Open(file);
  EXPECT_EQ(source->total_bytes(), contents.size());
  for (uint64_t i = 1; i <= 1000; ++i) {
    ASSERT_TRUE(source->Next().ok());
    ASSERT_EQ(source->bytes_read(), i * line.size());
  }
  EXPECT_TRUE(absl::IsOutOfRange(source->Next().status()));
}

// ---- Input that is not line documents is refused by OpenLineDocs.

// The message OpenLineDocs fails with, or "" if it opens.
std::string OpenError(std::string_view contents, const DocSourceOptions& options = {}) {
  TempFile file(contents);
  auto source = OpenLineDocs(file.path(), options);
  if (source.ok()) return "";
  EXPECT_TRUE(absl::IsInvalidArgument(source.status())) << source.status();
  const std::string message(source.status().message());
  EXPECT_EQ(message.find(file.path() + " does not look like line documents ("), 0u) << message;
  return message;
}

bool Contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// `ascii` in UTF-16, each code unit little- or big-endian.
std::string Utf16(std::string_view ascii, bool little_endian) {
  std::string out;
  for (char c : ascii) {
    out += little_endian ? std::string{c, '\0'} : std::string{'\0', c};
  }
  return out;
}

TEST(LineDocsTest, Utf16WithByteOrderMarkIsRefused) {
  const std::string lines = "title\tdate\tbody\nt2\td2\tb2\n";
  std::string message = OpenError("\xFF\xFE" + Utf16(lines, true));
  EXPECT_TRUE(Contains(message, "(UTF-16 little-endian byte order mark at byte 0)")) << message;
  EXPECT_TRUE(Contains(message, "convert it to UTF-8")) << message;
  message = OpenError("\xFE\xFF" + Utf16(lines, false));
  EXPECT_TRUE(Contains(message, "(UTF-16 big-endian byte order mark at byte 0)")) << message;
  message = OpenError(std::string("\xFF\xFE\0\0", 4) + "t\0\0\0");
  EXPECT_TRUE(Contains(message, "UTF-32 little-endian")) << message;
}

TEST(LineDocsTest, Utf16WithoutByteOrderMarkIsRefused) {
  const std::string lines = "title\tdate\tbody\nt2\td2\tb2\n";
  std::string message = OpenError(Utf16(lines, true));
  EXPECT_TRUE(Contains(message, "(looks like UTF-16 little-endian")) << message;
  message = OpenError(Utf16(lines, false));
  EXPECT_TRUE(Contains(message, "(looks like UTF-16 big-endian")) << message;
}

TEST(LineDocsTest, NulBytesInTheFirstLinesAreRefused) {
  std::string contents = "t1\td1\tb1\nt2\td2\tb2\nt3\td3\tb";
  contents += std::string("\0\0x\n", 4);
  const std::string message = OpenError(contents);
  EXPECT_TRUE(Contains(message, "(NUL bytes in line 3)")) << message;
  // A UTF-8 byte-order mark is fine; line numbers still count from 1.
  EXPECT_TRUE(Contains(OpenError("\xEF\xBB\xBF" + contents), "(NUL bytes in line 3)"));
}

TEST(LineDocsTest, BinaryAndCompressedDataAreRefused) {
  std::string binary;
  for (int i = 0; i < 512; ++i)
    binary +=
        "\x01\x02\x03\x04"
        "abcd";
  std::string message = OpenError(binary);
  EXPECT_TRUE(Contains(message, "(binary data: ")) << message;
  message = OpenError("\x1F\x8B\x08\x00\x12\x34\x56\x78rest of a gzip stream");
  EXPECT_TRUE(Contains(message, "(gzip-compressed data); decompress it first")) << message;
  message = OpenError(std::string("\x28\xB5\x2F\xFD\x04\x00", 6));
  EXPECT_TRUE(Contains(message, "(zstd-compressed data)")) << message;
}

TEST(LineDocsTest, NoTabInTheFirstEightLinesIsRefused) {
  std::string contents;
  for (int i = 0; i < 8; ++i) contents += "just some words\n";
  contents += "t\td\tb\n";  // line 9 would do, but nobody looks that far
  std::string message = OpenError(contents);
  EXPECT_TRUE(Contains(message, "(no TAB in the first 8 lines)")) << message;
  EXPECT_TRUE(Contains(message, "line documents are title<TAB>date<TAB>body")) << message;
  EXPECT_TRUE(Contains(message, "--format json")) << message;

  message = OpenError("{\"title\": \"t\", \"body\": \"b\"}\n{\"body\": \"c\"}\n");
  EXPECT_TRUE(Contains(message, "(no TAB in the first 2 lines)")) << message;
  EXPECT_TRUE(Contains(message, "this looks like JSON lines")) << message;

  message = OpenError("one line, no tab, no newline");
  EXPECT_TRUE(Contains(message, "(no TAB in its only line)")) << message;

  // After a header, the data lines are what counts.
  message = OpenError("FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\tbody\nno tabs\n");
  EXPECT_TRUE(Contains(message, "(no TAB in its only line)")) << message;

  // A line longer than the 64 KiB looked at is looked at whole.
  std::string long_first = std::string(100000, 'x') + "\n";
  for (int i = 0; i < 8; ++i) long_first += "words\n";
  message = OpenError(long_first);
  EXPECT_TRUE(Contains(message, "(no TAB in the first 8 lines)")) << message;
  EXPECT_EQ(OpenError(std::string(100000, 'x') + "\tdate\tbody\n"), "");
  EXPECT_EQ(OpenError("t\td\tb\n" + std::string(100000, 'x') + "\n"), "");
}

TEST(LineDocsTest, LineDocumentsWithSomeMalformedFirstLinesOpen) {
  // One TAB among the first 8 lines is enough; the others are bad lines.
  std::string contents;
  for (int i = 0; i < 7; ++i) contents += "no tab here\n";
  contents += "t\td\tb\n";
  EXPECT_EQ(OpenError(contents), "");
  // A header with one column: its lines have no TABs, rightly.
  EXPECT_EQ(OpenError("FIELDS_HEADER_INDICATOR###\tbody\nthe body\nanother\n"), "");
  // Empty input, a header alone, blank lines before a document.
  EXPECT_EQ(OpenError(""), "");
  EXPECT_EQ(OpenError("FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\tbody\n"), "");
  EXPECT_EQ(OpenError("\n\n\nt\td\tb\n"), "");
  // Control bytes here and there (an ESC, a form feed) are text.
  EXPECT_EQ(OpenError("t\x1b[1m\td\tb\x0c\n"), "");
  // With tiny reads, only what max_line_bytes allows is looked at.
  DocSourceOptions options;
  options.max_line_bytes = 10;
  options.read_bytes = 1;
  EXPECT_EQ(OpenError("long first line without tabs\nt\td\tb\n", options), "");
}

// Random fields, line endings, malformed lines and buffer sizes against a
// plain split of the same text.
TEST(LineDocsTest, RandomizedMatchesNaiveSplit) {
  Random rng(testing::TestSeed(1729));
  for (int round = 0; round < 40; ++round) {
    const bool header = rng.Bernoulli(0.5);
    std::string contents = header ? "FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\tbody\n" : "";
    std::vector<Doc> expected;
    std::vector<std::string> expected_errors;
    // Long enough for the header, which must not count as over-long here.
    const uint64_t max_line = 60 + rng.Uniform(3000);
    const int lines = static_cast<int>(rng.Uniform(200));
    for (int i = 0; i < lines; ++i) {
      const uint64_t number = i + 1 + (header ? 1 : 0);
      auto field = [&](uint64_t max_length) {
        std::string s(rng.Uniform(max_length + 1), ' ');
        for (char& c : s) {
          c = "abc xyz\r\xc3\xa9\x80\xff\""[rng.Uniform(13)];
        }
        return s;
      };
      int fields = 3;
      if (rng.Bernoulli(0.05)) fields = static_cast<int>(rng.Uniform(6)) + 1;
      std::vector<std::string> values;
      for (int f = 0; f < fields; ++f) values.push_back(field(f == 2 ? 2000 : 30));
      if (i == 0) {
        // The first document is well formed and short: input without a TAB
        // in its first lines is refused at open (tested above).
        fields = 3;
        values = {field(10), field(10), field(10)};
      }
      std::string line = values[0];
      for (int f = 1; f < fields; ++f) absl::StrAppend(&line, "\t", values[f]);
      const bool last = i + 1 == lines;
      const bool crlf = rng.Bernoulli(0.3);
      const bool no_lf = last && rng.Bernoulli(0.5);
      // A CR ending a field before the terminator is part of the line unless
      // the line ends in CRLF or at EOF; keep the model simple by never
      // ending the last field with CR.
      while (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty() && no_lf && !crlf) continue;  // nothing to read
      contents += line;
      if (crlf) contents += "\r";
      if (!no_lf) contents += "\n";
      const size_t fields_now = 1 + std::count(line.begin(), line.end(), '\t');
      if (line.size() > max_line) {
        expected_errors.push_back(
            absl::StrCat("line ", number, ": longer than ", max_line, " bytes"));
      } else if (fields_now != 3) {
        expected_errors.push_back(
            absl::StrCat("line ", number, ": expected 3 tab-separated fields, found ", fields_now));
      } else {
        const size_t t1 = line.find('\t');
        const size_t t2 = line.find('\t', t1 + 1);
        expected.push_back(Doc{std::to_string(number), line.substr(0, t1),
                               line.substr(t1 + 1, t2 - t1 - 1), line.substr(t2 + 1), number});
      }
    }
    TempFile file(contents);
    DocSourceOptions options;
    options.max_line_bytes = max_line;
    options.read_bytes = 1 + rng.Uniform(5000);
    auto source = Open(file, options);
    ASSERT_NE(source, nullptr);
    std::vector<std::string> errors;
    const std::vector<Doc> docs = ReadAll(source.get(), &errors);
    ASSERT_EQ(docs, expected) << "round " << round;
    ASSERT_EQ(errors, expected_errors) << "round " << round;
    ASSERT_EQ(source->bytes_read(), contents.size());
  }
}

}  // namespace
}  // namespace invert

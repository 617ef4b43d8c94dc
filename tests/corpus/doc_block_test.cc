// Tests of DocSource::NextBlock and DocBlock (include/invert/line_docs.h,
// "Blocks"): for line documents and JSON lines, random inputs (headers, ids,
// malformed, blank, CRLF and over-long lines, a byte-order mark, no final LF)
// read through blocks of random sizes give exactly what Next() gives, in the
// same order, with the same bytes_read(); blocks respect max_lines and hold
// their lines after the source moved on; the default blocks of a source that
// only implements Next() carry its documents and errors; a block of another
// source is refused.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
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

// One result of Next(): a document's fields and line, or an error.
struct Event {
  std::string id, title, date, body;
  uint64_t line_number = 0;
  absl::StatusCode code = absl::StatusCode::kOk;
  std::string message;
  bool operator==(const Event&) const = default;
};

Event EventOf(const absl::StatusOr<SourceDoc>& doc) {
  if (!doc.ok()) {
    return Event{.code = doc.status().code(), .message = std::string(doc.status().message())};
  }
  return Event{std::string(doc->id), std::string(doc->title), std::string(doc->date),
               std::string(doc->body), doc->line_number};
}

std::ostream& operator<<(std::ostream& os, const Event& e) {
  if (e.code != absl::StatusCode::kOk) return os << "error " << e.message;
  return os << "doc line " << e.line_number << " id=" << e.id << " title=" << e.title;
}

// Everything Next() returns up to the end of the input (or an error that is
// not a malformed line).
std::vector<Event> ReadByNext(DocSource* source) {
  std::vector<Event> events;
  for (;;) {
    absl::StatusOr<SourceDoc> doc = source->Next();
    if (absl::IsOutOfRange(doc.status())) break;
    events.push_back(EventOf(doc));
    if (!doc.ok() && !absl::IsInvalidArgument(doc.status())) break;
  }
  return events;
}

// The same through blocks of random sizes. Two blocks take turns, and each
// is parsed only after the other was filled: a block's lines must not
// depend on the source's buffer.
std::vector<Event> ReadByBlocks(DocSource* source, Random* rng) {
  std::unique_ptr<DocBlock> blocks[2] = {source->NewBlock(), source->NewBlock()};
  std::vector<Event> events;
  bool pending[2] = {false, false};
  auto drain = [&](DocBlock* block) {
    uint64_t lines = 0;
    for (;;) {
      absl::StatusOr<SourceDoc> doc = block->Next();
      if (absl::IsOutOfRange(doc.status())) break;
      lines += doc.ok() || absl::IsInvalidArgument(doc.status());
      events.push_back(EventOf(doc));
    }
    EXPECT_EQ(lines, block->lines());
  };
  for (int turn = 0;; turn ^= 1) {
    if (pending[turn]) drain(blocks[turn].get());
    const size_t bytes = rng->Bernoulli(0.2) ? 0 : rng->Uniform(3000);
    const uint64_t max_lines = 1 + rng->Uniform(rng->Bernoulli(0.5) ? 3 : 100);
    const absl::Status s = source->NextBlock(bytes, max_lines, blocks[turn].get());
    if (!s.ok()) {
      EXPECT_TRUE(absl::IsOutOfRange(s)) << s;
      break;
    }
    pending[turn] = true;
    EXPECT_GE(blocks[turn]->lines(), 1u);
    EXPECT_LE(blocks[turn]->lines(), max_lines);
    EXPECT_EQ(blocks[turn]->bytes_read(), source->bytes_read());
  }
  if (pending[0]) drain(blocks[0].get());  // the older one first
  if (pending[1]) drain(blocks[1].get());
  return events;
}

// Random text for a field: letters, spaces, multi-byte and invalid UTF-8,
// quotes and backslashes (escaped in JSON by the caller).
std::string Text(Random* rng, uint64_t max_length) {
  std::string s(rng->Uniform(max_length + 1), ' ');
  for (char& c : s) c = "abc xyz\xc3\xa9\x80\"\\"[rng->Uniform(12)];
  return s;
}

// A random input of line documents; the first data line is well formed (an
// input without TABs in its first lines is refused at open).
std::string RandomLineDocs(Random* rng) {
  std::string contents = rng->Bernoulli(0.2) ? "\xEF\xBB\xBF" : "";
  const int header = static_cast<int>(rng->Uniform(3));  // none, 3 columns, with id
  if (header == 1) contents += "FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\tbody\n";
  if (header == 2) contents += "FIELDS_HEADER_INDICATOR###\tid\ttitle\tdate\ttext\n";
  const size_t columns = header == 2 ? 4 : 3;
  const int lines = 1 + static_cast<int>(rng->Uniform(300));
  for (int i = 0; i < lines; ++i) {
    size_t fields = columns;
    if (i > 0 && rng->Bernoulli(0.05)) fields = 1 + rng->Uniform(6);
    std::string line;
    if (i > 0 && rng->Bernoulli(0.03)) {
      line = std::string(200 + rng->Uniform(400), 'L');  // over-long (max_line_bytes 150)
    } else if (i > 0 && rng->Bernoulli(0.03)) {
      line = "";  // an empty line: one field
    } else {
      for (size_t f = 0; f < fields; ++f) {
        absl::StrAppend(&line, f > 0 ? "\t" : "", Text(rng, f + 1 == fields ? 100 : 10));
      }
    }
    contents += line;
    const bool last = i + 1 == lines;
    if (last && rng->Bernoulli(0.5)) break;  // no final LF
    contents += rng->Bernoulli(0.3) ? "\r\n" : "\n";
  }
  return contents;
}

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string RandomJsonLines(Random* rng) {
  std::string contents;
  const int lines = static_cast<int>(rng->Uniform(300));
  for (int i = 0; i < lines; ++i) {
    std::string line;
    switch (rng->Uniform(12)) {
      case 0:
        line = rng->Bernoulli(0.5) ? "" : " \t ";  // blank: skipped
        break;
      case 1:
        line = "{\"body\": \"unterminated";
        break;
      case 2:
        line = "[1, 2]";
        break;
      case 3:
        line = "{\"title\": \"no body\"}";
        break;
      case 4:
        line = absl::StrCat("{\"body\": ", JsonString(std::string(200, 'L')), "}");  // over-long
        break;
      default: {
        line = absl::StrCat("{\"title\": ", JsonString(Text(rng, 10)),
                            ", \"body\": ", JsonString(Text(rng, 60)));
        switch (rng->Uniform(5)) {
          case 0:
            absl::StrAppend(&line, ", \"id\": ", rng->Uniform(1000));
            break;
          case 1:
            absl::StrAppend(&line, ", \"id\": ", JsonString(Text(rng, 5)));
            break;
          case 2:
            absl::StrAppend(&line, ", \"id\": 2.5");
            break;
          case 3:
            absl::StrAppend(&line, ", \"id\": null, \"date\": null");
            break;
          default:
            break;  // the line number
        }
        line += "}";
      }
    }
    contents += line;
    if (i + 1 < lines || rng->Bernoulli(0.5)) contents += rng->Bernoulli(0.3) ? "\r\n" : "\n";
  }
  return contents;
}

TEST(DocBlockTest, LineDocumentsBlocksGiveWhatNextGives) {
  Random rng(testing::TestSeed(4242));
  for (int round = 0; round < 60; ++round) {
    TempFile file(RandomLineDocs(&rng));
    DocSourceOptions options;
    options.max_line_bytes = 150;
    options.read_bytes = 1 + rng.Uniform(600);
    auto by_next = OpenLineDocs(file.path(), options);
    auto by_blocks = OpenLineDocs(file.path(), options);
    ASSERT_TRUE(by_next.ok()) << by_next.status();
    ASSERT_TRUE(by_blocks.ok()) << by_blocks.status();
    const std::vector<Event> expected = ReadByNext(by_next->get());
    ASSERT_EQ(ReadByBlocks(by_blocks->get(), &rng), expected) << "round " << round;
    EXPECT_EQ((*by_blocks)->bytes_read(), (*by_next)->bytes_read());
  }
}

TEST(DocBlockTest, JsonLinesBlocksGiveWhatNextGives) {
  Random rng(testing::TestSeed(4343));
  for (int round = 0; round < 60; ++round) {
    TempFile file(RandomJsonLines(&rng));
    DocSourceOptions options;
    options.max_line_bytes = 150;
    options.read_bytes = 1 + rng.Uniform(600);
    auto by_next = OpenJsonLines(file.path(), options);
    auto by_blocks = OpenJsonLines(file.path(), options);
    ASSERT_TRUE(by_next.ok()) << by_next.status();
    ASSERT_TRUE(by_blocks.ok()) << by_blocks.status();
    const std::vector<Event> expected = ReadByNext(by_next->get());
    ASSERT_EQ(ReadByBlocks(by_blocks->get(), &rng), expected) << "round " << round;
    EXPECT_EQ((*by_blocks)->bytes_read(), (*by_next)->bytes_read());
  }
}

TEST(DocBlockTest, BlockSizeInBytesAndLines) {
  std::string contents;
  for (int i = 0; i < 10; ++i)
    absl::StrAppend(&contents, "t", i, "\td\t", std::string(90, 'b'), "\n");
  TempFile file(contents);  // ten lines of 95 bytes (96 with the LF)
  auto source = OpenLineDocs(file.path());
  ASSERT_TRUE(source.ok()) << source.status();
  std::unique_ptr<DocBlock> block = (*source)->NewBlock();
  ASSERT_TRUE((*source)->NextBlock(0, 100, block.get()).ok());  // at least one line
  EXPECT_EQ(block->lines(), 1u);
  EXPECT_EQ(block->bytes_read(), 96u);
  ASSERT_TRUE((*source)->NextBlock(200, 100, block.get()).ok());  // stops once 200 are held
  EXPECT_EQ(block->lines(), 3u);
  ASSERT_TRUE((*source)->NextBlock(1 << 20, 2, block.get()).ok());
  EXPECT_EQ(block->lines(), 2u);
  absl::StatusOr<SourceDoc> doc = block->Next();
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->title, "t4");
  EXPECT_EQ(doc->id, "5");
  ASSERT_TRUE((*source)->NextBlock(1 << 20, 100, block.get()).ok());  // the rest
  EXPECT_EQ(block->lines(), 4u);
  EXPECT_EQ(block->bytes_read(), contents.size());
  EXPECT_TRUE(absl::IsOutOfRange((*source)->NextBlock(1 << 20, 100, block.get())));
  EXPECT_TRUE(absl::IsOutOfRange((*source)->NextBlock(1 << 20, 100, block.get())));
}

// A source with Next() only: DocSource's default blocks.
class VectorSource final : public DocSource {
 public:
  explicit VectorSource(std::vector<absl::StatusOr<SourceDoc>> results)
      : results_(std::move(results)) {}
  absl::StatusOr<SourceDoc> Next() override {
    if (next_ == results_.size()) return absl::OutOfRangeError("end");
    bytes_ += 10;
    return results_[next_++];
  }
  uint64_t bytes_read() const override { return bytes_; }
  std::optional<uint64_t> total_bytes() const override { return std::nullopt; }

 private:
  std::vector<absl::StatusOr<SourceDoc>> results_;
  size_t next_ = 0;
  uint64_t bytes_ = 0;
};

std::vector<absl::StatusOr<SourceDoc>> SomeResults() {
  return {SourceDoc{"1", "t1", "d1", "body one", 1},
          absl::InvalidArgumentError("line 2: malformed"),
          SourceDoc{"x", "", "", "b", 3},
          SourceDoc{"4", "t4", "d4", std::string_view(), 4},
          absl::DataLossError("read failed"),
          SourceDoc{"never", "", "", "reached", 6}};
}

TEST(DocBlockTest, DefaultBlocksCopyWhatNextGives) {
  for (uint64_t max_lines : {1, 2, 100}) {
    VectorSource by_next(SomeResults());
    VectorSource by_blocks(SomeResults());
    std::vector<Event> expected;
    for (int i = 0; i < 6; ++i) {
      absl::StatusOr<SourceDoc> doc = by_next.Next();
      expected.push_back(EventOf(doc));
      if (!doc.ok() && !absl::IsInvalidArgument(doc.status())) break;
    }
    std::unique_ptr<DocBlock> block = by_blocks.NewBlock();
    std::vector<Event> got;
    for (;;) {
      const absl::Status s = by_blocks.NextBlock(1 << 20, max_lines, block.get());
      if (!s.ok()) {  // an error before any line: NextBlock returns it
        if (!absl::IsOutOfRange(s)) got.push_back(EventOf(s));
        break;
      }
      EXPECT_LE(block->lines(), max_lines);
      EXPECT_EQ(block->bytes_read(), by_blocks.bytes_read());
      bool ended = false;
      for (absl::StatusOr<SourceDoc> doc = block->Next(); !absl::IsOutOfRange(doc.status());
           doc = block->Next()) {
        got.push_back(EventOf(doc));
        ended = !doc.ok() && !absl::IsInvalidArgument(doc.status());
      }
      if (ended) break;  // the read error ended the block, as it ends Next()
    }
    EXPECT_EQ(got, expected) << "max_lines " << max_lines;
  }
}

TEST(DocBlockTest, BlockOfAnotherSourceIsRefused) {
  TempFile lines("t\td\tb\n");
  TempFile json("{\"body\": \"b\"}\n");
  auto line_source = OpenLineDocs(lines.path());
  auto json_source = OpenJsonLines(json.path());
  ASSERT_TRUE(line_source.ok() && json_source.ok());
  VectorSource vector_source(SomeResults());
  std::unique_ptr<DocBlock> line_block = (*line_source)->NewBlock();
  std::unique_ptr<DocBlock> json_block = (*json_source)->NewBlock();
  std::unique_ptr<DocBlock> default_block = vector_source.NewBlock();
  EXPECT_TRUE(absl::IsInvalidArgument((*line_source)->NextBlock(100, 10, json_block.get())));
  EXPECT_TRUE(absl::IsInvalidArgument((*json_source)->NextBlock(100, 10, default_block.get())));
  EXPECT_TRUE(absl::IsInvalidArgument(vector_source.NextBlock(100, 10, line_block.get())));
  // Nothing was consumed.
  EXPECT_TRUE((*line_source)->NextBlock(100, 10, line_block.get()).ok());
  EXPECT_EQ(line_block->lines(), 1u);
}

}  // namespace
}  // namespace invert

// Tests of the analyzer extension point through public headers only: the
// example of docs/analysis.md ("Writing your own analyzer") analyzes as
// documented, appends after tokens already in the buffer, and reaches the
// index through IndexWriterOptions::field_analyzers and
// InMemorySegmentOptions::analyzer.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "invert/analysis.h"
#include "invert/in_memory_segment.h"
#include "invert/index_writer.h"
#include "invert/token_buffer.h"
#include "scratch_dir.h"

namespace invert {
namespace {

// docs/analysis.md's example, as it stands there.
class CommaAnalyzer final : public invert::Analyzer {
 public:
  absl::Status Analyze(std::string_view text, invert::TokenBuffer* out) override {
    if (text.size() > invert::kMaxAnalyzedTextBytes) {
      return absl::InvalidArgumentError("value too long");  // offsets are uint32_t
    }
    for (size_t begin = 0; begin <= text.size();) {
      size_t end = text.find(',', begin);
      if (end == std::string_view::npos) end = text.size();
      if (end > begin) {
        char* term = out->ReserveTerm(end - begin);
        for (size_t i = begin; i < end; ++i) {
          const char c = text[i];
          term[i - begin] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        }
        out->CommitTerm(end - begin, /*position_increment=*/1, static_cast<uint32_t>(begin),
                        static_cast<uint32_t>(end));
      }
      begin = end + 1;
    }
    return absl::OkStatus();
  }
};

invert::IndexWriterOptions TagOptions() {
  invert::IndexWriterOptions options;
  options.field_analyzers["tags"] = [] { return std::make_unique<CommaAnalyzer>(); };
  return options;
}

struct Token {
  std::string term;
  uint32_t start;
  uint32_t end;
  bool operator==(const Token&) const = default;
};

std::vector<Token> Tokens(const TokenBuffer& buffer, size_t from = 0) {
  std::vector<Token> out;
  for (size_t i = from; i < buffer.size(); ++i) {
    EXPECT_EQ(buffer[i].position_increment, 1u);
    out.push_back({std::string(buffer[i].term), buffer[i].start_offset, buffer[i].end_offset});
  }
  return out;
}

TEST(CustomAnalyzerTest, AnalyzesAsDocumented) {
  CommaAnalyzer analyzer;
  TokenBuffer buffer;
  ASSERT_TRUE(analyzer.Analyze("Red,Dark Blue,,red", &buffer).ok());
  EXPECT_EQ(Tokens(buffer),
            (std::vector<Token>{{"red", 0, 3}, {"dark blue", 4, 13}, {"red", 15, 18}}));
  ASSERT_TRUE(analyzer.Analyze("", &buffer).ok());  // nothing to add
  EXPECT_EQ(buffer.size(), 3u);
}

TEST(CustomAnalyzerTest, AppendsAfterTheTokensAlreadyThere) {
  CommaAnalyzer analyzer;
  TokenBuffer buffer;
  buffer.Add("earlier", 1, 0, 7);
  ASSERT_TRUE(analyzer.Analyze("A,B", &buffer).ok());
  EXPECT_EQ(buffer[0].term, "earlier");
  EXPECT_EQ(Tokens(buffer, 1), (std::vector<Token>{{"a", 0, 1}, {"b", 2, 3}}));
  buffer.Clear();
  EXPECT_TRUE(buffer.empty());
}

TEST(CustomAnalyzerTest, FieldAnalyzersChooseItPerField) {
  testing::ScratchDir scratch;
  auto writer = IndexWriter::Open(scratch.path(), TagOptions());
  ASSERT_TRUE(writer.ok()) << writer.status();
  Document doc;
  doc.Add(Field::Text("tags", "Dark Blue,red"))    // comma analyzer: 2 terms
      .Add(Field::Text("body", "Dark Blue,red"));  // standard analyzer: 3 terms
  ASSERT_TRUE((*writer)->AddDocument(doc).ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_EQ((*writer)->stats().flushed_terms, 5u);
  ASSERT_TRUE((*writer)->Close().ok());
}

TEST(CustomAnalyzerTest, InMemorySegmentTakesItAsTheAnalyzer) {
  std::unique_ptr<InMemorySegment> segment =
      InMemorySegment::Create({.analyzer = [] { return std::make_unique<CommaAnalyzer>(); }});
  ASSERT_TRUE(segment->AddDocument(Document().Add(Field::Text("tags", "x,Y,y,z"))).ok());
  EXPECT_EQ(segment->unique_terms("tags"), 3u);
}

}  // namespace
}  // namespace invert

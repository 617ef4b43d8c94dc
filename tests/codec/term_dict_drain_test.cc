// TermDictWriter::Drain (the streaming the postings writer uses to send a
// field's dictionary to the .tim as it grows): a dictionary drained at random
// points, into a buffer that already holds other bytes, must be byte for byte
// the dictionary written in one piece, and read back with every term and its
// stats. Plus a flushed segment whose dictionary is drained many times reads
// back as the chain that made it.
#include <map>
#include <string>

#include "codec/segment_reader.h"
#include "codec/term_dict_reader.h"
#include "codec/term_dict_writer.h"
#include "gtest/gtest.h"
#include "index/indexing_chain.h"
#include "index/segment_flush.h"
#include "invert/analysis.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "testing/segment_dump.h"
#include "util/random.h"

namespace invert {
namespace {

TEST(TermDictDrainTest, DrainedDictionaryEqualsOneWrittenWhole) {
  Random rng(testing::TestSeed(8181));
  for (int round = 0; round < 20; ++round) {
    std::map<std::string, TermStats> model;
    const size_t n = rng.Uniform(round < 2 ? 3 : 5000);
    while (model.size() < n) {
      std::string term(1 + rng.Uniform(12), 'a');
      for (char& c : term) c = static_cast<char>(rng.Uniform(256));
      model[term];
    }
    uint64_t offset = 0;
    for (auto& [term, stats] : model) {
      stats.doc_freq = 1 + static_cast<uint32_t>(rng.Uniform(4));
      stats.total_term_freq = stats.doc_freq + rng.Uniform(3);
      if (stats.doc_freq == 1) stats.singleton_doc = static_cast<uint32_t>(rng.Uniform(1000));
      offset += rng.Uniform(100);
      stats.doc_offset = offset;
      stats.pos_offset = offset * 2;
    }
    TermDictOptions options;
    options.block_terms = static_cast<uint32_t>(1 + rng.Uniform(64));
    options.has_pay_offsets = false;

    std::string whole;
    TermDictWriter one(&whole, options);
    // The drained one shares its buffer with bytes before it, as a caller
    // embedding the dictionary would.
    std::string buffer = "prefix";
    std::string sink;
    TermDictWriter drained(&buffer, options);
    for (const auto& [term, stats] : model) {
      ASSERT_TRUE(one.Add(term, stats).ok());
      ASSERT_TRUE(drained.Add(term, stats).ok());
      if (rng.Bernoulli(0.05)) {
        drained.Drain([&](std::string_view bytes) { sink.append(bytes); });
        ASSERT_EQ(buffer, "prefix");
      }
      ASSERT_EQ(drained.bytes_written(), sink.size() + buffer.size() - 6);
    }
    ASSERT_TRUE(one.Finish().ok());
    ASSERT_TRUE(drained.Finish().ok());
    ASSERT_EQ(buffer.substr(0, 6), "prefix");
    sink += buffer.substr(6);
    ASSERT_EQ(sink, whole) << "round " << round;
    EXPECT_EQ(drained.bytes_written(), whole.size());

    absl::StatusOr<TermDictReader> reader = TermDictReader::Open(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(sink.data()), sink.size()));
    ASSERT_TRUE(reader.ok()) << reader.status();
    TermDictCursor cursor = reader->NewCursor();
    for (const auto& [term, stats] : model) {
      absl::StatusOr<bool> next = cursor.Next();
      ASSERT_TRUE(next.ok() && *next);
      ASSERT_EQ(cursor.term(), term);
      ASSERT_EQ(cursor.stats(), stats);
    }
    absl::StatusOr<bool> end = cursor.Next();
    ASSERT_TRUE(end.ok() && !*end);
  }
}

TEST(TermDictDrainTest, FlushWithALargeDictionaryReadsBack) {
  // ~12 bytes per unique id and ~80,000 ids: a dictionary of about 1 MB,
  // drained every 64 KiB by the postings writer.
  Random rng(testing::TestSeed(8282));
  IndexingChainOptions options;
  options.analyzer = [] { return NewWhitespaceAnalyzer(); };
  IndexingChain chain(options);
  const FieldType id_type = FieldType::Keyword();
  const FieldType text_type = FieldType::Text();
  std::vector<std::string> ids, texts;
  for (int d = 0; d < 80000; ++d) {
    ids.push_back("id" + std::to_string(rng.Next()));
    texts.push_back("w" + std::to_string(rng.Uniform(50000)) + " w" +
                    std::to_string(rng.Uniform(100)));
  }
  for (int d = 0; d < 80000; ++d) {
    Document doc;
    doc.Add(Field::Keyword("id", ids[d], id_type));
    doc.Add(Field::Text("text", texts[d], text_type));
    ASSERT_TRUE(chain.AddDocument(doc).ok());
  }
  const std::string expected = chain.DebugDump();
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  absl::StatusOr<SegmentInfo> info = FlushSegment(chain, dir.get(), "_0");
  ASSERT_TRUE(info.ok()) << info.status();
  auto reader = SegmentReader::Open(dir.get(), "_0", info->id);
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_TRUE((*reader)->CheckIntegrity().ok());
  absl::StatusOr<std::string> dump = DumpSegment(**reader);
  ASSERT_TRUE(dump.ok()) << dump.status();
  ASSERT_EQ(*dump, expected);
}

}  // namespace
}  // namespace invert

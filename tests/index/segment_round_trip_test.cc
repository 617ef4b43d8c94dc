// Round trip of whole segments: random documents of random field types are
// inverted in memory (checked against a naive index in
// indexing_chain_test.cc), flushed, and read back; the reader's canonical
// dump must equal the in-memory segment's, byte for byte, in both layouts.
// Then every file of a small flushed segment is truncated at every length
// and has every byte flipped in turn: opening plus CheckIntegrity must
// reject each damaged copy, and reading one never crashes.
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "codec/segment_reader.h"
#include "gtest/gtest.h"
#include "index/indexing_chain.h"
#include "index/random_docs.h"
#include "index/segment_flush.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "testing/segment_dump.h"

namespace invert {
namespace {

IndexingChainOptions Options(TermBytesLayout layout) {
  IndexingChainOptions o;
  o.layout = layout;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  return o;
}

// Fills a chain with random documents; returns its dump before the flush.
std::string Fill(IndexingChain& chain, Random& rng, int docs) {
  std::vector<testing::FieldSpec> specs;
  std::map<std::string, FieldType> types;
  for (int i = 0; i < 7; ++i) {
    testing::FieldSpec s{"f" + std::to_string(i), testing::RandomType(rng)};
    types[s.name] = s.type;
    specs.push_back(s);
  }
  for (int d = 0; d < docs; ++d) {
    const testing::TestDoc td = testing::RandomDoc(rng, specs);
    EXPECT_TRUE(chain.AddDocument(testing::ToDocument(td, types)).ok());
  }
  return chain.DebugDump();
}

TEST(SegmentRoundTripTest, FlushedSegmentReadsBackIdentically) {
  const uint64_t seed = testing::TestSeed(9090);
  for (TermBytesLayout layout : {TermBytesLayout::kShared, TermBytesLayout::kSeparate}) {
    for (int round = 0; round < 4; ++round) {
      Random rng(seed + round);
      IndexingChain chain(Options(layout));
      // Enough docs that frequent terms span several 128-doc blocks.
      const std::string expected = Fill(chain, rng, round == 0 ? 1 : 700);
      testing::ScratchDir scratch;
      auto dir = scratch.Open();
      absl::StatusOr<SegmentInfo> info = FlushSegment(chain, dir.get(), "_0");
      ASSERT_TRUE(info.ok()) << info.status();
      auto reader = SegmentReader::Open(dir.get(), "_0", info->id);
      ASSERT_TRUE(reader.ok()) << reader.status();
      ASSERT_TRUE((*reader)->CheckIntegrity().ok());
      absl::StatusOr<std::string> dump = DumpSegment(**reader);
      ASSERT_TRUE(dump.ok()) << dump.status();
      ASSERT_EQ(*dump, expected) << "layout " << TermBytesLayoutName(layout) << " round " << round;
    }
  }
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Opens the segment and checks it fully; reading everything must not crash.
absl::Status OpenAndCheck(Directory* dir, const SegmentId& id) {
  auto reader = SegmentReader::Open(dir, "_0", id);
  if (!reader.ok()) return reader.status();
  absl::Status check = (*reader)->CheckIntegrity();
  (void)DumpSegment(**reader);  // must not crash, whatever it returns
  return check;
}

TEST(SegmentRoundTripTest, EveryTruncationAndByteFlipIsDetected) {
  Random rng(testing::TestSeed(9191));
  IndexingChain chain(Options(TermBytesLayout::kSeparate));
  Fill(chain, rng, 6);
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  absl::StatusOr<SegmentInfo> info = FlushSegment(chain, dir.get(), "_0");
  ASSERT_TRUE(info.ok()) << info.status();
  ASSERT_TRUE(OpenAndCheck(dir.get(), info->id).ok());
  std::vector<std::string> files;
  for (const SegmentFile& f : info->files) files.push_back(f.name);
  files.push_back("_0.si");
  size_t cases = 0;
  for (const std::string& name : files) {
    const std::string path = scratch.path() + "/" + name;
    const std::string original = ReadFile(path);
    for (size_t length = 0; length < original.size(); ++length) {
      WriteFile(path, original.substr(0, length));
      ASSERT_FALSE(OpenAndCheck(dir.get(), info->id).ok()) << name << " truncated to " << length;
      ++cases;
    }
    for (size_t i = 0; i < original.size(); ++i) {
      std::string damaged = original;
      damaged[i] = static_cast<char>(damaged[i] ^ (1 + rng.Uniform(255)));
      WriteFile(path, damaged);
      ASSERT_FALSE(OpenAndCheck(dir.get(), info->id).ok()) << name << " byte " << i;
      ++cases;
    }
    WriteFile(path, original);
  }
  ASSERT_TRUE(OpenAndCheck(dir.get(), info->id).ok());
  std::printf("[   INFO   ] %zu damaged copies, all rejected\n", cases);
}

}  // namespace
}  // namespace invert

// The public reader on damaged indexes: truncations (at every length near
// the ends of a file, every 5th between) and byte flips (at every offset
// near the ends, every 2nd between) in every file of a small two-segment
// index (its newest commit point
// included). Each damaged copy is opened with IndexReader and read
// completely through the public API (terms, postings with every flag the
// field allows, Advance, norms, stored documents, term vectors); that must
// never crash or read out of bounds (run under ASan), and the damage must
// be reported: Open fails, a read returns an error, or CheckIntegrity does.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "invert/analysis.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

void WriteIndex(const std::string& path) {
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  auto writer = IndexWriter::Open(path, o);
  ASSERT_TRUE(writer.ok()) << writer.status();
  FieldType body = FieldType::Text(/*stored=*/true);
  body.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
  body.term_vectors = body.term_vector_positions = body.term_vector_offsets = true;
  const char* texts[] = {"the quick brown fox", "jumps over the lazy dog", "the end",
                         "quick quick fox", "a b c d e f g the"};
  for (int i = 0; i < 10; ++i) {
    Document doc;
    const std::string id = std::to_string(i);
    doc.Add(Field::Keyword("id", id, FieldType::Keyword(/*stored=*/true)));
    doc.Add(Field::Text("body", texts[i % 5], body));
    ASSERT_TRUE((*writer)->AddDocument(doc).ok());
    if (i == 4) {  // two segments
      ASSERT_TRUE((*writer)->Commit().ok());
    }
  }
  ASSERT_TRUE((*writer)->Close().ok());
}

// Reads everything through the public API; false if any read failed.
bool ReadEverything(const IndexReader& reader) {
  bool ok = true;
  auto note = [&ok](const absl::Status& s) { ok &= s.ok(); };
  for (const LeafReader* leaf : reader.leaves()) {
    for (const FieldSchema& field : leaf->fields()) {
      if (!field.type.indexed()) continue;
      auto terms = leaf->Terms(field.name);
      note(terms.status());
      if (!terms.ok()) continue;
      uint32_t flags = kPostingsFreqs;
      if (HasPositions(field.type.index_options)) flags = kPostingsPositions;
      if (HasOffsets(field.type.index_options)) flags = kPostingsOffsets;
      if (!HasFreqs(field.type.index_options)) flags = kPostingsDocs;
      for (;;) {
        absl::StatusOr<bool> more = (*terms)->Next();
        note(more.status());
        if (!more.ok() || !*more) break;
        for (int pass = 0; pass < 2; ++pass) {
          auto postings = (*terms)->Postings(flags);
          note(postings.status());
          if (!postings.ok()) break;
          PostingsEnum& p = **postings;
          uint32_t doc = pass == 0 ? p.NextDoc() : p.Advance(3);
          for (; doc != PostingsEnum::kNoMoreDocs; doc = p.NextDoc()) {
            while (HasPositions(field.type.index_options) && p.NextPosition()) {
              (void)p.start_offset();
            }
          }
          note(p.status());
        }
      }
      for (uint32_t d = 0; d < leaf->max_doc(); ++d) (void)leaf->Norm(field.name, d);
    }
    for (uint32_t d = 0; d < leaf->max_doc(); ++d) {
      note(leaf->Document(d).status());
      note(leaf->TermVectors(d).status());
    }
    note(leaf->CheckIntegrity());
  }
  return ok;
}

TEST(IndexReaderDamageTest, EveryTruncationAndByteFlipIsReportedNeverACrash) {
  Random rng(testing::TestSeed(4242));
  testing::ScratchDir scratch;
  WriteIndex(scratch.path());
  // The files of the newest commit: its commit point and every segment
  // file (the writer also keeps the previous commit point, which the
  // reader does not read).
  std::vector<std::string> files;
  {
    auto reader = IndexReader::Open(scratch.path());
    ASSERT_TRUE(reader.ok()) << reader.status();
    ASSERT_EQ((*reader)->leaves().size(), 2u);
    ASSERT_TRUE(ReadEverything(**reader));
    files.push_back("segments_" + std::to_string((*reader)->generation()));
    for (const auto& e : std::filesystem::directory_iterator(scratch.path())) {
      const std::string name = e.path().filename().string();
      if (name.starts_with("_")) files.push_back(name);
    }
  }
  size_t cases = 0, open_failed = 0;
  auto expect_reported = [&](const std::string& what) {
    ++cases;
    auto reader = IndexReader::Open(scratch.path());
    if (!reader.ok()) {
      ++open_failed;
      return;
    }
    EXPECT_FALSE(ReadEverything(**reader)) << what << " went unnoticed";
  };
  for (const std::string& name : files) {
    const std::string path = scratch.path() + "/" + name;
    const std::string original = ReadFile(path);
    // Every length near the ends (headers, footers), every 5th between
    // (SegmentRoundTripTest truncates a segment at every length).
    for (size_t length = 0; length < original.size(); ++length) {
      const bool near_end = length < 80 || length + 80 > original.size();
      if (!near_end && length % 5 != 0) continue;
      WriteFile(path, original.substr(0, length));
      expect_reported(name + " truncated to " + std::to_string(length));
    }
    for (size_t i = 0; i < original.size(); ++i) {
      const bool near_end = i < 64 || i + 64 > original.size();
      if (!near_end && i % 2 != 0) continue;
      std::string damaged = original;
      damaged[i] = static_cast<char>(damaged[i] ^ (1 + rng.Uniform(255)));
      WriteFile(path, damaged);
      expect_reported(name + " byte " + std::to_string(i) + " flipped");
    }
    WriteFile(path, original);
  }
  auto reader = IndexReader::Open(scratch.path());
  ASSERT_TRUE(reader.ok());
  EXPECT_TRUE(ReadEverything(**reader));
  std::printf("[   INFO   ] %zu damaged copies, %zu refused at Open, the rest reported by reads\n",
              cases, open_failed);
}

}  // namespace
}  // namespace invert

// .doc version 2 is still read exactly (docs/format.md, "Doc ids and
// freqs"): tests/data/postings_v2_index was written before version 3 by
// tests/golden/make_postings_v2_index.cc from the documents of
// tests/golden/postings_v2_docs.h. The test indexes the same documents with
// today's writer (version 3) and compares the two segments term by term:
// the version-2 one checks clean; every posting, freq, position and offset
// is the same; so are TermImpacts, AdvanceShallow, Advance and
// AdvanceFiltered with a threshold filter at the same random targets; and a
// term of fewer than 1,024 documents has the same bytes in both .doc files
// (version 3 adds only level-1 headers, and only to longer terms).
#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codec/commit_format.h"
#include "codec/impacts.h"
#include "codec/segment_reader.h"
#include "golden/postings_v2_docs.h"
#include "gtest/gtest.h"
#include "invert/check_index.h"
#include "invert/document.h"
#include "invert/index_writer.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

std::string V2IndexPath() {
  return (std::filesystem::path(__FILE__).parent_path().parent_path() / "data" /
          "postings_v2_index")
      .string();
}

// The index's only segment.
std::unique_ptr<SegmentReader> OpenOnlySegment(const std::string& path,
                                               std::unique_ptr<FSDirectory>* dir) {
  absl::StatusOr<std::unique_ptr<FSDirectory>> opened = FSDirectory::Open(path, false);
  EXPECT_TRUE(opened.ok()) << opened.status();
  if (!opened.ok()) return nullptr;
  *dir = std::move(*opened);
  absl::StatusOr<NewestCommit> newest = ReadNewestCommit(dir->get());
  EXPECT_TRUE(newest.ok()) << newest.status();
  if (!newest.ok()) return nullptr;
  EXPECT_EQ(newest->commit.segments.size(), 1u);
  const CommitSegment& seg = newest->commit.segments[0];
  absl::StatusOr<std::unique_ptr<SegmentReader>> reader =
      SegmentReader::Open(dir->get(), seg.name, seg.id);
  EXPECT_TRUE(reader.ok()) << reader.status();
  return reader.ok() ? std::move(*reader) : nullptr;
}

// A bound that grows with freq and shrinks with norm (as BM25's does).
class ThresholdFilter final : public PostingsCursor::BlockFilter {
 public:
  explicit ThresholdFilter(uint64_t threshold) : threshold_(threshold) {}
  Verdict Judge(const uint8_t* impacts, const uint8_t* end) override {
    uint64_t best = 0;
    if (!ForEachImpact(impacts, end, [&best](uint32_t freq, uint8_t norm) {
          best = std::max(best, uint64_t{freq} * (300 - norm));
        })) {
      return Verdict::kCorrupt;
    }
    return best > threshold_ ? Verdict::kDecode : Verdict::kSkip;
  }

 private:
  uint64_t threshold_;
};

// Where each term's .doc bytes end: at the next term's start (in file
// order) or at the end of the file's body.
std::map<uint64_t, uint64_t> TermExtents(const SegmentReader& seg) {
  std::vector<uint64_t> starts;
  for (const FieldInfo& field : seg.fields()) {
    const TermDictReader* dict = seg.Terms(field.number);
    if (dict == nullptr) continue;
    TermDictCursor cursor = dict->NewCursor();
    while (*cursor.Next()) {
      if (cursor.stats().doc_freq >= 2) starts.push_back(cursor.stats().doc_offset);
    }
  }
  std::sort(starts.begin(), starts.end());
  std::map<uint64_t, uint64_t> extents;
  for (size_t i = 0; i < starts.size(); ++i) {
    extents[starts[i]] =
        i + 1 < starts.size() ? starts[i + 1] : seg.doc_file().size() - kFooterLength;
  }
  return extents;
}

TEST(PostingsV2CompatTest, Version2IndexReadsLikeItsVersion3Twin) {
  Random rng(testing::TestSeed(2323));
  const CheckReport v2_check = CheckIndex(V2IndexPath());
  ASSERT_TRUE(v2_check.ok) << (v2_check.problems.empty() ? "" : v2_check.problems[0]);
  std::unique_ptr<FSDirectory> v2_dir;
  std::unique_ptr<SegmentReader> v2 = OpenOnlySegment(V2IndexPath(), &v2_dir);
  ASSERT_NE(v2, nullptr);
  ASSERT_EQ(v2->doc_version(), kDocVersionImpacts);

  testing::ScratchDir scratch;
  {
    IndexWriterOptions options;
    options.open_mode = OpenMode::kCreate;
    options.threads = 1;
    options.ram_buffer_mb = 64;
    auto writer = IndexWriter::Open(scratch.path(), options);
    ASSERT_TRUE(writer.ok()) << writer.status();
    for (uint32_t d = 0; d < testing::kPostingsV2Docs; ++d) {
      const testing::PostingsV2Doc text = testing::PostingsV2Document(d);
      Document doc;
      doc.Add(Field::Text("body", text.body, testing::PostingsV2BodyType()))
          .Add(Field::Text("title", text.title, testing::PostingsV2TitleType()))
          .Add(Field::Keyword("tag", text.tag, testing::PostingsV2TagType()));
      ASSERT_TRUE((*writer)->AddDocument(doc).ok());
    }
    ASSERT_TRUE((*writer)->Close().ok());
  }
  const CheckReport v3_check = CheckIndex(scratch.path());
  ASSERT_TRUE(v3_check.ok) << (v3_check.problems.empty() ? "" : v3_check.problems[0]);
  std::unique_ptr<FSDirectory> v3_dir;
  std::unique_ptr<SegmentReader> v3 = OpenOnlySegment(scratch.path(), &v3_dir);
  ASSERT_NE(v3, nullptr);
  ASSERT_EQ(v3->doc_version(), kDocFormatVersion);
  ASSERT_EQ(v2->doc_count(), v3->doc_count());

  const std::map<uint64_t, uint64_t> v2_extents = TermExtents(*v2);
  const std::map<uint64_t, uint64_t> v3_extents = TermExtents(*v3);
  uint64_t terms = 0, grouped_terms = 0, same_bytes = 0;
  for (const char* name : {"body", "title", "tag"}) {
    SCOPED_TRACE(name);
    const FieldInfo* f2 = v2->FieldByName(name);
    const FieldInfo* f3 = v3->FieldByName(name);
    ASSERT_TRUE(f2 != nullptr && f3 != nullptr);
    ASSERT_EQ(f2->type, f3->type);
    const bool positions = HasPositions(f2->type.index_options);
    const bool offsets = HasOffsets(f2->type.index_options);
    TermDictCursor c2 = v2->Terms(f2->number)->NewCursor();
    TermDictCursor c3 = v3->Terms(f3->number)->NewCursor();
    for (;;) {
      absl::StatusOr<bool> n2 = c2.Next();
      absl::StatusOr<bool> n3 = c3.Next();
      ASSERT_TRUE(n2.ok() && n3.ok());
      ASSERT_EQ(*n2, *n3);
      if (!*n2) break;
      ASSERT_EQ(c2.term(), c3.term());
      const TermStats s2 = c2.stats();
      const TermStats s3 = c3.stats();
      SCOPED_TRACE(std::string(c2.term()) + ", doc_freq " + std::to_string(s2.doc_freq));
      ASSERT_EQ(s2.doc_freq, s3.doc_freq);
      ASSERT_EQ(s2.total_term_freq, s3.total_term_freq);
      ++terms;
      if (s2.doc_freq >= kSkipGroupDocs) ++grouped_terms;
      if (s2.doc_freq >= 2 && s2.doc_freq < kSkipGroupDocs) {
        const auto b2 =
            v2->doc_file().subspan(s2.doc_offset, v2_extents.at(s2.doc_offset) - s2.doc_offset);
        const auto b3 =
            v3->doc_file().subspan(s3.doc_offset, v3_extents.at(s3.doc_offset) - s3.doc_offset);
        ASSERT_TRUE(std::equal(b2.begin(), b2.end(), b3.begin(), b3.end()));
        ++same_bytes;
      }
      // Every posting, position and offset.
      {
        PostingsCursor p2 = v2->Postings(f2->number, s2);
        PostingsCursor p3 = v3->Postings(f3->number, s3);
        ASSERT_FALSE(p2.has_skip_groups());
        ASSERT_TRUE(p3.has_skip_groups());
        while (p2.NextDoc()) {
          ASSERT_TRUE(p3.NextDoc()) << p3.status();
          ASSERT_EQ(p2.doc(), p3.doc());
          ASSERT_EQ(p2.freq(), p3.freq());
          for (uint32_t i = 0; positions && i < p2.freq(); ++i) {
            ASSERT_TRUE(p2.NextPosition() && p3.NextPosition());
            ASSERT_EQ(p2.position(), p3.position());
            if (offsets) {
              ASSERT_EQ(p2.start_offset(), p3.start_offset());
              ASSERT_EQ(p2.end_offset(), p3.end_offset());
            }
          }
        }
        ASSERT_FALSE(p3.NextDoc());
        ASSERT_TRUE(p2.status().ok() && p3.status().ok());
      }
      // Whole-term impacts.
      {
        PostingsCursor p2 = v2->Postings(f2->number, s2);
        PostingsCursor p3 = v3->Postings(f3->number, s3);
        std::vector<Impact> i2, i3;
        ASSERT_TRUE(p2.TermImpacts(&i2) && p3.TermImpacts(&i3));
        ASSERT_EQ(i2, i3);
      }
      // Shallow, plain and filtered advances to the same random targets,
      // with positions read where they land.
      for (int walk = 0; walk < 4; ++walk) {
        PostingsCursor p2 = v2->Postings(f2->number, s2);
        PostingsCursor p3 = v3->Postings(f3->number, s3);
        ThresholdFilter filter(rng.Uniform(walk == 0 ? 300 : 2400));
        uint32_t target = 0;
        for (;;) {
          target += static_cast<uint32_t>(1 + rng.Uniform(walk < 2 ? 40 : 700));
          const uint32_t u2 = p2.AdvanceShallow(target);
          ASSERT_EQ(u2, p3.AdvanceShallow(target)) << "target " << target;
          ASSERT_TRUE(std::equal(p2.impacts().begin(), p2.impacts().end(), p3.impacts().begin(),
                                 p3.impacts().end()));
          const bool filtered = walk % 2 == 1;
          const bool ok2 = filtered ? p2.AdvanceFiltered(target, &filter) : p2.Advance(target);
          const bool ok3 = filtered ? p3.AdvanceFiltered(target, &filter) : p3.Advance(target);
          ASSERT_EQ(ok2, ok3) << "target " << target;
          if (!ok2) break;
          ASSERT_EQ(p2.doc(), p3.doc()) << "target " << target;
          ASSERT_EQ(p2.freq(), p3.freq());
          for (uint32_t i = 0; positions && i < p2.freq(); ++i) {
            ASSERT_TRUE(p2.NextPosition() && p3.NextPosition());
            ASSERT_EQ(p2.position(), p3.position());
          }
          target = std::max(target, p2.doc());
        }
        ASSERT_TRUE(p2.status().ok() && p3.status().ok());
      }
    }
  }
  EXPECT_GT(terms, 100u);
  EXPECT_GE(grouped_terms, 7u);  // alpha, beta, gamma, delta, epsilon, every, k0, k1
  EXPECT_GT(same_bytes, 50u);
  // Version 3 adds bytes only where there are groups.
  EXPECT_GT(v3->doc_file().size(), v2->doc_file().size());
}

}  // namespace
}  // namespace invert

// CheckIndex verifies the postings' impacts (docs/format.md, .doc version 2)
// and the skip headers above the blocks (versions 3 and 4): an index written by IndexWriter
// checks clean; after a file of its segment is replaced (files, segment info
// and commit rewritten so that every checksum holds: Reseal) by one whose
// norms differ, the stored impacts no longer match the frontier recomputed
// from the documents and CheckIndex names the field, the term and the
// block; after level-1 headers of the .doc are altered (a group's frontier,
// another's last doc and freq_sum), or a level-2 one, it names the field,
// term, run and what disagrees.
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "codec/commit_format.h"
#include "codec/norms_format.h"
#include "codec/segment_files.h"
#include "codec/segment_info_format.h"
#include "codec/segment_reader.h"
#include "gtest/gtest.h"
#include "invert/check_index.h"
#include "invert/index_writer.h"
#include "scratch_dir.h"
#include "store/codec_util.h"
#include "store/index_input.h"
#include "store/index_output.h"
#include "util/varint.h"

namespace invert {
namespace {

// An index of `docs` documents whose body has "common" (twice in every
// fifth), and the newest commit of its one segment. Checks clean.
void WriteCommonIndex(const testing::ScratchDir& scratch, int docs) {
  {
    IndexWriterOptions options;
    options.open_mode = OpenMode::kCreate;
    options.threads = 1;
    auto writer = IndexWriter::Open(scratch.path(), options);
    ASSERT_TRUE(writer.ok()) << writer.status();
    for (int d = 0; d < docs; ++d) {
      std::string text = "common";
      for (int i = 0; i < d % 7; ++i) text += " filler" + std::to_string(i);
      if (d % 5 == 0) text += " common";
      Document doc;
      doc.Add(Field::Text("body", text));
      ASSERT_TRUE((*writer)->AddDocument(doc).ok());
    }
    ASSERT_TRUE((*writer)->Close().ok());
  }
  const CheckReport clean = CheckIndex(scratch.path());
  ASSERT_TRUE(clean.ok) << (clean.problems.empty() ? "" : clean.problems[0]);
}

// After a test replaced files of the newest commit's only segment: writes
// its segment info anew (the files' lengths and checksums taken again) and
// a newer commit point naming it, so that every checksum holds.
void Reseal(Directory* dir) {
  absl::StatusOr<NewestCommit> newest = ReadNewestCommit(dir);
  ASSERT_TRUE(newest.ok()) << newest.status();
  CommitPoint commit = newest->commit;
  ASSERT_EQ(commit.segments.size(), 1u);
  CommitSegment& seg = commit.segments[0];
  absl::StatusOr<SegmentInfo> info = ReadSegmentInfo(dir, seg.name, seg.id);
  ASSERT_TRUE(info.ok()) << info.status();
  for (SegmentFile& f : info->files) f.length = f.checksum = 0;
  ASSERT_TRUE(dir->DeleteFile(SegmentFileName(seg.name, "si")).ok());
  ASSERT_TRUE(WriteSegmentInfo(dir, &*info).ok());
  absl::StatusOr<IndexInput> si = OpenInput(dir, SegmentFileName(seg.name, "si"));
  ASSERT_TRUE(si.ok()) << si.status();
  absl::StatusOr<uint64_t> checksum = ReadFooterChecksum(*si);
  ASSERT_TRUE(checksum.ok()) << checksum.status();
  seg.si_checksum = *checksum;
  commit.generation = newest->max_generation + 1;
  ASSERT_TRUE(WriteCommit(dir, commit).ok());
}

// The only segment of the newest commit.
std::unique_ptr<SegmentReader> OpenSegment(Directory* dir, CommitSegment* seg) {
  absl::StatusOr<NewestCommit> newest = ReadNewestCommit(dir);
  EXPECT_TRUE(newest.ok()) << newest.status();
  if (!newest.ok() || newest->commit.segments.size() != 1) return nullptr;
  *seg = newest->commit.segments[0];
  absl::StatusOr<std::unique_ptr<SegmentReader>> reader =
      SegmentReader::Open(dir, seg->name, seg->id);
  EXPECT_TRUE(reader.ok()) << reader.status();
  return reader.ok() ? std::move(*reader) : nullptr;
}

bool Reported(const CheckReport& report, std::initializer_list<std::string_view> parts) {
  for (const std::string& p : report.problems) {
    bool all = true;
    for (std::string_view part : parts) all = all && p.find(part) != std::string::npos;
    if (all) return true;
  }
  return false;
}

TEST(ImpactsCheckTest, ImpactsThatDisagreeWithTheNormsAreReported) {
  testing::ScratchDir scratch;
  ASSERT_NO_FATAL_FAILURE(WriteCommonIndex(scratch, 300));
  auto dir = scratch.Open();
  CommitSegment seg;
  uint32_t body = 0;
  {
    std::unique_ptr<SegmentReader> reader = OpenSegment(dir.get(), &seg);
    ASSERT_NE(reader, nullptr);
    ASSERT_EQ(reader->doc_version(), kDocFormatVersion);
    body = reader->FieldByName("body")->number;
  }
  // Every norm 200: a longer field than any document has.
  ASSERT_TRUE(dir->DeleteFile(SegmentFileName(seg.name, "nvd")).ok());
  ASSERT_TRUE(
      WriteNorms(dir.get(), seg.name, seg.id, seg.doc_count, {body}, [](uint32_t, uint32_t) {
        return uint8_t{200};
      }).ok());
  ASSERT_NO_FATAL_FAILURE(Reseal(dir.get()));

  const CheckReport report = CheckIndex(scratch.path());
  EXPECT_FALSE(report.ok);
  EXPECT_TRUE(Reported(report, {"field body term \"common\" block 0", "impacts"}))
      << (report.problems.empty() ? "no problem reported" : report.problems[0]);
}

// Adds `delta` to the `index`-th VInt from `at` (the impacts' first freq
// delta counts as one), keeping its length.
void BumpVInt(std::vector<uint8_t>* bytes, size_t at, int index, uint32_t delta) {
  const uint8_t* p = bytes->data() + at;
  const uint8_t* end = bytes->data() + bytes->size();
  uint64_t value = 0;
  for (int i = 0; i < index; ++i) ASSERT_TRUE(DecodeVInt64(&p, end, &value));
  const uint8_t* start = p;
  ASSERT_TRUE(DecodeVInt64(&p, end, &value));
  uint8_t encoded[kMaxVInt64Bytes];
  ASSERT_EQ(EncodeVInt(value + delta, encoded), static_cast<size_t>(p - start));
  std::copy(encoded, encoded + (p - start), bytes->begin() + (start - bytes->data()));
}

// Every problem of `report`, one per line (for failure messages).
std::string AllProblems(const CheckReport& report) {
  std::string all;
  for (const std::string& p : report.problems) all += p + "\n";
  return all;
}

// The skip runs (ReadSkipGroups) of the body field's term "common" in the
// only segment of the index in `dir` (`seg` set to it), and `doc`: its .doc
// without the footer, and *offset the term's doc_offset.
void ReadCommonRuns(Directory* dir, CommitSegment* seg,
                    std::vector<PostingsCursor::SkipGroup>* runs, std::vector<uint8_t>* doc,
                    uint64_t* offset) {
  std::unique_ptr<SegmentReader> reader = OpenSegment(dir, seg);
  ASSERT_NE(reader, nullptr);
  ASSERT_EQ(reader->doc_version(), kDocFormatVersion);
  const FieldInfo* body = reader->FieldByName("body");
  TermDictCursor cursor = reader->Terms(body->number)->NewCursor();
  absl::StatusOr<bool> found = cursor.SeekExact("common");
  ASSERT_TRUE(found.ok() && *found);
  PostingsCursor postings = reader->Postings(body->number, cursor.stats());
  ASSERT_TRUE(postings.ReadSkipGroups(runs));
  doc->assign(reader->doc_file().begin(), reader->doc_file().end() - kFooterLength);
  *offset = cursor.stats().doc_offset;
}

// Writes `doc` (a .doc file without its footer) as segment `seg`'s .doc,
// with a footer, and reseals the segment and commit.
void ReplaceDocFile(Directory* dir, const CommitSegment& seg, const std::vector<uint8_t>& doc) {
  const std::string name = SegmentFileName(seg.name, "doc");
  ASSERT_TRUE(dir->DeleteFile(name).ok());
  {
    absl::StatusOr<std::unique_ptr<IndexOutput>> out = CreateOutput(dir, name);
    ASSERT_TRUE(out.ok()) << out.status();
    (*out)->WriteBytes(doc.data(), doc.size());
    ASSERT_TRUE(WriteFooter(**out).ok());
    ASSERT_TRUE((*out)->Close().ok());
  }
  ASSERT_NO_FATAL_FAILURE(Reseal(dir));
}

TEST(ImpactsCheckTest, Level1HeadersThatDisagreeWithTheirGroupsAreReported) {
  testing::ScratchDir scratch;
  // 2,300 docs: "common" has 17 full blocks, two groups of 8.
  ASSERT_NO_FATAL_FAILURE(WriteCommonIndex(scratch, 2300));
  auto dir = scratch.Open();
  CommitSegment seg;
  std::vector<uint8_t> doc;
  uint64_t group0 = 0;
  std::vector<PostingsCursor::SkipGroup> groups;
  ASSERT_NO_FATAL_FAILURE(ReadCommonRuns(dir.get(), &seg, &groups, &doc, &group0));
  ASSERT_EQ(groups.size(), 2u);
  // Group 1's header follows group 0's header and its group_bytes.
  const uint8_t* p = doc.data() + group0;
  const uint8_t* end = doc.data() + doc.size();
  uint64_t v = 0;
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(DecodeVInt64(&p, end, &v));  // ..impact_bytes
  const uint64_t group1 = static_cast<uint64_t>(p - doc.data()) + v + groups[0].bytes;
  // VInts of a level-1 header: 0 last_doc_delta, 1 group_bytes, 2 freq_sum,
  // 3 pos_fp_delta, 4 impact_bytes, 5 the first pair's freq delta.
  BumpVInt(&doc, group0, 5, 1);  // every freq of the frontier one higher
  BumpVInt(&doc, group1, 0, 1);  // the group's last doc one higher
  BumpVInt(&doc, group1, 2, 3);  // three positions more
  ASSERT_NO_FATAL_FAILURE(ReplaceDocFile(dir.get(), seg, doc));

  const CheckReport report = CheckIndex(scratch.path());
  EXPECT_FALSE(report.ok);
  const std::string all = AllProblems(report);
  EXPECT_TRUE(Reported(report, {"field body term \"common\" group 0", "level-1", "impacts"}))
      << all;
  EXPECT_TRUE(Reported(report, {"field body term \"common\" group 1", "level-1", "last doc"}))
      << all;
  EXPECT_TRUE(Reported(report, {"field body term \"common\" group 1", "freq_sum"})) << all;
  EXPECT_FALSE(Reported(report, {"group 0", "last doc"})) << all;
}

// .doc version 4: a level-2 header (before the 64 blocks of "common" in
// 8,300 documents, then its first group's level-1 header) whose frontier and
// freq_sum are altered is reported as the level-2 run; its groups, whose
// headers are intact, are not.
TEST(ImpactsCheckTest, Level2HeadersThatDisagreeWithTheirRunsAreReported) {
  testing::ScratchDir scratch;
  ASSERT_NO_FATAL_FAILURE(WriteCommonIndex(scratch, 8300));
  auto dir = scratch.Open();
  CommitSegment seg;
  std::vector<uint8_t> doc;
  uint64_t run = 0;
  std::vector<PostingsCursor::SkipGroup> groups;
  ASSERT_NO_FATAL_FAILURE(ReadCommonRuns(dir.get(), &seg, &groups, &doc, &run));
  ASSERT_EQ(groups.size(), 9u);  // the level-2 run, then its 8 groups
  ASSERT_EQ(groups[0].level, 2);
  ASSERT_EQ(groups[1].level, 1);
  BumpVInt(&doc, run, 5, 1);  // every freq of the frontier one higher
  BumpVInt(&doc, run, 2, 2);  // two positions more
  ASSERT_NO_FATAL_FAILURE(ReplaceDocFile(dir.get(), seg, doc));

  const CheckReport report = CheckIndex(scratch.path());
  EXPECT_FALSE(report.ok);
  const std::string all = AllProblems(report);
  EXPECT_TRUE(Reported(report, {"field body term \"common\" level-2 run 0", "level-2", "impacts"}))
      << all;
  EXPECT_TRUE(Reported(report, {"field body term \"common\" level-2 run 0", "freq_sum"})) << all;
  EXPECT_FALSE(Reported(report, {"group "})) << all;
}

}  // namespace
}  // namespace invert

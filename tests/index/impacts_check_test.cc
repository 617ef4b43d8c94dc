// CheckIndex verifies the postings' impacts (docs/format.md, .doc version 2):
// an index written by IndexWriter checks clean; after its segment's norms
// are replaced by different ones (files, segment info and commit rewritten
// so that every checksum holds), the stored impacts no longer match the
// frontier recomputed from the documents and CheckIndex names the field,
// the term and the block.
#include <string>
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

namespace invert {
namespace {

TEST(ImpactsCheckTest, ImpactsThatDisagreeWithTheNormsAreReported) {
  testing::ScratchDir scratch;
  {
    IndexWriterOptions options;
    options.open_mode = OpenMode::kCreate;
    auto writer = IndexWriter::Open(scratch.path(), options);
    ASSERT_TRUE(writer.ok()) << writer.status();
    for (int d = 0; d < 300; ++d) {
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

  auto dir = scratch.Open();
  absl::StatusOr<NewestCommit> newest = ReadNewestCommit(dir.get());
  ASSERT_TRUE(newest.ok()) << newest.status();
  CommitPoint commit = newest->commit;
  ASSERT_EQ(commit.segments.size(), 1u);
  CommitSegment& seg = commit.segments[0];
  uint32_t body = 0;
  {
    absl::StatusOr<std::unique_ptr<SegmentReader>> reader =
        SegmentReader::Open(dir.get(), seg.name, seg.id);
    ASSERT_TRUE(reader.ok()) << reader.status();
    ASSERT_EQ((*reader)->doc_version(), kDocFormatVersion);
    body = (*reader)->FieldByName("body")->number;
  }
  // Every norm 200: a longer field than any document has.
  ASSERT_TRUE(dir->DeleteFile(SegmentFileName(seg.name, "nvd")).ok());
  ASSERT_TRUE(
      WriteNorms(dir.get(), seg.name, seg.id, seg.doc_count, {body}, [](uint32_t, uint32_t) {
        return uint8_t{200};
      }).ok());
  absl::StatusOr<SegmentInfo> info = ReadSegmentInfo(dir.get(), seg.name, seg.id);
  ASSERT_TRUE(info.ok()) << info.status();
  for (SegmentFile& f : info->files) f.length = f.checksum = 0;
  ASSERT_TRUE(dir->DeleteFile(SegmentFileName(seg.name, "si")).ok());
  ASSERT_TRUE(WriteSegmentInfo(dir.get(), &*info).ok());
  absl::StatusOr<IndexInput> si = OpenInput(dir.get(), SegmentFileName(seg.name, "si"));
  ASSERT_TRUE(si.ok()) << si.status();
  absl::StatusOr<uint64_t> checksum = ReadFooterChecksum(*si);
  ASSERT_TRUE(checksum.ok()) << checksum.status();
  seg.si_checksum = *checksum;
  commit.generation = newest->max_generation + 1;
  ASSERT_TRUE(WriteCommit(dir.get(), commit).ok());

  const CheckReport report = CheckIndex(scratch.path());
  EXPECT_FALSE(report.ok);
  bool named = false;
  for (const std::string& p : report.problems) {
    if (p.find("field body term \"common\" block 0") != std::string::npos &&
        p.find("impacts") != std::string::npos) {
      named = true;
    }
  }
  EXPECT_TRUE(named) << (report.problems.empty() ? "no problem reported" : report.problems[0]);
}

}  // namespace
}  // namespace invert

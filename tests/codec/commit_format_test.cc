// Tests of the commit point's deletion fields (format version 3,
// codec/commit_format.h): round trips with and without deletions,
// live_doc_count, the invariants (del_count <= doc_count, del_gen 0 iff
// del_count 0) refused by WriteCommit and reported by ReadCommit, the
// recorded .liv checksum, version 2 still read (no deletions), and every
// flipped byte of a version-3 commit point detected.
#include "codec/commit_format.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "codec/live_docs_format.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "scratch_dir.h"
#include "store/index_output.h"

namespace invert {
namespace {

using ::testing::HasSubstr;

SegmentId MakeId(uint8_t first) {
  SegmentId id;
  for (size_t i = 0; i < id.size(); ++i) id[i] = static_cast<uint8_t>(first + i);
  return id;
}

std::string Message(const absl::Status& s) { return std::string(s.message()); }

class CommitFormatTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = scratch_.Open(); }

  // A commit of generation `generation` with segment "_0" (10 docs, no
  // deletions) and "_1" (20 docs, docs 3 and 7 deleted at generation 2,
  // whose .liv this writes).
  CommitPoint TwoSegments(uint64_t generation) {
    CommitPoint c;
    c.generation = generation;
    c.index_id = MakeId(0x10);
    c.next_segment_number = 2;
    c.schema.push_back(FieldInfo{"body", 0, FieldType::Text()});
    c.segments.push_back(CommitSegment{"_0", MakeId(0x20), 10, 0x1111});
    CommitSegment s{"_1", MakeId(0x30), 20, 0x2222};
    LiveDocs live(20);
    live.Delete(3);
    live.Delete(7);
    s.del_gen = 2;
    s.del_count = 2;
    if (!std::filesystem::exists(scratch_.path() + "/_1_2.liv")) {
      EXPECT_TRUE(WriteLiveDocs(dir_.get(), "_1", s.id, 2, live, &s.liv_checksum).ok());
    } else {
      absl::StatusOr<IndexInput> in = OpenInput(dir_.get(), "_1_2.liv");
      s.liv_checksum = *ReadFooterChecksum(*in);
    }
    c.segments.push_back(s);
    return c;
  }

  // Writes `name` as a commit point of `version` whose segments carry
  // exactly the given fields (no validation), for the reader's checks.
  void WriteRaw(const std::string& name, uint32_t version, uint64_t generation,
                const std::vector<CommitSegment>& segments) {
    absl::StatusOr<std::unique_ptr<IndexOutput>> out = CreateOutput(dir_.get(), name);
    ASSERT_TRUE(out.ok()) << out.status();
    IndexOutput& o = **out;
    ASSERT_TRUE(WriteHeader(o, kCommitCodec, version, MakeId(0x10)).ok());
    o.WriteVInt64(generation);
    o.WriteVInt64(7);
    o.WriteVInt32(0);  // no schema
    o.WriteVInt32(static_cast<uint32_t>(segments.size()));
    for (const CommitSegment& s : segments) {
      o.WriteString(s.name);
      o.WriteBytes(s.id.data(), s.id.size());
      o.WriteVInt32(s.doc_count);
      o.WriteFixed64(s.si_checksum);
      if (version >= 3) {
        o.WriteVInt64(s.del_gen);
        o.WriteVInt32(s.del_count);
        if (s.del_gen > 0) o.WriteFixed64(s.liv_checksum);
      }
    }
    ASSERT_TRUE(WriteFooter(o).ok());
    ASSERT_TRUE(o.Close().ok());
  }

  testing::ScratchDir scratch_;
  std::unique_ptr<FSDirectory> dir_;
};

TEST_F(CommitFormatTest, RoundTripWithDeletions) {
  const CommitPoint c = TwoSegments(3);
  ASSERT_TRUE(WriteCommit(dir_.get(), c).ok());
  absl::StatusOr<CommitPoint> read = ReadCommit(dir_.get(), "segments_3");
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->segments.size(), 2u);
  EXPECT_EQ(read->segments[0], c.segments[0]);
  EXPECT_EQ(read->segments[1], c.segments[1]);
  EXPECT_EQ(read->segments[1].del_gen, 2u);
  EXPECT_EQ(read->segments[1].del_count, 2u);
  EXPECT_NE(read->segments[1].liv_checksum, 0u);
  EXPECT_EQ(read->doc_count(), 30u);
  EXPECT_EQ(read->live_doc_count(), 28u);
  // Version 3 is what is written.
  absl::StatusOr<IndexInput> in = OpenInput(dir_.get(), "segments_3");
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(in->bytes()[4 + 1 + kCommitCodec.size()], 3);
}

TEST_F(CommitFormatTest, WriteCommitRefusesBrokenDeletionFields) {
  const CommitPoint good = TwoSegments(4);
  auto refused = [&](CommitPoint c, const std::string& what) {
    absl::Status s = WriteCommit(dir_.get(), c);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    EXPECT_THAT(Message(s), HasSubstr("segment _1"));
    EXPECT_THAT(Message(s), HasSubstr(what));
    EXPECT_FALSE(std::filesystem::exists(scratch_.path() + "/segments_4"));
  };
  CommitPoint c = good;
  c.segments[1].del_count = 21;
  refused(c, "deletes 21 of its 20");
  c = good;
  c.segments[1].del_count = 0;
  refused(c, "generation 0 iff");
  c = good;
  c.segments[1].del_gen = 0;
  refused(c, "generation 0 iff");
  c = good;
  c.segments[1].liv_checksum ^= 1;
  refused(c, "set it from WriteLiveDocs");
  c = good;
  c.segments[1].del_gen = 5;  // no _1_5.liv
  refused(c, "_1_5.liv");
  c = good;
  c.segments[1].del_gen = 0;
  c.segments[1].del_count = 0;
  refused(c, "checksum but no deletions");
  EXPECT_TRUE(WriteCommit(dir_.get(), good).ok());
}

TEST_F(CommitFormatTest, ReadCommitReportsBrokenDeletionFields) {
  CommitSegment s{"_1", MakeId(0x30), 20, 0x2222};
  s.del_gen = 1;
  s.del_count = 21;
  WriteRaw("segments_5", 3, 5, {s});
  absl::StatusOr<CommitPoint> r = ReadCommit(dir_.get(), "segments_5");
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(Message(r.status()), HasSubstr("segments_5"));
  EXPECT_THAT(Message(r.status()), HasSubstr("segment _1 deletes 21 of its 20"));

  s.del_gen = 0;
  s.del_count = 3;
  WriteRaw("segments_6", 3, 6, {s});
  r = ReadCommit(dir_.get(), "segments_6");
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(Message(r.status()), HasSubstr("generation 0 iff"));

  s.del_gen = 4;
  s.del_count = 0;
  WriteRaw("segments_7", 3, 7, {s});
  r = ReadCommit(dir_.get(), "segments_7");
  EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss);

  // A whole segment deleted is allowed.
  s.del_gen = 4;
  s.del_count = 20;
  s.liv_checksum = 99;
  WriteRaw("segments_8", 3, 8, {s});
  r = ReadCommit(dir_.get(), "segments_8");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->segments[0], s);
  EXPECT_EQ(r->live_doc_count(), 0u);
}

TEST_F(CommitFormatTest, Version2IsReadWithoutDeletions) {
  CommitSegment s{"_1", MakeId(0x30), 20, 0x2222};
  WriteRaw("segments_9", 2, 9, {s, CommitSegment{"_2", MakeId(0x40), 5, 0x3333}});
  absl::StatusOr<CommitPoint> r = ReadCommit(dir_.get(), "segments_9");
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->segments.size(), 2u);
  EXPECT_EQ(r->segments[0], s);
  EXPECT_EQ(r->segments[1].del_gen, 0u);
  EXPECT_EQ(r->live_doc_count(), 25u);
  // Version 1 and 4 are refused as versions this build does not read.
  WriteRaw("segments_10", 1, 10, {s});
  EXPECT_EQ(ReadCommit(dir_.get(), "segments_10").status().code(),
            absl::StatusCode::kFailedPrecondition);
  WriteRaw("segments_11", 4, 11, {s});
  EXPECT_EQ(ReadCommit(dir_.get(), "segments_11").status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST_F(CommitFormatTest, EveryFlippedByteIsDetected) {
  ASSERT_TRUE(WriteCommit(dir_.get(), TwoSegments(12)).ok());
  const std::string path = scratch_.path() + "/segments_12";
  std::ifstream in(path, std::ios::binary);
  const std::string original((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  ASSERT_TRUE(ReadCommit(dir_.get(), "segments_12").ok());
  for (size_t i = 0; i < original.size(); ++i) {
    std::string damaged = original;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x04);
    std::filesystem::remove(path);
    std::ofstream(path, std::ios::binary) << damaged;
    EXPECT_FALSE(ReadCommit(dir_.get(), "segments_12").ok()) << "byte " << i;
  }
}

}  // namespace
}  // namespace invert

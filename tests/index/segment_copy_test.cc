// Tests of CopySegment (AddIndexes' copy step): segments of a small index
// built with IndexWriter are copied into another directory under new names
// and ids; every copy opens, verifies, and holds exactly the source's terms,
// postings, norms, stored fields and vectors (canonical dumps compared), and
// a commit point over the copies passes CheckIndex. A byte flipped anywhere
// in any source file fails the copy with kDataLoss and leaves nothing
// behind; so does a fault injected at every write, fsync and create of a
// copy, or a full disk.
#include "index/segment_copy.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codec/commit_format.h"
#include "codec/live_docs_format.h"
#include "codec/segment_files.h"
#include "gtest/gtest.h"
#include "index/commit_reader.h"
#include "index/random_docs.h"
#include "index/segment_flush.h"
#include "invert/check_index.h"
#include "invert/index_writer.h"
#include "invert/merge_policy.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "testing/fault_injecting_directory.h"
#include "testing/segment_dump.h"

namespace invert {
namespace {

// Builds an index in `path` of `segments` segments (one commit each, no
// merges) of `docs_per_segment` random documents.
void BuildIndex(const std::string& path, Random& rng, int segments, int docs_per_segment) {
  std::vector<testing::FieldSpec> specs;
  std::map<std::string, FieldType> types;
  for (int i = 0; i < 6; ++i) {
    testing::FieldSpec s{"f" + std::to_string(i), testing::RandomType(rng)};
    types[s.name] = s.type;
    specs.push_back(s);
  }
  // Every document has a stored keyword id, so no document is empty.
  types["id"] = FieldType::Keyword(/*stored=*/true);
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  o.ram_buffer_mb = 16;
  o.merge_policy = std::make_shared<NoMergePolicy>();
  auto writer = IndexWriter::Open(path, o);
  ASSERT_TRUE(writer.ok()) << writer.status();
  int id = 0;
  for (int s = 0; s < segments; ++s) {
    for (int d = 0; d < docs_per_segment; ++d) {
      testing::TestDoc td = testing::RandomDoc(rng, specs);
      testing::TestValue v;
      v.is_text = true;
      v.text = "doc" + std::to_string(id++);
      td.fields.push_back(testing::TestField{"id", {std::move(v)}});
      ASSERT_TRUE((*writer)->AddDocument(testing::ToDocument(td, types)).ok());
    }
    ASSERT_TRUE((*writer)->Commit().ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
}

CommitPoint NewestCommit(Directory* dir) {
  absl::StatusOr<invert::NewestCommit> newest = ReadNewestCommit(dir);
  EXPECT_TRUE(newest.ok()) << newest.status();
  return newest.ok() ? newest->commit : CommitPoint{};
}

std::string Dump(Directory* dir, const CommitSegment& s) {
  absl::StatusOr<std::unique_ptr<SegmentReader>> reader = OpenCommitSegment(dir, s);
  EXPECT_TRUE(reader.ok()) << reader.status();
  if (!reader.ok()) return "";
  EXPECT_TRUE((*reader)->CheckIntegrity().ok());
  absl::StatusOr<std::string> dump = DumpSegment(**reader);
  EXPECT_TRUE(dump.ok()) << dump.status();
  return dump.ok() ? *dump : "";
}

std::vector<std::string> Files(Directory* dir) {
  absl::StatusOr<std::vector<std::string>> all = dir->ListAll();
  EXPECT_TRUE(all.ok()) << all.status();
  return all.ok() ? *all : std::vector<std::string>{};
}

// Deletes every third document of `s` in `dir` (generation 1) and records
// it in *s.
LiveDocs DeleteSome(Directory* dir, CommitSegment* s) {
  LiveDocs live(s->doc_count);
  for (uint32_t d = 0; d < s->doc_count; d += 3) live.Delete(d);
  uint64_t checksum = 0;
  absl::StatusOr<std::string> name = WriteLiveDocs(dir, s->name, s->id, 1, live, &checksum);
  EXPECT_TRUE(name.ok()) << name.status();
  s->del_gen = 1;
  s->del_count = live.del_count();
  s->liv_checksum = checksum;
  return live;
}

class SegmentCopyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Random rng(testing::TestSeed(1212));
    BuildIndex(src_path_.path(), rng, 3, 40);
    src_ = src_path_.Open();
    dst_ = dst_path_.Open();
    commit_ = NewestCommit(src_.get());
    ASSERT_EQ(commit_.segments.size(), 3u);
  }

  testing::ScratchDir src_path_, dst_path_;
  std::unique_ptr<FSDirectory> src_, dst_;
  CommitPoint commit_;
  const SegmentId index_id_ = NewIndexId();
};

TEST_F(SegmentCopyTest, CopiesAreEqualToTheSourceAndFormAnIndex) {
  DeleteSome(src_.get(), &commit_.segments[1]);
  CommitPoint copy;
  copy.generation = 1;
  copy.index_id = index_id_;
  copy.schema = commit_.schema;
  CopyStats stats;
  std::vector<std::string> written;
  for (size_t i = 0; i < commit_.segments.size(); ++i) {
    const CommitSegment& s = commit_.segments[i];
    const std::string name = SegmentName(10 + i);
    const SegmentId id = NewSegmentId(index_id_);
    absl::StatusOr<CopiedSegment> c = CopySegment(src_.get(), s, dst_.get(), name, id, &stats);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_EQ(c->segment.name, name);
    EXPECT_EQ(c->segment.id, id);
    EXPECT_TRUE(SegmentBelongsToIndex(c->segment.id, index_id_));
    EXPECT_EQ(c->segment.doc_count, s.doc_count);
    EXPECT_EQ(c->segment.del_gen, s.del_gen);
    EXPECT_EQ(c->segment.del_count, s.del_count);
    ASSERT_FALSE(c->files.empty());
    EXPECT_EQ(c->files.front(), name + ".si");
    // Every byte the same but the id and the checksums: the same content.
    EXPECT_EQ(Dump(dst_.get(), c->segment), Dump(src_.get(), s)) << "segment " << s.name;
    if (s.del_gen > 0) {
      EXPECT_NE(c->segment.liv_checksum, 0u);
      absl::StatusOr<LiveDocs> want =
          ReadLiveDocs(src_.get(), s.name, s.id, s.del_gen, s.doc_count, s.del_count);
      absl::StatusOr<LiveDocs> got =
          ReadLiveDocs(dst_.get(), name, id, s.del_gen, s.doc_count, s.del_count);
      ASSERT_TRUE(want.ok()) << want.status();
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_EQ(*got, *want);
      EXPECT_NE(std::find(c->files.begin(), c->files.end(), LiveDocsFileName(name, s.del_gen)),
                c->files.end());
    }
    written.insert(written.end(), c->files.begin(), c->files.end());
    copy.segments.push_back(c->segment);
  }
  copy.next_segment_number = 10 + commit_.segments.size();
  // What CopySegment says it wrote is exactly what is there.
  std::sort(written.begin(), written.end());
  EXPECT_EQ(Files(dst_.get()), written);
  uint64_t bytes = 0;
  for (const std::string& f : written) bytes += *dst_->FileLength(f);
  EXPECT_EQ(stats.files, written.size());
  EXPECT_EQ(stats.bytes_written, bytes);
  EXPECT_EQ(stats.bytes_read, bytes);  // same lengths; the source's .si and .liv read once each

  // A commit point over the copies is a sound index with the source's docs.
  ASSERT_TRUE(WriteCommit(dst_.get(), copy).ok());
  const CheckReport report = CheckIndex(dst_.get());
  EXPECT_TRUE(report.ok) << FormatCheckReport(report);
  EXPECT_EQ(report.segments, 3u);
  auto reader = CommitReader::Open(dst_.get());
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->commit().live_doc_count(), commit_.live_doc_count());
  for (size_t i = 0; i < commit_.segments.size(); ++i) {
    auto want = (*reader)->FetchDocuments(std::vector<uint64_t>{(*reader)->doc_base(i)});
    ASSERT_TRUE(want.ok()) << want.status();
    EXPECT_FALSE((*want)[0].stored.empty());
  }
}

TEST_F(SegmentCopyTest, CopyWithinOneDirectoryUnderANewName) {
  const CommitSegment& s = commit_.segments[0];
  absl::StatusOr<CopiedSegment> c =
      CopySegment(src_.get(), s, src_.get(), SegmentName(99), NewSegmentId(commit_.index_id));
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(Dump(src_.get(), c->segment), Dump(src_.get(), s));
}

TEST_F(SegmentCopyTest, RefusesBadNamesAndTakenNamesWithoutWriting) {
  const CommitSegment& s = commit_.segments[0];
  for (const char* bad : {"", "x", "_", "_A", "_1.si", "_01", "segments_1"}) {
    absl::StatusOr<CopiedSegment> c =
        CopySegment(src_.get(), s, dst_.get(), bad, NewSegmentId(index_id_));
    EXPECT_TRUE(absl::IsInvalidArgument(c.status())) << bad << ": " << c.status();
  }
  absl::StatusOr<CopiedSegment> self =
      CopySegment(src_.get(), s, src_.get(), s.name, NewSegmentId(commit_.index_id));
  EXPECT_TRUE(absl::IsInvalidArgument(self.status())) << self.status();
  EXPECT_TRUE(Files(dst_.get()).empty());

  absl::StatusOr<CopiedSegment> first =
      CopySegment(src_.get(), s, dst_.get(), "_5", NewSegmentId(index_id_));
  ASSERT_TRUE(first.ok()) << first.status();
  const std::vector<std::string> before = Files(dst_.get());
  // Another segment onto the same name: refused, the first copy untouched.
  absl::StatusOr<CopiedSegment> again =
      CopySegment(src_.get(), commit_.segments[1], dst_.get(), "_5", NewSegmentId(index_id_));
  EXPECT_TRUE(absl::IsAlreadyExists(again.status())) << again.status();
  EXPECT_NE(again.status().message().find("_5."), std::string::npos) << again.status();
  EXPECT_EQ(Files(dst_.get()), before);
  EXPECT_EQ(Dump(dst_.get(), first->segment), Dump(src_.get(), s));
}

TEST_F(SegmentCopyTest, CommitThatDisagreesWithTheSegmentIsDataLoss) {
  CommitSegment s = commit_.segments[0];
  s.doc_count += 1;
  absl::StatusOr<CopiedSegment> c =
      CopySegment(src_.get(), s, dst_.get(), "_1", NewSegmentId(index_id_));
  EXPECT_TRUE(absl::IsDataLoss(c.status())) << c.status();
  s = commit_.segments[0];
  s.si_checksum ^= 1;
  c = CopySegment(src_.get(), s, dst_.get(), "_1", NewSegmentId(index_id_));
  EXPECT_TRUE(absl::IsDataLoss(c.status())) << c.status();
  s = commit_.segments[0];
  s.id[15] ^= 1;  // the segment of another index, or another segment
  c = CopySegment(src_.get(), s, dst_.get(), "_1", NewSegmentId(index_id_));
  EXPECT_TRUE(absl::IsDataLoss(c.status())) << c.status();
  EXPECT_TRUE(Files(dst_.get()).empty());
}

void FlipByte(const std::string& path, uint64_t offset) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(offset));
  char c = 0;
  f.read(&c, 1);
  c = static_cast<char>(c ^ 0x20);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(&c, 1);
  ASSERT_TRUE(f.good()) << path;
}

// Every byte of every file of a small segment with deletions, flipped in
// turn: each copy fails with kDataLoss naming the source and the file, and
// leaves nothing in the destination.
TEST(SegmentCopyDamageTest, EveryFlippedSourceByteIsDataLossAndLeavesNothing) {
  testing::ScratchDir src_path, dst_path;
  Random rng(testing::TestSeed(3434));
  BuildIndex(src_path.path(), rng, 1, 4);
  auto src = src_path.Open();
  auto dst = dst_path.Open();
  CommitSegment s = NewestCommit(src.get()).segments.at(0);
  DeleteSome(src.get(), &s);
  ASSERT_TRUE(CopySegment(src.get(), s, dst.get(), "_a", NewSegmentId()).ok());
  for (const std::string& f : Files(dst.get())) ASSERT_TRUE(dst->DeleteFile(f).ok());

  uint64_t cases = 0;
  for (const std::string& file : Files(src.get())) {
    if (!file.starts_with(s.name + ".") && !file.starts_with(s.name + "_")) continue;
    const std::string path = src_path.path() + "/" + file;
    const uint64_t length = std::filesystem::file_size(path);
    for (uint64_t offset = 0; offset < length; ++offset) {
      FlipByte(path, offset);
      absl::StatusOr<CopiedSegment> c = CopySegment(src.get(), s, dst.get(), "_a", NewSegmentId());
      FlipByte(path, offset);
      ++cases;
      ASSERT_TRUE(absl::IsDataLoss(c.status())) << file << " byte " << offset << ": " << c.status();
      const std::string message(c.status().message());
      EXPECT_NE(message.find(src->DebugString()), std::string::npos) << message;
      EXPECT_NE(message.find("segment " + s.name), std::string::npos) << message;
      EXPECT_NE(message.find(file), std::string::npos)
          << file << " byte " << offset << ": " << message;
      ASSERT_TRUE(Files(dst.get()).empty()) << file << " byte " << offset;
    }
  }
  EXPECT_GT(cases, 500u);
  // Restored: the copy works again.
  EXPECT_TRUE(CopySegment(src.get(), s, dst.get(), "_a", NewSegmentId()).ok());
}

TEST_F(SegmentCopyTest, MissingSourceFileFailsAndLeavesNothing) {
  CommitSegment s = commit_.segments[2];
  ASSERT_TRUE(src_->DeleteFile(s.name + ".pos").ok());
  absl::StatusOr<CopiedSegment> c =
      CopySegment(src_.get(), s, dst_.get(), "_b", NewSegmentId(index_id_));
  EXPECT_TRUE(absl::IsNotFound(c.status())) << c.status();
  EXPECT_NE(c.status().message().find(s.name + ".pos"), std::string::npos) << c.status();
  EXPECT_TRUE(Files(dst_.get()).empty());
}

// A copy walked with a fault at every counted op (create, write, fsync) in
// turn, once failing only that op and once every op after it: each fails and
// leaves the destination empty.
TEST_F(SegmentCopyTest, FaultAtEveryOpLeavesNothing) {
  CommitSegment s = commit_.segments[1];
  DeleteSome(src_.get(), &s);
  FaultInjectingDirectory faulty(dst_.get());
  faulty.set_max_write_size(512);  // several writes per file
  ASSERT_TRUE(CopySegment(src_.get(), s, &faulty, "_c", NewSegmentId(index_id_)).ok());
  const uint64_t total = faulty.op_count();
  ASSERT_GT(total, 20u);
  for (const std::string& f : Files(dst_.get())) ASSERT_TRUE(dst_->DeleteFile(f).ok());
  for (bool sticky : {false, true}) {
    faulty.set_sticky(sticky);
    for (uint64_t n = 1; n <= total; ++n) {
      faulty.ResetCounters();
      faulty.FailAt(n);
      absl::StatusOr<CopiedSegment> c =
          CopySegment(src_.get(), s, &faulty, "_c", NewSegmentId(index_id_));
      ASSERT_FALSE(c.ok()) << "op " << n;
      EXPECT_NE(c.status().message().find("injected fault"), std::string::npos) << c.status();
      EXPECT_NE(c.status().message().find("_c"), std::string::npos) << c.status();
      ASSERT_TRUE(Files(dst_.get()).empty()) << "op " << n << " sticky " << sticky;
    }
  }
  faulty.FailAt(0);
  faulty.ResetCounters();
  // A full disk at several points.
  for (uint64_t limit : {0, 100, 1000, 5000}) {
    faulty.SetDiskLimit(limit);
    absl::StatusOr<CopiedSegment> c =
        CopySegment(src_.get(), s, &faulty, "_c", NewSegmentId(index_id_));
    EXPECT_TRUE(absl::IsResourceExhausted(c.status())) << limit << ": " << c.status();
    EXPECT_TRUE(Files(dst_.get()).empty()) << limit;
    faulty.ClearDiskLimit();
  }
  absl::StatusOr<CopiedSegment> c =
      CopySegment(src_.get(), s, &faulty, "_c", NewSegmentId(index_id_));
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(Dump(dst_.get(), c->segment), Dump(src_.get(), s));
}

}  // namespace
}  // namespace invert

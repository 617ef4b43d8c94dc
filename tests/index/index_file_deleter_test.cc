// Tests of IndexFileDeleter's rules for live-docs files (_n_gen.liv,
// src/index/index_file_deleter.h): a .liv is kept iff a kept commit lists
// its segment with its generation; older generations go once no kept
// commit uses them; leftovers go under rules (a), (b) and (c) like the
// segment's other files, and never while a damaged commit point may list
// them (rule c off); foreign and misnamed ones are never deleted; a writer
// opening an index with deletions keeps its current live docs.
#include "index/index_file_deleter.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "index/segment_flush.h"
#include "invert/index_writer.h"
#include "live_docs_test_util.h"
#include "scratch_dir.h"

namespace invert {
namespace {

IndexWriterOptions Options() {
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  o.ram_buffer_mb = 4;
  return o;
}

// Two commits: segment _0 (10 docs), then _0 and _1 (10 more).
void TwoSegments(const std::string& path) {
  auto writer = IndexWriter::Open(path, Options());
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (int commit = 0; commit < 2; ++commit) {
    for (int i = 0; i < 10; ++i) {
      // A Field holds views: the value must outlive the AddDocument call.
      const std::string id = "id" + std::to_string(commit * 10 + i);
      Document doc;
      doc.Add(Field::Keyword("id", id, FieldType::Keyword(/*stored=*/true)));
      ASSERT_TRUE((*writer)->AddDocument(doc).ok());
    }
    ASSERT_TRUE((*writer)->Commit().ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
}

std::set<std::string> Files(const std::string& path) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

std::set<std::string> LivFiles(const std::string& path) {
  std::set<std::string> names;
  for (const std::string& name : Files(path)) {
    if (name.ends_with(".liv")) names.insert(name);
  }
  return names;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

class IndexFileDeleterLiveDocsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TwoSegments(scratch_.path());
    dir_ = scratch_.Open();
    absl::StatusOr<NewestCommit> newest = ReadNewestCommit(dir_.get());
    ASSERT_TRUE(newest.ok()) << newest.status();
    base_ = newest->commit;
    ASSERT_EQ(base_.segments.size(), 2u);
    ASSERT_EQ(base_.segments[0].name, "_0");
    ASSERT_EQ(base_.segments[1].name, "_1");
  }

  testing::ScratchDir scratch_;
  std::unique_ptr<FSDirectory> dir_;
  CommitPoint base_;
};

TEST_F(IndexFileDeleterLiveDocsTest, OldGenerationsGoWhenNoKeptCommitUsesThem) {
  // Commit A: _0 gen 1. Commit B: _0 gen 2, _1 gen 1.
  auto a = testing::CommitDeletions(dir_.get(), {{"_0", {1, 2}}});
  ASSERT_TRUE(a.ok()) << a.status();
  auto b = testing::CommitDeletions(dir_.get(), {{"_0", {3}}, {"_1", {9}}});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(LivFiles(scratch_.path()), (std::set<std::string>{"_0_1.liv", "_0_2.liv", "_1_1.liv"}));

  IndexFileDeleter deleter(dir_.get(), base_.index_id);
  absl::StatusOr<CommitInventory> inventory = deleter.Scan();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  EXPECT_EQ(inventory->max_del_gen_seen,
            (std::map<std::string, uint64_t, std::less<>>{{"_0", 2}, {"_1", 1}}));
  // Both kept: every generation either lists stays.
  std::vector<std::string> deleted = deleter.DeleteUnreferenced({*b, *a});
  EXPECT_THAT(deleted, ::testing::Not(::testing::Contains(::testing::EndsWith(".liv"))));
  EXPECT_EQ(LivFiles(scratch_.path()), (std::set<std::string>{"_0_1.liv", "_0_2.liv", "_1_1.liv"}));
  // Only B kept: _0_1.liv goes, the segment's other files stay.
  const std::set<std::string> before = Files(scratch_.path());
  deleted = deleter.DeleteUnreferenced({*b});
  EXPECT_THAT(deleted, ::testing::Contains("_0_1.liv"));
  EXPECT_EQ(LivFiles(scratch_.path()), (std::set<std::string>{"_0_2.liv", "_1_1.liv"}));
  for (const std::string& name : before) {
    if (name.starts_with("_0.") || name.starts_with("_1.")) {
      EXPECT_TRUE(Files(scratch_.path()).contains(name)) << name << " was deleted";
    }
  }
  // Keeping the commit without deletions: every .liv goes.
  deleted = deleter.DeleteUnreferenced({base_});
  EXPECT_TRUE(LivFiles(scratch_.path()).empty());
}

TEST_F(IndexFileDeleterLiveDocsTest, LeftoversAndForeignFiles) {
  auto a = testing::CommitDeletions(dir_.get(), {{"_0", {4}}});
  ASSERT_TRUE(a.ok()) << a.status();
  const SegmentId id0 = base_.segments[0].id;
  LiveDocs live(10);
  live.Delete(5);
  // Rule (b): a newer generation of a segment a readable commit listed (a
  // writer died before committing it).
  ASSERT_TRUE(WriteLiveDocs(dir_.get(), "_0", id0, 5, live).ok());
  // Rule (c): a .liv of a segment no commit lists, with this index's id.
  ASSERT_TRUE(WriteLiveDocs(dir_.get(), "_9", NewSegmentId(base_.index_id), 1, live).ok());
  // Never: another index's, a foreign file, names outside the scheme.
  SegmentId other_index = base_.index_id;
  other_index[0] ^= 0xff;
  ASSERT_TRUE(WriteLiveDocs(dir_.get(), "_8", NewSegmentId(other_index), 1, live).ok());
  const std::map<std::string, std::string> foreign = {{"_7_1.liv", "not a live-docs file\n"},
                                                      {"_0_01.liv", "x"},
                                                      {"_0_0.liv", "y"},
                                                      {"_0.liv", "z"},
                                                      {"_0_1.liv.bak", "w"}};
  for (const auto& [name, bytes] : foreign) WriteFile(scratch_.path() + "/" + name, bytes);

  // First with a damaged commit point in the directory: rules (b) and (c)
  // are off, as it may list any file that was here at Scan (_0_5.liv
  // included); only a generation written after the Scan goes.
  {
    std::ifstream in(scratch_.path() + "/" + a->file_name(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes[bytes.size() / 2] ^= 0x10;
    WriteFile(scratch_.path() + "/segments_99", bytes);
  }
  {
    IndexFileDeleter deleter(dir_.get(), base_.index_id);
    ASSERT_TRUE(deleter.Scan().ok());
    EXPECT_FALSE(deleter.deletes_leftovers());
    ASSERT_TRUE(WriteLiveDocs(dir_.get(), "_0", id0, 6, live).ok());  // after the Scan
    deleter.DeleteUnreferenced({*a});
    EXPECT_EQ(LivFiles(scratch_.path()),
              (std::set<std::string>{"_0_1.liv", "_0_5.liv", "_9_1.liv", "_8_1.liv", "_7_1.liv",
                                     "_0_01.liv", "_0_0.liv", "_0.liv"}));
  }
  std::filesystem::remove(scratch_.path() + "/segments_99");
  {
    IndexFileDeleter deleter(dir_.get(), base_.index_id);
    ASSERT_TRUE(deleter.Scan().ok());
    EXPECT_TRUE(deleter.deletes_leftovers());
    deleter.DeleteUnreferenced({*a});
    EXPECT_EQ(LivFiles(scratch_.path()),
              (std::set<std::string>{"_0_1.liv", "_8_1.liv", "_7_1.liv", "_0_01.liv", "_0_0.liv",
                                     "_0.liv"}));
  }
  for (const auto& [name, bytes] : foreign) {
    EXPECT_TRUE(Files(scratch_.path()).contains(name)) << name << " was deleted";
  }
}

TEST_F(IndexFileDeleterLiveDocsTest, AWriterOpeningAnIndexWithDeletionsKeepsTheirFiles) {
  auto a = testing::CommitDeletions(dir_.get(), {{"_0", {0}}});
  ASSERT_TRUE(a.ok()) << a.status();
  auto b = testing::CommitDeletions(dir_.get(), {{"_0", {1}}, {"_1", {2}}});
  ASSERT_TRUE(b.ok()) << b.status();
  {
    IndexWriterOptions o = Options();
    o.open_mode = OpenMode::kAppend;
    auto writer = IndexWriter::Open(scratch_.path(), o);
    ASSERT_TRUE(writer.ok()) << writer.status();
    ASSERT_TRUE((*writer)->Close().ok());
  }
  // The two newest commits are kept, and so is every generation they list.
  EXPECT_EQ(LivFiles(scratch_.path()), (std::set<std::string>{"_0_1.liv", "_0_2.liv", "_1_1.liv"}));
  absl::StatusOr<NewestCommit> newest = ReadNewestCommit(dir_.get());
  ASSERT_TRUE(newest.ok()) << newest.status();
  EXPECT_EQ(newest->commit.live_doc_count(), 17u);
}

}  // namespace
}  // namespace invert

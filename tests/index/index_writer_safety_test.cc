// Tests of the writer's data-safety rules (docs/safety.md): the write lock
// (same process and across processes), open modes, unreadable commit points
// refused (never wiped) and recovered only on request, foreign files left
// alone, crash leftovers of this index deleted, one schema per index, and
// readers following a concurrent commit.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "index/commit_reader.h"
#include "invert/check_index.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "invert/stored_document.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "util/absl_compat.h"
#include "util/random.h"

namespace invert {
namespace {

using ::testing::HasSubstr;

IndexWriterOptions Options(OpenMode mode = OpenMode::kCreateOrAppend) {
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  o.ram_buffer_mb = 4;
  o.open_mode = mode;
  return o;
}

std::string Message(const absl::Status& s) { return std::string(s.message()); }

// Adds documents "id<from>" .. "id<to - 1>" (stored keyword id + text body).
void AddDocs(IndexWriter& writer, int from, int to) {
  for (int i = from; i < to; ++i) {
    const std::string id = "id" + std::to_string(i);
    const std::string body = "alpha beta w" + std::to_string(i % 7);
    Document doc;
    doc.Add(Field::Keyword("id", id, FieldType::Keyword(/*stored=*/true)))
        .Add(Field::Text("body", body));
    ASSERT_TRUE(writer.AddDocument(doc).ok());
  }
}

// The stored ids of the newest commit, or the open error.
absl::StatusOr<std::set<std::string>> Ids(const std::string& path) {
  auto reader = CommitReader::Open(path);
  if (!reader.ok()) return reader.status();
  std::vector<uint64_t> all((*reader)->doc_count());
  for (uint64_t i = 0; i < all.size(); ++i) all[i] = i;
  auto docs = (*reader)->FetchDocuments(all);
  if (!docs.ok()) return docs.status();
  std::set<std::string> ids;
  for (size_t d = 0; d < docs->size(); ++d) {
    const SegmentReader& seg = (*reader)->segment((*reader)->SegmentOf(d));
    const FieldInfo* id = seg.FieldByName("id");
    for (const StoredField& f : (*docs)[d].stored) {
      if (id != nullptr && f.field_number == id->number) ids.insert(f.value);
    }
  }
  return ids;
}

std::set<std::string> Range(int from, int to) {
  std::set<std::string> out;
  for (int i = from; i < to; ++i) out.insert("id" + std::to_string(i));
  return out;
}

std::map<std::string, std::string> Snapshot(const std::string& path) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    std::ifstream in(entry.path(), std::ios::binary);
    files[entry.path().filename().string()] =
        std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return files;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Builds an index with two commits: ids 0..9, then 0..19.
void TwoCommits(const std::string& path) {
  auto writer = IndexWriter::Open(path, Options());
  ASSERT_TRUE(writer.ok()) << writer.status();
  AddDocs(**writer, 0, 10);
  ASSERT_TRUE((*writer)->Commit().ok());
  AddDocs(**writer, 10, 20);
  ASSERT_TRUE((*writer)->Close().ok());
}

std::string NewestCommitFile(const std::string& path) {
  auto reader = CommitReader::Open(path);
  EXPECT_TRUE(reader.ok()) << reader.status();
  return reader.ok() ? path + "/" + (*reader)->commit().file_name() : "";
}

// ---- The write lock

TEST(IndexWriterSafetyTest, SecondWriterInOneProcessIsRefused) {
  testing::ScratchDir scratch;
  auto first = IndexWriter::Open(scratch.path(), Options());
  ASSERT_TRUE(first.ok()) << first.status();
  AddDocs(**first, 0, 5);
  auto second = IndexWriter::Open(scratch.path(), Options());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Message(second.status()), HasSubstr(scratch.path()));
  EXPECT_THAT(Message(second.status()), HasSubstr("process " + std::to_string(getpid())));
  // The refused writer changed nothing: the first one commits as usual.
  ASSERT_TRUE((*first)->Close().ok());
  EXPECT_EQ(*Ids(scratch.path()), Range(0, 5));
  // Close released the lock.
  auto third = IndexWriter::Open(scratch.path(), Options());
  ASSERT_TRUE(third.ok()) << third.status();
  third->reset();  // destruction releases it too
  EXPECT_TRUE(IndexWriter::Open(scratch.path(), Options()).ok());
}

TEST(IndexWriterSafetyTest, SecondWriterInAnotherProcessIsRefusedUntilItDies) {
  testing::ScratchDir scratch;
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto writer = IndexWriter::Open(scratch.path(), Options());
    const char byte = writer.ok() ? 'y' : 'n';
    (void)!write(ready[1], &byte, 1);
    pause();  // holds the lock until killed
    _exit(0);
  }
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  ASSERT_EQ(byte, 'y');
  auto refused = IndexWriter::Open(scratch.path(), Options());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Message(refused.status()), HasSubstr("process " + std::to_string(child)));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  close(ready[0]);
  close(ready[1]);
  // The kernel released the dead writer's lock.
  auto writer = IndexWriter::Open(scratch.path(), Options());
  EXPECT_TRUE(writer.ok()) << writer.status();
}

TEST(IndexWriterSafetyTest, DeletedLockFileStopsTheCommit) {
  testing::ScratchDir scratch;
  auto writer = IndexWriter::Open(scratch.path(), Options());
  ASSERT_TRUE(writer.ok());
  AddDocs(**writer, 0, 3);
  ASSERT_TRUE((*writer)->Commit().ok());
  std::filesystem::remove(scratch.path() + "/write.lock");
  AddDocs(**writer, 3, 6);
  absl::Status s = (*writer)->Commit();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Message(s), HasSubstr("write.lock"));
  EXPECT_EQ(*Ids(scratch.path()), Range(0, 3));
}

// ---- Open modes

TEST(IndexWriterSafetyTest, OpenModes) {
  testing::ScratchDir scratch;
  auto append = IndexWriter::Open(scratch.path(), Options(OpenMode::kAppend));
  EXPECT_EQ(append.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Message(append.status()), HasSubstr("no index to append to"));
  for (const auto& [name, bytes] : Snapshot(scratch.path())) EXPECT_EQ(name, "write.lock");
  {
    auto created = IndexWriter::Open(scratch.path(), Options(OpenMode::kCreateOrAppend));
    ASSERT_TRUE(created.ok());
    EXPECT_TRUE((*created)->open_info().created);
    EXPECT_EQ((*created)->open_info().index_id.size(), 32u);
    AddDocs(**created, 0, 10);
    ASSERT_TRUE((*created)->Close().ok());
  }
  {
    auto appended = IndexWriter::Open(scratch.path(), Options(OpenMode::kCreateOrAppend));
    ASSERT_TRUE(appended.ok());
    EXPECT_FALSE((*appended)->open_info().created);
    EXPECT_EQ((*appended)->open_info().docs, 10u);
    AddDocs(**appended, 10, 12);
    ASSERT_TRUE((*appended)->Close().ok());
  }
  EXPECT_EQ(*Ids(scratch.path()), Range(0, 12));
  {
    // kCreate: the old index stays until the first commit; a writer that
    // never commits leaves it as it was.
    auto create = IndexWriter::Open(scratch.path(), Options(OpenMode::kCreate));
    ASSERT_TRUE(create.ok());
    EXPECT_TRUE((*create)->open_info().created);
    AddDocs(**create, 100, 103);
    EXPECT_EQ(*Ids(scratch.path()), Range(0, 12));
    ASSERT_TRUE((*create)->Rollback().ok());
  }
  EXPECT_EQ(*Ids(scratch.path()), Range(0, 12));
  {
    auto create = IndexWriter::Open(scratch.path(), Options(OpenMode::kCreate));
    ASSERT_TRUE(create.ok());
    AddDocs(**create, 100, 103);
    ASSERT_TRUE((*create)->Close().ok());
  }
  EXPECT_EQ(*Ids(scratch.path()), Range(100, 103));
  // The replaced index's files stay while its commit point is the previous
  // one (it can be recovered), and go with the next commit.
  {
    auto reopened = IndexWriter::Open(scratch.path(), Options(OpenMode::kAppend));
    ASSERT_TRUE(reopened.ok());
    AddDocs(**reopened, 103, 104);
    ASSERT_TRUE((*reopened)->Close().ok());
  }
  EXPECT_EQ(*Ids(scratch.path()), Range(100, 104));
  auto reader = CommitReader::Open(scratch.path());
  ASSERT_TRUE(reader.ok());
  const CommitPoint& newest = (*reader)->commit();
  for (const auto& [name, bytes] : Snapshot(scratch.path())) {
    bool live = name == "write.lock" || name == newest.file_name() ||
                name == absl::StrCat("segments_", newest.generation - 1);
    for (const CommitSegment& s : newest.segments) live |= name.starts_with(s.name + ".");
    EXPECT_TRUE(live) << name;
  }
  // kCreate with nothing added still replaces the index (with an empty one).
  {
    auto create = IndexWriter::Open(scratch.path(), Options(OpenMode::kCreate));
    ASSERT_TRUE(create.ok());
    ASSERT_TRUE((*create)->Close().ok());
  }
  EXPECT_TRUE(Ids(scratch.path())->empty());
}

TEST(IndexWriterSafetyTest, InvalidOptionsAreRefused) {
  testing::ScratchDir scratch;
  for (double mb : {std::numeric_limits<double>::infinity(), 1e12, -1.0, 2.0,
                    std::numeric_limits<double>::quiet_NaN()}) {
    IndexWriterOptions o = Options();
    o.ram_buffer_mb = mb;
    auto w = IndexWriter::Open(scratch.path(), o);
    EXPECT_EQ(w.status().code(), absl::StatusCode::kInvalidArgument) << mb;
    EXPECT_THAT(Message(w.status()), HasSubstr("ram_buffer_mb"));
  }
  for (int threads : {0, -3, kMaxThreads + 1}) {
    IndexWriterOptions o = Options();
    o.threads = threads;
    EXPECT_EQ(IndexWriter::Open(scratch.path(), o).status().code(),
              absl::StatusCode::kInvalidArgument)
        << threads;
  }
}

// ---- Unreadable commit points: refuse, never wipe; recover on request

TEST(IndexWriterSafetyTest, DamagedNewestCommitIsRefusedAndNothingIsDeleted) {
  testing::ScratchDir scratch;
  TwoCommits(scratch.path());
  const std::string newest = NewestCommitFile(scratch.path());
  std::string bytes = Snapshot(scratch.path())[std::filesystem::path(newest).filename()];
  bytes[bytes.size() / 2] ^= 0x10;  // one flipped bit
  WriteFile(newest, bytes);
  // Leftovers of a crashed writer, which a healthy open would delete.
  const auto before = Snapshot(scratch.path());
  for (OpenMode mode : {OpenMode::kAppend, OpenMode::kCreateOrAppend, OpenMode::kCreate}) {
    auto w = IndexWriter::Open(scratch.path(), Options(mode));
    ASSERT_FALSE(w.ok());
    EXPECT_EQ(w.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_THAT(Message(w.status()), HasSubstr(std::filesystem::path(newest).filename().string()));
    EXPECT_THAT(Message(w.status()), HasSubstr("checksum mismatch"));
    EXPECT_THAT(Message(w.status()), HasSubstr("recover"));
  }
  auto after = Snapshot(scratch.path());
  after.erase("write.lock");
  auto expected = before;
  expected.erase("write.lock");
  EXPECT_EQ(after, expected);
  // Readers and the checker say why, too.
  auto reader = CommitReader::Open(scratch.path());
  EXPECT_THAT(Message(reader.status()), HasSubstr("checksum mismatch"));
  auto dir = scratch.Open();
  CheckReport report = CheckIndex(dir.get());
  EXPECT_FALSE(report.ok);
  ASSERT_FALSE(report.problems.empty());
  EXPECT_THAT(report.problems[0], HasSubstr("checksum mismatch"));

  // Recover, when asked: continue from the older commit, keep the damaged one.
  IndexWriterOptions o = Options(OpenMode::kAppend);
  o.recover = true;
  auto w = IndexWriter::Open(scratch.path(), o);
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_EQ((*w)->open_info().skipped_commits.size(), 1u);
  EXPECT_EQ((*w)->open_info().docs, 10u);
  std::string warnings;
  for (const std::string& s : (*w)->warnings()) warnings += s + "\n";
  EXPECT_THAT(warnings, HasSubstr("skipped the unreadable commit point"));
  EXPECT_THAT(warnings, HasSubstr("continuing from commit point segments_1"));
  AddDocs(**w, 50, 52);
  ASSERT_TRUE((*w)->Close().ok());
  auto ids = Ids(scratch.path());
  ASSERT_TRUE(ids.ok()) << ids.status();
  std::set<std::string> want = Range(0, 10);
  for (const std::string& id : Range(50, 52)) want.insert(id);
  EXPECT_EQ(*ids, want);
  // The damaged commit and every segment file it may list are still there.
  const auto now = Snapshot(scratch.path());
  for (const auto& [name, content] : expected) {
    EXPECT_TRUE(now.contains(name)) << name << " was deleted";
  }
}

// The stored ids of commit `generation` through the public reader (live
// documents only), or the open error.
absl::StatusOr<std::set<std::string>> IdsOfGeneration(const std::string& path,
                                                      uint64_t generation) {
  IndexReaderOptions options;
  options.generation = generation;
  auto reader = IndexReader::Open(path, options);
  if (!reader.ok()) return reader.status();
  std::set<std::string> ids;
  for (uint64_t d = 0; d < (*reader)->max_doc(); ++d) {
    if ((*reader)->IsDeleted(d)) continue;
    absl::StatusOr<StoredDocument> doc = (*reader)->Document(d);
    if (!doc.ok()) return doc.status();
    if (const std::optional<std::string_view> id = doc->Get("id")) ids.emplace(*id);
  }
  return ids;
}

// Flips one byte of commit point `name`; returns its original bytes.
std::string DamageCommit(const std::string& path, const std::string& name) {
  const std::string original = Snapshot(path)[name];
  std::string damaged = original;
  damaged[damaged.size() / 2] ^= 0x10;
  WriteFile(path + "/" + name, damaged);
  return original;
}

// Recovering skips a damaged commit point, which may list files no readable
// commit lists: here the newest .liv generation of a segment. Commits of the
// recovering writer must not delete it: once the damaged commit point is
// repaired (its original bytes back), it reads in full.
TEST(IndexWriterSafetyTest, RecoverKeepsTheLiveDocsOfTheSkippedCommit) {
  testing::ScratchDir scratch;
  {
    auto w = IndexWriter::Open(scratch.path(), Options());
    ASSERT_TRUE(w.ok()) << w.status();
    AddDocs(**w, 0, 10);
    ASSERT_TRUE((*w)->Commit().ok());                      // segments_1: _0
    ASSERT_TRUE((*w)->DeleteDocuments("id", "id3").ok());  // segments_2: _0_1.liv
    ASSERT_TRUE((*w)->Commit().ok());
    ASSERT_TRUE((*w)->DeleteDocuments("id", "id4").ok());  // segments_3: _0_2.liv
    ASSERT_TRUE((*w)->Close().ok());
  }
  const auto before = Snapshot(scratch.path());
  ASSERT_TRUE(before.contains("_0_2.liv"));
  ASSERT_TRUE(before.contains("segments_3"));
  const std::string original = DamageCommit(scratch.path(), "segments_3");
  {
    IndexWriterOptions o = Options(OpenMode::kAppend);
    o.recover = true;
    auto w = IndexWriter::Open(scratch.path(), o);
    ASSERT_TRUE(w.ok()) << w.status();
    EXPECT_EQ((*w)->open_info().generation, 2u);
    for (int commit = 0; commit < 3; ++commit) {
      AddDocs(**w, 100 + 10 * commit, 105 + 10 * commit);
      ASSERT_TRUE((*w)->DeleteDocuments("id", "id" + std::to_string(5 + commit)).ok());
      ASSERT_TRUE((*w)->Commit().ok());
    }
    ASSERT_TRUE((*w)->Close().ok());
  }
  const auto after = Snapshot(scratch.path());
  for (const auto& [name, content] : before) {
    if (name == "write.lock" || name.starts_with("segments_")) continue;
    EXPECT_TRUE(after.contains(name)) << name << ", which the skipped commit lists, was deleted";
  }
  WriteFile(scratch.path() + "/segments_3", original);
  absl::StatusOr<std::set<std::string>> ids = IdsOfGeneration(scratch.path(), 3);
  ASSERT_TRUE(ids.ok()) << ids.status();
  std::set<std::string> want = Range(0, 10);
  want.erase("id3");
  want.erase("id4");
  EXPECT_EQ(*ids, want);
}

// The same for whole segments: the recovering writer merges away the
// segment its commit shares with the skipped one, and commits until the
// older commit points go. The skipped commit's segments must stay.
TEST(IndexWriterSafetyTest, RecoverKeepsTheSegmentsOfTheSkippedCommitAfterMergesAndCommits) {
  testing::ScratchDir scratch;
  TwoCommits(scratch.path());  // segments_1: _0; segments_2: _0 _1
  const auto before = Snapshot(scratch.path());
  const std::string original = DamageCommit(scratch.path(), "segments_2");
  {
    IndexWriterOptions o = Options(OpenMode::kAppend);
    o.recover = true;
    auto w = IndexWriter::Open(scratch.path(), o);
    ASSERT_TRUE(w.ok()) << w.status();
    EXPECT_EQ((*w)->open_info().generation, 1u);
    AddDocs(**w, 100, 110);
    ASSERT_TRUE((*w)->ForceMerge(1).ok());
    for (int commit = 0; commit < 3; ++commit) {
      AddDocs(**w, 200 + 10 * commit, 205 + 10 * commit);
      ASSERT_TRUE((*w)->Commit().ok());
    }
    ASSERT_TRUE((*w)->ForceMerge(1).ok());
    ASSERT_TRUE((*w)->Close().ok());
    auto ids = Ids(scratch.path());
    ASSERT_TRUE(ids.ok()) << ids.status();
    EXPECT_EQ(ids->size(), 10u + 10u + 15u);
  }
  const auto after = Snapshot(scratch.path());
  for (const auto& [name, content] : before) {
    if (name == "write.lock" || name.starts_with("segments_")) continue;
    EXPECT_TRUE(after.contains(name)) << name << ", which the skipped commit lists, was deleted";
  }
  WriteFile(scratch.path() + "/segments_2", original);
  absl::StatusOr<std::set<std::string>> ids = IdsOfGeneration(scratch.path(), 2);
  ASSERT_TRUE(ids.ok()) << ids.status();
  EXPECT_EQ(*ids, Range(0, 20));
}

TEST(IndexWriterSafetyTest, NewerFormatAndTruncatedCommitsAreNamed) {
  testing::ScratchDir scratch;
  TwoCommits(scratch.path());
  const std::string newest = NewestCommitFile(scratch.path());
  const std::string name = std::filesystem::path(newest).filename().string();
  const std::string original = Snapshot(scratch.path())[name];
  // The version field follows magic (4), name length (1), "InvertCommit".
  std::string newer = original;
  newer[4 + 1 + 12] = 99;
  WriteFile(newest, newer);
  auto w = IndexWriter::Open(scratch.path(), Options());
  EXPECT_EQ(w.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Message(w.status()), HasSubstr("newer than this build reads"));
  WriteFile(newest, original.substr(0, 10));
  w = IndexWriter::Open(scratch.path(), Options());
  EXPECT_EQ(w.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(Message(w.status()), HasSubstr("truncated"));
  WriteFile(newest, "");
  w = IndexWriter::Open(scratch.path(), Options());
  EXPECT_FALSE(w.ok());
  EXPECT_THAT(Message(w.status()), HasSubstr(name));
  // Overwritten whole: no longer looks like a commit point, and is newer
  // than the one that reads: refused all the same.
  WriteFile(newest, "garbage, not a commit point at all");
  w = IndexWriter::Open(scratch.path(), Options());
  EXPECT_EQ(w.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Message(w.status()), HasSubstr("not an invert commit point"));
  WriteFile(newest, original);
  EXPECT_EQ(*Ids(scratch.path()), Range(0, 20));
}

// A directory whose OpenFile of one name fails as a permission problem does
// (root ignores permission bits, so this is how a test can see it).
class UnreadableFileDirectory final : public Directory {
 public:
  UnreadableFileDirectory(Directory* base, std::string name) : base_(base), name_(name) {}
  absl::StatusOr<std::unique_ptr<WritableFile>> CreateFile(std::string_view n) override {
    return base_->CreateFile(n);
  }
  absl::StatusOr<std::shared_ptr<const MappedFile>> OpenFile(std::string_view n) override {
    if (n == name_)
      return absl::PermissionDeniedError(absl::StrCat("open ", Sv(n), ": Permission denied"));
    return base_->OpenFile(n);
  }
  absl::StatusOr<std::vector<std::string>> ListAll() const override { return base_->ListAll(); }
  absl::StatusOr<uint64_t> FileLength(std::string_view n) const override {
    return base_->FileLength(n);
  }
  absl::Status DeleteFile(std::string_view n) override {
    deleted_.push_back(std::string(n));
    return base_->DeleteFile(n);
  }
  absl::Status Rename(std::string_view f, std::string_view t) override {
    return base_->Rename(f, t);
  }
  absl::Status Sync(const std::vector<std::string>& n) override { return base_->Sync(n); }
  absl::Status SyncMetaData() override { return base_->SyncMetaData(); }
  absl::StatusOr<std::unique_ptr<DirectoryLock>> ObtainLock(std::string_view n) override {
    return base_->ObtainLock(n);
  }
  std::string DebugString() const override { return base_->DebugString(); }
  const std::vector<std::string>& deleted() const { return deleted_; }

 private:
  Directory* base_;
  std::string name_;
  std::vector<std::string> deleted_;
};

TEST(IndexWriterSafetyTest, UnreadableCommitIsAPermissionErrorNotAnEmptyIndex) {
  testing::ScratchDir scratch;
  TwoCommits(scratch.path());
  auto base = scratch.Open();
  const std::string name = std::filesystem::path(NewestCommitFile(scratch.path())).filename();
  UnreadableFileDirectory dir(base.get(), name);
  auto w = IndexWriter::Open(&dir, Options());
  EXPECT_EQ(w.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(Message(w.status()), HasSubstr(name));
  EXPECT_TRUE(dir.deleted().empty());
  EXPECT_EQ(*Ids(scratch.path()), Range(0, 20));
}

// ---- Only our own files

TEST(IndexWriterSafetyTest, ForeignFilesSurviveEverything) {
  testing::ScratchDir scratch;
  const std::map<std::string, std::string> foreign = {
      {"__init__.py", "# python\n"},
      {"_config.yml", "title: x\n"},
      {"notes.tmp", "remember\n"},
      {"segments_2024", "not a commit point\n"},
      {"segments_07", "leading zero\n"},
      {"_x.y", "y\n"},
      {"_5.doc", "a file named like a segment file\n"},
      {"_zz.si", ""},
      {"pending_notes", "pending\n"},
      {"pending_segments_x", "p\n"},
  };
  for (const auto& [name, bytes] : foreign) WriteFile(scratch.path() + "/" + name, bytes);
  {
    auto w = IndexWriter::Open(scratch.path(), Options());
    ASSERT_TRUE(w.ok()) << w.status();
    AddDocs(**w, 0, 10);
    ASSERT_TRUE((*w)->Commit().ok());
    AddDocs(**w, 10, 15);
    ASSERT_TRUE((*w)->Rollback().ok());
    AddDocs(**w, 20, 25);
    ASSERT_TRUE((*w)->Close().ok());
  }
  {
    auto w = IndexWriter::Open(scratch.path(), Options(OpenMode::kCreate));
    ASSERT_TRUE(w.ok()) << w.status();
    AddDocs(**w, 30, 32);
    ASSERT_TRUE((*w)->Close().ok());
  }
  EXPECT_EQ(*Ids(scratch.path()), Range(30, 32));
  const auto files = Snapshot(scratch.path());
  for (const auto& [name, bytes] : foreign) {
    ASSERT_TRUE(files.contains(name)) << name << " was deleted";
    EXPECT_EQ(files.at(name), bytes) << name << " was changed";
  }
  auto dir = scratch.Open();
  const CheckReport report = CheckIndex(dir.get());
  EXPECT_TRUE(report.ok) << FormatCheckReport(report);
  for (const auto& [name, bytes] : foreign) {
    EXPECT_THAT(report.not_in_index, ::testing::Contains(name));
  }
  EXPECT_THAT(FormatCheckReport(report), HasSubstr("not part of the index"));
}

TEST(IndexWriterSafetyTest, LeftoversOfACrashedWriterAreDeleted) {
  testing::ScratchDir scratch;
  TwoCommits(scratch.path());
  const auto committed = Snapshot(scratch.path());
  // A writer that flushes segments and dies without committing.
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    IndexWriterOptions o = Options();
    auto w = IndexWriter::Open(scratch.path(), o);
    if (!w.ok()) _exit(2);
    std::string text;
    for (int i = 0; i < 2000; ++i) text += "w" + std::to_string(i) + " ";
    for (int i = 0; i < 1000 && (*w)->stats().segments_flushed < 2; ++i) {
      const std::string body = text + std::to_string(i);
      absl::Status s = (*w)->AddDocument(Document().Add(Field::Text("body", body)));
      if (!s.ok()) {
        std::fprintf(stderr, "child: %s\n", std::string(s.message()).c_str());
        _exit(3);
      }
    }
    _exit((*w)->stats().segments_flushed > 0 ? 0 : 4);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  size_t leftovers = 0;
  for (const auto& [name, bytes] : Snapshot(scratch.path())) leftovers += !committed.contains(name);
  ASSERT_GT(leftovers, 0u);
  {
    auto w = IndexWriter::Open(scratch.path(), Options());
    ASSERT_TRUE(w.ok()) << w.status();
  }
  auto after = Snapshot(scratch.path());
  auto want = committed;
  after.erase("write.lock");
  want.erase("write.lock");
  EXPECT_EQ(after, want);
  EXPECT_EQ(*Ids(scratch.path()), Range(0, 20));
}

// ---- One schema per index

Document TitleDoc(const FieldType& type, std::string_view value = "hello world") {
  Document doc;
  doc.Add(Field::Text("title", value, type));
  return doc;
}

TEST(IndexWriterSafetyTest, FieldTypeIsFixedAcrossCommitsAndReopens) {
  testing::ScratchDir scratch;
  FieldType keyword = FieldType::Keyword(/*stored=*/true);
  keyword.tokenized = false;
  {
    auto w = IndexWriter::Open(scratch.path(), Options());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->AddDocument(TitleDoc(FieldType::Text(true))).ok());
    ASSERT_TRUE((*w)->Commit().ok());
    absl::Status s = (*w)->AddDocument(TitleDoc(keyword));
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(Message(s), HasSubstr("field \"title\" is text (tokenized"));
    EXPECT_THAT(Message(s), HasSubstr("adds it as keyword (untokenized"));
    EXPECT_THAT(Message(s), HasSubstr("use another name"));
    ASSERT_TRUE((*w)->Close().ok());
  }
  auto w = IndexWriter::Open(scratch.path(), Options());
  ASSERT_TRUE(w.ok());
  ASSERT_EQ((*w)->schema().size(), 1u);
  EXPECT_EQ((*w)->schema()[0], (FieldSchema{"title", FieldType::Text(true)}));
  EXPECT_EQ((*w)->AddDocument(TitleDoc(keyword)).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE((*w)->AddDocument(TitleDoc(FieldType::Text(true))).ok());
}

TEST(IndexWriterSafetyTest, SchemaConflictsAreDeterministicAcrossThreads) {
  FieldType keyword = FieldType::Keyword(/*stored=*/false);
  for (int rep = 0; rep < 50; ++rep) {
    testing::ScratchDir scratch;
    IndexWriterOptions o = Options();
    o.threads = 2;
    o.ram_buffer_mb = 16;
    auto w = IndexWriter::Open(scratch.path(), o);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->AddDocument(TitleDoc(FieldType::Text())).ok());
    std::atomic<int> accepted{0}, rejected{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&] {
        for (int i = 0; i < 20; ++i) {
          const absl::Status s = (*w)->AddDocument(TitleDoc(i % 2 ? keyword : FieldType::Text()));
          (s.ok() ? accepted : rejected).fetch_add(1);
        }
      });
    }
    for (std::thread& t : threads) t.join();
    ASSERT_EQ(accepted.load(), 20) << "repetition " << rep;
    ASSERT_EQ(rejected.load(), 20) << "repetition " << rep;
    ASSERT_TRUE((*w)->Close().ok());
  }
}

TEST(IndexWriterSafetyTest, RejectedDocumentLeavesNoFieldBehind) {
  testing::ScratchDir scratch;
  auto w = IndexWriter::Open(scratch.path(), Options());
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->AddDocument(TitleDoc(FieldType::Text())).ok());
  // A new field "extra" together with a conflicting "title": nothing is added.
  Document doc = TitleDoc(FieldType::Keyword());
  doc.Add(Field::Text("extra", "x"));
  EXPECT_FALSE((*w)->AddDocument(doc).ok());
  ASSERT_EQ((*w)->schema().size(), 1u);
  // Bad names.
  for (const std::string& name : {std::string(), std::string("bad\xff"), std::string(2000, 'n')}) {
    Document bad;
    bad.Add(Field::Text(name, "x"));
    absl::Status s = (*w)->AddDocument(bad);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << name.size();
    EXPECT_THAT(Message(s), HasSubstr("field name"));
  }
  EXPECT_EQ((*w)->schema().size(), 1u);
  // Rollback restores the committed schema (empty here).
  ASSERT_TRUE((*w)->AddDocument(TitleDoc(FieldType::Text(), "x")).ok());
  ASSERT_TRUE((*w)->Rollback().ok());
  EXPECT_TRUE((*w)->schema().empty());
  EXPECT_TRUE((*w)->AddDocument(TitleDoc(FieldType::Keyword())).ok());
}

// ---- Readers and concurrent commits

TEST(IndexWriterSafetyTest, ReadersFollowConcurrentCommits) {
  testing::ScratchDir scratch;
  auto w = IndexWriter::Open(scratch.path(), Options());
  ASSERT_TRUE(w.ok());
  AddDocs(**w, 0, 1);
  ASSERT_TRUE((*w)->Commit().ok());
  std::atomic<bool> stop{false};
  std::thread committer([&] {
    for (int i = 1; i < 60 && !stop.load(); ++i) {
      AddDocs(**w, i, i + 1);
      ASSERT_TRUE((*w)->Commit().ok());
    }
    stop.store(true);
  });
  int opened = 0;
  uint64_t last_docs = 0;
  while (!stop.load()) {
    auto reader = CommitReader::Open(scratch.path());
    ASSERT_TRUE(reader.ok()) << reader.status();
    EXPECT_GE((*reader)->doc_count(), last_docs);
    last_docs = (*reader)->doc_count();
    ++opened;
  }
  committer.join();
  EXPECT_GT(opened, 0);
  ASSERT_TRUE((*w)->Close().ok());
}

}  // namespace
}  // namespace invert

// Tests of FaultInjectingDirectory and WriteFileAtomically: the injected
// errors and counters, and a small commit (two data files, fsync, atomic
// replace of a commit point) failed at every counted op and at every disk-full
// limit in turn. After each failure the error reached the caller, the last
// commit still reads and verifies with every file it references, no
// temporary file survives the cleanup pass, and the next commit succeeds.
#include "testing/fault_injecting_directory.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "invert/directory.h"
#include "store/atomic_file.h"
#include "store/codec_util.h"
#include "store/index_input.h"
#include "store/index_output.h"

namespace invert {
namespace {

using ::testing::HasSubstr;

std::string Message(const absl::Status& s) { return std::string(s.message()); }

constexpr SegmentId kId = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
constexpr int kValuesPerFile = 24;

std::vector<std::string> DataFiles(uint32_t gen) {
  return {absl::StrCat("_", gen, ".doc"), absl::StrCat("_", gen, ".tim")};
}

// Writes generation `gen`: two checksummed data files, fsync them, then
// atomically replace "segments", which names them.
absl::Status Commit(Directory& dir, uint32_t gen) {
  const std::vector<std::string> files = DataFiles(gen);
  for (const std::string& name : files) {
    auto out = CreateOutput(&dir, name);
    if (!out.ok()) return out.status();
    if (absl::Status s = WriteHeader(**out, "Data", 1, kId); !s.ok()) return s;
    for (int i = 0; i < kValuesPerFile; ++i) (*out)->WriteVInt32(gen * 100000 + i * 37);
    WriteFooter(**out).IgnoreError();  // sticky: Close() reports it
    if (absl::Status s = (*out)->Close(); !s.ok()) return s;
  }
  if (absl::Status s = dir.Sync(files); !s.ok()) return s;
  return WriteFileAtomically(dir, "segments", [&](IndexOutput& out) {
    if (absl::Status s = WriteHeader(out, "Segments", 1, kId); !s.ok()) return s;
    out.WriteVInt32(gen);
    out.WriteVInt32(static_cast<uint32_t>(files.size()));
    for (const std::string& name : files) out.WriteString(name);
    return WriteFooter(out);
  });
}

// Reads and fully verifies the commit point and every file it names; returns
// its generation and file names.
absl::StatusOr<std::pair<uint32_t, std::vector<std::string>>> ReadCommit(Directory& dir) {
  auto in = OpenInput(&dir, "segments");
  if (!in.ok()) return in.status();
  if (auto s = CheckHeader(*in, "Segments", 1, 1, kId); !s.ok()) return s.status();
  uint32_t gen = 0, count = 0;
  in->ReadVInt32(&gen);
  in->ReadVInt32(&count);
  std::vector<std::string> files(count);
  for (std::string& name : files) in->ReadString(&name);
  if (auto s = CheckFooter(*in); !s.ok()) return s.status();
  for (const std::string& name : files) {
    auto data = OpenInput(&dir, name);
    if (!data.ok()) return data.status();
    if (auto s = VerifyChecksum(*data); !s.ok()) return s.status();
    if (auto s = CheckHeader(*data, "Data", 1, 1, kId); !s.ok()) return s.status();
    for (int i = 0; i < kValuesPerFile; ++i) {
      uint32_t v;
      if (!data->ReadVInt32(&v) || v != gen * 100000 + i * 37) {
        return absl::DataLossError("wrong value in " + name);
      }
    }
    if (auto s = CheckFooter(*data); !s.ok()) return s.status();
  }
  return std::make_pair(gen, files);
}

// What the index writer's file deleter would do after a failed commit:
// remove temporary files and every file the last commit does not reference.
absl::Status Cleanup(Directory& dir, const std::vector<std::string>& referenced) {
  if (absl::Status s = RemoveTempFile(dir, "segments"); !s.ok()) return s;
  auto names = dir.ListAll();
  if (!names.ok()) return names.status();
  for (const std::string& name : *names) {
    if (name == "segments") continue;
    if (std::find(referenced.begin(), referenced.end(), name) != referenced.end()) continue;
    if (absl::Status s = dir.DeleteFile(name); !s.ok()) return s;
  }
  return absl::OkStatus();
}

class FaultInjectingDirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "invert_fault_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  std::unique_ptr<FSDirectory> FreshDir(const std::string& name) {
    auto dir = FSDirectory::Open(root_ + "/" + name, /*create=*/true);
    EXPECT_TRUE(dir.ok()) << dir.status();
    return *std::move(dir);
  }

  // Commits generation 1 cleanly, then generation 2 with the faults
  // `arm` sets up; checks everything the top of this file promises. Returns
  // the status of the faulty commit.
  absl::Status RunFaultyCommit(const std::string& name,
                               const std::function<void(FaultInjectingDirectory&)>& arm) {
    std::unique_ptr<FSDirectory> base = FreshDir(name);
    FaultInjectingDirectory dir(base.get());
    dir.set_max_write_size(32);  // several numbered writes per file
    dir.set_skip_syncs(true);    // hundreds of runs: count fsyncs, do not wait for them
    EXPECT_TRUE(Commit(dir, 1).ok());
    dir.ResetCounters();
    arm(dir);
    const absl::Status status = Commit(dir, 2);
    dir.FailAt(0);
    dir.ClearDiskLimit();

    auto committed = ReadCommit(*base);
    EXPECT_TRUE(committed.ok()) << committed.status();
    if (!committed.ok()) return status;
    if (status.ok()) {
      EXPECT_EQ(committed->first, 2u);
    } else {
      EXPECT_THAT(Message(status), HasSubstr("injected fault"));
      // Only a failed directory sync after the rename leaves the new commit
      // in place, and its error says so.
      if (committed->first == 2u) {
        EXPECT_THAT(Message(status), HasSubstr("may not be durable")) << status;
      } else {
        EXPECT_EQ(committed->first, 1u);
      }
    }
    EXPECT_TRUE(Cleanup(dir, committed->second).ok());
    auto names = base->ListAll();
    EXPECT_TRUE(names.ok());
    for (const std::string& file : *names) {
      EXPECT_FALSE(std::string_view(file).starts_with(kTempFilePrefix)) << file;
    }
    // The index is usable: the next commit goes through.
    const uint32_t next = committed->first + 1;
    EXPECT_TRUE(Commit(dir, next).ok());
    auto after = ReadCommit(*base);
    EXPECT_TRUE(after.ok() && after->first == next) << after.status();
    return status;
  }

  // Ops and bytes of a clean second commit, as RunFaultyCommit makes it.
  struct CleanRun {
    uint64_t ops = 0;
    uint64_t bytes = 0;
  };
  CleanRun CountCleanCommit() {
    auto base = FreshDir("clean");
    FaultInjectingDirectory dir(base.get());
    dir.set_max_write_size(32);
    EXPECT_TRUE(Commit(dir, 1).ok());
    dir.ResetCounters();
    EXPECT_TRUE(Commit(dir, 2).ok());
    EXPECT_EQ(dir.calls(kFaultRename), 1u);
    EXPECT_EQ(dir.calls(kFaultSyncMetaData), 1u);
    EXPECT_EQ(dir.calls(kFaultSync), 3u);
    CleanRun run{dir.op_count(), dir.bytes_written()};
    std::error_code ignored;
    std::filesystem::remove_all(root_ + "/clean", ignored);
    return run;
  }

  std::string root_;
};

TEST_F(FaultInjectingDirectoryTest, MessagesNameTheOpItsNumberAndTheFile) {
  auto base = FreshDir("messages");
  FaultInjectingDirectory dir(base.get());
  dir.FailAt(2);
  auto out = CreateOutput(&dir, "_0.doc");  // op 1: create
  ASSERT_TRUE(out.ok());
  (*out)->WriteBytes("abc", 3);
  absl::Status s = (*out)->Close();  // op 2: write
  EXPECT_EQ(Message(s), "injected fault: write #2 to _0.doc (Input/output error)");
  EXPECT_EQ(dir.faults_injected(), 1u);
  EXPECT_EQ(*base->FileLength("_0.doc"), 0u);  // the failed write wrote nothing

  dir.FailAt(dir.op_count() + 1);
  EXPECT_EQ(Message(dir.Sync({"_0.doc"})),
            "injected fault: fsync #3 of _0.doc (Input/output error)");
  dir.FailAt(dir.op_count() + 1);
  EXPECT_THAT(Message(dir.Rename("_0.doc", "_1.doc")),
              HasSubstr("injected fault: rename #4 of _0.doc to _1.doc"));
  EXPECT_TRUE(base->FileLength("_0.doc").ok());  // not renamed
  dir.FailAt(dir.op_count() + 1);
  EXPECT_THAT(Message(dir.SyncMetaData()),
              HasSubstr("injected fault: directory sync #5 of FSDirectory("));
  dir.FailAt(dir.op_count() + 1);
  EXPECT_THAT(Message(CreateOutput(&dir, "x").status()),
              HasSubstr("injected fault: create #6 of x"));
  EXPECT_FALSE(base->FileLength("x").ok());  // not created
}

TEST_F(FaultInjectingDirectoryTest, CountsAndCountedOps) {
  auto base = FreshDir("counts");
  FaultInjectingDirectory dir(base.get());
  dir.set_max_write_size(10);
  auto out = CreateOutput(&dir, "f");
  (*out)->WriteBytes(std::string(25, 'x').data(), 25);
  ASSERT_TRUE((*out)->Close().ok());
  EXPECT_EQ(dir.calls(kFaultCreate), 1u);
  EXPECT_EQ(dir.calls(kFaultWrite), 3u);  // 10 + 10 + 5
  EXPECT_EQ(dir.bytes_written(), 25u);
  ASSERT_TRUE(dir.DeleteFile("f").ok());
  EXPECT_EQ(dir.calls(kFaultDelete), 1u);
  EXPECT_EQ(dir.op_count(), 4u);  // deletes are not counted by default

  // Count only renames: the first rename fails, nothing else does.
  dir.ResetCounters();
  dir.set_counted_ops(kFaultRename);
  dir.FailAt(1);
  ASSERT_TRUE(Commit(dir, 1).code() != absl::StatusCode::kOk);
  EXPECT_EQ(dir.op_count(), 1u);
  EXPECT_EQ(dir.faults_injected(), 1u);
  EXPECT_GT(dir.calls(kFaultWrite), 0u);
}

TEST_F(FaultInjectingDirectoryTest, StickyFaultFailsEverythingAfter) {
  auto base = FreshDir("sticky");
  FaultInjectingDirectory dir(base.get());
  dir.set_sticky(true);
  dir.FailAt(2);
  ASSERT_TRUE(CreateOutput(&dir, "a").ok());
  EXPECT_FALSE(CreateOutput(&dir, "b").ok());
  EXPECT_FALSE(CreateOutput(&dir, "c").ok());
  EXPECT_FALSE(dir.SyncMetaData().ok());
  EXPECT_EQ(dir.faults_injected(), 3u);
  dir.FailAt(0);
  EXPECT_TRUE(CreateOutput(&dir, "d").ok());
}

TEST_F(FaultInjectingDirectoryTest, CommitSurvivesAFaultAtEveryOp) {
  const CleanRun clean = CountCleanCommit();
  ASSERT_GT(clean.ops, 12u);
  std::set<std::string> kinds;
  for (uint64_t n = 1; n <= clean.ops + 1; ++n) {
    SCOPED_TRACE(absl::StrCat("fault at op ", n, " of ", clean.ops));
    absl::Status s =
        RunFaultyCommit(absl::StrCat("op", n), [n](FaultInjectingDirectory& d) { d.FailAt(n); });
    EXPECT_EQ(s.ok(), n > clean.ops) << s;
    if (!s.ok()) kinds.insert(Message(s).substr(0, Message(s).find('#')));
  }
  // Every kind of counted op was failed at some point.
  EXPECT_EQ(kinds.size(), 5u) << ::testing::PrintToString(kinds);
}

TEST_F(FaultInjectingDirectoryTest, CommitSurvivesAStickyFaultFromEveryOp) {
  const CleanRun clean = CountCleanCommit();
  for (uint64_t n = 1; n <= clean.ops; ++n) {
    SCOPED_TRACE(absl::StrCat("sticky fault from op ", n));
    absl::Status s = RunFaultyCommit(absl::StrCat("sticky", n), [n](FaultInjectingDirectory& d) {
      d.set_sticky(true);
      d.FailAt(n);
    });
    EXPECT_FALSE(s.ok());
  }
}

// Every third byte limit: each run creates ~20 files, and file creation on a
// shared VM's disk costs up to a few hundred microseconds.
TEST_F(FaultInjectingDirectoryTest, CommitSurvivesDiskFullAtEveryThirdByte) {
  const CleanRun clean = CountCleanCommit();
  ASSERT_GT(clean.bytes, 200u);
  for (uint64_t limit = clean.bytes % 3; limit <= clean.bytes; limit += 3) {
    SCOPED_TRACE(absl::StrCat("disk full after ", limit, " of ", clean.bytes, " bytes"));
    absl::Status s =
        RunFaultyCommit(absl::StrCat("full", limit),
                        [limit](FaultInjectingDirectory& d) { d.SetDiskLimit(limit); });
    if (limit < clean.bytes) {
      ASSERT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
      EXPECT_THAT(Message(s), HasSubstr("ENOSPC"));
    } else {
      EXPECT_TRUE(s.ok()) << s;  // exactly enough room
    }
  }
}

TEST_F(FaultInjectingDirectoryTest, FailedTempRemovalIsFinishedByRemoveTempFile) {
  auto base = FreshDir("temp");
  FaultInjectingDirectory dir(base.get());
  ASSERT_TRUE(WriteFileAtomically(dir, "c", std::vector<uint8_t>{1}).ok());
  dir.ResetCounters();
  dir.set_counted_ops(kFaultRename | kFaultDelete);
  dir.set_sticky(true);
  dir.FailAt(2);  // op 1: delete of a stale temp (absent); op 2: rename; then the cleanup
  const std::vector<uint8_t> two = {2, 2};
  absl::Status s = WriteFileAtomically(dir, "c", two);
  EXPECT_THAT(Message(s), HasSubstr("injected fault: rename #2"));
  EXPECT_THAT(Message(s), HasSubstr("removing pending_c failed"));
  EXPECT_TRUE(base->FileLength("pending_c").ok());  // the temp survived
  EXPECT_EQ(*base->FileLength("c"), 1u);            // the old file is untouched
  EXPECT_FALSE(RemoveTempFile(dir, "c").ok());      // deletes still fail
  dir.FailAt(0);
  ASSERT_TRUE(RemoveTempFile(dir, "c").ok());
  EXPECT_THAT(*base->ListAll(), ::testing::ElementsAre("c"));
}

class StoreAtomicFileTest : public FaultInjectingDirectoryTest {};

TEST_F(StoreAtomicFileTest, ReplacesAndReadsBack) {
  auto dir = FreshDir("atomic");
  const std::vector<uint8_t> first = {1, 2, 3};
  const std::vector<uint8_t> second = {4, 5};
  ASSERT_TRUE(WriteFileAtomically(*dir, "commit", first).ok());
  ASSERT_TRUE(WriteFileAtomically(*dir, "commit", second).ok());
  auto in = OpenInput(dir.get(), "commit");
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(std::vector<uint8_t>(in->bytes().begin(), in->bytes().end()), second);
  EXPECT_THAT(*dir->ListAll(), ::testing::ElementsAre("commit"));
}

TEST_F(StoreAtomicFileTest, StaleTempFromACrashIsReplaced) {
  auto dir = FreshDir("stale");
  auto out = CreateOutput(dir.get(), "pending_commit");
  (*out)->WriteBytes("half-written", 12);
  ASSERT_TRUE((*out)->Close().ok());
  ASSERT_TRUE(WriteFileAtomically(*dir, "commit", std::vector<uint8_t>{7}).ok());
  EXPECT_EQ(*dir->FileLength("commit"), 1u);
  EXPECT_THAT(*dir->ListAll(), ::testing::ElementsAre("commit"));
}

TEST_F(StoreAtomicFileTest, RejectsReservedAndInvalidNames) {
  auto dir = FreshDir("names");
  EXPECT_EQ(WriteFileAtomically(*dir, "pending_x", std::vector<uint8_t>{}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(WriteFileAtomically(*dir, "a/b", std::vector<uint8_t>{}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(WriteFileAtomically(*dir, std::string(252, 'n'), std::vector<uint8_t>{}).code(),
            absl::StatusCode::kInvalidArgument);  // its temp name would be too long
  EXPECT_TRUE(dir->ListAll()->empty());
}

TEST_F(StoreAtomicFileTest, WriterErrorAbortsTheCommit) {
  auto dir = FreshDir("abort");
  ASSERT_TRUE(WriteFileAtomically(*dir, "commit", std::vector<uint8_t>{1}).ok());
  absl::Status s = WriteFileAtomically(*dir, "commit", [](IndexOutput& out) {
    out.WriteByte(9);
    return absl::InternalError("encoder gave up");
  });
  EXPECT_EQ(Message(s), "encoder gave up");
  EXPECT_THAT(*dir->ListAll(), ::testing::ElementsAre("commit"));
  EXPECT_EQ(OpenInput(dir.get(), "commit")->bytes()[0], 1);
}

}  // namespace
}  // namespace invert

// Crash safety of deletes and merges: a run that updates, deletes, commits,
// force-merges and commits again is failed at every counted operation in
// turn (create, write, fsync, rename, directory sync) by the fault-injecting
// directory, and at a series of disk-full limits. After each failure the
// directory must hold a readable index equal to one of the run's commits
// (never a mix, never fewer documents), and the next writer's Open must
// leave no file that no commit point references (the half-written merged
// segment and unreferenced live-docs generations are gone).
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "codec/commit_format.h"
#include "codec/live_docs_format.h"
#include "gtest/gtest.h"
#include "invert/analysis.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "invert/leaf_reader.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "testing/fault_injecting_directory.h"
#include "util/random.h"

namespace invert {
namespace {

IndexWriterOptions Options() {
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  o.ram_buffer_mb = 4;
  o.merge_policy =
      std::make_shared<NoMergePolicy>();  // merges only when forced: a fixed op sequence
  return o;
}

Document Doc(const std::string& id, const std::string& body) {
  Document doc;
  doc.fields.push_back(Field::Keyword("id", id, FieldType::Keyword(true)));
  doc.fields.push_back(Field::Text("body", body, FieldType::Text(true)));
  return doc;
}

// id -> body of the live documents of the newest commit in `dir`.
absl::StatusOr<std::map<std::string, std::string>> LiveDocuments(Directory* dir) {
  absl::StatusOr<std::unique_ptr<IndexReader>> reader = IndexReader::Open(dir);
  if (!reader.ok()) return reader.status();
  std::map<std::string, std::string> out;
  for (const LeafReader* leaf : (*reader)->leaves()) {
    if (absl::Status s = leaf->CheckIntegrity(); !s.ok()) return s;
    for (uint32_t d = 0; d < leaf->max_doc(); ++d) {
      if (leaf->IsDeleted(d)) continue;
      absl::StatusOr<StoredDocument> doc = leaf->Document(d);
      if (!doc.ok()) return doc.status();
      out[std::string(doc->Get("id").value_or(""))] = std::string(doc->Get("body").value_or(""));
    }
  }
  return out;
}

// The base index: 4 commits of 6 documents each (4 segments), ids d0..d23.
absl::Status BuildBase(Directory* dir) {
  auto writer = IndexWriter::Open(dir, Options());
  if (!writer.ok()) return writer.status();
  for (int i = 0; i < 24; ++i) {
    absl::Status s = (*writer)->AddDocument(Doc("d" + std::to_string(i), "base words"));
    if (s.ok() && i % 6 == 5) s = (*writer)->Commit();
    if (!s.ok()) return s;
  }
  return (*writer)->Close();
}

// The run under test. Its commits: after step 1 (updates and deletes over
// the 4 base segments), after step 2 (everything force-merged into one).
absl::Status RunUpdatesAndMerge(Directory* dir) {
  auto writer = IndexWriter::Open(dir, Options());
  if (!writer.ok()) return writer.status();
  for (int i = 0; i < 24; i += 3) {
    if (absl::Status s = (*writer)->UpdateDocument("id", "d" + std::to_string(i),
                                                   Doc("d" + std::to_string(i), "updated"));
        !s.ok()) {
      return s;
    }
  }
  for (int i = 1; i < 24; i += 5) {
    if (absl::Status s = (*writer)->DeleteDocuments("id", "d" + std::to_string(i)); !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = (*writer)->AddDocument(Doc("new", "fresh words")); !s.ok()) return s;
  if (absl::Status s = (*writer)->Commit(); !s.ok()) return s;
  if (absl::Status s = (*writer)->ForceMerge(1); !s.ok()) return s;
  return (*writer)->Close();
}

std::map<std::string, std::string> BaseState() {
  std::map<std::string, std::string> m;
  for (int i = 0; i < 24; ++i) m["d" + std::to_string(i)] = "base words";
  return m;
}

std::map<std::string, std::string> RunState() {
  std::map<std::string, std::string> m = BaseState();
  for (int i = 0; i < 24; i += 3) m["d" + std::to_string(i)] = "updated";
  for (int i = 1; i < 24; i += 5) m.erase("d" + std::to_string(i));
  m["new"] = "fresh words";
  return m;
}

// Every file in `dir` is a commit point, the lock, or referenced by a
// readable commit point.
void ExpectNoUnreferencedFiles(Directory* dir, const std::string& context) {
  absl::StatusOr<std::vector<std::string>> files = dir->ListAll();
  ASSERT_TRUE(files.ok());
  std::set<std::string> referenced = {"write.lock"};
  for (const std::string& f : *files) {
    if (CommitGeneration(f) < 0) continue;
    referenced.insert(f);
    absl::StatusOr<CommitPoint> commit = ReadCommit(dir, f);
    ASSERT_TRUE(commit.ok()) << commit.status();
    for (const CommitSegment& s : commit->segments) {
      for (const std::string& g : *files) {
        if (g.starts_with(s.name + ".")) referenced.insert(g);
      }
      if (s.del_gen > 0) referenced.insert(LiveDocsFileName(s.name, s.del_gen));
    }
  }
  for (const std::string& f : *files) {
    EXPECT_TRUE(referenced.contains(f)) << context << ": " << f << " is referenced by no commit";
  }
}

void ResetToBase(const testing::ScratchDir& scratch, std::unique_ptr<FSDirectory>* base) {
  *base = nullptr;
  std::filesystem::remove_all(scratch.path());
  std::filesystem::create_directory(scratch.path());
  *base = scratch.Open();
  ASSERT_TRUE(BuildBase(base->get()).ok());
}

TEST(IndexWriterMergeFaultsTest, EveryFailedOperationLeavesACommitAndNoLeftovers) {
  testing::ScratchDir scratch;
  std::unique_ptr<FSDirectory> base;
  ResetToBase(scratch, &base);
  const auto base_state = BaseState();
  const auto run_state = RunState();
  {
    auto clean = LiveDocuments(base.get());
    ASSERT_TRUE(clean.ok()) << clean.status();
    ASSERT_EQ(*clean, base_state);
  }
  uint64_t total = 0;
  {
    FaultInjectingDirectory probe(base.get());
    probe.set_skip_syncs(true);
    probe.set_max_write_size(4096);
    ASSERT_TRUE(RunUpdatesAndMerge(&probe).ok());
    total = probe.op_count();
    auto after = LiveDocuments(base.get());
    ASSERT_TRUE(after.ok()) << after.status();
    ASSERT_EQ(*after, run_state);
    auto reader = IndexReader::Open(base.get());
    ASSERT_TRUE(reader.ok());
    ASSERT_EQ((*reader)->leaves().size(), 1u) << "ForceMerge(1) left several segments";
  }
  std::printf("[   INFO   ] failing each of %llu operations in turn\n",
              static_cast<unsigned long long>(total));
  ASSERT_GT(total, 20u);
  ResetToBase(scratch, &base);
  uint64_t failed = 0, at_base = 0, at_run = 0;
  for (uint64_t n = 1; n <= total; ++n) {
    const std::string context = "fault " + std::to_string(n);
    FaultInjectingDirectory faulty(base.get());
    faulty.set_skip_syncs(true);
    faulty.set_max_write_size(4096);
    faulty.FailAt(n);
    const absl::Status s = RunUpdatesAndMerge(&faulty);
    if (!s.ok()) {
      ++failed;
      EXPECT_NE(std::string(s.message()).find("injected fault"), std::string::npos)
          << context << ": " << s;
    }
    auto state = LiveDocuments(base.get());
    ASSERT_TRUE(state.ok()) << context << ": " << state.status();
    ASSERT_TRUE(*state == base_state || *state == run_state) << context << ": a mixed state";
    if (*state == base_state) {
      ++at_base;
    } else {
      ++at_run;
    }
    // The next writer cleans up what the failed run left.
    {
      auto cleaner = IndexWriter::Open(base.get(), Options());
      ASSERT_TRUE(cleaner.ok()) << context << ": " << cleaner.status();
      ExpectNoUnreferencedFiles(base.get(), context);
      ASSERT_TRUE((*cleaner)->Rollback().ok());
    }
    if (HasFailure()) return;
    if (*state != base_state) ResetToBase(scratch, &base);
  }
  std::printf(
      "[   INFO   ] %llu runs failed; the index was at the base commit after %llu, at the "
      "run's after %llu\n",
      static_cast<unsigned long long>(failed), static_cast<unsigned long long>(at_base),
      static_cast<unsigned long long>(at_run));
  EXPECT_GT(failed, total / 2);
  EXPECT_GT(at_base, 0u);
  EXPECT_GT(at_run, 0u);
}

TEST(IndexWriterMergeFaultsTest, DiskFullDuringAMergeKeepsTheCommit) {
  testing::ScratchDir scratch;
  std::unique_ptr<FSDirectory> base;
  ResetToBase(scratch, &base);
  const auto base_state = BaseState();
  const auto run_state = RunState();
  uint64_t full_runs = 0;
  for (uint64_t limit = 0; limit < 400000; limit += 257) {
    FaultInjectingDirectory faulty(base.get());
    faulty.set_skip_syncs(true);
    faulty.SetDiskLimit(limit);
    const absl::Status s = RunUpdatesAndMerge(&faulty);
    auto state = LiveDocuments(base.get());
    ASSERT_TRUE(state.ok()) << "limit " << limit << ": " << state.status();
    ASSERT_TRUE(*state == base_state || *state == run_state) << "limit " << limit;
    if (s.ok()) break;  // the limit is past what the run writes
    EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
    ++full_runs;
    if (*state != base_state) ResetToBase(scratch, &base);
  }
  EXPECT_GT(full_runs, 3u);
}

}  // namespace
}  // namespace invert

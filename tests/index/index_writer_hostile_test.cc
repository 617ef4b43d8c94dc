// Hostile tests of the writer's deletes, updates and merges (issue 12): the
// orders of events a model test rarely produces on its own. Deletes, updates
// and commits while a slow merge runs (carried over when it is installed),
// Rollback / Close (waiting or not) / DeleteAll / destruction during a merge
// (the last commit intact, no file left over), deletes of documents whose
// AddDocument returned while flushes apply and trim the delete queue, open
// modes over an index with deletions, AddIndexes (schema conflicts, itself,
// the same source twice, deletions, a damaged source, other threads adding
// and committing meanwhile), and readers reopened across deletion-only
// commits and merges.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "codec/commit_format.h"
#include "codec/live_docs_format.h"
#include "gtest/gtest.h"
#include "invert/analysis.h"
#include "invert/check_index.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "invert/leaf_reader.h"
#include "invert/merge_policy.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

// Merges every segment that is not merging into one as soon as there are
// two: the eagerest background merging, so that segments flushed between
// commits are merged before the next commit.
class MergeAllPolicy final : public MergePolicy {
 public:
  std::vector<OneMerge> FindMerges(const std::vector<MergeCandidate>& segments) const override {
    OneMerge merge;
    for (const MergeCandidate& c : segments) {
      if (!c.merging) merge.segments.push_back(c.name);
    }
    if (merge.segments.size() < 2) return {};
    return {merge};
  }
  std::vector<OneMerge> FindForcedMerges(const std::vector<MergeCandidate>& segments,
                                         int max_segments) const override {
    return NoMergePolicy().FindForcedMerges(segments, max_segments);
  }
  std::vector<OneMerge> FindForcedDeletesMerges(
      const std::vector<MergeCandidate>& segments) const override {
    return NoMergePolicy().FindForcedDeletesMerges(segments);
  }
  std::string name() const override { return "merge-all"; }
};

IndexWriterOptions Options(std::shared_ptr<const MergePolicy> policy) {
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  o.ram_buffer_mb = 4;
  o.merge_policy = std::move(policy);
  o.merge_thread_nice = 0;
  return o;
}

// Field values are views: the strings passed in must outlive the document
// (temporaries in the full expression of the AddDocument call do).
Document Doc(const std::string& uid, const std::string& id, const std::string& tag,
             size_t pad = 0) {
  // Letters at random: a padding compression cannot shrink (slow merges).
  static const std::string* const kPad = [] {
    auto* letters = new std::string(1 << 20, 'p');
    Random rng(42);
    for (char& c : *letters) c = static_cast<char>('a' + rng.Uniform(26));
    return letters;
  }();
  Document doc;
  doc.fields.push_back(Field::Keyword("uid", uid, FieldType::Keyword(true)));
  doc.fields.push_back(Field::Keyword("id", id, FieldType::Keyword(true)));
  doc.fields.push_back(Field::Keyword("tag", tag, FieldType::Keyword(true)));
  if (pad > 0) doc.fields.push_back(Field::Stored("pad", std::string_view(*kPad).substr(0, pad)));
  return doc;
}

// uid -> id of the live documents of the newest commit at `path`.
std::map<std::string, std::string> LiveDocs(const std::string& path) {
  std::map<std::string, std::string> out;
  auto reader = IndexReader::Open(path);
  EXPECT_TRUE(reader.ok()) << reader.status();
  if (!reader.ok()) return out;
  for (const LeafReader* leaf : (*reader)->leaves()) {
    for (uint32_t d = 0; d < leaf->max_doc(); ++d) {
      if (leaf->IsDeleted(d)) continue;
      auto doc = leaf->Document(d);
      EXPECT_TRUE(doc.ok()) << doc.status();
      if (!doc.ok()) continue;
      const std::string uid(doc->Get("uid").value_or(""));
      EXPECT_FALSE(out.contains(uid)) << "uid " << uid << " twice";
      out[uid] = std::string(doc->Get("id").value_or(""));
    }
  }
  return out;
}

// Every file in the directory at `path` is a commit point, the lock, or
// belongs to a segment (or live-docs generation) a commit point lists.
void ExpectNoUnreferencedFiles(const std::string& path, const std::string& context) {
  auto dir = FSDirectory::Open(path, /*create=*/false);
  ASSERT_TRUE(dir.ok()) << dir.status();
  absl::StatusOr<std::vector<std::string>> files = (*dir)->ListAll();
  ASSERT_TRUE(files.ok());
  std::set<std::string> referenced = {"write.lock"};
  for (const std::string& f : *files) {
    if (CommitGeneration(f) < 0) continue;
    referenced.insert(f);
    absl::StatusOr<CommitPoint> commit = ReadCommit(dir->get(), f);
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

void ExpectChecks(const std::string& path, const std::string& context) {
  const CheckReport report = CheckIndex(path);
  EXPECT_TRUE(report.ok) << context << ": " << FormatCheckReport(report);
}

// ---- Slow merges: deletes, commits, Rollback, Close and destruction meanwhile ----

// An index of `segments` committed segments of `per_segment` documents,
// uids s<seg>_<i>, ids the same, each with a padding that makes merges slow
// under a write-rate cap.
void BuildSegments(const std::string& path, int segments, int per_segment, size_t pad,
                   std::map<std::string, std::string>* model) {
  auto writer = IndexWriter::Open(path, Options(std::make_shared<NoMergePolicy>()));
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (int s = 0; s < segments; ++s) {
    for (int i = 0; i < per_segment; ++i) {
      const std::string uid = "s" + std::to_string(s) + "_" + std::to_string(i);
      ASSERT_TRUE((*writer)->AddDocument(Doc(uid, uid, "seg" + std::to_string(s), pad)).ok());
      (*model)[uid] = uid;
    }
    ASSERT_TRUE((*writer)->Commit().ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
}

IndexWriterOptions SlowMergeOptions() {
  IndexWriterOptions o = Options(std::make_shared<MergeAllPolicy>());
  o.max_merge_write_mb_per_sec = 1;  // ~2 MB of stored padding: about 2 seconds
  return o;
}

void WaitUntilMerging(IndexWriter* w) {
  for (int i = 0; i < 2000 && w->stats().running_merges == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_GT(w->stats().running_merges, 0) << "no merge started";
}

TEST(IndexWriterHostileTest, DeletesAndCommitsDuringASlowMergeCarryOver) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  std::map<std::string, std::string> model;
  BuildSegments(path, 4, 20, 25000, &model);
  auto writer = IndexWriter::Open(path, SlowMergeOptions());
  ASSERT_TRUE(writer.ok()) << writer.status();
  // A commit (nothing changed) asks the policy: the four segments merge.
  ASSERT_TRUE((*writer)->AddDocument(Doc("n0", "n0", "new")).ok());
  model["n0"] = "n0";
  ASSERT_TRUE((*writer)->Commit().ok());
  WaitUntilMerging(writer->get());
  // Deletes reaching the inputs at a commit during the merge (a new .liv of
  // an input) and deletes reaching them after it, and an update.
  ASSERT_TRUE((*writer)->DeleteDocuments("id", "s0_3").ok());
  ASSERT_TRUE((*writer)->DeleteDocuments("tag", "seg2").ok());
  model.erase("s0_3");
  std::erase_if(model, [](const auto& e) { return e.first.starts_with("s2_"); });
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_EQ(LiveDocs(path), model) << "committed during the merge";
  ASSERT_GT((*writer)->stats().running_merges, 0) << "the merge ended too soon to test";
  ASSERT_TRUE((*writer)->DeleteDocuments("id", "s3_19").ok());
  ASSERT_TRUE((*writer)->UpdateDocument("id", "s1_5", Doc("s1_5v2", "s1_5", "new")).ok());
  model.erase("s3_19");
  model.erase("s1_5");
  model["s1_5v2"] = "s1_5";
  ASSERT_TRUE((*writer)->WaitForMerges().ok());
  EXPECT_GT((*writer)->stats().merges_done, 0u);
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_EQ(LiveDocs(path), model) << "after the merge";
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_EQ(LiveDocs(path), model) << "after Close";
  ExpectChecks(path, "end");
}

TEST(IndexWriterHostileTest, RollbackDuringASlowMergeKeepsTheCommit) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  std::map<std::string, std::string> model;
  BuildSegments(path, 4, 20, 25000, &model);
  auto writer = IndexWriter::Open(path, SlowMergeOptions());
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->AddDocument(Doc("n0", "n0", "new")).ok());
  model["n0"] = "n0";
  ASSERT_TRUE((*writer)->Commit().ok());
  WaitUntilMerging(writer->get());
  ASSERT_TRUE((*writer)->DeleteDocuments("tag", "seg1").ok());
  ASSERT_TRUE((*writer)->AddDocument(Doc("n1", "n1", "new")).ok());
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE((*writer)->Rollback().ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1))
      << "Rollback waited for the merge instead of aborting it";
  EXPECT_EQ((*writer)->stats().running_merges, 0);
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_EQ(LiveDocs(path), model);
  ASSERT_TRUE((*writer)->Rollback().ok());
  writer->reset();
  EXPECT_EQ(LiveDocs(path), model);
  ExpectNoUnreferencedFiles(path, "after rollback");
  ExpectChecks(path, "after rollback");
}

TEST(IndexWriterHostileTest, CloseWithoutWaitingAbortsASlowMerge) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  std::map<std::string, std::string> model;
  BuildSegments(path, 4, 20, 25000, &model);
  IndexWriterOptions options = SlowMergeOptions();
  options.wait_for_merges_on_close = false;
  auto writer = IndexWriter::Open(path, options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->AddDocument(Doc("n0", "n0", "new")).ok());
  model["n0"] = "n0";
  ASSERT_TRUE((*writer)->Commit().ok());
  WaitUntilMerging(writer->get());
  ASSERT_TRUE((*writer)->DeleteDocuments("id", "s2_2").ok());
  ASSERT_TRUE((*writer)->AddDocument(Doc("n1", "n1", "new")).ok());
  model.erase("s2_2");
  model["n1"] = "n1";
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1))
      << "Close waited for the merge";
  EXPECT_EQ((*writer)->stats().merges_done, 0u);
  writer->reset();
  EXPECT_EQ(LiveDocs(path), model);
  ExpectNoUnreferencedFiles(path, "after Close");
  ExpectChecks(path, "after Close");
}

TEST(IndexWriterHostileTest, CloseWaitingForASlowMergeCommitsItsResult) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  std::map<std::string, std::string> model;
  BuildSegments(path, 4, 20, 25000, &model);
  auto writer = IndexWriter::Open(path, SlowMergeOptions());
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->AddDocument(Doc("n0", "n0", "new")).ok());
  model["n0"] = "n0";
  ASSERT_TRUE((*writer)->Commit().ok());
  WaitUntilMerging(writer->get());
  ASSERT_TRUE((*writer)->DeleteDocuments("id", "s2_2").ok());
  model.erase("s2_2");
  ASSERT_TRUE((*writer)->Close().ok());
  writer->reset();
  EXPECT_EQ(LiveDocs(path), model);
  auto reader = IndexReader::Open(path);
  ASSERT_TRUE(reader.ok());
  EXPECT_LE((*reader)->leaves().size(), 2u) << "the merge's result was not committed";
  ExpectNoUnreferencedFiles(path, "after Close");
  ExpectChecks(path, "after Close");
}

TEST(IndexWriterHostileTest, DestroyingTheWriterDuringASlowMergeRollsBack) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  std::map<std::string, std::string> model;
  BuildSegments(path, 4, 20, 25000, &model);
  auto writer = IndexWriter::Open(path, SlowMergeOptions());
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->AddDocument(Doc("n0", "n0", "new")).ok());
  model["n0"] = "n0";
  ASSERT_TRUE((*writer)->Commit().ok());
  WaitUntilMerging(writer->get());
  ASSERT_TRUE((*writer)->DeleteDocuments("id", "s0_0").ok());
  ASSERT_TRUE((*writer)->AddDocument(Doc("n1", "n1", "new")).ok());
  const auto start = std::chrono::steady_clock::now();
  writer->reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  EXPECT_EQ(LiveDocs(path), model);
  ExpectNoUnreferencedFiles(path, "after the destructor");
  ExpectChecks(path, "after the destructor");
  // The next writer opens it.
  auto next = IndexWriter::Open(path, Options(std::make_shared<NoMergePolicy>()));
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ((*next)->open_info().docs, model.size());
}

TEST(IndexWriterHostileTest, DeleteAllDuringASlowMergeDropsEverything) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  std::map<std::string, std::string> model;
  BuildSegments(path, 4, 20, 25000, &model);
  auto writer = IndexWriter::Open(path, SlowMergeOptions());
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)->AddDocument(Doc("n0", "n0", "new")).ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  WaitUntilMerging(writer->get());
  ASSERT_TRUE((*writer)->DeleteAll().ok());
  ASSERT_TRUE((*writer)->AddDocument(Doc("n1", "n1", "new")).ok());
  ASSERT_TRUE((*writer)->WaitForMerges().ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_EQ(LiveDocs(path), (std::map<std::string, std::string>{{"n1", "n1"}}));
  ASSERT_TRUE((*writer)->Close().ok());
  writer->reset();
  ExpectNoUnreferencedFiles(path, "after DeleteAll");
}

// ---- Deletes racing flushes ----

// Two threads add documents with unique ids; once an AddDocument returned,
// a third thread may delete its id (so the delete must remove it), and
// also queues deletes of long absent terms, which keeps the delete queue
// over 1/8 of the RAM buffer so that flushes apply and trim it while other
// flushes are under way.
TEST(IndexWriterHostileTest, DeletesOfReturnedAddsApplyWhileFlushesTrimTheQueue) {
  const uint64_t seed = testing::TestSeed(120003);
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  IndexWriterOptions options = Options(std::make_shared<NoMergePolicy>());
  options.threads = 2;
  options.ram_buffer_mb = 8;
  auto writer = IndexWriter::Open(path, options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  constexpr int kAdders = 2;
  constexpr int kDocs = 600;  // ~18 MB: several flushes of the 8 MB buffer
  std::mutex mu;
  std::vector<std::string> returned;  // ids whose AddDocument returned, to delete
  std::atomic<int> adders_done{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kAdders; ++t) {
    threads.emplace_back([&, t] {
      Random rng(seed + t);
      for (int i = 0; i < kDocs; ++i) {
        const std::string id = "a" + std::to_string(t) + "_" + std::to_string(i);
        const absl::Status s = (*writer)->AddDocument(Doc(id, id, "t", 20000 + rng.Uniform(20000)));
        EXPECT_TRUE(s.ok()) << s;
        if (!s.ok()) break;
        if (i % 2 == 0) {
          std::lock_guard lock(mu);
          returned.push_back(id);
        }
      }
      ++adders_done;
    });
  }
  std::set<std::string> deleted;
  std::thread deleter([&] {
    Random rng(seed + 99);
    for (;;) {
      std::vector<std::string> batch;
      {
        std::lock_guard lock(mu);
        batch.swap(returned);
      }
      if (batch.empty() && adders_done.load() == kAdders) {
        std::lock_guard lock(mu);
        if (returned.empty()) return;
        continue;
      }
      for (const std::string& id : batch) {
        const absl::Status s = (*writer)->DeleteDocuments("id", id);
        EXPECT_TRUE(s.ok()) << s;
        deleted.insert(id);
        if (rng.Uniform(4) == 0) {
          EXPECT_TRUE((*writer)->DeleteDocuments("id", std::string(150000, 'z')).ok());
        }
      }
      std::this_thread::yield();
    }
  });
  for (std::thread& t : threads) t.join();
  deleter.join();
  // The premise: segments were flushed (trimming the delete queue) while
  // the threads ran.
  EXPECT_GE((*writer)->stats().segments_flushed, 2u);
  ASSERT_TRUE((*writer)->Close().ok());
  const std::map<std::string, std::string> live = LiveDocs(path);
  size_t resurrected = 0;
  for (const std::string& id : deleted) resurrected += live.contains(id) ? 1 : 0;
  EXPECT_EQ(resurrected, 0u) << "documents deleted after their AddDocument returned survived";
  EXPECT_EQ(live.size() + deleted.size(), static_cast<size_t>(kAdders * kDocs));
}

// ---- Open modes over an index with deletions ----

TEST(IndexWriterHostileTest, CreateOverAnIndexWithDeletionsKeepsItUntilTheCommit) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  {
    auto w = IndexWriter::Open(path, Options(std::make_shared<NoMergePolicy>()));
    ASSERT_TRUE(w.ok());
    for (int i = 0; i < 10; ++i) {
      const std::string id = "o" + std::to_string(i);
      ASSERT_TRUE((*w)->AddDocument(Doc(id, id, "old")).ok());
    }
    ASSERT_TRUE((*w)->Commit().ok());
    ASSERT_TRUE((*w)->DeleteDocuments("id", "o3").ok());
    ASSERT_TRUE((*w)->Commit().ok());
    ASSERT_TRUE((*w)->DeleteDocuments("id", "o4").ok());
    ASSERT_TRUE((*w)->Close().ok());
  }
  std::map<std::string, std::string> old_model;
  for (int i = 0; i < 10; ++i) {
    if (i != 3 && i != 4) old_model["o" + std::to_string(i)] = "o" + std::to_string(i);
  }
  ASSERT_EQ(LiveDocs(path), old_model);
  // kCreate: deletes and a rollback touch the old index not at all.
  IndexWriterOptions create = Options(std::make_shared<NoMergePolicy>());
  create.open_mode = OpenMode::kCreate;
  {
    auto w = IndexWriter::Open(path, create);
    ASSERT_TRUE(w.ok()) << w.status();
    ASSERT_TRUE((*w)->DeleteDocuments("id", "o5").ok());
    ASSERT_TRUE((*w)->AddDocument(Doc("n0", "n0", "new")).ok());
    ASSERT_TRUE((*w)->Rollback().ok());
  }
  ASSERT_EQ(LiveDocs(path), old_model);
  ExpectChecks(path, "after a rolled back kCreate");
  // kAppend: more deletes, a commit, a reopen; then kCreate and commit.
  IndexWriterOptions append = Options(std::make_shared<NoMergePolicy>());
  append.open_mode = OpenMode::kAppend;
  {
    auto w = IndexWriter::Open(path, append);
    ASSERT_TRUE(w.ok()) << w.status();
    ASSERT_TRUE((*w)->DeleteDocuments("id", "o5").ok());
    ASSERT_TRUE((*w)->Commit().ok());
    old_model.erase("o5");
    ASSERT_TRUE((*w)->Close().ok());
  }
  ASSERT_EQ(LiveDocs(path), old_model);
  ExpectNoUnreferencedFiles(path, "after kAppend");
  {
    auto w = IndexWriter::Open(path, create);
    ASSERT_TRUE(w.ok()) << w.status();
    ASSERT_TRUE((*w)->AddDocument(Doc("n0", "n0", "new")).ok());
    ASSERT_TRUE((*w)->DeleteDocuments("id", "o6").ok());  // not in the new index
    ASSERT_TRUE((*w)->Close().ok());
  }
  EXPECT_EQ(LiveDocs(path), (std::map<std::string, std::string>{{"n0", "n0"}}));
  ExpectChecks(path, "after kCreate");
}

// ---- AddIndexes ----

TEST(IndexWriterHostileTest, AddIndexesWithAConflictingSchemaAddsNothing) {
  testing::ScratchDir dir;
  const std::string good = dir.path() + "/good", bad = dir.path() + "/bad";
  const std::string path = dir.path() + "/index";
  {
    auto w = IndexWriter::Open(good, Options(std::make_shared<NoMergePolicy>()));
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->AddDocument(Doc("g", "g", "t")).ok());
    ASSERT_TRUE((*w)->Close().ok());
    auto b = IndexWriter::Open(bad, Options(std::make_shared<NoMergePolicy>()));
    ASSERT_TRUE(b.ok());
    const std::string x = "x", t = "t";
    Document doc = Doc(x, x, t);
    doc.fields[2] = Field::Text("tag", "analyzed here", FieldType::Text(true));  // tag retyped
    ASSERT_TRUE((*b)->AddDocument(doc).ok());
    ASSERT_TRUE((*b)->Close().ok());
  }
  auto w = IndexWriter::Open(path, Options(std::make_shared<NoMergePolicy>()));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->AddDocument(Doc("m", "m", "t")).ok());
  ASSERT_TRUE((*w)->Commit().ok());
  const absl::Status s = (*w)->AddIndexes({good, bad});
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_NE(std::string(s.message()).find("tag"), std::string::npos) << s;
  ASSERT_TRUE((*w)->Commit().ok());
  EXPECT_EQ(LiveDocs(path), (std::map<std::string, std::string>{{"m", "m"}}));
  // Itself, and the same source twice in one call (every document twice).
  EXPECT_TRUE(absl::IsInvalidArgument((*w)->AddIndexes({path})));
  ASSERT_TRUE((*w)->AddIndexes({good, good}).ok());
  ASSERT_TRUE((*w)->Commit().ok());
  auto reader = IndexReader::Open(path);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->num_docs(), 3u);
  ASSERT_TRUE((*w)->Close().ok());
  ExpectNoUnreferencedFiles(path, "after AddIndexes");
  ExpectChecks(path, "after AddIndexes");
}

TEST(IndexWriterHostileTest, AddIndexesOfAnIndexWithDeletionsThenUpdatesAndMerges) {
  testing::ScratchDir dir;
  const std::string src = dir.path() + "/src";
  const std::string path = dir.path() + "/index";
  std::map<std::string, std::string> model;
  {
    auto w = IndexWriter::Open(src, Options(std::make_shared<NoMergePolicy>()));
    ASSERT_TRUE(w.ok());
    for (int i = 0; i < 20; ++i) {
      const std::string id = "s" + std::to_string(i);
      ASSERT_TRUE((*w)->AddDocument(Doc(id, id, i % 2 == 0 ? "even" : "odd")).ok());
      if (i % 7 == 6) {
        ASSERT_TRUE((*w)->Commit().ok());
      }
      model[id] = id;
    }
    ASSERT_TRUE((*w)->Commit().ok());
    ASSERT_TRUE((*w)->DeleteDocuments("id", "s3").ok());
    ASSERT_TRUE((*w)->DeleteDocuments("id", "s10").ok());
    ASSERT_TRUE((*w)->Close().ok());
    model.erase("s3");
    model.erase("s10");
  }
  auto w = IndexWriter::Open(path, Options(std::make_shared<NoMergePolicy>()));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->AddIndexes({src}).ok());
  ASSERT_TRUE((*w)->Commit().ok());
  EXPECT_EQ(LiveDocs(path), model);
  // Deletes and updates reach the copied segments; a forced merge drops them.
  ASSERT_TRUE((*w)->DeleteDocuments("tag", "odd").ok());
  std::erase_if(model, [](const auto& e) { return std::stoi(e.first.substr(1)) % 2 == 1; });
  ASSERT_TRUE((*w)->UpdateDocument("id", "s4", Doc("s4b", "s4", "new")).ok());
  model.erase("s4");
  model["s4b"] = "s4";
  ASSERT_TRUE((*w)->Commit().ok());
  EXPECT_EQ(LiveDocs(path), model);
  ASSERT_TRUE((*w)->ForceMerge(1).ok());
  ASSERT_TRUE((*w)->Commit().ok());
  EXPECT_EQ(LiveDocs(path), model);
  ASSERT_TRUE((*w)->Close().ok());
  ExpectChecks(path, "end");
  ExpectNoUnreferencedFiles(path, "end");
  // The source is untouched.
  auto source = IndexReader::Open(src);
  ASSERT_TRUE(source.ok());
  EXPECT_EQ((*source)->num_docs(), 18u);
}

TEST(IndexWriterHostileTest, AddIndexesOfADamagedSourceAddsNothing) {
  testing::ScratchDir dir;
  const std::string good = dir.path() + "/good", damaged = dir.path() + "/damaged";
  const std::string path = dir.path() + "/index";
  for (const std::string& p : {good, damaged}) {
    auto w = IndexWriter::Open(p, Options(std::make_shared<NoMergePolicy>()));
    ASSERT_TRUE(w.ok());
    for (int i = 0; i < 5; ++i) {
      ASSERT_TRUE(
          (*w)->AddDocument(Doc(p.substr(p.size() - 4) + std::to_string(i), "x", "t")).ok());
      ASSERT_TRUE((*w)->Commit().ok());
    }
    ASSERT_TRUE((*w)->DeleteDocuments("uid", "good0").ok());
    ASSERT_TRUE((*w)->Close().ok());
  }
  // Flip a byte in the middle of the damaged source's newest .tim.
  std::string victim;
  for (const auto& e : std::filesystem::directory_iterator(damaged)) {
    const std::string name = e.path().filename().string();
    if (name.ends_with(".tim") && (victim.empty() || name > victim)) victim = name;
  }
  ASSERT_FALSE(victim.empty());
  {
    std::FILE* f = std::fopen((damaged + "/" + victim).c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    const long size = static_cast<long>(std::filesystem::file_size(damaged + "/" + victim));
    std::fseek(f, size / 2, SEEK_SET);
    const int c = std::fgetc(f);
    std::fseek(f, size / 2, SEEK_SET);
    std::fputc(c ^ 0x5a, f);
    std::fclose(f);
  }
  auto w = IndexWriter::Open(path, Options(std::make_shared<NoMergePolicy>()));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->AddDocument(Doc("m", "m", "t")).ok());
  const absl::Status s = (*w)->AddIndexes({good, damaged});
  EXPECT_TRUE(absl::IsDataLoss(s)) << s;
  ASSERT_TRUE((*w)->Commit().ok());
  EXPECT_EQ(LiveDocs(path), (std::map<std::string, std::string>{{"m", "m"}}));
  ASSERT_TRUE((*w)->Close().ok());
  ExpectNoUnreferencedFiles(path, "after the failed AddIndexes");
}

TEST(IndexWriterHostileTest, AddIndexesWhileOtherThreadsAddAndCommit) {
  testing::ScratchDir dir;
  const std::string src = dir.path() + "/src", src2 = dir.path() + "/src2";
  const std::string path = dir.path() + "/index";
  for (const std::string& p : {src, src2}) {
    auto w = IndexWriter::Open(p, Options(std::make_shared<NoMergePolicy>()));
    ASSERT_TRUE(w.ok());
    for (int i = 0; i < 50; ++i) {
      ASSERT_TRUE(
          (*w)->AddDocument(Doc(p.substr(p.size() - 4) + std::to_string(i), "s", "t")).ok());
      if (i % 10 == 9) {
        ASSERT_TRUE((*w)->Commit().ok());
      }
    }
    ASSERT_TRUE((*w)->Close().ok());
  }
  IndexWriterOptions options = Options(std::make_shared<TieredMergePolicy>());
  options.threads = 2;
  options.ram_buffer_mb = 8;
  auto w = IndexWriter::Open(path, options);
  ASSERT_TRUE(w.ok());
  std::atomic<bool> done{false};
  std::thread adder([&] {
    for (int i = 0; !done.load() || i < 200; ++i) {
      ASSERT_TRUE((*w)->AddDocument(Doc("a" + std::to_string(i), "a", "t", 5000)).ok());
      if (i > 100000) break;
    }
  });
  std::thread committer([&] {
    while (!done.load()) {
      EXPECT_TRUE((*w)->Commit().ok());
      auto reader = IndexReader::Open(path);
      ASSERT_TRUE(reader.ok());
      // The added index's 50 documents come as a whole or not at all.
      uint64_t from_src = 0;
      for (const auto& [uid, id] : LiveDocs(path)) from_src += id == "s" ? 1 : 0;
      EXPECT_TRUE(from_src == 0 || from_src == 50 || from_src == 100) << from_src;
    }
  });
  ASSERT_TRUE((*w)->AddIndexes({src}).ok());
  ASSERT_TRUE((*w)->AddIndexes({src2}).ok());
  done.store(true);
  adder.join();
  committer.join();
  ASSERT_TRUE((*w)->Close().ok());
  uint64_t from_src = 0;
  for (const auto& [uid, id] : LiveDocs(path)) from_src += id == "s" ? 1 : 0;
  EXPECT_EQ(from_src, 100u);
  ExpectChecks(path, "end");
}

// ---- Readers across deletion-only commits and merges ----

TEST(IndexWriterHostileTest, OpenIfChangedAcrossDeletionOnlyCommitsAndMerges) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  auto w = IndexWriter::Open(path, Options(std::make_shared<NoMergePolicy>()));
  ASSERT_TRUE(w.ok());
  for (int s = 0; s < 3; ++s) {
    for (int i = 0; i < 10; ++i) {
      const std::string id = "d" + std::to_string(s * 10 + i);
      ASSERT_TRUE((*w)->AddDocument(Doc(id, id, "t")).ok());
    }
    ASSERT_TRUE((*w)->Commit().ok());
  }
  auto r1 = IndexReader::Open(path);
  ASSERT_TRUE(r1.ok());
  EXPECT_EQ((*r1)->num_docs(), 30u);
  ASSERT_TRUE((*w)->DeleteDocuments("id", "d5").ok());
  ASSERT_TRUE((*w)->Commit().ok());
  auto r2 = (*r1)->OpenIfChanged();
  ASSERT_TRUE(r2.ok()) << r2.status();
  ASSERT_NE(*r2, nullptr) << "a deletion-only commit was not seen as a change";
  EXPECT_EQ((*r2)->num_docs(), 29u);
  EXPECT_EQ((*r1)->num_docs(), 30u);
  EXPECT_TRUE((*r2)->IsDeleted(5));
  EXPECT_FALSE((*r1)->IsDeleted(5));
  // Another deletion in the same segment: a new generation of its .liv.
  ASSERT_TRUE((*w)->DeleteDocuments("id", "d6").ok());
  ASSERT_TRUE((*w)->Commit().ok());
  auto r3 = (*r2)->OpenIfChanged();
  ASSERT_TRUE(r3.ok() && *r3 != nullptr);
  EXPECT_EQ((*r3)->num_docs(), 28u);
  EXPECT_EQ((*r2)->num_docs(), 29u);
  EXPECT_TRUE((*r3)->IsDeleted(6));
  EXPECT_FALSE((*r2)->IsDeleted(6));
  // Unchanged: null.
  auto same = (*r3)->OpenIfChanged();
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, nullptr);
  // A merge; the old readers keep reading their commits after the files go.
  ASSERT_TRUE((*w)->ForceMerge(1).ok());
  ASSERT_TRUE((*w)->Commit().ok());
  ASSERT_TRUE((*w)->DeleteDocuments("id", "d20").ok());
  ASSERT_TRUE((*w)->Commit().ok());  // the pre-merge commits' files are deleted now
  auto r4 = (*r3)->OpenIfChanged();
  ASSERT_TRUE(r4.ok() && *r4 != nullptr);
  EXPECT_EQ((*r4)->num_docs(), 27u);
  EXPECT_EQ((*r4)->leaves().size(), 1u);
  EXPECT_EQ((*r1)->num_docs(), 30u);
  for (const IndexReader* r : {r1->get(), r2->get(), r3->get(), r4->get()}) {
    for (const LeafReader* leaf : r->leaves()) {
      EXPECT_TRUE(leaf->CheckIntegrity().ok());
      for (uint32_t d = 0; d < leaf->max_doc(); ++d) {
        if (!leaf->IsDeleted(d)) {
          EXPECT_TRUE(leaf->Document(d).ok());
        }
      }
    }
  }
  // From the oldest reader straight to the newest commit.
  auto r5 = (*r1)->OpenIfChanged();
  ASSERT_TRUE(r5.ok() && *r5 != nullptr);
  EXPECT_EQ((*r5)->num_docs(), 27u);
  ASSERT_TRUE((*w)->Close().ok());
}
}  // namespace
}  // namespace invert

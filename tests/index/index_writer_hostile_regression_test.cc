// Regression tests of the writer's deletes and merges (issue 12), written
// by a hostile tester: each failed before the fix it names. Segments flushed
// between commits and merged in the background before the next commit (a
// merged segment must not apply a delete to a document added after it:
// updates were lost), threads updating overlapping ids while others commit
// and force-merge (each id has exactly one live document after every
// commit), and a closed writer deleting the next writer's files.
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
#include "test_scale.h"
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

// Adds filler documents (uids fill<N>, id "fill") until the writer flushed
// one more segment; records them in *model.
void FlushByFilling(IndexWriter* w, int* next_fill, std::map<std::string, std::string>* model) {
  const uint64_t flushed = w->stats().segments_flushed;
  for (int i = 0; i < 100 && w->stats().segments_flushed == flushed; ++i) {
    const std::string uid = "fill" + std::to_string((*next_fill)++);
    ASSERT_TRUE(w->AddDocument(Doc(uid, "fill", "filler", 600 * 1024)).ok());
    (*model)[uid] = "fill";
  }
  ASSERT_GT(w->stats().segments_flushed, flushed) << "no flush";
}

void ExpectChecks(const std::string& path, const std::string& context) {
  const CheckReport report = CheckIndex(path);
  EXPECT_TRUE(report.ok) << context << ": " << FormatCheckReport(report);
}

// ---- A merged segment and the deletes it had not seen ----
//
// Segment B is flushed (not committed: the queued deletes have not reached
// it), then documents are updated twice in a new in-memory segment A, which
// is flushed too: A resolved the updates' deletes against its own
// documents (the newer version survives). A background merge of B (or a
// merge holding it) and A must not apply those deletes again to A's
// documents at the next commit.

TEST(IndexWriterHostileRegressionTest, TwoUpdatesInOneSegmentMergedBeforeTheCommitKeepTheNewest) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  auto writer = IndexWriter::Open(path, Options(std::make_shared<MergeAllPolicy>()));
  ASSERT_TRUE(writer.ok()) << writer.status();
  std::map<std::string, std::string> model;
  int fill = 0;
  ASSERT_TRUE((*writer)->AddDocument(Doc("a0", "a", "t")).ok());
  model["a0"] = "a";
  ASSERT_TRUE((*writer)->Commit().ok());
  FlushByFilling(writer->get(), &fill, &model);  // segment B
  ASSERT_TRUE((*writer)->UpdateDocument("id", "k", Doc("v1", "k", "t")).ok());
  ASSERT_TRUE((*writer)->UpdateDocument("id", "k", Doc("v2", "k", "t")).ok());
  model["v2"] = "k";
  FlushByFilling(writer->get(), &fill, &model);  // segment A: v1 deleted, v2 live
  ASSERT_TRUE((*writer)->WaitForMerges().ok());
  ASSERT_GT((*writer)->stats().merges_done, 0u);
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_EQ(LiveDocs(path), model) << "the newest version of id:k must survive";
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_EQ(LiveDocs(path), model);
}

TEST(IndexWriterHostileRegressionTest, ADocumentAddedAfterADeleteSurvivesAMergeBeforeTheCommit) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  auto writer = IndexWriter::Open(path, Options(std::make_shared<MergeAllPolicy>()));
  ASSERT_TRUE(writer.ok()) << writer.status();
  std::map<std::string, std::string> model;
  int fill = 0;
  ASSERT_TRUE((*writer)->AddDocument(Doc("a0", "a", "keep")).ok());
  model["a0"] = "a";
  ASSERT_TRUE((*writer)->Commit().ok());
  FlushByFilling(writer->get(), &fill, &model);  // segment B
  ASSERT_TRUE((*writer)->AddDocument(Doc("x1", "x1", "gone")).ok());
  ASSERT_TRUE((*writer)->DeleteDocuments("tag", "gone").ok());
  ASSERT_TRUE((*writer)->AddDocument(Doc("x2", "x2", "gone")).ok());  // after the delete
  model["x2"] = "x2";
  FlushByFilling(writer->get(), &fill, &model);  // segment A
  ASSERT_TRUE((*writer)->WaitForMerges().ok());
  ASSERT_GT((*writer)->stats().merges_done, 0u);
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_EQ(LiveDocs(path), model) << "x2 was added after the delete of tag:gone";
}

TEST(IndexWriterHostileRegressionTest, AddIndexesAfterADeleteSurvivesAMergeBeforeTheCommit) {
  testing::ScratchDir dir;
  const std::string src = dir.path() + "/src";
  const std::string path = dir.path() + "/index";
  {
    auto source = IndexWriter::Open(src, Options(std::make_shared<NoMergePolicy>()));
    ASSERT_TRUE(source.ok());
    ASSERT_TRUE((*source)->AddDocument(Doc("s1", "s", "t")).ok());
    ASSERT_TRUE((*source)->Close().ok());
  }
  auto writer = IndexWriter::Open(path, Options(std::make_shared<MergeAllPolicy>()));
  ASSERT_TRUE(writer.ok()) << writer.status();
  std::map<std::string, std::string> model;
  int fill = 0;
  ASSERT_TRUE((*writer)->AddDocument(Doc("a0", "a", "t")).ok());
  model["a0"] = "a";
  ASSERT_TRUE((*writer)->Commit().ok());
  FlushByFilling(writer->get(), &fill, &model);  // segment B, behind the delete below
  ASSERT_TRUE((*writer)->DeleteDocuments("id", "s").ok());
  ASSERT_TRUE((*writer)->AddIndexes({src}).ok());  // s1 comes after the delete
  model["s1"] = "s";
  ASSERT_TRUE((*writer)->AddDocument(Doc("b0", "b", "t")).ok());  // asks for merges
  model["b0"] = "b";
  ASSERT_TRUE((*writer)->WaitForMerges().ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_EQ(LiveDocs(path), model) << "s1 was added after the delete of id:s";
}

// The same order of events, at random, against a model: each id is only
// ever updated, so every commit holds exactly one document per id updated
// before it.
TEST(IndexWriterHostileRegressionTest, RandomUpdatesWithFlushesAndMergesBetweenCommits) {
  Random rng(testing::TestSeed(120001));
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  auto writer = IndexWriter::Open(path, Options(std::make_shared<MergeAllPolicy>()));
  ASSERT_TRUE(writer.ok()) << writer.status();
  std::map<std::string, std::string> model;   // uid -> id
  std::map<std::string, std::string> uid_of;  // id -> its live uid
  int fill = 0, next_uid = 0;
  // Merge-all rewrites every segment each round: 4 rounds keep TSan short.
  const int rounds = testing::Scaled(4, 2);
  for (int round = 0; round < rounds && !HasFailure(); ++round) {
    for (int flushes = 0; flushes < 3; ++flushes) {
      for (int i = 0; i < 20; ++i) {
        const std::string id = "k" + std::to_string(rng.Uniform(8));
        const std::string uid = "u" + std::to_string(next_uid++);
        const size_t pad = i % 40 == 0 ? 200000 : 0;  // flushes now and then
        ASSERT_TRUE((*writer)->UpdateDocument("id", id, Doc(uid, id, "t", pad)).ok());
        if (auto it = uid_of.find(id); it != uid_of.end()) model.erase(it->second);
        uid_of[id] = uid;
        model[uid] = id;
      }
      FlushByFilling(writer->get(), &fill, &model);
    }
    ASSERT_TRUE((*writer)->WaitForMerges().ok());
    ASSERT_TRUE((*writer)->Commit().ok());
    EXPECT_EQ(LiveDocs(path), model) << "round " << round;
  }
}

// ---- Threads ----

// Threads update ids drawn from one shared pool (never AddDocument, never a
// plain delete) while one thread commits and another force-merges; after
// every commit each id that is in the index has exactly one live document,
// and an id once committed never disappears.
TEST(IndexWriterHostileRegressionTest, ThreadsUpdatingOverlappingIdsKeepOneDocumentPerId) {
  const uint64_t seed = testing::TestSeed(120002);
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  TieredMergePolicyOptions tiered;
  tiered.max_merge_at_once = 2;
  tiered.segments_per_tier = 2;
  tiered.floor_segment_mb = 0.01;
  IndexWriterOptions options = Options(std::make_shared<TieredMergePolicy>(tiered));
  options.threads = 2;
  options.ram_buffer_mb = 8;
  options.max_concurrent_merges = 2;
  auto writer = IndexWriter::Open(path, options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  constexpr int kThreads = 3;
  constexpr int kIds = 50;
  std::atomic<bool> done{false};
  std::atomic<int> commits{0};
  std::atomic<bool> commit_wanted{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Random rng(seed + t);
      for (int i = 0; i < 1500 || commits.load() < 40; ++i) {
        // Step aside while a commit waits: indexing threads holding the
        // writer without a pause can starve Commit (see
        // CommitIsNotStarvedByIndexingThreads).
        while (commit_wanted.load()) std::this_thread::yield();
        const std::string id = "id" + std::to_string(rng.Uniform(kIds));
        const std::string uid = "u" + std::to_string(t) + "_" + std::to_string(i);
        const size_t pad = rng.Uniform(40) == 0 ? 200000 : 0;
        const absl::Status s = (*writer)->UpdateDocument("id", id, Doc(uid, id, "t", pad));
        EXPECT_TRUE(s.ok()) << s;
        if (!s.ok() || ::testing::Test::HasFailure()) return;
      }
    });
  }
  std::thread merger([&] {
    Random rng(seed + 100);
    while (!done.load()) {
      const absl::Status s = (*writer)->ForceMerge(1 + static_cast<int>(rng.Uniform(3)));
      EXPECT_TRUE(s.ok()) << s;
      std::this_thread::sleep_for(std::chrono::milliseconds(rng.Uniform(20)));
    }
  });
  std::set<std::string> ever;
  std::thread committer([&] {
    while (!done.load()) {
      commit_wanted.store(true);
      const absl::Status s = (*writer)->Commit();
      commit_wanted.store(false);
      EXPECT_TRUE(s.ok()) << s;
      ++commits;
      std::map<std::string, int> per_id;
      for (const auto& [uid, id] : LiveDocs(path)) ++per_id[id];
      for (const auto& [id, n] : per_id) {
        EXPECT_EQ(n, 1) << id << " has " << n << " live documents after commit " << commits;
      }
      for (const std::string& id : ever) {
        EXPECT_TRUE(per_id.contains(id)) << id << " disappeared at commit " << commits;
      }
      for (const auto& [id, n] : per_id) ever.insert(id);
      if (::testing::Test::HasFailure()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(3));
    }
  });
  for (std::thread& t : threads) t.join();
  done.store(true);
  committer.join();
  merger.join();
  ASSERT_TRUE((*writer)->Close().ok());
  std::map<std::string, int> per_id;
  for (const auto& [uid, id] : LiveDocs(path)) ++per_id[id];
  EXPECT_EQ(per_id.size(), static_cast<size_t>(kIds));
  for (const auto& [id, n] : per_id) EXPECT_EQ(n, 1) << id;
  std::printf("[   INFO   ] %d commits checked\n", commits.load());
  ExpectChecks(path, "end");
}

// A closed writer released the lock: destroying it must not delete the
// files of the writer that opened the index after it.
TEST(IndexWriterHostileRegressionTest, DestroyingAClosedWriterLeavesTheNextWritersFilesAlone) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  auto first = IndexWriter::Open(path, Options(std::make_shared<NoMergePolicy>()));
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE((*first)->AddDocument(Doc("a", "a", "t")).ok());
  ASSERT_TRUE((*first)->Close().ok());
  auto second = IndexWriter::Open(path, Options(std::make_shared<NoMergePolicy>()));
  ASSERT_TRUE(second.ok()) << second.status();
  ASSERT_TRUE((*second)->AddDocument(Doc("b", "b", "t")).ok());
  ASSERT_TRUE((*second)->Commit().ok());
  ASSERT_TRUE((*second)->AddDocument(Doc("c", "c", "t")).ok());  // flushed, not committed
  first->reset();                                                // the closed writer goes
  ASSERT_TRUE((*second)->Commit().ok());
  ASSERT_TRUE((*second)->Close().ok());
  second->reset();
  ExpectChecks(path, "after both writers");
  EXPECT_EQ(LiveDocs(path),
            (std::map<std::string, std::string>{{"a", "a"}, {"b", "b"}, {"c", "c"}}));
}

}  // namespace
}  // namespace invert

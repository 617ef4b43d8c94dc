// Deletes, updates, DeleteAll and merges of IndexWriter against a plain
// reference model: random sequences of add / update / delete (by id, by tag,
// by a body word, by terms absent everywhere) / commit / rollback / reopen /
// DeleteAll / ForceMerge / ForceMergeDeletes, with documents still in memory
// and flushed ones alike (large padding values force flushes between
// commits), with no merges and with an eager tiered policy merging in the
// background; after every commit the public reader's view (live documents,
// stored values, every posting of every term of three fields) must equal the
// model's. Also several threads updating and deleting their own ids while
// another commits.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "invert/analysis.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "invert/leaf_reader.h"
#include "invert/postings_enum.h"
#include "invert/terms_enum.h"
#include "scratch_dir.h"
#include "test_scale.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

// One document of the model.
struct ModelDoc {
  std::string uid;  // unique per document added
  std::string id;   // the update key; several documents may share one
  std::string tag;
  std::string body;  // whitespace-separated words
  std::string pad;   // a large stored value, to force flushes
};

using ModelIndex = std::map<std::string, ModelDoc>;  // uid -> document

bool HasWord(const std::string& body, const std::string& word) {
  size_t start = 0;
  while (start <= body.size()) {
    size_t end = body.find(' ', start);
    if (end == std::string::npos) end = body.size();
    if (body.compare(start, end - start, word) == 0) return true;
    start = end + 1;
  }
  return false;
}

// Applies a delete of field:term to the model.
void ModelDelete(ModelIndex* model, const std::string& field, const std::string& term) {
  std::erase_if(*model, [&](const auto& entry) {
    const ModelDoc& d = entry.second;
    if (field == "id") return d.id == term;
    if (field == "tag") return d.tag == term;
    if (field == "body") return HasWord(d.body, term);
    return false;
  });
}

struct WriterSetup {
  TermBytesLayout layout;
  bool merges;  // an eager tiered policy, else NoMergePolicy
};

IndexWriterOptions Options(const WriterSetup& setup) {
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  o.layout = setup.layout;
  o.ram_buffer_mb = 4;
  if (setup.merges) {
    TieredMergePolicyOptions tiered;
    tiered.max_merge_at_once = 3;
    tiered.segments_per_tier = 3;
    tiered.floor_segment_mb = 0.01;
    o.merge_policy = std::make_shared<TieredMergePolicy>(tiered);
    o.max_concurrent_merges = 2;
  } else {
    o.merge_policy = std::make_shared<NoMergePolicy>();
  }
  return o;
}

absl::Status Add(IndexWriter* w, const ModelDoc& d, const std::string* update_id) {
  Document doc;
  doc.fields.push_back(Field::Keyword("uid", d.uid, FieldType::Keyword(true)));
  doc.fields.push_back(Field::Keyword("id", d.id, FieldType::Keyword(true)));
  doc.fields.push_back(Field::Keyword("tag", d.tag, FieldType::Keyword(true)));
  doc.fields.push_back(Field::Text("body", d.body, FieldType::Text(true)));
  if (!d.pad.empty()) doc.fields.push_back(Field::Stored("pad", d.pad));
  if (update_id != nullptr) return w->UpdateDocument("id", *update_id, doc);
  return w->AddDocument(doc);
}

// Every live document and posting the reader sees equals the model.
void ExpectIndexEquals(const std::string& path, const ModelIndex& model,
                       const std::vector<std::string>& words, const std::string& context) {
  SCOPED_TRACE(context);
  absl::StatusOr<std::unique_ptr<IndexReader>> reader = IndexReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_EQ((*reader)->num_docs(), model.size());
  // Stored documents of the live docs: global doc -> uid.
  std::map<uint64_t, std::string> uid_of;
  std::set<std::string> seen;
  uint64_t live = 0;
  for (const LeafReader* leaf : (*reader)->leaves()) {
    uint32_t leaf_live = 0;
    for (uint32_t d = 0; d < leaf->max_doc(); ++d) {
      if (leaf->IsDeleted(d)) {
        EXPECT_FALSE(leaf->Document(d).ok()) << "a deleted document reads";
        continue;
      }
      ++leaf_live;
      absl::StatusOr<StoredDocument> doc = leaf->Document(d);
      ASSERT_TRUE(doc.ok()) << doc.status();
      const std::string uid(doc->Get("uid").value_or(""));
      auto it = model.find(uid);
      ASSERT_NE(it, model.end()) << "live doc " << uid << " is deleted in the model";
      EXPECT_EQ(doc->Get("body").value_or(""), it->second.body);
      EXPECT_EQ(doc->Get("id").value_or(""), it->second.id);
      EXPECT_EQ(doc->Get("pad").value_or(""), it->second.pad);
      EXPECT_TRUE(seen.insert(uid).second) << "uid " << uid << " twice";
      uid_of[leaf->doc_base() + d] = uid;
    }
    EXPECT_EQ(leaf->num_docs(), leaf_live);
    live += leaf_live;
  }
  EXPECT_EQ(live, model.size());
  // Postings: the live documents holding each term, as uids.
  auto posted = [&](const std::string& field, const std::string& term) {
    std::set<std::string> out;
    for (const LeafReader* leaf : (*reader)->leaves()) {
      absl::StatusOr<std::unique_ptr<PostingsEnum>> p = leaf->Postings(field, term, kPostingsDocs);
      if (!p.ok()) {
        EXPECT_TRUE(absl::IsNotFound(p.status())) << p.status();
        continue;
      }
      if (*p == nullptr) continue;
      for (uint32_t d = (*p)->NextDoc(); d != PostingsEnum::kNoMoreDocs; d = (*p)->NextDoc()) {
        EXPECT_FALSE(leaf->IsDeleted(d)) << field << ":" << term << " posts deleted doc " << d;
        out.insert(uid_of[leaf->doc_base() + d]);
      }
      EXPECT_TRUE((*p)->status().ok()) << (*p)->status();
    }
    return out;
  };
  auto expected = [&](const std::string& field, const std::string& term) {
    std::set<std::string> out;
    for (const auto& [uid, d] : model) {
      ModelIndex one{{uid, d}};
      ModelDelete(&one, field, term);
      if (one.empty()) out.insert(uid);
    }
    return out;
  };
  for (const std::string& w : words) {
    EXPECT_EQ(posted("body", w), expected("body", w)) << "body:" << w;
  }
  std::set<std::string> ids, tags;
  for (const auto& [uid, d] : model) {
    ids.insert(d.id);
    tags.insert(d.tag);
  }
  for (const std::string& id : ids) EXPECT_EQ(posted("id", id), expected("id", id)) << "id:" << id;
  for (const std::string& t : tags) EXPECT_EQ(posted("tag", t), expected("tag", t)) << "tag:" << t;
}

class DeletesTest : public ::testing::TestWithParam<WriterSetup> {};

TEST_P(DeletesTest, RandomOperationsMatchTheModel) {
  Random rng(testing::TestSeed(20261203));
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  std::vector<std::string> words;
  for (int i = 0; i < 30; ++i) words.push_back("w" + std::to_string(i));
  auto writer = IndexWriter::Open(path, Options(GetParam()));
  ASSERT_TRUE(writer.ok()) << writer.status();
  ModelIndex model, committed;
  uint64_t next_uid = 0;
  auto random_doc = [&] {
    ModelDoc d;
    d.uid = "u" + std::to_string(next_uid++);
    d.id = "id" + std::to_string(rng.Uniform(60));
    d.tag = "t" + std::to_string(rng.Uniform(8));
    const int n = 1 + static_cast<int>(rng.Uniform(6));
    for (int i = 0; i < n; ++i) {
      if (i > 0) d.body += ' ';
      d.body += words[rng.Uniform(words.size())];
    }
    if (rng.Uniform(10) == 0) d.pad.assign(40000 + rng.Uniform(40000), 'a' + rng.Uniform(26));
    return d;
  };
  int commits = 0, checks = 0;
  const int steps = testing::Scaled(800, 300);
  for (int step = 0; step < steps; ++step) {
    const uint64_t op = rng.Uniform(100);
    if (op < 45) {
      ModelDoc d = random_doc();
      ASSERT_TRUE(Add(writer->get(), d, nullptr).ok());
      model[d.uid] = d;
    } else if (op < 70) {  // update by id
      ModelDoc d = random_doc();
      ASSERT_TRUE(Add(writer->get(), d, &d.id).ok());
      ModelDelete(&model, "id", d.id);
      model[d.uid] = d;
    } else if (op < 80) {
      const std::string id = "id" + std::to_string(rng.Uniform(70));  // some absent everywhere
      ASSERT_TRUE((*writer)->DeleteDocuments("id", id).ok());
      ModelDelete(&model, "id", id);
    } else if (op < 83) {
      const std::string tag = "t" + std::to_string(rng.Uniform(8));
      ASSERT_TRUE((*writer)->DeleteDocuments("tag", tag).ok());
      ModelDelete(&model, "tag", tag);
    } else if (op < 86) {
      const std::string w = words[rng.Uniform(words.size())];
      ASSERT_TRUE((*writer)->DeleteDocuments("body", w).ok());
      ModelDelete(&model, "body", w);
    } else if (op < 87) {
      ASSERT_TRUE((*writer)->DeleteDocuments("nosuchfield", "x").ok());
    } else if (op < 94) {
      ASSERT_TRUE((*writer)->Commit().ok());
      committed = model;
      ++commits;
      ExpectIndexEquals(path, model, words, "after commit at step " + std::to_string(step));
      ++checks;
    } else if (op < 96) {
      ASSERT_TRUE((*writer)->Rollback().ok());
      model = committed;
    } else if (op < 97) {
      ASSERT_TRUE((*writer)->Close().ok());
      committed = model;
      writer->reset();
      writer = IndexWriter::Open(path, Options(GetParam()));
      ASSERT_TRUE(writer.ok()) << writer.status();
      ExpectIndexEquals(path, model, words, "after reopen at step " + std::to_string(step));
    } else if (rng.Uniform(3) == 0) {
      ASSERT_TRUE((*writer)->DeleteAll().ok());
      model.clear();
    } else if (rng.Uniform(2) == 0) {
      const int max_segments = 1 + static_cast<int>(rng.Uniform(3));
      ASSERT_TRUE((*writer)->ForceMerge(max_segments).ok());
      ASSERT_TRUE((*writer)->Commit().ok());
      committed = model;
      ExpectIndexEquals(path, model, words, "after ForceMerge at step " + std::to_string(step));
      auto reader = IndexReader::Open(path);
      ASSERT_TRUE(reader.ok());
      if (!GetParam().merges) {  // no background merge can add segments
        EXPECT_LE((*reader)->leaves().size(), static_cast<size_t>(max_segments));
      }
      for (const LeafReader* leaf : (*reader)->leaves()) {
        if (max_segments == 1 && !GetParam().merges) {
          EXPECT_EQ(leaf->num_docs(), leaf->max_doc());
        }
      }
    } else {
      ASSERT_TRUE((*writer)->ForceMergeDeletes().ok());
    }
    if (HasFailure()) return;
  }
  ASSERT_TRUE((*writer)->Close().ok());
  ExpectIndexEquals(path, model, words, "at the end");
  std::printf("%d commits checked, %zu live documents at the end\n", commits, model.size());
  EXPECT_GT(checks, 10);
}

TEST_P(DeletesTest, UpdateOfADocumentStillInMemoryAndOfAFlushedOne) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  auto writer = IndexWriter::Open(path, Options(GetParam()));
  ASSERT_TRUE(writer.ok());
  ModelIndex model;
  ModelDoc a{"u1", "k", "t", "old words", ""};
  ASSERT_TRUE(Add(writer->get(), a, nullptr).ok());
  ModelDoc b{"u2", "k", "t", "new words", ""};
  ASSERT_TRUE(Add(writer->get(), b, &b.id).ok());  // a is still in memory
  ASSERT_TRUE((*writer)->Commit().ok());
  model[b.uid] = b;
  ExpectIndexEquals(path, model, {"old", "new", "words"}, "in memory");
  ModelDoc c{"u3", "k", "t", "newest words", ""};
  ASSERT_TRUE(Add(writer->get(), c, &c.id).ok());  // b is committed
  ASSERT_TRUE((*writer)->Commit().ok());
  model.clear();
  model[c.uid] = c;
  ExpectIndexEquals(path, model, {"old", "new", "newest", "words"}, "flushed");
  // A document added after a delete of its term survives it.
  ASSERT_TRUE((*writer)->DeleteDocuments("tag", "t").ok());
  ModelDoc d{"u4", "k2", "t", "after", ""};
  ASSERT_TRUE(Add(writer->get(), d, nullptr).ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  model.clear();
  model[d.uid] = d;
  ExpectIndexEquals(path, model, {"after", "newest"}, "delete then add");
  const IndexWriterStats stats = (*writer)->stats();
  EXPECT_EQ(stats.docs_deleted, 3u);
  EXPECT_EQ(stats.committed_docs, 1u);
}

TEST_P(DeletesTest, ARejectedUpdateDeletesNothing) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  auto writer = IndexWriter::Open(path, Options(GetParam()));
  ASSERT_TRUE(writer.ok());
  ModelDoc a{"u1", "k", "t", "words", ""};
  ASSERT_TRUE(Add(writer->get(), a, nullptr).ok());
  Document bad;
  bad.fields.push_back(Field::Keyword("", "no name"));  // an empty field name is refused
  EXPECT_FALSE((*writer)->UpdateDocument("id", "k", bad).ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  ExpectIndexEquals(path, {{a.uid, a}}, {"words"}, "after the rejected update");
}

TEST_P(DeletesTest, DeleteAllIsUndoneByRollbackAndCommittedByCommit) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  auto writer = IndexWriter::Open(path, Options(GetParam()));
  ASSERT_TRUE(writer.ok());
  ModelDoc a{"u1", "k", "t", "words", ""};
  ASSERT_TRUE(Add(writer->get(), a, nullptr).ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  ASSERT_TRUE((*writer)->DeleteAll().ok());
  ASSERT_TRUE((*writer)->Rollback().ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  ExpectIndexEquals(path, {{a.uid, a}}, {"words"}, "rolled back");
  ASSERT_TRUE((*writer)->DeleteAll().ok());
  ModelDoc b{"u2", "k", "t", "other", ""};
  ASSERT_TRUE(Add(writer->get(), b, nullptr).ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  ExpectIndexEquals(path, {{b.uid, b}}, {"words", "other"}, "after DeleteAll");
}

// Merges every segment not merging already, as soon as there are two.
class MergeEverythingPolicy final : public MergePolicy {
 public:
  std::vector<OneMerge> FindMerges(const std::vector<MergeCandidate>& segments) const override {
    OneMerge all;
    for (const MergeCandidate& c : segments) {
      if (!c.merging) all.segments.push_back(c.name);
    }
    if (all.segments.size() < 2) return {};
    return {all};
  }
  std::vector<OneMerge> FindForcedMerges(const std::vector<MergeCandidate>& segments,
                                         int) const override {
    return FindMerges(segments);
  }
  std::vector<OneMerge> FindForcedDeletesMerges(
      const std::vector<MergeCandidate>& segments) const override {
    return FindMerges(segments);
  }
  std::string name() const override { return "everything"; }
};

// Regression: an update's document flushed (by RAM pressure) while the
// segment holding the old version is not resolved against the update's
// delete yet, then both merged in the background. The merged segment must
// not meet the update's delete again (it would delete the new version
// too, and a reader would see neither).
TEST(DeletesMergeTest, AMergedUpdateKeepsItsNewDocument) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  IndexWriterOptions o = Options(WriterSetup{TermBytesLayout::kSeparate, true});
  o.merge_policy = std::make_shared<MergeEverythingPolicy>();
  o.max_document_mb = 3;
  auto writer = IndexWriter::Open(path, o);
  ASSERT_TRUE(writer.ok()) << writer.status();
  ModelDoc x{"x", "k", "t", "old", ""};
  ASSERT_TRUE(Add(writer->get(), x, nullptr).ok());
  ASSERT_TRUE((*writer)->Commit().ok());  // segment A = {x}
  ModelDoc y{"y", "k", "t", "new", std::string(2500000, 'y')};
  ASSERT_TRUE(Add(writer->get(), y, &y.id).ok());  // deletes k (x), then y
  ModelDoc z{"z", "k2", "t", "other", std::string(2500000, 'z')};
  ASSERT_TRUE(Add(writer->get(), z, nullptr).ok());  // no room: {y} is flushed as B
  ASSERT_GE((*writer)->stats().segments_flushed, 2u);
  ASSERT_TRUE((*writer)->WaitForMerges().ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  ASSERT_TRUE((*writer)->WaitForMerges().ok());
  ASSERT_TRUE((*writer)->Commit().ok());
  EXPECT_GE((*writer)->stats().merges_done, 1u);
  ExpectIndexEquals(path, {{y.uid, y}, {z.uid, z}}, {"old", "new", "other"}, "merged update");
}

// A closed writer has released the lock: destroying it later must delete
// nothing, even files of a commit another writer made meanwhile.
TEST(DeletesMergeTest, AClosedWriterDeletesNothingWhenDestroyed) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  IndexWriterOptions o = Options(WriterSetup{TermBytesLayout::kSeparate, true});
  auto first = IndexWriter::Open(path, o);
  ASSERT_TRUE(first.ok());
  ModelDoc a{"a", "k", "t", "one", ""};
  ASSERT_TRUE(Add(first->get(), a, nullptr).ok());
  ASSERT_TRUE((*first)->Close().ok());
  auto second = IndexWriter::Open(path, o);
  ASSERT_TRUE(second.ok()) << second.status();
  ModelDoc b{"b", "k", "t", "two", ""};
  ASSERT_TRUE(Add(second->get(), b, &b.id).ok());  // a .liv for a's segment, a new segment
  ASSERT_TRUE((*second)->Commit().ok());
  first->reset();  // the closed writer goes
  ExpectIndexEquals(path, {{b.uid, b}}, {"one", "two"}, "after the closed writer went");
  ASSERT_TRUE((*second)->Close().ok());
}

// Threads update and delete their own ids (so each thread's order decides
// the result) while another thread commits at random moments.
TEST_P(DeletesTest, ThreadsUpdatingTheirOwnIdsWhileCommitting) {
  const uint64_t seed = testing::TestSeed(7);
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/index";
  IndexWriterOptions options = Options(GetParam());
  options.threads = 2;
  options.ram_buffer_mb = 8;
  auto writer = IndexWriter::Open(path, options);
  ASSERT_TRUE(writer.ok());
  constexpr int kThreads = 3;
  std::vector<ModelIndex> models(kThreads);
  std::atomic<bool> done{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Random rng(seed + t);
      for (int i = 0; i < 1500; ++i) {
        ModelDoc d;
        d.uid = "u" + std::to_string(t) + "_" + std::to_string(i);
        d.id = "id" + std::to_string(t) + "_" + std::to_string(rng.Uniform(40));
        d.tag = "t" + std::to_string(t);
        d.body = "w" + std::to_string(rng.Uniform(5));
        if (rng.Uniform(50) == 0) d.pad.assign(100000, 'p');
        const uint64_t op = rng.Uniform(10);
        if (op < 6) {
          if (!Add(writer->get(), d, &d.id).ok()) return;
          ModelDelete(&models[t], "id", d.id);
          models[t][d.uid] = d;
        } else if (op < 9) {
          if (!Add(writer->get(), d, nullptr).ok()) return;
          models[t][d.uid] = d;
        } else {
          if (!(*writer)->DeleteDocuments("id", d.id).ok()) return;
          ModelDelete(&models[t], "id", d.id);
        }
      }
    });
  }
  std::thread committer([&] {
    while (!done.load()) {
      EXPECT_TRUE((*writer)->Commit().ok());
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  for (std::thread& t : threads) t.join();
  done.store(true);
  committer.join();
  ASSERT_TRUE((*writer)->Close().ok());
  ModelIndex all;
  for (const ModelIndex& m : models) all.insert(m.begin(), m.end());
  ExpectIndexEquals(path, all, {"w0", "w1", "w2", "w3", "w4"}, "threads");
}

// Three threads update nonstop through two in-memory segments, so one is
// always waiting for a slot while the others hold the commit lock shared:
// with a reader-preferring lock the shared holders overlap for ever and
// Commit never gets in. It must get in while they are still going.
TEST(IndexWriterThreadsTest, CommitIsNotStarvedByIndexingThreads) {
  testing::ScratchDir dir;
  IndexWriterOptions options = Options(WriterSetup{TermBytesLayout::kShared, false});
  options.threads = 2;
  auto writer = IndexWriter::Open(dir.path() + "/index", options);
  ASSERT_TRUE(writer.ok());
  constexpr int kMaxDocsPerThread = 20000;  // a starved Commit ends the test here
  std::atomic<bool> stop{false};
  std::atomic<int> docs{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kMaxDocsPerThread && !stop.load(); ++i) {
        ModelDoc d;
        d.uid = "u" + std::to_string(t) + "_" + std::to_string(i);
        d.id = "id" + std::to_string(i % 100);
        d.tag = "t";
        d.body = "w";
        if (i % 40 == 0) d.pad.assign(200000, 'p');
        ASSERT_TRUE(Add(writer->get(), d, &d.id).ok());
        docs.fetch_add(1);
      }
    });
  }
  while (docs.load() < 100) std::this_thread::yield();
  for (int commit = 0; commit < 3; ++commit) ASSERT_TRUE((*writer)->Commit().ok());
  const int docs_at_commits = docs.load();
  stop.store(true);
  for (std::thread& t : threads) t.join();
  EXPECT_LT(docs_at_commits, 3 * kMaxDocsPerThread)
      << "three commits waited until the indexing threads had finished";
  ASSERT_TRUE((*writer)->Close().ok());
}

INSTANTIATE_TEST_SUITE_P(Setups, DeletesTest,
                         ::testing::Values(WriterSetup{TermBytesLayout::kShared, false},
                                           WriterSetup{TermBytesLayout::kSeparate, false},
                                           WriterSetup{TermBytesLayout::kShared, true},
                                           WriterSetup{TermBytesLayout::kSeparate, true}),
                         [](const auto& setup) {
                           return std::string(setup.param.layout == TermBytesLayout::kShared
                                                  ? "Shared"
                                                  : "Separate") +
                                  (setup.param.merges ? "Merging" : "NoMerges");
                         });

}  // namespace
}  // namespace invert

// Tests of IndexWriter: several flushed segments read back equal one
// in-memory reference; commit, rollback and reopen; the RAM-buffer rules;
// a crash-safety walk that fails every write, fsync, rename and delete of an
// index-and-commit run in turn (and fills the disk at many points), checking
// that the previous commit always opens and verifies and that the next open
// cleans up; and a multi-threaded stress test (run it under TSan).
#include "invert/index_writer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "index/commit_reader.h"
#include "index/in_memory_postings.h"
#include "index/indexing_chain.h"
#include "index/random_docs.h"
#include "invert/check_index.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "testing/fault_injecting_directory.h"

namespace invert {
namespace {

struct Posting {
  uint64_t doc;
  uint32_t freq;
  std::vector<uint32_t> positions;
  bool operator==(const Posting&) const = default;
};
using Postings = std::map<std::string, std::map<std::string, std::vector<Posting>>>;

Postings FromChain(const IndexingChain& chain) {
  Postings out;
  for (const FieldInfo& f : chain.field_infos().all()) {
    const PostingsWriterPerField* p = chain.postings(f.number);
    if (p == nullptr) continue;
    for (uint32_t id = 0; id < p->terms().size(); ++id) {
      auto& list = out[f.name][std::string(p->terms().term(id))];
      InMemoryPostingsIterator it(*p, id);
      while (it.NextDoc()) {
        Posting posting{it.doc(), it.freq(), {}};
        if (HasPositions(p->options())) {
          for (uint32_t i = 0; i < it.freq(); ++i) {
            it.NextPosition();
            posting.positions.push_back(it.position());
          }
        }
        list.push_back(posting);
      }
    }
  }
  return out;
}

Postings FromIndex(const CommitReader& reader) {
  Postings out;
  for (size_t s = 0; s < reader.segment_count(); ++s) {
    const SegmentReader& seg = reader.segment(s);
    for (const FieldInfo& f : seg.fields()) {
      const TermDictReader* dict = seg.Terms(f.number);
      if (dict == nullptr) continue;
      TermDictCursor cursor = dict->NewCursor();
      while (*cursor.Next()) {
        auto& list = out[f.name][std::string(cursor.term())];
        PostingsCursor it = seg.Postings(f.number, cursor.stats());
        while (it.NextDoc()) {
          Posting posting{reader.doc_base(s) + it.doc(), it.freq(), {}};
          if (HasPositions(f.type.index_options)) {
            for (uint32_t i = 0; i < it.freq(); ++i) {
              EXPECT_TRUE(it.NextPosition());
              posting.positions.push_back(it.position());
            }
          }
          list.push_back(posting);
        }
        EXPECT_TRUE(it.status().ok()) << it.status();
      }
    }
  }
  return out;
}

IndexWriterOptions Options() {
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  o.ram_buffer_mb = 4;
  return o;
}

// Big-ish documents so a 4 MB buffer flushes every few hundred.
struct Corpus {
  std::vector<testing::TestDoc> docs;
  std::map<std::string, FieldType> types;
};

Corpus MakeCorpus(Random& rng, int n) {
  Corpus c;
  std::vector<testing::FieldSpec> specs;
  for (int i = 0; i < 5; ++i) {
    testing::FieldSpec s{"f" + std::to_string(i), testing::RandomType(rng)};
    c.types[s.name] = s.type;
    specs.push_back(s);
  }
  FieldType body = FieldType::Text(false);
  c.types["body"] = body;
  for (int d = 0; d < n; ++d) {
    testing::TestDoc doc = testing::RandomDoc(rng, specs);
    testing::TestValue v;
    v.is_text = true;
    const size_t words = rng.Range(50, 1500);
    for (size_t i = 0; i < words; ++i) {
      if (i > 0) v.text += ' ';
      v.text += "w" + std::to_string(rng.Uniform(rng.Bernoulli(0.5) ? 50 : 200000));
    }
    doc.fields.push_back(testing::TestField{"body", {std::move(v)}});
    c.docs.push_back(std::move(doc));
  }
  return c;
}

TEST(IndexWriterTest, SegmentsReadBackAsOneReference) {
  Random rng(testing::TestSeed(5151));
  const Corpus corpus = MakeCorpus(rng, 1500);
  IndexingChainOptions chain_options;
  chain_options.analyzer = [] { return NewWhitespaceAnalyzer(); };
  IndexingChain reference(chain_options);
  testing::ScratchDir scratch;
  IndexWriterOptions options = Options();
  options.merge_policy = std::make_shared<NoMergePolicy>();  // every flush stays a segment
  auto writer = IndexWriter::Open(scratch.path(), options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (size_t i = 0; i < corpus.docs.size(); ++i) {
    const Document doc = testing::ToDocument(corpus.docs[i], corpus.types);
    ASSERT_TRUE(reference.AddDocument(doc).ok());
    ASSERT_TRUE((*writer)->AddDocument(doc).ok());
    if (i == 700) {
      ASSERT_TRUE((*writer)->Commit().ok());
    }
  }
  ASSERT_TRUE((*writer)->Close().ok());
  const IndexWriterStats stats = (*writer)->stats();
  EXPECT_EQ(stats.docs_added, corpus.docs.size());
  EXPECT_GE(stats.segments_flushed, 3u) << "the RAM buffer should have forced flushes";
  // The buffer is respected: peak within the limit plus one document's worth.
  EXPECT_LT(stats.peak_ram_bytes, 4 * 1024 * 1024 + 512 * 1024);
  auto reader = CommitReader::Open(scratch.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->doc_count(), corpus.docs.size());
  EXPECT_EQ((*reader)->segment_count(), stats.segments_flushed);
  for (size_t s = 0; s < (*reader)->segment_count(); ++s) {
    ASSERT_TRUE((*reader)->segment(s).CheckIntegrity().ok());
  }
  EXPECT_TRUE(FromIndex(**reader) == FromChain(reference));
}

// Each thread's next in-memory segment takes the pool blocks and large arrays
// of the one it flushed (IndexWriterStats::idle_block_bytes): the idle memory
// stays within the thread's share of the buffer, is used again by the next
// segment, is not in ram_bytes, and the segments written from reused memory
// read back as the reference chain on fresh memory (the differential).
TEST(IndexWriterTest, FlushedSegmentsBlocksAreReusedWithinTheBound) {
  for (int threads : {1, 2}) {
    Random rng(testing::TestSeed(5252) + threads);
    const Corpus corpus = MakeCorpus(rng, 1200);
    IndexingChainOptions chain_options;
    chain_options.analyzer = [] { return NewWhitespaceAnalyzer(); };
    IndexingChain reference(chain_options);
    testing::ScratchDir scratch;
    IndexWriterOptions options = Options();
    options.threads = threads;
    options.ram_buffer_mb = 4 * threads;  // 4 MB per thread
    options.merge_policy = std::make_shared<NoMergePolicy>();
    auto writer = IndexWriter::Open(scratch.path(), options);
    ASSERT_TRUE(writer.ok()) << writer.status();
    constexpr int64_t kShare = 4 * 1024 * 1024;
    int64_t most_idle = 0;
    uint64_t flushes_reusing = 0;  // flushes after which the idle blocks went back to use
    int64_t idle_before = 0;
    for (size_t i = 0; i < corpus.docs.size(); ++i) {
      const Document doc = testing::ToDocument(corpus.docs[i], corpus.types);
      ASSERT_TRUE(reference.AddDocument(doc).ok());
      ASSERT_TRUE((*writer)->AddDocument(doc).ok());
      const IndexWriterStats stats = (*writer)->stats();
      ASSERT_LE(stats.idle_block_bytes, threads * kShare) << "doc " << i;
      if (stats.idle_block_bytes < idle_before) ++flushes_reusing;
      idle_before = stats.idle_block_bytes;
      most_idle = std::max(most_idle, stats.idle_block_bytes);
    }
    const IndexWriterStats before_close = (*writer)->stats();
    ASSERT_TRUE((*writer)->Close().ok());
    const IndexWriterStats stats = (*writer)->stats();
    EXPECT_GE(before_close.segments_flushed, 3u) << threads;
    EXPECT_GT(most_idle, kShare / 2) << "a flushed segment's blocks were kept";
    EXPECT_GT(flushes_reusing, 0u) << "the next segment took the kept blocks";
    EXPECT_EQ(stats.ram_bytes, 0) << "idle blocks are not in the RAM count";
    EXPECT_GT(stats.idle_block_bytes, 0);
    auto reader = CommitReader::Open(scratch.path());
    ASSERT_TRUE(reader.ok()) << reader.status();
    EXPECT_EQ((*reader)->doc_count(), corpus.docs.size());
    if (threads == 1) {
      EXPECT_TRUE(FromIndex(**reader) == FromChain(reference));
    }
  }
}

TEST(IndexWriterTest, RollbackAndReopen) {
  testing::ScratchDir scratch;
  const std::string a = "alpha beta", b = "gamma delta";
  {
    auto writer = IndexWriter::Open(scratch.path(), Options());
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->AddDocument(Document().Add(Field::Text("body", a))).ok());
    ASSERT_TRUE((*writer)->Commit().ok());
    ASSERT_TRUE((*writer)->AddDocument(Document().Add(Field::Text("body", b))).ok());
    ASSERT_TRUE((*writer)->Commit().ok());  // flushed, then rolled back below? no: committed
    ASSERT_TRUE((*writer)->AddDocument(Document().Add(Field::Text("body", b))).ok());
    ASSERT_TRUE((*writer)->Rollback().ok());
    ASSERT_TRUE((*writer)->AddDocument(Document().Add(Field::Text("body", a))).ok());
    // Destroyed without Close: rolls back the last document.
  }
  auto reader = CommitReader::Open(scratch.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->doc_count(), 2u);
  EXPECT_EQ((*reader)->commit().generation, 2u);
  // Reopen and append: numbering continues, old segments stay.
  auto writer = IndexWriter::Open(scratch.path(), Options());
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->AddDocument(Document().Add(Field::Text("body", a))).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  reader = CommitReader::Open(scratch.path());
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->doc_count(), 3u);
  EXPECT_EQ((*reader)->segment_count(), 3u);
  // Only the files of live segments and the live commit remain.
  auto files = (*reader)->directory()->ListAll();
  ASSERT_TRUE(files.ok());
  for (const std::string& f : *files) {
    // The newest two commit points are kept (a damaged newest one can be
    // recovered from).
    EXPECT_TRUE(f == "segments_3" || f == "segments_2" || f == "write.lock" ||
                f.starts_with("_0.") || f.starts_with("_1.") || f.starts_with("_2."))
        << f;
  }
}

TEST(IndexWriterTest, RamBufferRules) {
  testing::ScratchDir scratch;
  IndexWriterOptions o = Options();
  o.ram_buffer_mb = 1;
  auto too_small = IndexWriter::Open(scratch.path(), o);
  EXPECT_EQ(too_small.status().code(), absl::StatusCode::kInvalidArgument);
  o.ram_buffer_mb = 8;
  o.threads = 16;
  auto adjusted = IndexWriter::Open(scratch.path(), o);
  ASSERT_TRUE(adjusted.ok());
  EXPECT_EQ((*adjusted)->threads(), 2);
  ASSERT_EQ((*adjusted)->warnings().size(), 1u);
  EXPECT_NE((*adjusted)->warnings()[0].find("using 2 threads"), std::string::npos);
}

TEST(IndexWriterTest, MissingOrUnwritableDirectoryFailsAtOpen) {
  testing::ScratchDir scratch;
  IndexWriterOptions o = Options();
  o.create_directory = false;
  EXPECT_FALSE(IndexWriter::Open(scratch.path() + "/missing", o).ok());
  // A path through a regular file can never be a directory (this holds even
  // for root, unlike permission bits).
  { std::ofstream(scratch.path() + "/file") << "x"; }
  auto under_file = IndexWriter::Open(scratch.path() + "/file/index", Options());
  EXPECT_FALSE(under_file.ok());
  EXPECT_FALSE(under_file.status().message().empty());
}

// Runs: open a writer on `dir`, add `docs`, commit. Returns the first error.
absl::Status IndexAndCommit(Directory* dir, const Corpus& corpus, size_t from, size_t to) {
  auto writer = IndexWriter::Open(dir, Options());
  if (!writer.ok()) return writer.status();
  for (size_t i = from; i < to; ++i) {
    if (absl::Status s = (*writer)->AddDocument(testing::ToDocument(corpus.docs[i], corpus.types));
        !s.ok()) {
      return s;
    }
  }
  return (*writer)->Close();
}

absl::Status VerifyIndex(Directory* dir, uint64_t* docs) {
  auto reader = CommitReader::Open(dir);
  if (!reader.ok()) return reader.status();
  for (size_t s = 0; s < (*reader)->segment_count(); ++s) {
    if (absl::Status st = (*reader)->segment(s).CheckIntegrity(); !st.ok()) return st;
  }
  *docs = (*reader)->doc_count();
  return absl::OkStatus();
}

TEST(IndexWriterTest, EveryFailedOperationKeepsThePreviousCommit) {
  Random rng(testing::TestSeed(6161));
  const Corpus corpus = MakeCorpus(rng, 40);
  testing::ScratchDir scratch;
  auto base = scratch.Open();
  ASSERT_TRUE(IndexAndCommit(base.get(), corpus, 0, 20).ok());
  uint64_t committed = 0;
  ASSERT_TRUE(VerifyIndex(base.get(), &committed).ok());
  ASSERT_EQ(committed, 20u);
  // Count the ops of a clean second run (on a copy of the state).
  uint64_t total = 0;
  {
    testing::ScratchDir probe_dir;
    auto probe_base = probe_dir.Open();
    ASSERT_TRUE(IndexAndCommit(probe_base.get(), corpus, 0, 20).ok());
    FaultInjectingDirectory probe(probe_base.get());
    probe.set_skip_syncs(true);
    probe.set_max_write_size(2048);
    ASSERT_TRUE(IndexAndCommit(&probe, corpus, 20, 40).ok());
    total = probe.op_count();
  }
  ASSERT_GT(total, 10u);
  std::printf("[   INFO   ] failing each of %llu operations in turn\n",
              static_cast<unsigned long long>(total));
  uint64_t failed_runs = 0;
  for (uint64_t n = 1; n <= total; ++n) {
    FaultInjectingDirectory faulty(base.get());
    faulty.set_skip_syncs(true);
    faulty.set_max_write_size(2048);
    faulty.FailAt(n);
    const absl::Status s = IndexAndCommit(&faulty, corpus, 20, 40);
    uint64_t docs = 0;
    ASSERT_TRUE(VerifyIndex(base.get(), &docs).ok()) << "after fault " << n;
    if (s.ok()) {
      // The fault hit a delete of an old file after the commit: harmless.
      ASSERT_EQ(docs, 40u);
    } else {
      ++failed_runs;
      ASSERT_NE(std::string(s.message()).find("injected fault"), std::string::npos) << s;
      ASSERT_EQ(docs, 20u) << "fault " << n << ": " << s;
    }
    // A clean open deletes leftovers; then reset to the 20-doc state.
    if (docs == 40u) {
      testing::ScratchDir fresh;
      base = nullptr;
      std::filesystem::remove_all(scratch.path());
      std::filesystem::create_directory(scratch.path());
      base = scratch.Open();
      ASSERT_TRUE(IndexAndCommit(base.get(), corpus, 0, 20).ok());
    } else {
      auto cleaner = IndexWriter::Open(base.get(), Options());
      ASSERT_TRUE(cleaner.ok());
      auto files = base->ListAll();
      auto reader = CommitReader::Open(base.get());
      ASSERT_TRUE(reader.ok());
      for (const std::string& f : *files) {
        bool live = f == (*reader)->commit().file_name() || f == "write.lock";
        for (const CommitSegment& seg : (*reader)->commit().segments)
          live |= f.starts_with(seg.name + ".");
        ASSERT_TRUE(live) << "leftover " << f << " after fault " << n;
      }
    }
  }
  EXPECT_GT(failed_runs, total / 2);
  // Disk full at many points of the run.
  uint64_t full_runs = 0;
  for (uint64_t limit = 0; limit < 400000; limit += 7919) {
    FaultInjectingDirectory faulty(base.get());
    faulty.set_skip_syncs(true);
    faulty.SetDiskLimit(limit);
    const absl::Status s = IndexAndCommit(&faulty, corpus, 20, 40);
    uint64_t docs = 0;
    ASSERT_TRUE(VerifyIndex(base.get(), &docs).ok());
    if (!s.ok()) {
      ASSERT_EQ(docs, 20u);
      ASSERT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
      ++full_runs;
    } else {
      break;  // the limit is past what the run writes
    }
  }
  EXPECT_GT(full_runs, 3u);
}

TEST(IndexWriterTest, ConcurrentAddsAndCommits) {
  Random rng(testing::TestSeed(7171));
  testing::ScratchDir scratch;
  IndexWriterOptions o = Options();
  o.threads = 4;
  o.ram_buffer_mb = 16;
  auto writer = IndexWriter::Open(scratch.path(), o);
  ASSERT_TRUE(writer.ok());
  constexpr int kThreads = 4;
  constexpr int kDocsPerThread = 300;
  std::map<std::string, std::set<std::string>> expected;  // word -> ids
  std::vector<std::vector<std::pair<std::string, std::string>>> work(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kDocsPerThread; ++i) {
      const std::string id = std::to_string(t) + "-" + std::to_string(i);
      std::string body;
      for (int w = 0; w < 200; ++w) {
        const std::string word = "w" + std::to_string(rng.Uniform(3000));
        body += word + " ";
        expected[word].insert(id);
      }
      work[t].emplace_back(id, body);
    }
  }
  std::atomic<bool> done{false};
  std::thread committer([&] {
    while (!done.load()) {
      EXPECT_TRUE((*writer)->Commit().ok());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (const auto& [id, body] : work[t]) {
        Document doc;
        doc.Add(Field::Keyword("id", id, FieldType::Keyword(true))).Add(Field::Text("body", body));
        EXPECT_TRUE((*writer)->AddDocument(doc).ok());
      }
    });
  }
  for (auto& t : threads) t.join();
  done = true;
  committer.join();
  ASSERT_TRUE((*writer)->Close().ok());
  auto reader = CommitReader::Open(scratch.path());
  ASSERT_TRUE(reader.ok());
  ASSERT_EQ((*reader)->doc_count(), uint64_t{kThreads} * kDocsPerThread);
  std::map<std::string, std::set<std::string>> got;
  for (size_t s = 0; s < (*reader)->segment_count(); ++s) {
    const SegmentReader& seg = (*reader)->segment(s);
    const FieldInfo* body = seg.FieldByName("body");
    const FieldInfo* id = seg.FieldByName("id");
    ASSERT_TRUE(body != nullptr && id != nullptr);
    std::vector<std::string> ids(seg.doc_count());
    for (uint32_t d = 0; d < seg.doc_count(); ++d) {
      auto stored = seg.stored_fields().Document(d);
      ASSERT_TRUE(stored.ok());
      for (const StoredField& f : *stored) {
        if (f.field_number == id->number) ids[d] = f.value;
      }
    }
    TermDictCursor cursor = seg.Terms(body->number)->NewCursor();
    while (*cursor.Next()) {
      PostingsCursor it = seg.Postings(body->number, cursor.stats());
      while (it.NextDoc()) got[std::string(cursor.term())].insert(ids[it.doc()]);
    }
  }
  EXPECT_TRUE(got == expected);
}

TEST(IndexWriterTest, CheckerPassesSoundIndexAndNamesDamage) {
  Random rng(testing::TestSeed(8181));
  const Corpus corpus = MakeCorpus(rng, 30);
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  ASSERT_TRUE(IndexAndCommit(dir.get(), corpus, 0, 30).ok());
  CheckReport report = CheckIndex(dir.get());
  ASSERT_TRUE(report.ok) << FormatCheckReport(report);
  EXPECT_EQ(report.docs, 30u);
  EXPECT_GT(report.fields["body"].postings, 0u);
  // Damage one byte in the middle of the doc file.
  const std::string path = scratch.path() + "/_0.doc";
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() / 2] ^= 0x20;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  report = CheckIndex(dir.get());
  EXPECT_FALSE(report.ok);
  ASSERT_FALSE(report.problems.empty());
  EXPECT_NE(report.problems[0].find("_0.doc"), std::string::npos) << report.problems[0];
}

}  // namespace
}  // namespace invert

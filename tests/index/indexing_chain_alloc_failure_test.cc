// Allocation-failure test of IndexingChain::AddDocument: the Nth allocation
// of the call throws std::bad_alloc (once, or from the Nth on), for every N
// until the document goes through without reaching it. Each outcome must be
// one of the contract's: OK (and the segment equals a reference chain's), or
// kResourceExhausted with DebugDump() unchanged (and the same document then
// goes in), or kAborted with broken() set (and every later call aborted).
// Nothing may crash, and under ASan nothing may leak.
//
// The failures come from a replacement of the global operator new (every
// form: plain, array, nothrow, aligned, and the matching deletes, all over
// malloc/free so that ASan sees matched pairs). It replaces allocation for
// the whole test binary, so it is a plain pass-through unless armed on the
// calling thread (a thread_local countdown, armed only around AddDocument).
// Allocations that go straight to malloc (CountedArray, the hash tables'
// slots, pool blocks) are not failed here; they throw std::bad_alloc through
// the same paths (they fail the same way as operator new would).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "index/commit_reader.h"
#include "index/indexing_chain.h"
#include "invert/index_writer.h"
#include "scratch_dir.h"

namespace {

// Allocations left before the failing one; -1: not armed.
thread_local int64_t t_countdown = -1;
// After the first failure: fail every allocation until disarmed.
thread_local bool t_persistent = false;
thread_local bool t_failing = false;
thread_local bool t_fired = false;

bool ShouldFail() {
  if (t_failing) return true;
  if (t_countdown < 0) return false;
  if (t_countdown-- > 0) return false;
  t_fired = true;
  if (t_persistent) {
    t_failing = true;
  } else {
    t_countdown = -1;
  }
  return true;
}

void* Allocate(size_t size) {
  if (ShouldFail()) throw std::bad_alloc();
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void* AllocateAligned(size_t size, std::align_val_t alignment) {
  if (ShouldFail()) throw std::bad_alloc();
  const size_t a = std::max(static_cast<size_t>(alignment), sizeof(void*));
  void* p = nullptr;
  if (posix_memalign(&p, a, size == 0 ? 1 : size) != 0) throw std::bad_alloc();
  return p;
}

// Arms the failure of allocation number `n` (0-based) on this thread.
void FailAllocation(int64_t n, bool persistent) {
  t_countdown = n;
  t_persistent = persistent;
  t_failing = false;
  t_fired = false;
}

// Disarms; returns true iff a failure was injected.
bool Disarm() {
  t_countdown = -1;
  t_failing = false;
  return t_fired;
}

}  // namespace

void* operator new(size_t size) { return Allocate(size); }
void* operator new[](size_t size) { return Allocate(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  try {
    return Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  try {
    return Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(size_t size, std::align_val_t a) { return AllocateAligned(size, a); }
void* operator new[](size_t size, std::align_val_t a) { return AllocateAligned(size, a); }
void* operator new(size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return AllocateAligned(size, a);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return AllocateAligned(size, a);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace invert {
namespace {

// The documents: a warm-up set, then the one whose allocations fail. It has
// a field new to the chain (pending, rolled back on failure), term vectors
// with payloads and offsets, a field longer than two inversion chunks (so
// the token buffer and the chunk grow), pre-analyzed tokens and stored
// values.
class Docs {
 public:
  Docs() {
    tv_ = FieldType::Text(true);
    tv_.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
    tv_.payloads = true;
    tv_.term_vectors = tv_.term_vector_positions = tv_.term_vector_offsets = true;
    tv_.term_vector_payloads = true;
    for (int d = 0; d < 3; ++d) {
      std::string text;
      for (int i = 0; i < 40; ++i) absl::StrAppend(&text, "w", (i * 7 + d) % 23, " ");
      warm_texts_.push_back(text);
      ids_.push_back(absl::StrCat("id", d));
    }
    for (int i = 0; i < 2500; ++i) absl::StrAppend(&big_text_, "b", i % 311, " ");
    for (int i = 0; i < 300; ++i) terms_.push_back(absl::StrCat("t", i % 57));
    for (int i = 0; i < 300; ++i) {
      tokens_.push_back({terms_[i], 1, static_cast<uint32_t>(2 * i),
                         static_cast<uint32_t>(2 * i + 1), i % 3 == 0 ? "pay" : ""});
    }
  }

  Document Warm(int d) const {
    return Document()
        .Add(Field::Text("body", warm_texts_[d], tv_))
        .Add(Field::Keyword("id", ids_[d]))
        .Add(Field::Stored("note", warm_texts_[d]));
  }

  Document Target() const {
    return Document()
        .Add(Field::Text("body", big_text_, tv_))
        .Add(Field::Text("body", warm_texts_[0], tv_))
        .Add(Field::Keyword("id", "target"))
        .Add(Field::Tokens("pre", tokens_, tv_, "stored pre"))
        .Add(Field::Stored("note", "n"))
        .Add(Field::Text("fresh", warm_texts_[1]));
  }

  std::unique_ptr<IndexingChain> WarmChain(TermBytesLayout layout) const {
    IndexingChainOptions options;
    options.layout = layout;
    options.analyzer = [] { return NewWhitespaceAnalyzer(); };
    auto chain = std::make_unique<IndexingChain>(options);
    for (int d = 0; d < 3; ++d) {
      if (!chain->AddDocument(Warm(d)).ok()) return nullptr;
    }
    return chain;
  }

 private:
  FieldType tv_;
  std::vector<std::string> warm_texts_;
  std::vector<std::string> ids_;
  std::string big_text_;
  std::vector<std::string> terms_;
  std::vector<PreAnalyzedToken> tokens_;
};

TEST(IndexingChainMemoryFailureTest, EveryAllocationFailureIsContained) {
  const Docs docs;
  const Document target = docs.Target();
  for (TermBytesLayout layout : {TermBytesLayout::kSeparate, TermBytesLayout::kShared}) {
    std::unique_ptr<IndexingChain> reference = docs.WarmChain(layout);
    ASSERT_NE(reference, nullptr);
    ASSERT_TRUE(reference->AddDocument(target).ok());
    const std::string expected = reference->DebugDump();
    for (bool persistent : {false, true}) {
      std::map<absl::StatusCode, int> outcomes;
      int64_t n = 0;
      for (;; ++n) {
        std::unique_ptr<IndexingChain> chain = docs.WarmChain(layout);
        ASSERT_NE(chain, nullptr);
        const std::string before = chain->DebugDump();
        FailAllocation(n, persistent);
        const absl::Status s = chain->AddDocument(target);
        const bool fired = Disarm();
        ++outcomes[s.code()];
        const std::string where = absl::StrCat("allocation ", n, persistent ? " on" : " once");
        if (s.ok()) {
          ASSERT_EQ(chain->DebugDump(), expected) << where;
          ASSERT_EQ(chain->ram_bytes_used(), chain->RecomputeRamBytes()) << where;
        } else if (absl::IsResourceExhausted(s)) {
          EXPECT_FALSE(chain->broken()) << where;
          ASSERT_EQ(chain->DebugDump(), before) << where << ": " << s;
          ASSERT_EQ(chain->ram_bytes_used(), chain->RecomputeRamBytes()) << where;
          ASSERT_TRUE(chain->AddDocument(target).ok()) << where;  // nothing was left behind
          ASSERT_EQ(chain->DebugDump(), expected) << where;
        } else if (absl::IsAborted(s)) {
          EXPECT_TRUE(chain->broken()) << where;
          EXPECT_TRUE(absl::IsAborted(chain->AddDocument(target))) << where;
          EXPECT_TRUE(absl::IsAborted(chain->AddDocument(docs.Warm(0)))) << where;
        } else {
          FAIL() << where << ": unexpected " << s;
        }
        if (!fired) break;  // the call made fewer than n + 1 allocations
        ASSERT_LT(n, 100000) << "runaway";
      }
      std::printf(
          "[   INFO   ] %s layout, failure %s: %lld allocations; OK %d, "
          "ResourceExhausted %d, Aborted %d\n",
          layout == TermBytesLayout::kShared ? "shared" : "separate",
          persistent ? "persistent" : "once", static_cast<long long>(n),
          outcomes[absl::StatusCode::kOk], outcomes[absl::StatusCode::kResourceExhausted],
          outcomes[absl::StatusCode::kAborted]);
      EXPECT_GT(outcomes[absl::StatusCode::kResourceExhausted], 0);
      EXPECT_GT(outcomes[absl::StatusCode::kAborted], 0);
    }
  }
}

// The writer over the chain: a failed allocation while a document is added
// (or while Commit flushes) never leaves a slot busy or the index changed
// beyond the contract: the document is in, or it is not (kResourceExhausted),
// or the writer lost the documents since the last commit and refuses work
// until Rollback (which brings it back to the last commit, and it works).
uint64_t CommittedDocs(const std::string& path) {
  auto reader = CommitReader::Open(path);
  EXPECT_TRUE(reader.ok()) << reader.status();
  return reader.ok() ? (*reader)->doc_count() : 0;
}

TEST(IndexingChainMemoryFailureTest, WriterContainsEveryAllocationFailure) {
  const Docs docs;
  const Document target = docs.Target();
  IndexWriterOptions options;
  options.analyzer = [] { return NewWhitespaceAnalyzer(); };
  options.ram_buffer_mb = 4;
  for (bool in_commit : {false, true}) {
    std::map<std::string, int> outcomes;
    // Every allocation of AddDocument; a commit makes thousands (the flush):
    // every one of the first 200, then every 97th, and past the end.
    int64_t n = 0;
    for (;; n += (in_commit && n >= 200) ? 97 : 1) {
      testing::ScratchDir scratch;
      {
        auto base = IndexWriter::Open(scratch.path(), options);
        ASSERT_TRUE(base.ok());
        ASSERT_TRUE((*base)->AddDocument(docs.Warm(0)).ok());
        ASSERT_TRUE((*base)->Close().ok());
      }
      auto writer = IndexWriter::Open(scratch.path(), options);
      ASSERT_TRUE(writer.ok());
      IndexWriter& w = **writer;
      ASSERT_TRUE(w.AddDocument(docs.Warm(1)).ok());
      const std::string where = absl::StrCat(in_commit ? "commit" : "add", ", allocation ", n);
      absl::Status added, committed;
      bool fired;
      if (in_commit) {
        ASSERT_TRUE(w.AddDocument(target).ok());
        FailAllocation(n, /*persistent=*/false);
        committed = w.Commit();
        fired = Disarm();
        added = absl::OkStatus();
      } else {
        FailAllocation(n, /*persistent=*/false);
        added = w.AddDocument(target);
        fired = Disarm();
        committed = w.Commit();
      }
      if (added.ok() && committed.ok()) {
        ++outcomes["ok"];
        EXPECT_EQ(CommittedDocs(scratch.path()), 3u) << where;
      } else if (absl::IsResourceExhausted(added) && committed.ok()) {
        ++outcomes["document refused"];
        EXPECT_EQ(CommittedDocs(scratch.path()), 2u) << where;
      } else {
        ++outcomes["writer lost uncommitted documents"];
        EXPECT_EQ(CommittedDocs(scratch.path()), 1u)
            << where << ": " << added << " / " << committed;
        // Refuses work until rolled back, then works again.
        EXPECT_FALSE(w.AddDocument(docs.Warm(2)).ok()) << where;
        ASSERT_TRUE(w.Rollback().ok()) << where;
        ASSERT_TRUE(w.AddDocument(target).ok()) << where;
        ASSERT_TRUE(w.Commit().ok()) << where;
        EXPECT_EQ(CommittedDocs(scratch.path()), 2u) << where;
      }
      ASSERT_TRUE(w.Close().ok()) << where;
      if (!fired) break;
      ASSERT_LT(n, 100000) << "runaway";
    }
    std::printf("[   INFO   ] failure in %s: %lld allocations;",
                in_commit ? "Commit" : "AddDocument", static_cast<long long>(n));
    for (const auto& [what, count] : outcomes) std::printf(" %s %d;", what.c_str(), count);
    std::printf("\n");
    EXPECT_GT(outcomes["writer lost uncommitted documents"] + outcomes["document refused"], 0);
  }
}

}  // namespace
}  // namespace invert

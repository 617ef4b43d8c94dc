// IndexSearcher: a query's weight, then each segment's matches collected
// into a top k (by worker threads taking segments in turn), then merged.
//
// Pruning: once a segment's top k is full and the segment has counted more
// than total_hits_threshold matches, the collector tells the scorer the k-th
// best score so far (SetMinCompetitiveScore), and again whenever it rises;
// the scorer may then skip documents scoring no more than that. Within a
// segment documents arrive in increasing id order, so a later document equal
// to the k-th score loses the tie and cannot enter: skipping it is exact.
// Segments also share their k-th scores (a float maximum behind an atomic,
// whatever the threads): the global top k's k-th score is at least any
// full segment top k's, so another segment's document can be skipped when
// it scores strictly below the best of those (not when equal: it may have
// the smaller id and win the tie). A segment uses the larger of its own
// threshold and just below the shared one, so the merged top k equals an
// exhaustive search's.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "invert/search.h"
#include "search/top_k.h"
#include "search/weight.h"

namespace invert {

using search_internal::CreateWeight;
using search_internal::DocScorer;
using search_internal::kNoMoreDocs;
using search_internal::TopK;
using search_internal::Weight;

namespace {

// What one segment contributes.
struct LeafResult {
  explicit LeafResult(size_t k) : top(k) {}
  TopK top;
  uint64_t count = 0;
  uint64_t scored = 0;
  bool pruned = false;  // a threshold was set: count may be a lower bound
  absl::Status status;
};

struct Collect {
  size_t k = 0;
  bool scores = false;
  bool prune = false;
  uint64_t total_hits_threshold = 0;
};

// The best k-th score of the segments' full top ks so far (-infinity: none).
class SharedThreshold {
 public:
  float get() const { return value_.load(std::memory_order_relaxed); }
  void Raise(float score) {
    float v = get();
    while (score > v && !value_.compare_exchange_weak(v, score, std::memory_order_relaxed)) {
    }
  }

 private:
  std::atomic<float> value_{-std::numeric_limits<float>::infinity()};
};

void SearchLeaf(const Weight& weight, const LeafReader& leaf, const Collect& c,
                SharedThreshold& shared, LeafResult& out) {
  absl::StatusOr<std::unique_ptr<DocScorer>> scorer = weight.MakeScorer(leaf);
  if (!scorer.ok()) {
    out.status = scorer.status();
    return;
  }
  if (*scorer == nullptr) return;
  DocScorer& s = **scorer;
  float threshold = 0;
  // The shared threshold read last time and whether that check ran: a doc
  // that did not enter the top k, with the shared one unchanged, leaves
  // the minimum as it was (no Raise, no nextafter per scored doc).
  bool checked = false;
  float last_shared = 0;
  const uint64_t doc_base = leaf.doc_base();  // a virtual call: once, not per doc
  for (uint32_t doc = s.NextDoc(); doc != kNoMoreDocs; doc = s.NextDoc()) {
    ++out.count;
    if (!c.scores) continue;
    ++out.scored;
    const bool kept = out.top.Add({doc_base + doc, s.Score()});
    if (!c.prune || out.count <= c.total_hits_threshold) continue;
    if (checked && !kept && shared.get() == last_shared) continue;
    // Skip scores <= min: the own k-th (ties lose here), or < the shared one.
    float min = -std::numeric_limits<float>::infinity();
    if (out.top.full()) {
      min = out.top.worst().score;
      shared.Raise(min);
    }
    checked = true;
    last_shared = shared.get();
    min = std::max(min, std::nextafter(last_shared, -std::numeric_limits<float>::infinity()));
    if (min != -std::numeric_limits<float>::infinity() && (!out.pruned || min > threshold)) {
      threshold = min;
      out.pruned = true;
      s.SetMinCompetitiveScore(threshold);
    }
  }
  out.status = s.status();
}

// Runs SearchLeaf over every leaf, on `threads` threads.
absl::Status SearchLeaves(const IndexReader& reader, const Weight& weight, const Collect& c,
                          int threads, TopK& top, TopDocs& out) {
  const std::vector<const LeafReader*>& leaves = reader.leaves();
  std::vector<LeafResult> results(leaves.size(), LeafResult(c.k));
  std::atomic<size_t> next{0};
  SharedThreshold shared;
  auto work = [&] {
    for (size_t i = next++; i < leaves.size(); i = next++) {
      SearchLeaf(weight, *leaves[i], c, shared, results[i]);
    }
  };
  const size_t workers = std::min<size_t>(std::max(threads, 1), leaves.size());
  if (workers <= 1) {
    work();
  } else {
    std::vector<std::thread> pool;
    for (size_t i = 0; i < workers; ++i) pool.emplace_back(work);
    for (std::thread& t : pool) t.join();
  }
  out.total_hits = 0;
  out.total_hits_exact = true;
  out.docs_scored = 0;
  for (const LeafResult& r : results) {
    if (!r.status.ok()) return r.status;
    out.total_hits += r.count;
    out.docs_scored += r.scored;
    out.total_hits_exact = out.total_hits_exact && !r.pruned;
    top.AddAll(r.top);
  }
  return absl::OkStatus();
}

}  // namespace

IndexSearcher::IndexSearcher(const IndexReader& reader, const SearchOptions& options)
    : reader_(&reader), options_(options) {}

absl::StatusOr<TopDocs> IndexSearcher::Search(const Query& query, size_t k) const {
  absl::StatusOr<std::unique_ptr<Weight>> weight =
      CreateWeight(*reader_, query, {options_.bm25_k1, options_.bm25_b});
  if (!weight.ok()) return weight.status();
  TopK top(k);
  TopDocs out;
  const Collect c{k, k > 0, options_.prune, options_.total_hits_threshold};
  if (absl::Status s = SearchLeaves(*reader_, **weight, c, options_.threads, top, out); !s.ok()) {
    return s;
  }
  out.hits = top.Sorted();
  return out;
}

absl::StatusOr<uint64_t> IndexSearcher::Count(const Query& query) const {
  absl::StatusOr<std::unique_ptr<Weight>> weight =
      CreateWeight(*reader_, query, {options_.bm25_k1, options_.bm25_b});
  if (!weight.ok()) return weight.status();
  TopK top(0);
  TopDocs out;
  if (absl::Status s = SearchLeaves(*reader_, **weight, Collect{}, options_.threads, top, out);
      !s.ok()) {
    return s;
  }
  return out.total_hits;
}

absl::StatusOr<Explanation> IndexSearcher::Explain(const Query& query, uint64_t doc) const {
  if (doc >= reader_->max_doc()) {
    return absl::OutOfRangeError(
        absl::StrCat("doc ", doc, " is out of range: the index has ", reader_->max_doc()));
  }
  absl::StatusOr<std::unique_ptr<Weight>> weight =
      CreateWeight(*reader_, query, {options_.bm25_k1, options_.bm25_b});
  if (!weight.ok()) return weight.status();
  if (reader_->IsDeleted(doc)) {
    return Explanation{false, 0.0f, absl::StrCat("document ", doc, " is deleted"), {}};
  }
  const LeafReader& leaf = *reader_->leaves()[reader_->LeafIndexOf(doc)];
  const uint32_t local = static_cast<uint32_t>(doc - leaf.doc_base());
  absl::StatusOr<std::unique_ptr<DocScorer>> scorer = (*weight)->MakeScorer(leaf);
  if (!scorer.ok()) return scorer.status();
  Explanation e{false, 0.0f, absl::StrCat("no match on ", (*weight)->Describe()), {}};
  if (*scorer != nullptr && (*scorer)->Advance(local) == local) e = (*scorer)->Explain();
  if (*scorer != nullptr && !(*scorer)->status().ok()) return (*scorer)->status();
  return e;
}

}  // namespace invert

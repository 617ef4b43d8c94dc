// IndexSearcher: a query's weight, then each segment's matches collected
// into a top k (by worker threads taking segments in turn), then merged.
#include <algorithm>
#include <atomic>
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
  absl::Status status;
};

void SearchLeaf(const Weight& weight, const LeafReader& leaf, bool scores, LeafResult& out) {
  absl::StatusOr<std::unique_ptr<DocScorer>> scorer = weight.MakeScorer(leaf);
  if (!scorer.ok()) {
    out.status = scorer.status();
    return;
  }
  if (*scorer == nullptr) return;
  DocScorer& s = **scorer;
  for (uint32_t doc = s.NextDoc(); doc != kNoMoreDocs; doc = s.NextDoc()) {
    ++out.count;
    if (scores) out.top.Add({leaf.doc_base() + doc, s.Score()});
  }
  out.status = s.status();
}

// Runs SearchLeaf over every leaf, on `threads` threads.
absl::Status SearchLeaves(const IndexReader& reader, const Weight& weight, size_t k, bool scores,
                          int threads, TopK& top, uint64_t& count) {
  const std::vector<const LeafReader*>& leaves = reader.leaves();
  std::vector<LeafResult> results(leaves.size(), LeafResult(k));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < leaves.size(); i = next++) {
      SearchLeaf(weight, *leaves[i], scores, results[i]);
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
  count = 0;
  for (const LeafResult& r : results) {
    if (!r.status.ok()) return r.status;
    count += r.count;
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
  if (absl::Status s =
          SearchLeaves(*reader_, **weight, k, k > 0, options_.threads, top, out.total_hits);
      !s.ok()) {
    return s;
  }
  out.hits = top.Sorted();
  out.total_hits_exact = true;
  return out;
}

absl::StatusOr<uint64_t> IndexSearcher::Count(const Query& query) const {
  absl::StatusOr<std::unique_ptr<Weight>> weight =
      CreateWeight(*reader_, query, {options_.bm25_k1, options_.bm25_b});
  if (!weight.ok()) return weight.status();
  TopK top(0);
  uint64_t count = 0;
  if (absl::Status s = SearchLeaves(*reader_, **weight, 0, false, options_.threads, top, count);
      !s.ok()) {
    return s;
  }
  return count;
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

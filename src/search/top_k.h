// TopK: the k best (score, doc) pairs seen, in a min-heap whose top is the
// worst kept hit: lower score is worse, and at equal scores the larger doc
// id (Lucene keeps the earlier document on ties). Merging the TopKs of
// several segments gives the same hits as one TopK over all documents.
#ifndef INVERT_SEARCH_TOP_K_H_
#define INVERT_SEARCH_TOP_K_H_

#include <algorithm>
#include <cstddef>
#include <vector>

#include "invert/search.h"

namespace invert::search_internal {

// True iff a ranks before b.
inline bool RanksBefore(const ScoredDoc& a, const ScoredDoc& b) {
  return a.score > b.score || (a.score == b.score && a.doc < b.doc);
}

class TopK {
 public:
  explicit TopK(size_t k) : k_(k) {}

  // Returns true iff `hit` is kept (then worst() may have changed).
  bool Add(const ScoredDoc& hit) {
    if (k_ == 0) return false;
    if (heap_.size() < k_) {
      heap_.push_back(hit);
      std::push_heap(heap_.begin(), heap_.end(), RanksBefore);
      return true;
    }
    if (RanksBefore(hit, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), RanksBefore);
      heap_.back() = hit;
      std::push_heap(heap_.begin(), heap_.end(), RanksBefore);
      return true;
    }
    return false;
  }
  // True iff k hits are kept: a new one must rank before worst() to enter.
  bool full() const { return k_ > 0 && heap_.size() == k_; }
  // The worst hit kept. REQUIRES: !empty.
  const ScoredDoc& worst() const { return heap_.front(); }
  void AddAll(const TopK& other) {
    for (const ScoredDoc& hit : other.heap_) Add(hit);
  }
  // The hits kept, best first.
  std::vector<ScoredDoc> Sorted() const {
    std::vector<ScoredDoc> out = heap_;
    std::sort(out.begin(), out.end(), RanksBefore);
    return out;
  }

 private:
  size_t k_;
  std::vector<ScoredDoc> heap_;
};

}  // namespace invert::search_internal

#endif  // INVERT_SEARCH_TOP_K_H_

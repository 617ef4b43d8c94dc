// DocScorer: the cursor every query evaluates to in one segment: the
// matching documents in increasing order of the segment's ids, and the
// current one's score and explanation. Leaf kinds read PostingsEnums
// (TermScorer, PhraseScorer) or a document set (ConstantScorer); a
// BooleanScorer combines others.
//
// Contract (like Lucene's DocIdSetIterator): a new cursor is unpositioned
// (doc() is kNoMoreDocs); NextDoc() moves to the next match, Advance(target)
// to the first match >= target and never backwards (if doc() >= target
// already, it stays). Both return the new doc(), kNoMoreDocs at the end.
// Score() and Explain() describe doc(); REQUIRES: positioned on a match.
//
// Errors: a damaged segment ends the iteration (kNoMoreDocs) and status()
// says why; callers check status() when a cursor is done.
//
// Thread safety: one thread.
#ifndef INVERT_SEARCH_DOC_SCORER_H_
#define INVERT_SEARCH_DOC_SCORER_H_

#include <cstdint>

#include "absl/status/status.h"
#include "invert/postings_enum.h"
#include "invert/search.h"

namespace invert::search_internal {

inline constexpr uint32_t kNoMoreDocs = PostingsEnum::kNoMoreDocs;

class DocScorer {
 public:
  virtual ~DocScorer() = default;

  uint32_t doc() const { return doc_; }
  virtual uint32_t NextDoc() = 0;
  virtual uint32_t Advance(uint32_t target) = 0;
  virtual float Score() = 0;
  virtual Explanation Explain() = 0;
  // An upper bound of the documents it can match (orders conjunctions).
  virtual uint64_t cost() const = 0;
  // OK, or why the iteration stopped early (this cursor's or a child's).
  virtual absl::Status status() const = 0;

 protected:
  uint32_t doc_ = kNoMoreDocs;
  bool started_ = false;
};

}  // namespace invert::search_internal

#endif  // INVERT_SEARCH_DOC_SCORER_H_

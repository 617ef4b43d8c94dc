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
// Dynamic pruning (prune.h has the bounds' arithmetic): MaxScore() bounds
// Score() over every document the cursor can still match; AdvanceShallow and
// BlockMaxScore() bound it over a range of documents, from the block-max
// impacts of the postings where there are some. A kind that cannot bound its
// scores keeps the defaults (+infinity: never pruned). Every bound is a true
// upper bound of the float Score() returns, rounding included. After
// SetMinCompetitiveScore(s) a cursor may skip documents whose score would be
// <= s (the collector's k-th best score in this segment: a later document
// with an equal score ranks after it, so it cannot enter the top k).
//
// Thread safety: one thread.
#ifndef INVERT_SEARCH_DOC_SCORER_H_
#define INVERT_SEARCH_DOC_SCORER_H_

#include <cstdint>
#include <limits>

#include "absl/status/status.h"
#include "invert/postings_enum.h"
#include "invert/search.h"

namespace invert {
class PostingsCursor;  // codec/postings_format.h
}  // namespace invert

namespace invert::search_internal {

inline constexpr uint32_t kNoMoreDocs = PostingsEnum::kNoMoreDocs;
inline constexpr float kUnboundedScore = std::numeric_limits<float>::infinity();

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

  // ---- Pruning (see the top of the file)

  // An upper bound of Score() over every match from doc() on.
  virtual float MaxScore() { return kUnboundedScore; }
  // Returns `upto` >= target such that BlockMaxScore() bounds Score() over
  // the matches in [target, upto] (kNoMoreDocs: over all the rest). Never
  // moves doc(). REQUIRES: targets never decrease from call to call.
  virtual uint32_t AdvanceShallow(uint32_t /*target*/) { return kNoMoreDocs; }
  // AdvanceShallow, except that the range may be longer with a looser bound
  // (a term's: a whole group of 8 postings blocks where its walk meets one),
  // for a caller whose cost is per range more than per bound. The same
  // contract; the two may be mixed on one cursor.
  virtual uint32_t AdvanceShallowCoarse(uint32_t target) { return AdvanceShallow(target); }
  // The bound of the range the last AdvanceShallow returned.
  virtual float BlockMaxScore() { return MaxScore(); }
  // From now on the cursor may skip matches scoring <= `score`. REQUIRES:
  // never lower than a previous call's.
  virtual void SetMinCompetitiveScore(float /*score*/) {}
  // Advance(target), except that matches in [target, upto] whose Score()
  // is <= `floor` may be passed over: the cursor stops on the first match
  // >= target that is above the floor or after `upto` (or at the end). For
  // a caller that cannot use such matches in that range (a disjunction
  // whose other clauses cannot lift them into the top k); unlike
  // SetMinCompetitiveScore, the floor holds for this call only.
  virtual uint32_t AdvanceAbove(uint32_t target, uint32_t /*upto*/, float /*floor*/) {
    return Advance(target);
  }

  // ---- Direct conjunctions (BooleanScorer::RequiredAtOrAfter)

  // The postings cursor whose live docs are exactly this scorer's matches,
  // for a conjunction that moves it itself (no virtual call per move), or
  // null: a term's scorer over invert's own postings, until it prunes. A
  // caller that moves the cursor calls SyncToCursor() before any other call
  // on this scorer, and never SetMinCompetitiveScore while it moves it.
  virtual PostingsCursor* DirectCursor() { return nullptr; }
  // This scorer's doc becomes its cursor's (or the next live one); nothing
  // if the cursor was never moved.
  virtual void SyncToCursor() {}

  // True iff the cursor was moved and has no more matches.
  bool exhausted() const { return started_ && doc_ == kNoMoreDocs; }

 protected:
  uint32_t doc_ = kNoMoreDocs;
  bool started_ = false;
};

}  // namespace invert::search_internal

#endif  // INVERT_SEARCH_DOC_SCORER_H_

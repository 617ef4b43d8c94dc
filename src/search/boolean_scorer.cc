// BooleanWeight and BooleanScorer: must/filter clauses intersected by
// leap-frogging Advance (rarest first), should clauses merged through a
// min-heap of cursors when nothing is required (else advanced to each
// candidate), must_not clauses advanced to each candidate to exclude it.
//
// Scores as Lucene 8.8's scorers add them: the must clauses' scores summed
// in double then rounded to float, the matching should clauses' likewise,
// and the two floats added. As Lucene's BooleanWeight, when a segment has
// exactly minimum_should_match (> 0) should clauses with matches, they are
// required there (summed with the must clauses).
//
// Pruning (after SetMinCompetitiveScore, at the top of the query tree only):
// block-max MaxScore rather than block-max WAND. Both skip the same kind of
// work with the same bounds; MaxScore needs no pivot search over clauses
// kept sorted by doc id, its one partition per window serves every
// candidate in it, and its candidates come from the few essential clauses,
// which suits the few-term queries and the doc-at-a-time cursors here
// (Lucene 9 moved its disjunctions from WAND to MaxScore for that reason).
// Per window [target, upto] (upto: the nearest end of a clause's current
// impact block, AdvanceShallow; in a pure disjunction the clause with the
// most docs gives its coarse ranges, whole groups of 8 blocks where it has
// them: its windows are what the candidates of the rarer clauses are
// checked against, and 8 times fewer of them cost less than the tighter
// bound saves):
//   1. Each scoring clause's block bound; if their sum cannot beat the
//      threshold, the whole window is skipped (block-max).
//   2. Disjunctions: the should clauses sorted by block bound; the longest
//      prefix whose bounds sum to a non-competitive score is
//      non-essential: a document matching only those cannot compete, so
//      candidates come from the essential clauses alone.
//      With must/filter clauses: candidates come from the leap-frogging
//      conjunction, the window's bound having been checked (block-max
//      conjunction, as Lucene 8.8's BlockMaxConjunctionScorer). A pure
//      conjunction whose rarest clause is too sparse for a window to hold
//      several candidates is not pruned at all (SparseConjunction).
//   3. A candidate's exact clause scores are added, and the other clauses
//      advanced to it from the largest bound down, only while the sum so far
//      plus the bounds left can still compete.
// A doc is skipped only if its score cannot exceed the threshold (prune.h's
// SumBound makes every bound a true upper bound of the float score). The
// score of a doc returned is computed from the same clause scores in the
// same order as without pruning: bit-identical.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/live_docs_format.h"
#include "codec/postings_format.h"
#include "index/leaf_reader_impl.h"
#include "search/prune.h"
#include "search/weight.h"

namespace invert::search_internal {
namespace {

using ScorerPtr = std::unique_ptr<DocScorer>;

class BooleanScorer final : public DocScorer {
 public:
  BooleanScorer(std::vector<ScorerPtr> scoring, std::vector<ScorerPtr> filters,
                std::vector<ScorerPtr> shoulds, std::vector<ScorerPtr> prohibited, size_t needed,
                uint32_t max_doc, const LiveDocs* live, bool own_segment)
      : scoring_(std::move(scoring)),
        filters_(std::move(filters)),
        shoulds_(std::move(shoulds)),
        prohibited_(std::move(prohibited)),
        needed_(needed),
        max_doc_(max_doc),
        live_(live) {
    for (auto& s : scoring_) required_.push_back(s.get());
    for (auto& s : filters_) required_.push_back(s.get());
    std::stable_sort(required_.begin(), required_.end(),
                     [](DocScorer* a, DocScorer* b) { return a->cost() < b->cost(); });
    // Required clauses that are all terms of this (invert) segment: their
    // cursors are moved directly (RequiredAtOrAfter).
    direct_ = own_segment && !required_.empty();
    for (DocScorer* r : required_) {
      PostingsCursor* c = r->DirectCursor();
      direct_ = direct_ && c != nullptr;
      direct_cursors_.push_back(c);
    }
    req_scores_.resize(scoring_.size());
    should_scores_.resize(shoulds_.size());
    bound_.resize(shoulds_.size());
    order_.resize(shoulds_.size());
    prefix_.resize(shoulds_.size() + 1);
    if (required_.empty() && shoulds_.size() >= 2) {
      coarse_ = 0;
      for (size_t i = 1; i < shoulds_.size(); ++i) {
        if (shoulds_[i]->cost() > shoulds_[coarse_]->cost()) coarse_ = i;
      }
    }
  }

  uint32_t NextDoc() override {
    if (exhausted()) return doc_;
    return Advance(started_ ? doc_ + 1 : 0);
  }

  uint32_t Advance(uint32_t target) override {
    if (started_ && doc_ >= target) return doc_;
    if (!started_) {
      started_ = true;
      if (required_.empty()) {
        for (auto& s : shoulds_) s->Advance(target);
        for (size_t i = 0; i < shoulds_.size(); ++i) heap_.push_back(i);
        std::make_heap(heap_.begin(), heap_.end(), HeapAfter{this});
      }
    }
    if (pruning_)
      return required_.empty() ? AdvanceShouldsPruned(target) : AdvanceRequiredPruned(target);
    for (;;) {
      const uint32_t candidate =
          required_.empty() ? ShouldsAtOrAfter(target) : RequiredAtOrAfter(target);
      if (candidate == kNoMoreDocs) return doc_ = kNoMoreDocs;
      matched_.clear();
      if (required_.empty()) {
        CollectHeapAt(0, candidate);
        std::sort(matched_.begin(), matched_.end());
      } else {
        for (size_t i = 0; i < shoulds_.size(); ++i) {
          if (shoulds_[i]->Advance(candidate) == candidate) matched_.push_back(i);
        }
      }
      bool excluded = false;
      for (auto& p : prohibited_) excluded = excluded || p->Advance(candidate) == candidate;
      if (matched_.size() >= needed_ && !excluded) return doc_ = candidate;
      target = candidate + 1;
    }
  }

  float Score() override {
    double required = 0;
    double optional = 0;
    if (scores_cached_) {  // the pruned walk scored every clause on doc_
      for (float s : req_scores_) required += s;
      for (size_t i : matched_) optional += should_scores_[i];
    } else {
      for (auto& s : scoring_) required += s->Score();
      for (size_t i : matched_) optional += shoulds_[i]->Score();
    }
    return static_cast<float>(required) + static_cast<float>(optional);
  }

  Explanation Explain() override {
    Explanation e{true, Score(), "sum of:", {}};
    for (auto& s : scoring_) e.details.push_back(s->Explain());
    for (size_t i : matched_) e.details.push_back(shoulds_[i]->Explain());
    if (e.details.empty()) e.description = "matches its filter clauses, which do not score:";
    return e;
  }

  uint64_t cost() const override {
    if (!required_.empty()) return required_[0]->cost();
    uint64_t sum = 0;
    for (const auto& s : shoulds_) sum += s->cost();
    return sum;
  }

  absl::Status status() const override {
    for (const auto* list : {&scoring_, &filters_, &shoulds_, &prohibited_}) {
      for (const auto& s : *list) {
        if (absl::Status st = s->status(); !st.ok()) return st;
      }
    }
    return absl::OkStatus();
  }

  float MaxScore() override {
    double sum = 0;
    for (auto& s : scoring_) sum += s->MaxScore();
    for (auto& s : shoulds_) sum += s->MaxScore();
    return SumBound(sum);
  }
  uint32_t AdvanceShallow(uint32_t target) override {
    uint32_t upto = kNoMoreDocs;
    double sum = 0;
    for (const auto* list : {&scoring_, &shoulds_}) {
      for (const auto& s : *list) {
        if (s->exhausted()) continue;
        upto = std::min(upto, s->AdvanceShallow(target));
        sum += s->BlockMaxScore();
      }
    }
    block_max_ = SumBound(sum);
    return upto;
  }
  float BlockMaxScore() override { return block_max_; }
  void SetMinCompetitiveScore(float score) override {
    min_competitive_ = score;
    if (shoulds_.empty() && SparseConjunction()) {  // not worth its windows
      lead_floor_ = LeadFloor();
      return;
    }
    pruning_ = true;
    window_valid_ = false;  // a higher threshold may make more clauses non-essential
  }

 private:
  // ---- Pruned walks (the top of the file)

  // True iff a document whose clause scores sum (in double) to at most
  // `sum` cannot enter the top k.
  bool NotCompetitive(double sum) const { return SumBound(sum) <= min_competitive_; }

  // The window from `target`: each should clause's bound (bound_), the
  // should clauses by bound ascending (order_) with prefix_[j] the sum of
  // the first j bounds, the required clauses' summed bound, and its end.
  void ComputeWindow(uint32_t target) {
    uint32_t upto = kNoMoreDocs;
    double required = 0;
    for (auto& s : scoring_) {
      upto = std::min(upto, s->AdvanceShallow(target));
      required += s->BlockMaxScore();
    }
    for (size_t i = 0; i < shoulds_.size(); ++i) {
      DocScorer& s = *shoulds_[i];
      bound_[i] = 0;
      if (s.exhausted()) continue;
      upto =
          std::min(upto, i == coarse_ ? s.AdvanceShallowCoarse(target) : s.AdvanceShallow(target));
      bound_[i] = s.BlockMaxScore();
    }
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    std::sort(order_.begin(), order_.end(),
              [this](size_t a, size_t b) { return bound_[a] < bound_[b]; });
    for (size_t j = 0; j < order_.size(); ++j) prefix_[j + 1] = prefix_[j] + bound_[order_[j]];
    window_required_ = required;
    window_upto_ = upto;
    window_valid_ = true;
    // Disjunctions: the non-essential clauses.
    first_essential_ = 0;
    while (first_essential_ < order_.size() && NotCompetitive(prefix_[first_essential_ + 1])) {
      ++first_essential_;
    }
    // One essential clause whose floor is above half its bound: enough of
    // its docs below the floor to pay for scoring them in the clause
    // (below, each doc it returns costs a few instructions more; or3's
    // windows, mostly of floors near 0, ran 3% more instructions).
    window_floor_ = -1.0f;
    if (required_.empty() && first_essential_ + 1 == order_.size()) {
      const float floor = EssentialFloor(prefix_[first_essential_]);
      if (floor > 0.5f * bound_[order_.back()]) window_floor_ = floor;
    }
  }

  // A float f, a little below the largest, such that a document scoring
  // f or less in the one essential clause cannot compete even with the
  // non-essential clauses' bounds (summing to `rest`) added:
  // NotCompetitive(f + rest), which is monotonic in f. SumBound scales a
  // sum up by 1 + 2^-20 and rounds up, so the largest such f is about
  // min_competitive_ / (1 + 2^-20) - rest; f starts 2^-18 (relative to
  // min_competitive_) below that and is checked, then once more 2^-12
  // below. Any f that passes the check is safe: a smaller one only passes
  // over fewer documents. -1 (nothing passed over) if neither passes.
  float EssentialFloor(double rest) const {
    const double m = min_competitive_;
    for (const double below : {0x1p-18, 0x1p-12}) {
      const double estimate = m * (1.0 - below) - rest;
      if (estimate < 0) break;
      float f = static_cast<float>(estimate);
      if (static_cast<double>(f) > estimate) f = std::nextafter(f, 0.0f);  // round down
      if (NotCompetitive(static_cast<double>(f) + rest)) return f;
    }
    return NotCompetitive(rest) ? 0.0f : -1.0f;
  }

  // Advances the should clauses order_[0, j) (from j - 1 down) to
  // `candidate` on top of `score` (the candidate's clause scores so far,
  // matched_ those that matched). False iff the candidate cannot compete
  // or cannot match needed_ should clauses.
  bool AddShoulds(uint32_t candidate, size_t j, double score) {
    while (j-- > 0) {
      if (NotCompetitive(score + prefix_[j + 1]) || matched_.size() + j + 1 < needed_) {
        return false;
      }
      const size_t i = order_[j];
      if (shoulds_[i]->Advance(candidate) == candidate) {
        matched_.push_back(i);
        should_scores_[i] = shoulds_[i]->Score();
        score += should_scores_[i];
      }
    }
    return matched_.size() >= needed_ && !NotCompetitive(score);
  }

  // A conjunction's windows pay only when several candidates share one: a
  // window costs each scoring clause a skip header and its impacts (~500
  // instructions), a candidate scored without one ~130 per clause. Windows
  // are the densest clause's 128-doc blocks, so under independence a window
  // holds ~128 * lead_docs / max_doc candidates; below kMinWindowCandidates
  // the conjunction is walked exhaustively (measured on the benchmark's
  // and2/and3 sets, where the windows cost 3-5% more instructions than they
  // saved: docs/benchmarks-search.md).
  bool SparseConjunction() const {
    constexpr uint64_t kMinWindowCandidates = 8;
    constexpr uint64_t kBlockDocs = 128;  // the postings' impact blocks
    return required_[0]->cost() * kBlockDocs < uint64_t{max_doc_} * kMinWindowCandidates;
  }

  // Sparse conjunctions: the lead's (rarest clause's) docs whose score
  // cannot compete with the other scoring clauses' whole-term bounds
  // (MaxScore) added are passed over in the lead, before any other clause
  // is advanced to them; no windows. -1 (none) if the lead does not score
  // or a bound is unknown.
  float LeadFloor() {
    if (std::find_if(scoring_.begin(), scoring_.end(), [this](const ScorerPtr& s) {
          return s.get() == required_[0];
        }) == scoring_.end()) {
      return -1.0f;
    }
    double rest = 0;
    for (auto& s : scoring_) {
      if (s.get() != required_[0]) rest += s->MaxScore();
    }
    const float floor = EssentialFloor(rest);
    // As for a disjunction's essential clause: only a floor above half the
    // lead's bound passes over enough of its docs to pay.
    return floor > 0.5f * required_[0]->MaxScore() ? floor : -1.0f;
  }

  bool Excluded(uint32_t candidate) {
    for (auto& p : prohibited_) {
      if (p->Advance(candidate) == candidate) return true;
    }
    return false;
  }

  uint32_t Found(uint32_t candidate) {
    std::sort(matched_.begin(), matched_.end());
    scores_cached_ = true;
    return doc_ = candidate;
  }

  // Pure disjunction (no must or filter clause).
  uint32_t AdvanceShouldsPruned(uint32_t target) {
    for (;;) {
      if (!window_valid_ || target > window_upto_) ComputeWindow(target);
      if (NotCompetitive(prefix_.back())) {  // nothing in the window can compete
        if (window_upto_ == kNoMoreDocs) return doc_ = kNoMoreDocs;
        target = window_upto_ + 1;
        continue;
      }
      uint32_t candidate = kNoMoreDocs;
      if (window_floor_ >= 0) {
        // One essential clause: its docs in the window that cannot compete
        // with every other clause's bound added are passed over in it.
        candidate = shoulds_[order_.back()]->AdvanceAbove(target, window_upto_, window_floor_);
      } else {
        for (size_t j = first_essential_; j < order_.size(); ++j) {
          candidate = std::min(candidate, shoulds_[order_[j]]->Advance(target));
        }
      }
      if (candidate == kNoMoreDocs || candidate > window_upto_) {
        // The rest of the window matches non-essential clauses only.
        if (window_upto_ == kNoMoreDocs) return doc_ = kNoMoreDocs;
        target = window_upto_ + 1;
        continue;
      }
      matched_.clear();
      double score = 0;
      for (size_t j = first_essential_; j < order_.size(); ++j) {
        const size_t i = order_[j];
        if (shoulds_[i]->doc() != candidate) continue;
        matched_.push_back(i);
        should_scores_[i] = shoulds_[i]->Score();
        score += should_scores_[i];
      }
      if (AddShoulds(candidate, first_essential_, score) && !Excluded(candidate)) {
        return Found(candidate);
      }
      target = candidate + 1;
    }
  }

  // Must/filter clauses, and should clauses that add to the score (or of
  // which needed_ must match).
  uint32_t AdvanceRequiredPruned(uint32_t target) {
    for (;;) {
      if (!window_valid_ || target > window_upto_) ComputeWindow(target);
      if (NotCompetitive(window_required_ + prefix_.back())) {
        if (window_upto_ == kNoMoreDocs) return doc_ = kNoMoreDocs;
        target = window_upto_ + 1;
        continue;
      }
      const uint32_t candidate = RequiredAtOrAfter(target);
      if (candidate == kNoMoreDocs) return doc_ = kNoMoreDocs;
      if (candidate > window_upto_) {  // nothing matches before it: its window next
        target = candidate;
        continue;
      }
      double score = 0;
      for (size_t i = 0; i < scoring_.size(); ++i) {
        req_scores_[i] = scoring_[i]->Score();
        score += req_scores_[i];
      }
      matched_.clear();
      if (AddShoulds(candidate, order_.size(), score) && !Excluded(candidate)) {
        return Found(candidate);
      }
      target = candidate + 1;
    }
  }

  // Heap order: the cursor on the smallest document on top.
  struct HeapAfter {
    const BooleanScorer* self;
    bool operator()(size_t a, size_t b) const {
      return self->shoulds_[a]->doc() > self->shoulds_[b]->doc();
    }
  };

  // The first document >= target that every required cursor is on.
  // (Sparse conjunctions under a threshold: the lead passes over the docs
  // below lead_floor_.) Where every required clause is a term of this
  // segment (direct_), their postings cursors leap-frog themselves, with no
  // virtual call and no deleted-doc check per move (most moves land on docs
  // the clauses do not all hold), and the clause scorers are brought to
  // where the cursors stopped before anything else asks them.
  uint32_t RequiredAtOrAfter(uint32_t target) {
    if (direct_ && lead_floor_ < 0) {
      const uint32_t doc = CursorsAtOrAfter(target);
      for (DocScorer* r : required_) r->SyncToCursor();
      return doc;
    }
    DocScorer& lead = *required_[0];
    auto advance_lead = [this, &lead](uint32_t t) {
      return lead_floor_ >= 0 ? lead.AdvanceAbove(t, kNoMoreDocs, lead_floor_) : lead.Advance(t);
    };
    uint32_t doc = advance_lead(target);
    for (;;) {
      if (doc == kNoMoreDocs) return doc;
      bool all = true;
      for (size_t i = 1; i < required_.size(); ++i) {
        const uint32_t d = required_[i]->Advance(doc);
        if (d != doc) {
          doc = d == kNoMoreDocs ? d : advance_lead(d);
          all = false;
          break;
        }
      }
      if (all) return doc;
    }
  }

  // RequiredAtOrAfter on the cursors (direct_), which alone are moved: a
  // deleted common doc is passed over here, once, where the enums would pass
  // over deleted docs term by term (the same common docs). As
  // PhraseScorer's walk over its terms' cursors, without its `upto` (inlining
  // one shared walk cost the phrase classes 1-3% more instructions).
  uint32_t CursorsAtOrAfter(uint32_t target) {
    PostingsCursor& lead = *direct_cursors_[0];
    const size_t n = direct_cursors_.size();
    for (;;) {
      if (!lead.Advance(target)) return kNoMoreDocs;
      uint32_t doc = lead.doc();
      size_t i = 1;
      while (i < n) {
        PostingsCursor& c = *direct_cursors_[i];
        if (!c.Advance(doc)) return kNoMoreDocs;
        if (c.doc() == doc) {
          ++i;
          continue;
        }
        // Past doc: the lead catches up and the others are asked again.
        if (!lead.Advance(c.doc())) return kNoMoreDocs;
        doc = lead.doc();
        i = 1;
      }
      if (live_ == nullptr || doc >= live_->doc_count() || live_->IsLive(doc)) return doc;
      if (doc == kNoMoreDocs - 1) return kNoMoreDocs;
      target = doc + 1;
    }
  }

  // Moves the should cursors before `target` to it; the smallest document.
  uint32_t ShouldsAtOrAfter(uint32_t target) {
    HeapAfter after{this};
    while (!heap_.empty() && shoulds_[heap_.front()]->doc() < target) {
      std::pop_heap(heap_.begin(), heap_.end(), after);
      shoulds_[heap_.back()]->Advance(target);
      std::push_heap(heap_.begin(), heap_.end(), after);
    }
    return heap_.empty() ? kNoMoreDocs : shoulds_[heap_.front()]->doc();
  }

  // Adds the heap entries on `doc` in the subtree at `i` to matched_.
  void CollectHeapAt(size_t i, uint32_t doc) {
    if (i >= heap_.size() || shoulds_[heap_[i]]->doc() != doc) return;
    matched_.push_back(heap_[i]);
    CollectHeapAt(2 * i + 1, doc);
    CollectHeapAt(2 * i + 2, doc);
  }

  std::vector<ScorerPtr> scoring_, filters_, shoulds_, prohibited_;
  std::vector<DocScorer*> required_;  // scoring_ and filters_, by cost
  size_t needed_;                     // should clauses that must match
  uint32_t max_doc_;                  // the segment's
  const LiveDocs* live_;              // the segment's live docs (null: all live)
  // direct_: every required clause has a DirectCursor, direct_cursors_ (in
  // required_'s order), and the segment is invert's own.
  bool direct_ = false;
  std::vector<PostingsCursor*> direct_cursors_;
  std::vector<size_t> heap_;     // indexes into shoulds_
  std::vector<size_t> matched_;  // should clauses on doc_

  // Pruning.
  bool pruning_ = false;
  float min_competitive_ = 0;
  bool scores_cached_ = false;        // req_scores_ and should_scores_ hold doc_'s
  std::vector<float> req_scores_;     // per scoring_ clause
  std::vector<float> should_scores_;  // per should clause (those in matched_)
  float block_max_ = kUnboundedScore;
  bool window_valid_ = false;
  uint32_t window_upto_ = 0;
  double window_required_ = 0;
  std::vector<float> bound_;    // per should clause, in the window
  std::vector<size_t> order_;   // should clauses by bound_ ascending
  std::vector<double> prefix_;  // prefix_[j]: sum of bound_ of order_[0, j)
  size_t first_essential_ = 0;  // disjunctions: order_[first_essential_, end) are essential
  // Sparse conjunctions under a threshold: LeadFloor(); else -1.
  float lead_floor_ = -1.0f;
  // Pure disjunctions with one essential clause (order_.back()):
  // EssentialFloor of the window's non-essential bounds, where it is worth
  // AdvanceAbove (ComputeWindow); else -1.
  float window_floor_ = -1.0f;
  // Pure disjunctions: the should clause with the most docs, whose windows
  // are its coarse ranges (whole groups of 8 blocks); none: SIZE_MAX.
  size_t coarse_ = SIZE_MAX;
};

class BooleanWeight final : public Weight {
 public:
  BooleanWeight(BooleanWeights clauses, std::string description)
      : c_(std::move(clauses)), description_(std::move(description)) {}

  absl::StatusOr<std::unique_ptr<DocScorer>> MakeScorer(const LeafReader& leaf) const override {
    std::vector<ScorerPtr> must, filter, should, must_not;
    for (const auto& w : c_.must) {
      absl::StatusOr<ScorerPtr> s = w->MakeScorer(leaf);
      if (!s.ok()) return s.status();
      if (*s == nullptr) return nullptr;
      must.push_back(*std::move(s));
    }
    for (const auto& w : c_.filter) {
      absl::StatusOr<ScorerPtr> s = w->MakeScorer(leaf);
      if (!s.ok()) return s.status();
      if (*s == nullptr) return nullptr;
      filter.push_back(*std::move(s));
    }
    for (const auto* list : {&c_.should, &c_.must_not}) {
      for (const auto& w : *list) {
        absl::StatusOr<ScorerPtr> s = w->MakeScorer(leaf);
        if (!s.ok()) return s.status();
        if (*s == nullptr) continue;
        (list == &c_.should ? should : must_not).push_back(*std::move(s));
      }
    }
    size_t msm = c_.minimum_should_match;
    if (should.size() == msm) {  // exactly enough: they are required here
      for (auto& s : should) must.push_back(std::move(s));
      should.clear();
      msm = 0;
    }
    if (must.empty() && filter.empty() && should.empty()) return nullptr;
    const size_t needed = must.empty() && filter.empty() ? std::max<size_t>(msm, 1) : msm;
    if (should.size() < needed) return nullptr;
    auto* leaf_impl = dynamic_cast<const LeafReaderImpl*>(&leaf);
    return std::make_unique<BooleanScorer>(
        std::move(must), std::move(filter), std::move(should), std::move(must_not), needed,
        leaf.max_doc(), leaf_impl != nullptr ? leaf_impl->live_docs().get() : nullptr,
        leaf_impl != nullptr);
  }
  std::string Describe() const override { return description_; }

 private:
  BooleanWeights c_;
  std::string description_;
};

}  // namespace

std::unique_ptr<Weight> NewBooleanWeight(BooleanWeights clauses, std::string description) {
  if (clauses.must.empty() && clauses.filter.empty() && clauses.should.empty()) {
    return NewMatchNoneWeight(std::move(description));
  }
  return std::make_unique<BooleanWeight>(std::move(clauses), std::move(description));
}

}  // namespace invert::search_internal

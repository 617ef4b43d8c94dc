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
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "search/weight.h"

namespace invert::search_internal {
namespace {

using ScorerPtr = std::unique_ptr<DocScorer>;

class BooleanScorer final : public DocScorer {
 public:
  BooleanScorer(std::vector<ScorerPtr> scoring, std::vector<ScorerPtr> filters,
                std::vector<ScorerPtr> shoulds, std::vector<ScorerPtr> prohibited, size_t needed)
      : scoring_(std::move(scoring)),
        filters_(std::move(filters)),
        shoulds_(std::move(shoulds)),
        prohibited_(std::move(prohibited)),
        needed_(needed) {
    for (auto& s : scoring_) required_.push_back(s.get());
    for (auto& s : filters_) required_.push_back(s.get());
    std::stable_sort(required_.begin(), required_.end(),
                     [](DocScorer* a, DocScorer* b) { return a->cost() < b->cost(); });
  }

  uint32_t NextDoc() override {
    if (started_ && doc_ == kNoMoreDocs) return doc_;
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
    for (auto& s : scoring_) required += s->Score();
    double optional = 0;
    for (size_t i : matched_) optional += shoulds_[i]->Score();
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

 private:
  // Heap order: the cursor on the smallest document on top.
  struct HeapAfter {
    const BooleanScorer* self;
    bool operator()(size_t a, size_t b) const {
      return self->shoulds_[a]->doc() > self->shoulds_[b]->doc();
    }
  };

  // The first document >= target that every required cursor is on.
  uint32_t RequiredAtOrAfter(uint32_t target) {
    uint32_t doc = required_[0]->Advance(target);
    for (;;) {
      if (doc == kNoMoreDocs) return doc;
      bool all = true;
      for (size_t i = 1; i < required_.size(); ++i) {
        const uint32_t d = required_[i]->Advance(doc);
        if (d != doc) {
          doc = d == kNoMoreDocs ? d : required_[0]->Advance(d);
          all = false;
          break;
        }
      }
      if (all) return doc;
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
  std::vector<size_t> heap_;          // indexes into shoulds_
  std::vector<size_t> matched_;       // should clauses on doc_
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
    return std::make_unique<BooleanScorer>(std::move(must), std::move(filter), std::move(should),
                                           std::move(must_not), needed);
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

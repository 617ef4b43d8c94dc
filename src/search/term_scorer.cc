// TermWeight and TermScorer: one term's postings scored with BM25.
//
// Bounds for pruning come from the postings' impacts (codec/impacts.h),
// scored with the term's own Bm25Scorer (exact bounds: search/prune.h):
// MaxScore() from the whole term's frontier (PostingsCursor::TermImpacts),
// BlockMaxScore() from the 128-doc block AdvanceShallow lands in (or the
// group of 8 blocks AdvanceShallowCoarse lands on, by its level-1 impacts). Without
// block impacts (a .doc of version 1, a docs-only field, a term of < 128
// docs, past the last full block) the cursor answers with the term-level
// pair (max freq, norm 0), which bounds every document. A segment whose
// norms file is version 1 (flushed by an older build) has impacts made of
// version-1 norm bytes while Norm() reads translated version-2 bytes: its
// impacts are ignored and only that term-level pair is used, whatever the
// norms say. Once pruning, NextDoc/Advance skip whole blocks whose bound is
// not competitive (Lucene's ImpactsDISI), bounding and skipping them in one
// walk over the skip headers (PostingsCursor::AdvanceFiltered), 8 blocks at
// once where a group's level-1 impacts are not competitive (.doc version 3):
// Judge's bound is monotonic in each pair, as the cursor requires. Inside a
// block that passes, a doc whose own score is not competitive is passed over
// too (DocScorer's contract allows skipping any doc scoring <= the minimum):
// the collector sees only docs that can enter the top k.
#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/impacts.h"
#include "index/leaf_reader_impl.h"
#include "index/terms_enum_impl.h"
#include "search/prune.h"
#include "search/weight.h"

namespace invert::search_internal {
namespace {

class TermScorer final : public DocScorer, private PostingsCursor::BlockFilter {
 public:
  TermScorer(std::unique_ptr<PostingsEnum> postings, const LeafReader& leaf,
             const std::string& field, const Bm25Part& sim, const std::string& description)
      : postings_(std::move(postings)),
        leaf_(leaf),
        field_(field),
        sim_(sim),
        description_(description) {
    impl_ = dynamic_cast<PostingsEnumImpl*>(postings_.get());
    if (Bm25Monotonic(sim_.params)) {
      if (impl_ != nullptr) cursor_ = &impl_->cursor();
      auto* leaf_impl = dynamic_cast<const LeafReaderImpl*>(&leaf_);
      block_impacts_ = cursor_ != nullptr && cursor_->has_impacts() && leaf_impl != nullptr &&
                       leaf_impl->segment()->norms_version() >= 2;
      filtered_ = block_impacts_ && sim_.scorer.weight() >= 0;
    }
  }

  uint32_t NextDoc() override {
    if (exhausted()) return doc_;
    if (pruning_) return AdvancePruned(started_ ? doc_ + 1 : 0);
    started_ = true;
    return doc_ = impl_ != nullptr ? impl_->NextDoc() : postings_->NextDoc();
  }
  uint32_t Advance(uint32_t target) override {
    if (started_ && doc_ >= target) return doc_;
    if (pruning_) return AdvancePruned(target);
    started_ = true;
    return doc_ = impl_ != nullptr ? impl_->Advance(target) : postings_->Advance(target);
  }
  float Score() override {
    if (scored_doc_ == doc_) return scored_;  // the pruned walk's, on this doc
    return sim_.scorer.Score(static_cast<float>(Freq()), Norm());
  }
  Explanation Explain() override {
    const float freq = static_cast<float>(postings_->freq());
    const uint8_t norm = Norm();
    const float score = sim_.scorer.Score(freq, norm);
    return {true,
            score,
            absl::StrCat("weight(", description_, " in ", doc_, ") [BM25], result of:"),
            {sim_.Explain(score, freq, "freq, occurrences of term within document", norm)}};
  }
  uint64_t cost() const override { return postings_->cost(); }
  absl::Status status() const override {
    if (!status_.ok()) return status_;
    return postings_->status();
  }

  float MaxScore() override {
    if (!max_score_known_) {
      max_score_known_ = true;
      max_score_ = kUnboundedScore;
      if (cursor_ != nullptr) {
        std::vector<Impact> impacts;
        if (!block_impacts_ || !cursor_->TermImpacts(&impacts)) {
          impacts.assign(1, cursor_->TermImpactBound());
        }
        max_score_ = Bound(impacts);
      }
    }
    return max_score_;
  }
  uint32_t AdvanceShallow(uint32_t target) override { return Shallow(target, false); }
  uint32_t AdvanceShallowCoarse(uint32_t target) override { return Shallow(target, true); }
  float BlockMaxScore() override { return block_max_; }
  void SetMinCompetitiveScore(float score) override {
    min_competitive_ = score;
    pruning_ = cursor_ != nullptr;
  }
  PostingsCursor* DirectCursor() override {
    return impl_ != nullptr && !pruning_ ? &impl_->cursor() : nullptr;
  }
  void SyncToCursor() override {
    if (impl_ == nullptr || !impl_->cursor().started()) return;
    started_ = true;
    doc_ = impl_->SyncToCursor();
  }
  // The docs of the range scored in this loop, through the final postings
  // class (a virtual call and the caller's loop per passed-over doc cost
  // several times the score); the score of the doc returned is kept for
  // Score().
  uint32_t AdvanceAbove(uint32_t target, uint32_t upto, float floor) override {
    if (pruning_ || impl_ == nullptr) return Advance(target);
    uint32_t doc = Advance(target);
    while (doc <= upto && doc != kNoMoreDocs) {
      const float score = sim_.scorer.Score(static_cast<float>(impl_->freq()), Norm());
      if (score > floor) {
        scored_doc_ = doc;
        scored_ = score;
        return doc;
      }
      doc = doc_ = impl_->NextDoc();
    }
    return doc;
  }

 private:
  // AdvanceShallow; `whole_groups`: the cursor's whole-group ranges.
  uint32_t Shallow(uint32_t target, bool whole_groups) {
    if (exhausted()) {
      block_max_ = 0;
      return kNoMoreDocs;
    }
    if (started_ && target < doc_) target = doc_;  // the cursor's REQUIRES
    if (at_tail_ || (shallow_upto_ != kNoMoreDocs && target <= shallow_upto_)) {
      return shallow_upto_;  // at_tail_: the rest of the term, bounded once
    }
    if (!block_impacts_) {
      block_max_ = MaxScore();
      return shallow_upto_ = kNoMoreDocs;
    }
    shallow_upto_ = cursor_->AdvanceShallow(target, whole_groups);
    if (shallow_upto_ != kNoMoreDocs) {
      // A full block: its impacts are dominated by the term's frontier, so
      // their bound is already <= MaxScore().
      block_max_ = Bound(cursor_->impacts());
      return shallow_upto_;
    }
    // Past the full blocks the cursor's bound is the loose term-level pair:
    // the tail's own bound if the cursor has it (no walk over every header
    // of the term as MaxScore's frontier needs), else the term's.
    at_tail_ = true;
    Impact tail;
    if (cursor_->TailImpact(&tail)) {
      block_max_ = std::min(Bound({&tail, 1}), Bound(cursor_->impacts()));
    } else {
      block_max_ = std::min(Bound(cursor_->impacts()), MaxScore());
    }
    return shallow_upto_;
  }

  // The largest score of a pair of `impacts`: >= the score of every
  // document they cover (prune.h). A field without norms scores norm 1.
  // With a weight >= 0 the score grows with freq * inverse_norm: the
  // largest product gives the largest score, with one division
  // (Bm25Scorer::ScoreOfProduct; the same floats as Score).
  float Bound(std::span<const Impact> impacts) const {
    const Bm25Scorer& scorer = sim_.scorer;
    if (scorer.weight() >= 0) {
      float best_product = 0;
      for (const Impact& i : impacts) {
        const uint8_t norm = sim_.norms ? i.norm : uint8_t{1};
        best_product =
            std::max(best_product, static_cast<float>(i.freq) * scorer.inverse_norm(norm));
      }
      return std::max(0.0f, scorer.ScoreOfProduct(best_product));
    }
    float best = 0;
    for (const Impact& i : impacts) {
      const uint8_t norm = sim_.norms ? i.norm : uint8_t{1};
      best = std::max(best, scorer.Score(static_cast<float>(i.freq), norm));
    }
    return best;
  }

  // Judge, for the cursor's AdvanceFiltered: Bound() of the block's pairs,
  // folded as they are decoded (the same floats: the largest product, then
  // one ScoreOfProduct), against the minimum competitive score.
  Verdict Judge(const uint8_t* impacts, const uint8_t* end) override {
    const Bm25Scorer& scorer = sim_.scorer;
    const bool norms = sim_.norms;
    float best_product = 0;
    const bool ok = ForEachImpact(impacts, end, [&](uint32_t freq, uint8_t norm) {
      best_product =
          std::max(best_product, static_cast<float>(freq) * scorer.inverse_norm(norms ? norm : 1));
    });
    if (!ok) return Verdict::kCorrupt;
    const float bound = std::max(0.0f, scorer.ScoreOfProduct(best_product));
    return bound > min_competitive_ ? Verdict::kDecode : Verdict::kSkip;
  }

  // The first match >= target in a block whose bound is competitive. With
  // block impacts and a weight >= 0 (Judge's monotonic bound), one walk of
  // the cursor over the skip headers bounds and skips the blocks; else
  // AdvanceShallow's ranges are bounded first, then advanced into.
  uint32_t AdvancePruned(uint32_t target) {
    started_ = true;
    if (filtered_) {
      // Blocks by their bound (Judge), then, inside a block that passes,
      // docs by their own score: a doc scoring <= the minimum is never
      // handed to the collector (most docs of a competitive block are
      // not competitive themselves). The score of the doc returned is kept
      // for Score().
      for (;;) {
        doc_ = impl_->AdvanceFiltered(target, *this);
        if (doc_ == kNoMoreDocs) return doc_;
        const float score = sim_.scorer.Score(static_cast<float>(impl_->freq()), Norm());
        if (score > min_competitive_) {
          scored_doc_ = doc_;
          scored_ = score;
          return doc_;
        }
        target = doc_ + 1;
      }
    }
    for (;;) {
      const uint32_t upto = AdvanceShallow(target);
      if (block_max_ <= min_competitive_) {
        if (upto == kNoMoreDocs) return doc_ = kNoMoreDocs;
        target = upto + 1;
        continue;
      }
      doc_ = postings_->Advance(target);
      if (doc_ <= upto || doc_ == kNoMoreDocs) return doc_;
      target = doc_;  // landed in a later block: check its bound
    }
  }

  // The postings' calls through the final class where it is invert's own
  // (no virtual dispatch per document).
  uint32_t Freq() const { return impl_ != nullptr ? impl_->freq() : postings_->freq(); }

  uint8_t Norm() {
    if (doc_ < norm_bytes_.size()) return norm_bytes_[doc_];
    absl::StatusOr<uint8_t> norm = sim_.Norm(leaf_, field_, doc_);
    if (norm.ok()) return *norm;
    if (status_.ok()) status_ = norm.status();
    return 1;
  }

  std::unique_ptr<PostingsEnum> postings_;
  const LeafReader& leaf_;
  const std::string& field_;
  const Bm25Part& sim_;
  const std::string& description_;
  std::span<const uint8_t> norm_bytes_ = sim_.NormBytes(leaf_, field_);  // empty: Norm's lookups
  absl::Status status_;
  PostingsEnumImpl* impl_ = nullptr;  // postings_, if invert's own
  // Pruning state; cursor_ is null when the postings are not invert's own
  // or BM25's parameters make it non-monotonic (then nothing is bounded).
  PostingsCursor* cursor_ = nullptr;
  bool block_impacts_ = false;
  bool filtered_ = false;  // AdvancePruned through AdvanceFiltered (Judge)
  bool max_score_known_ = false;
  float max_score_ = kUnboundedScore;
  uint32_t shallow_upto_ = kNoMoreDocs;  // kNoMoreDocs: no range yet, or the last one
  bool at_tail_ = false;                 // the last range (to the end) was bounded
  float block_max_ = kUnboundedScore;
  bool pruning_ = false;
  float min_competitive_ = 0;
  // The score AdvancePruned computed, and its doc (kNoMoreDocs: none).
  uint32_t scored_doc_ = kNoMoreDocs;
  float scored_ = 0;
};

class TermWeight final : public Weight {
 public:
  TermWeight(std::string field, std::string term, FieldType type, std::unique_ptr<Bm25Part> sim,
             std::string description)
      : field_(std::move(field)),
        term_(std::move(term)),
        type_(type),
        sim_(std::move(sim)),
        description_(std::move(description)) {}

  absl::StatusOr<std::unique_ptr<DocScorer>> MakeScorer(const LeafReader& leaf) const override {
    const uint32_t flags = HasFreqs(type_.index_options) ? kPostingsFreqs : kPostingsDocs;
    absl::StatusOr<std::unique_ptr<PostingsEnum>> postings = leaf.Postings(field_, term_, flags);
    if (!postings.ok()) return postings.status();
    if (*postings == nullptr) return nullptr;
    return std::make_unique<TermScorer>(*std::move(postings), leaf, field_, *sim_, description_);
  }
  std::string Describe() const override { return description_; }

 private:
  std::string field_;
  std::string term_;
  FieldType type_;
  std::unique_ptr<Bm25Part> sim_;
  std::string description_;
};

}  // namespace

std::unique_ptr<Weight> NewTermWeight(std::string field, std::string term, FieldType type,
                                      std::unique_ptr<Bm25Part> sim, std::string description) {
  return std::make_unique<TermWeight>(std::move(field), std::move(term), type, std::move(sim),
                                      std::move(description));
}

}  // namespace invert::search_internal

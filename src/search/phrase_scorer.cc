// PhraseWeight and PhraseScorer: the documents holding every phrase term
// (a leap-frog conjunction of their postings), kept when the phrase
// frequency of their positions (search/phrase_freq.h) is above 0.
//
// Bounds for pruning (search/doc_scorer.h, prune.h) come from the terms'
// impacts, as Lucene 8.8 builds a phrase's impacts from its terms'. For a
// document d with norm byte n, let F_i(n) be the largest freq of a pair of
// term i's impacts with norm <= n: every document of the range holding term
// i has freq_i(d) <= F_i(n(d)) (impacts cover their range, codec/impacts.h).
//
//   Exact: a match is a place where every term occurs, so the phrase freq
//   is <= min_i freq_i(d) <= G(n) = min_i F_i(n).
//
//   Sloppy: freq = the sum over the walk's matches of 1 / (1 + length),
//   each term <= 1, so freq <= M, the number of matches. The walk (see
//   phrase_freq.cc) moves cursors only by Step, each consuming one of its
//   term's positions: at most sum_i freq_i(d) steps in all, of which Start
//   takes at least one per cursor (T cursors, one per phrase term). Each
//   match NextMatch returns from inside its loop follows a successful Step
//   made in that call after the previous match, and at most one match
//   (the last) is returned when a cursor runs out. So
//   M <= sum_i freq_i(d) - T + 1 <= G(n) = sum_i F_i(n) - T + 1. (Not
//   min_i: "a b"~3 in "b a b b" walks to two matches, 1 + 1/2, with one
//   "a". Lucene 8.8 gives sloppy phrases no impacts at all.)
//
//   Sloppy, two different terms a and b (SloppyPairFreq's walk), also
//   M <= 2 min(freq_a, freq_b): a match is counted either when the popped
//   cursor passes `next` (a pass) or once, when a cursor runs out. After a
//   pass by one cursor it stands past the other, which is popped next, so
//   passes alternate between the two cursors; each takes a Step of the
//   cursor passing, and a cursor steps at most freq - 1 times after Start.
//   So passes <= 2 min(freq_a - 1, freq_b - 1) + 1, and M <= that + 1 =
//   2 min(freq_a, freq_b). G is the smaller of the two bounds; it still
//   grows with each freq, as the walk over norms below needs. (A phrase of
//   two frequent words where one occurs a few times in a document and the
//   other many: the sum bound reads the positions of nearly every common
//   document, this one of few.)
//
// In float: the freq is a float sum of 1s (exact) or of terms <= 1, whose
// partial sums stay <= the integer count (round-to-nearest is monotonic and
// integers below 2^24 are floats), so freq <= float(G) (rounded up). Score
// is monotonic in freq * inverse_norm(n) when the weight is >= 0 (prune.h,
// Bm25Scorer::ScoreOfProduct), inverse_norm does not grow with n and G is
// a step function of n that changes only at the norms of the impacts, so
// the largest float(G(N)) * inverse_norm(N) over those norms N gives a
// float bound of every document's Score, roundings included. A field without
// norms scores norm 1: G of the terms' largest freqs then.
//
// The range is one where every term's impacts hold: up to the smallest of
// the terms' AdvanceShallow answers. Where a term has no block impacts (or
// the segment's norms are version 1: its impacts' norm bytes are not the
// ones Score reads, as for TermScorer) only its term-level pair (max freq,
// norm 0) is used, which bounds every document. Once pruning, NextDoc and
// Advance skip whole ranges whose bound is not competitive before the
// conjunction looks at them (Lucene's ImpactsDISI over the approximation),
// and a common document whose own bound (G of its terms' freqs in it, at
// its norm) is not competitive before its positions are read, and one whose
// exact score is not competitive after (never handed to the collector). In
// an exact phrase G <= the lead's freq, so a doc of the lead whose freq
// alone cannot compete is passed over before the other cursors move (LeadTo).
//
// Without pruning too, an exact phrase of three or more terms whose
// commonest term is in at least half the documents reads the other terms'
// positions before moving that term's cursor (CursorsAtOrAfterDeferring).
#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/live_docs_format.h"
#include "index/leaf_reader_impl.h"
#include "index/terms_enum_impl.h"
#include "search/phrase_freq.h"
#include "search/prune.h"
#include "search/weight.h"

namespace invert::search_internal {
namespace {

class PhraseScorer final : public DocScorer {
 public:
  PhraseScorer(std::vector<std::unique_ptr<PostingsEnum>> postings, std::vector<int32_t> offsets,
               std::vector<int32_t> term_ids, uint32_t slop, const LeafReader& leaf,
               const std::string& field, const Bm25Part& sim, const std::string& description)
      : postings_(std::move(postings)),
        slop_(slop),
        leaf_(leaf),
        field_(field),
        sim_(sim),
        description_(description),
        positions_(postings_.size()),
        terms_(postings_.size()),
        by_freq_(postings_.size()) {
    for (size_t i = 0; i < terms_.size(); ++i) {
      terms_[i].offset = offsets[i];
      terms_[i].term_id = term_ids[i];
    }
    // invert's own postings are read through their cursors for positions
    // (Frequency): no virtual call and no enum bookkeeping per position.
    for (const auto& p : postings_) {
      auto* impl = dynamic_cast<PostingsEnumImpl*>(p.get());
      cursors_.push_back(impl != nullptr ? &impl->cursor() : nullptr);
    }
    all_cursors_ = std::find(cursors_.begin(), cursors_.end(), nullptr) == cursors_.end();
    distinct_pair_ = terms_.size() == 2 && terms_[0].term_id != terms_[1].term_id;
    // The rarest term leads the conjunction.
    for (size_t i = 0; i < postings_.size(); ++i) order_.push_back(i);
    std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      return postings_[a]->cost() < postings_[b]->cost();
    });
    // Bounds need every term's cursor, and a weight >= 0 (Score monotonic
    // in freq * inverse_norm).
    bounded_ = Bm25Monotonic(sim_.params) && sim_.scorer.weight() >= 0 && all_cursors_;
    auto* leaf_impl = dynamic_cast<const LeafReaderImpl*>(&leaf_);
    // invert's own postings of an invert segment: the conjunction moves the
    // cursors itself and checks the live docs once per common doc (not each
    // enum per doc it lands on), with no virtual call.
    direct_ = leaf_impl != nullptr && all_cursors_;
    if (direct_) live_ = leaf_impl->live_docs().get();
    // An exact phrase of three or more terms whose commonest term is in at
    // least half the segment's documents: that term rarely rules a document
    // out, and moving it to each document the others share decodes one of
    // its blocks nearly every time. Its cursor is moved only once the other
    // terms' positions hold the phrase without it (CursorsAtOrAfter), which
    // most documents they share do not (CursorsAtOrAfterDeferring).
    defer_commonest_ = direct_ && slop_ == 0 && order_.size() >= 3 &&
                       postings_[order_.back()]->cost() * 2 >= uint64_t{leaf_.max_doc()};
    if (bounded_) {
      block_impacts_ = leaf_impl != nullptr && leaf_impl->segment()->norms_version() >= 2;
      for (PostingsCursor* c : cursors_) block_impacts_ = block_impacts_ && c->has_impacts();
      ranges_.resize(cursors_.size());
    }
  }

  uint32_t NextDoc() override {
    if (started_ && doc_ == kNoMoreDocs) return doc_;
    return Advance(started_ ? doc_ + 1 : 0);
  }
  uint32_t Advance(uint32_t target) override {
    if (started_ && doc_ >= target) return doc_;
    started_ = true;
    if (pruning_) return slop_ == 0 ? AdvancePruned<true>(target) : AdvancePruned<false>(target);
    for (;;) {
      doc_ = AllAtOrAfter<false>(target, kNoMoreDocs);
      if (doc_ == kNoMoreDocs) return doc_;
      freq_ = Frequency();
      if (freq_ > 0) return doc_;
      target = doc_ + 1;
    }
  }
  float Score() override {
    if (scored_doc_ == doc_) return scored_;  // the pruned walk's, on this doc
    return sim_.scorer.Score(freq_, Norm());
  }
  Explanation Explain() override {
    const uint8_t norm = Norm();
    const float score = sim_.scorer.Score(freq_, norm);
    return {
        true,
        score,
        absl::StrCat("weight(", description_, " in ", doc_, ") [BM25], result of:"),
        {sim_.Explain(score, freq_, "phraseFreq, frequency of the phrase in the document", norm)}};
  }
  uint64_t cost() const override { return postings_[order_[0]]->cost(); }
  absl::Status status() const override {
    if (!status_.ok()) return status_;
    for (const auto& p : postings_) {
      if (!p->status().ok()) return p->status();
    }
    return absl::OkStatus();
  }

  float MaxScore() override {
    if (!max_score_known_) {
      max_score_known_ = true;
      max_score_ = kUnboundedScore;
      if (bounded_) {
        std::vector<std::vector<Impact>> lists(cursors_.size());
        for (size_t i = 0; i < cursors_.size(); ++i) {
          if (!block_impacts_ || !cursors_[i]->TermImpacts(&lists[i])) {
            lists[i].assign(1, cursors_[i]->TermImpactBound());
          }
          // TermImpacts appends the tail's pair after the blocks' frontier.
          std::sort(lists[i].begin(), lists[i].end(),
                    [](const Impact& a, const Impact& b) { return a.norm < b.norm; });
        }
        std::vector<std::span<const Impact>> spans(lists.begin(), lists.end());
        max_score_ = Bound(spans);
      }
    }
    return max_score_;
  }
  uint32_t AdvanceShallow(uint32_t target) override {
    if (exhausted() || !bounded_) {
      block_max_ = exhausted() ? 0 : kUnboundedScore;
      return kNoMoreDocs;
    }
    if (!block_impacts_) {
      block_max_ = MaxScore();
      return kNoMoreDocs;
    }
    if (shallow_upto_valid_ && target <= shallow_upto_) return shallow_upto_;
    uint32_t upto = kNoMoreDocs;
    for (size_t i = 0; i < cursors_.size(); ++i) {
      PostingsCursor& c = *cursors_[i];
      TermRange& r = ranges_[i];
      if (!r.valid || (!r.at_tail && target > r.upto)) {
        // The cursor's REQUIRES: targets >= its doc. A term whose cursor is
        // past target has no document in [target, its doc) that this scorer
        // can still return: none at all, or (the lead, LeadTo) only docs it
        // passed over as unable to compete, which stay so because the
        // minimum never decreases (DocScorer::SetMinCompetitiveScore). A
        // caller bounding the phrase per call below that minimum would
        // break this.
        if (c.doc() == kNoMoreDocs) {
          block_max_ = 0;  // a term has no more documents: nor has the phrase
          return shallow_upto_ = kNoMoreDocs;
        }
        r.valid = true;
        // Whole groups of 8 blocks where the walk reaches one: ranges 8
        // times longer with looser bounds, as the disjunction's densest
        // clause takes them. A phrase pays per range (every term's impacts
        // read, the walk over norms in Bound) more than the tighter bound
        // saves: callgrind over the 50 bench queries, phrase2 -5.2% and
        // sloppy -6.2% instructions against block ranges.
        r.upto = c.AdvanceShallow(std::max(target, c.doc()), /*whole_groups=*/true);
        r.impacts = c.impacts();
        if (r.upto == kNoMoreDocs) {
          // The rest of the term: its tail's own pair if the cursor has it
          // (tighter than impacts()' term-level pair), bounded once.
          r.at_tail = true;
          if (c.TailImpact(&r.tail)) r.impacts = {&r.tail, 1};
        }
      }
      upto = std::min(upto, r.upto);
    }
    spans_.clear();
    for (const TermRange& r : ranges_) spans_.push_back(r.impacts);
    block_max_ = Bound(spans_);
    shallow_upto_valid_ = true;
    return shallow_upto_ = upto;
  }
  float BlockMaxScore() override { return block_max_; }
  void SetMinCompetitiveScore(float score) override {
    if (score != min_competitive_ && ++need_epoch_ == 0) {  // wrapped: forget every answer
      need_at_.fill(0);
      need_epoch_ = 1;
    }
    min_competitive_ = score;
    pruning_ = bounded_;
  }

 private:
  // One term's impacts over [the last target, upto] (see AdvanceShallow).
  struct TermRange {
    bool valid = false;    // AdvanceShallow was called on the term
    bool at_tail = false;  // the range is the rest of the term
    uint32_t upto = 0;
    Impact tail;
    std::span<const Impact> impacts;  // the cursor's, or tail
  };

  // The bound of the phrase's score over documents where each term i's
  // (freq, norm) is covered by `lists[i]` (each sorted by norm ascending):
  // the largest float(G(N)) * inverse_norm(N) over the lists' norms N,
  // scored (see the top of the file). REQUIRES: bounded_.
  float Bound(std::span<const std::span<const Impact>> lists) const {
    if (lists.size() == 2 && sim_.norms) {
      const float bound = PairBound(lists[0], lists[1]);
      assert(bound == WalkBound(lists));  // the same walk (builds with assertions)
      return bound;
    }
    return WalkBound(lists);
  }

  // Bound() for any number of terms.
  float WalkBound(std::span<const std::span<const Impact>> lists) const {
    const Bm25Scorer& scorer = sim_.scorer;
    const size_t n = lists.size();
    // F_i(N), the largest freq of list i with norm <= N, and the walk's
    // position in each list.
    uint32_t max_freq[kMaxBoundTerms];
    size_t at[kMaxBoundTerms];
    if (n > kMaxBoundTerms) return kUnboundedScore;
    for (size_t i = 0; i < n; ++i) {
      max_freq[i] = 0;
      at[i] = 0;
    }
    float best_product = 0;
    for (;;) {
      // The next norm N: the smallest not yet walked over (without norms:
      // all at once, as every document scores norm 1).
      int norm = 256;
      for (size_t i = 0; i < n; ++i) {
        if (at[i] < lists[i].size()) norm = std::min<int>(norm, lists[i][at[i]].norm);
      }
      if (norm == 256) break;
      if (!sim_.norms) norm = 255;
      for (size_t i = 0; i < n; ++i) {
        for (; at[i] < lists[i].size() && lists[i][at[i]].norm <= norm; ++at[i]) {
          max_freq[i] = std::max(max_freq[i], lists[i][at[i]].freq);
        }
      }
      uint64_t g = 0;
      bool all = true;
      for (size_t i = 0; i < n; ++i) all = all && max_freq[i] > 0;
      if (all) {
        if (slop_ == 0) {
          g = max_freq[0];
          for (size_t i = 1; i < n; ++i) g = std::min<uint64_t>(g, max_freq[i]);
        } else {
          if (n == 2) {
            g = PairFreqBound(max_freq[0], max_freq[1]);
          } else {
            for (size_t i = 0; i < n; ++i) g += max_freq[i];
            g = g - n + 1;
          }
        }
      }
      const float freq = FloatAtLeast(g);
      const uint8_t scored_norm = sim_.norms ? static_cast<uint8_t>(norm) : uint8_t{1};
      best_product = std::max(best_product, freq * scorer.inverse_norm(scored_norm));
    }
    return std::max(0.0f, scorer.ScoreOfProduct(best_product));
  }

  // Bound() of a two-term phrase on a field with norms: the same walk
  // over the union of the two lists' norms, with two cursors (a window's
  // bound is computed per range of the terms' impacts, so this runs often).
  float PairBound(std::span<const Impact> a, std::span<const Impact> b) const {
    const Bm25Scorer& scorer = sim_.scorer;
    size_t i = 0;
    size_t j = 0;
    uint32_t fa = 0;  // F_a(N), F_b(N)
    uint32_t fb = 0;
    float best_product = 0;
    while (i < a.size() || j < b.size()) {
      const int na = i < a.size() ? a[i].norm : 256;
      const int nb = j < b.size() ? b[j].norm : 256;
      const int norm = std::min(na, nb);
      for (; i < a.size() && a[i].norm <= norm; ++i) fa = std::max(fa, a[i].freq);
      for (; j < b.size() && b[j].norm <= norm; ++j) fb = std::max(fb, b[j].freq);
      if (fa == 0 || fb == 0) continue;
      const uint64_t g = PairFreqBound(fa, fb);
      best_product =
          std::max(best_product, FloatAtLeast(g) * scorer.inverse_norm(static_cast<uint8_t>(norm)));
    }
    return std::max(0.0f, scorer.ScoreOfProduct(best_product));
  }

  // G of a two-term phrase from its terms' freqs (>= 1 each; see the top).
  uint64_t PairFreqBound(uint64_t fa, uint64_t fb) const {
    if (slop_ == 0) return std::min(fa, fb);
    const uint64_t sum = fa + fb - 1;
    return distinct_pair_ ? std::min(sum, 2 * std::min(fa, fb)) : sum;
  }

  // float(g), rounded up: >= g.
  static float FloatAtLeast(uint64_t g) {
    if (g <= (uint64_t{1} << 24)) return static_cast<float>(g);  // exact
    float f = static_cast<float>(g);
    if (static_cast<double>(f) < static_cast<double>(g)) f = std::nextafter(f, kUnboundedScore);
    return f;
  }

  // True iff doc_, on which every term's cursor stands, cannot score above
  // min_competitive_: the bound G of the top of the file from the terms'
  // own freqs in doc_ (exact: their least; sloppy: their sum - terms + 1,
  // or for two different terms the smaller of that and twice the least) at
  // its norm, before any position is read (Lucene 8.8's PhraseScorer
  // makes the same check from its matcher's maxFreq). REQUIRES: bounded_.
  //
  // Asked once per common doc, so answered from need_ (below) without a
  // division: the bound's score grows with G (Score is monotonic in freq
  // when bounded_, and FloatAtLeast in g), so Score(G) <= min_competitive_
  // iff G < the least g whose score is above it.
  [[gnu::always_inline]] bool DocCannotCompete() {
    uint64_t g;
    if (cursors_.size() == 2) {
      g = PairFreqBound(cursors_[0]->freq(), cursors_[1]->freq());
    } else {
      g = slop_ == 0 ? UINT64_MAX : 1;
      for (const PostingsCursor* c : cursors_) {
        g = slop_ == 0 ? std::min<uint64_t>(g, c->freq()) : g + c->freq() - 1;
      }
    }
    const uint8_t norm = Norm();
    if (need_at_[norm] != need_epoch_) FillNeed(norm);
    if (g >= need_[norm]) return false;
    if (need_[norm] != kNeedNone || g <= kNeedLimit) return true;
    return sim_.scorer.Score(FloatAtLeast(g), norm) <= min_competitive_;  // past the search
  }

  // need_[norm] at the current min_competitive_: the least g <= kNeedLimit
  // with Score(FloatAtLeast(g), norm) above it, or kNeedNone if none is (a
  // larger g is then scored by DocCannotCompete itself). Doubling, then
  // bisection: about 2 log2(answer) scores, once per norm met between two
  // changes of the minimum.
  void FillNeed(uint8_t norm) {
    // Not "<=": DocCannotCompete's very test, even for a NaN minimum.
    auto competes = [&](uint64_t g) {
      return !(sim_.scorer.Score(FloatAtLeast(g), norm) <= min_competitive_);
    };
    need_at_[norm] = need_epoch_;
    if (competes(0)) {
      need_[norm] = 0;
      return;
    }
    uint64_t lo = 0;  // !competes(lo); competes(hi)
    uint64_t hi = 1;
    while (!competes(hi)) {
      if (hi >= kNeedLimit) {
        need_[norm] = kNeedNone;
        return;
      }
      lo = hi;
      hi *= 2;
    }
    while (hi - lo > 1) {
      const uint64_t mid = lo + (hi - lo) / 2;
      (competes(mid) ? hi : lo) = mid;
    }
    need_[norm] = hi;
  }

  // The first match >= target in a range whose bound is competitive.
  // kExact: slop_ == 0 (the lead's freq alone can rule a doc out: LeadTo).
  template <bool kExact>
  uint32_t AdvancePruned(uint32_t target) {
    for (;;) {
      // Inline while the target stays in the current range (the common
      // case: one call per candidate doc), AdvanceShallow's first answer.
      const uint32_t upto =
          shallow_upto_valid_ && target <= shallow_upto_ ? shallow_upto_ : AdvanceShallow(target);
      if (block_max_ <= min_competitive_) {
        if (upto == kNoMoreDocs) return doc_ = kNoMoreDocs;
        target = upto + 1;
        continue;
      }
      doc_ = AllAtOrAfter<kExact>(target, upto);
      if (doc_ == kNoMoreDocs) return doc_;
      if (doc_ > upto) {
        target = doc_;  // a later range: check its bound first
        continue;
      }
      if (DocCannotCompete()) {
        target = doc_ + 1;
        continue;
      }
      freq_ = Frequency();
      // A doc not above the minimum is not handed to the collector either.
      if (freq_ > 0) {
        const float score = sim_.scorer.Score(freq_, Norm());
        if (score > min_competitive_) {
          scored_doc_ = doc_;
          scored_ = score;
          return doc_;
        }
      }
      target = doc_ + 1;
    }
  }

  // The first live document >= target in every term's postings, or, as
  // soon as the conjunction's candidate passes `upto`, that candidate (some
  // terms may not hold it). kLeadBound (an exact phrase, pruning): on the
  // cursors, docs where the lead's own freq cannot compete are passed over
  // too (LeadTo).
  template <bool kLeadBound>
  [[gnu::always_inline]] uint32_t AllAtOrAfter(uint32_t target, uint32_t upto) {
    if (direct_) {
      return defer_commonest_ ? CursorsAtOrAfterDeferring<kLeadBound>(target, upto)
                              : CursorsAtOrAfter<kLeadBound>(target, upto, order_.size());
    }
    PostingsEnum& lead = *postings_[order_[0]];
    uint32_t doc = lead.Advance(target);
    for (;;) {
      if (doc == kNoMoreDocs || doc > upto) return doc;
      bool all = true;
      for (size_t i = 1; i < order_.size(); ++i) {
        const uint32_t d = postings_[order_[i]]->Advance(doc);
        if (d != doc) {
          if (d == kNoMoreDocs || d > upto) return d;
          doc = lead.Advance(d);
          all = false;
          break;
        }
      }
      if (all) return doc;
    }
  }

  // AllAtOrAfter on the cursors (direct_) of order_[0, n): a deleted common
  // doc is passed over (the enums skip deleted docs on each term; the
  // matches are the same). Always inlined (into Advance and AdvancePruned,
  // as it was with one caller): left to the compiler once the deferring
  // walk below calls it too, it became a call, phrase2 +12% instructions.
  template <bool kLeadBound>
  [[gnu::always_inline]] uint32_t CursorsAtOrAfter(uint32_t target, uint32_t upto, size_t n) {
    PostingsCursor& lead = *cursors_[order_[0]];
    for (;;) {
      if (!LeadTo<kLeadBound>(lead, target, upto)) return kNoMoreDocs;
      uint32_t doc = lead.doc();
      size_t i = 1;
      while (i < n) {
        if (doc > upto) return doc;
        PostingsCursor& c = *cursors_[order_[i]];
        if (!c.Advance(doc)) return kNoMoreDocs;
        if (c.doc() == doc) {
          ++i;
          continue;
        }
        // Past doc: the lead catches up and the others are asked again.
        doc = c.doc();
        if (doc > upto) return doc;
        if (!LeadTo<kLeadBound>(lead, doc, upto)) return kNoMoreDocs;
        doc = lead.doc();
        i = 1;
      }
      if (doc > upto) return doc;
      if (live_ == nullptr || doc >= live_->doc_count() || live_->IsLive(doc)) return doc;
      if (doc == kNoMoreDocs - 1) return kNoMoreDocs;
      target = doc + 1;
    }
  }

  // AllAtOrAfter on the cursors with defer_commonest_: the commonest term
  // (order_'s last) is moved only to a live doc that the others share and
  // where their places (the exact phrase of their positions without it,
  // Places) are not none. A match needs them, so no doc that matches is
  // passed over. Landing there, the places are left for ExactFrequency
  // (partial_doc_, partial_kept_).
  template <bool kLeadBound>
  [[gnu::noinline]] uint32_t CursorsAtOrAfterDeferring(uint32_t target, uint32_t upto) {
    const size_t n = order_.size() - 1;
    PostingsCursor& commonest = *cursors_[order_[n]];
    for (;;) {
      const uint32_t doc = CursorsAtOrAfter<kLeadBound>(target, upto, n);
      if (doc == kNoMoreDocs || doc > upto) return doc;
      const size_t kept = Places({order_.data(), n});
      if (kept > 0) {
        if (!commonest.Advance(doc)) return kNoMoreDocs;
        if (commonest.doc() == doc) {
          partial_doc_ = doc;
          partial_kept_ = kept;
          return doc;
        }
        target = commonest.doc();  // a later candidate
        if (target > upto) return target;
        continue;
      }
      if (!status_.ok()) return kNoMoreDocs;  // positions unreadable
      if (doc == kNoMoreDocs - 1) return kNoMoreDocs;
      target = doc + 1;
    }
  }

  // Moves the lead cursor to its first doc >= target. kLeadBound: to its
  // first such doc that can compete by its own freq, or one past upto. In
  // an exact phrase G is the least of the terms' freqs (the top of the
  // file), so a doc where the lead's freq is below need_ at the doc's norm
  // cannot compete whatever the other terms hold there (DocCannotCompete's
  // test with the lead's freq for G): the other cursors are not moved to
  // it. False when the lead has no more docs.
  template <bool kLeadBound>
  [[gnu::always_inline]] bool LeadTo(PostingsCursor& lead, uint32_t target, uint32_t upto) {
    if (!lead.Advance(target)) return false;
    if constexpr (kLeadBound) {
      for (;;) {
        const uint32_t doc = lead.doc();
        if (doc > upto) return true;
        const uint8_t norm = NormOf(doc);
        if (need_at_[norm] != need_epoch_) FillNeed(norm);
        // A freq (< 2^32) below need_ cannot compete, kNeedNone included.
        if (lead.freq() >= need_[norm]) return true;
        if (!lead.NextDoc()) return false;
      }
    }
    return true;
  }

  // The places (ExactPhrasePlaces, ExactPhraseKeep) of the terms `which`
  // (indices into cursors_, every cursor on the same doc, none of its
  // positions read yet) in places_[0, returned count): their positions are
  // read in increasing freq in the doc, the rarest's places first, then
  // each other keeps those it holds until none is left. 0 on an error
  // (status_).
  size_t Places(std::span<const size_t> which) {
    const size_t n = which.size();
    for (size_t i = 0; i < n; ++i) {
      // Insertion sort: a phrase has a few terms.
      size_t j = i;
      for (; j > 0 && cursors_[by_freq_[j - 1]]->freq() > cursors_[which[i]]->freq(); --j) {
        by_freq_[j] = by_freq_[j - 1];
      }
      by_freq_[j] = which[i];
    }
    size_t kept = 0;
    for (size_t k = 0; k < n && (k == 0 || kept > 0); ++k) {
      const size_t i = by_freq_[k];
      PostingsCursor& c = *cursors_[i];
      if (!c.ReadPositions(&positions_[i])) {
        PositionError(i);
        return 0;
      }
      const PhraseTermPostings term{terms_[i].offset, {positions_[i].data(), c.freq()}};
      kept = k == 0 ? ExactPhrasePlaces(term, &places_) : ExactPhraseKeep(term, &places_, kept);
    }
    return kept;
  }

  // The phrase frequency of doc_. invert's own postings hand each term's
  // positions over in one call (PostingsCursor::ReadPositions); others are
  // read through the enum one at a time.
  float Frequency() {
    if (slop_ == 0 && all_cursors_) return ExactFrequency();
    for (size_t i = 0; i < postings_.size(); ++i) {
      std::vector<uint32_t>& pos = positions_[i];
      size_t n = 0;
      if (PostingsCursor* c = cursors_[i]; c != nullptr) {
        // On the enum's doc (its deleted docs are skipped on the cursor),
        // none of its positions read yet.
        if (!c->ReadPositions(&pos)) return PositionError(i);
        n = c->freq();
      } else {
        PostingsEnum& p = *postings_[i];
        pos.clear();
        for (uint32_t left = p.freq(); left > 0; --left) {
          if (!p.NextPosition()) return PositionError(i);
          pos.push_back(p.position());
        }
        n = pos.size();
      }
      // Read as int32: the same bits (positions are below 2^31 in any index
      // invert or Lucene writes).
      terms_[i].positions = {reinterpret_cast<const int32_t*>(pos.data()), n};
    }
    if (slop_ == 0) return ExactPhraseFreq(terms_);
    if (terms_.size() == 2 && terms_[0].term_id != terms_[1].term_id) {
      return SloppyPairFreq(terms_[0], terms_[1], slop_);
    }
    return SloppyPhraseFreq(terms_, slop_);
  }

  // The exact phrase frequency from the cursors (all_cursors_), reading a
  // term's positions only when the count gets to it: the terms in
  // increasing freq in doc_, the rarest's places first, then each other
  // keeps those it holds until none is left (ExactPhraseCount's steps).
  float ExactFrequency() {
    const size_t n = cursors_.size();
    if (n == 2) {  // both lists are read anyway: one merge, no places
      PostingsCursor& a = *cursors_[0];
      PostingsCursor& b = *cursors_[1];
      if (!a.ReadPositions(&positions_[0])) return PositionError(0);
      if (!b.ReadPositions(&positions_[1])) return PositionError(1);
      return static_cast<float>(
          ExactPhrasePairCount({terms_[0].offset, {positions_[0].data(), a.freq()}},
                               {terms_[1].offset, {positions_[1].data(), b.freq()}}, &places_));
    }
    if (partial_doc_ == doc_) {
      // CursorsAtOrAfter left the other terms' places: the commonest's
      // positions keep those it holds.
      partial_doc_ = kNoMoreDocs;
      const size_t i = order_.back();
      PostingsCursor& c = *cursors_[i];
      if (!c.ReadPositions(&positions_[i])) return PositionError(i);
      const PhraseTermPostings term{terms_[i].offset, {positions_[i].data(), c.freq()}};
      return static_cast<float>(ExactPhraseKeep(term, &places_, partial_kept_));
    }
    return static_cast<float>(Places(order_));
  }

  float PositionError(size_t term) {
    if (status_.ok()) status_ = postings_[term]->status();
    return 0;
  }

  uint8_t Norm() { return NormOf(doc_); }
  uint8_t NormOf(uint32_t doc) {
    if (doc < norm_bytes_.size()) return norm_bytes_[doc];
    absl::StatusOr<uint8_t> norm = sim_.Norm(leaf_, field_, doc);
    if (norm.ok()) return *norm;
    if (status_.ok()) status_ = norm.status();
    return 1;
  }

  std::vector<std::unique_ptr<PostingsEnum>> postings_;
  const uint32_t slop_;
  const LeafReader& leaf_;
  const std::string& field_;
  const Bm25Part& sim_;
  const std::string& description_;
  std::span<const uint8_t> norm_bytes_ = sim_.NormBytes(leaf_, field_);  // empty: Norm's lookups
  // Per term, the current doc's positions (reused: no allocation per doc
  // once grown); terms_ views them for the sloppy walk.
  std::vector<std::vector<uint32_t>> positions_;
  std::vector<PhraseTermPositions> terms_;
  std::vector<size_t> by_freq_;  // ExactFrequency's order of the terms
  std::vector<size_t> order_;
  std::vector<PostingsCursor*> cursors_;  // per term; null: not invert's own postings
  bool all_cursors_ = false;              // no null in cursors_
  bool distinct_pair_ = false;            // two terms, not the same one twice
  bool direct_ = false;                   // see the constructor
  bool defer_commonest_ = false;          // see the constructor
  // The doc where CursorsAtOrAfter left the places of every term but the
  // commonest, and their count (kNoMoreDocs: none left).
  uint32_t partial_doc_ = kNoMoreDocs;
  size_t partial_kept_ = 0;
  const LiveDocs* live_ = nullptr;  // direct_: the segment's live docs (null: all)
  std::vector<int64_t> places_;     // ExactPhraseCount's scratch
  float freq_ = 0;
  absl::Status status_;
  // Pruning state (bounded_: every term's postings are invert's own).
  static constexpr size_t kMaxBoundTerms = 64;  // longer phrases: unbounded
  bool bounded_ = false;
  bool block_impacts_ = false;
  bool max_score_known_ = false;
  float max_score_ = kUnboundedScore;
  std::vector<TermRange> ranges_;
  std::vector<std::span<const Impact>> spans_;
  bool shallow_upto_valid_ = false;
  uint32_t shallow_upto_ = kNoMoreDocs;
  float block_max_ = kUnboundedScore;
  bool pruning_ = false;
  float min_competitive_ = 0;
  // DocCannotCompete's thresholds per norm byte (FillNeed), valid where
  // need_at_ holds need_epoch_, which each change of min_competitive_ bumps.
  static constexpr uint64_t kNeedLimit = uint64_t{1} << 32;
  static constexpr uint64_t kNeedNone = UINT64_MAX;
  std::array<uint64_t, 256> need_{};
  std::array<uint32_t, 256> need_at_{};
  uint32_t need_epoch_ = 1;
  // The score AdvancePruned computed, and its doc (kNoMoreDocs: none).
  uint32_t scored_doc_ = kNoMoreDocs;
  float scored_ = 0;
};

class PhraseWeight final : public Weight {
 public:
  PhraseWeight(std::string field, std::vector<std::string> terms, std::vector<int32_t> offsets,
               uint32_t slop, std::unique_ptr<Bm25Part> sim, std::string description)
      : field_(std::move(field)),
        terms_(std::move(terms)),
        offsets_(std::move(offsets)),
        slop_(slop),
        sim_(std::move(sim)),
        description_(std::move(description)) {
    for (size_t i = 0; i < terms_.size(); ++i) {
      size_t first = 0;
      while (terms_[first] != terms_[i]) ++first;
      term_ids_.push_back(static_cast<int32_t>(first));
    }
  }

  absl::StatusOr<std::unique_ptr<DocScorer>> MakeScorer(const LeafReader& leaf) const override {
    std::vector<std::unique_ptr<PostingsEnum>> postings;
    for (const std::string& term : terms_) {
      absl::StatusOr<std::unique_ptr<PostingsEnum>> p =
          leaf.Postings(field_, term, kPostingsPositions);
      if (!p.ok()) return p.status();
      if (*p == nullptr) return nullptr;
      postings.push_back(*std::move(p));
    }
    return std::make_unique<PhraseScorer>(std::move(postings), offsets_, term_ids_, slop_, leaf,
                                          field_, *sim_, description_);
  }
  std::string Describe() const override { return description_; }

 private:
  std::string field_;
  std::vector<std::string> terms_;
  std::vector<int32_t> offsets_;
  std::vector<int32_t> term_ids_;
  uint32_t slop_;
  std::unique_ptr<Bm25Part> sim_;
  std::string description_;
};

}  // namespace

std::unique_ptr<Weight> NewPhraseWeight(std::string field, std::vector<std::string> terms,
                                        std::vector<int32_t> offsets, uint32_t slop,
                                        std::unique_ptr<Bm25Part> sim, std::string description) {
  return std::make_unique<PhraseWeight>(std::move(field), std::move(terms), std::move(offsets),
                                        slop, std::move(sim), std::move(description));
}

}  // namespace invert::search_internal

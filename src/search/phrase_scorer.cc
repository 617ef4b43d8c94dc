// PhraseWeight and PhraseScorer: the documents holding every phrase term
// (a leap-frog conjunction of their postings), kept when the phrase
// frequency of their positions (search/phrase_freq.h) is above 0.
#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "index/terms_enum_impl.h"
#include "search/phrase_freq.h"
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
        terms_(postings_.size()) {
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
    // The rarest term leads the conjunction.
    for (size_t i = 0; i < postings_.size(); ++i) order_.push_back(i);
    std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      return postings_[a]->cost() < postings_[b]->cost();
    });
  }

  uint32_t NextDoc() override {
    if (started_ && doc_ == kNoMoreDocs) return doc_;
    return Advance(started_ ? doc_ + 1 : 0);
  }
  uint32_t Advance(uint32_t target) override {
    if (started_ && doc_ >= target) return doc_;
    started_ = true;
    for (;;) {
      doc_ = AllAtOrAfter(target);
      if (doc_ == kNoMoreDocs) return doc_;
      freq_ = Frequency();
      if (freq_ > 0) return doc_;
      target = doc_ + 1;
    }
  }
  float Score() override { return sim_.scorer.Score(freq_, Norm()); }
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

 private:
  // The first document >= target in every term's postings.
  uint32_t AllAtOrAfter(uint32_t target) {
    PostingsEnum& lead = *postings_[order_[0]];
    uint32_t doc = lead.Advance(target);
    for (;;) {
      if (doc == kNoMoreDocs) return doc;
      bool all = true;
      for (size_t i = 1; i < order_.size(); ++i) {
        const uint32_t d = postings_[order_[i]]->Advance(doc);
        if (d != doc) {
          doc = d == kNoMoreDocs ? d : lead.Advance(d);
          all = false;
          break;
        }
      }
      if (all) return doc;
    }
  }

  float Frequency() {
    for (size_t i = 0; i < postings_.size(); ++i) {
      PostingsEnum& p = *postings_[i];
      std::vector<int32_t>& pos = positions_[i];
      pos.clear();
      if (PostingsCursor* c = cursors_[i]; c != nullptr) {
        // On the enum's doc (its deleted docs are skipped on the cursor),
        // none of its positions read yet.
        for (uint32_t n = c->freq(); n > 0; --n) {
          if (!c->NextPosition()) {
            if (status_.ok()) status_ = p.status();
            return 0;
          }
          pos.push_back(static_cast<int32_t>(c->position()));
        }
        terms_[i].positions = pos;
        continue;
      }
      for (uint32_t n = p.freq(); n > 0; --n) {
        if (!p.NextPosition()) {
          if (status_.ok()) status_ = p.status();
          return 0;
        }
        pos.push_back(static_cast<int32_t>(p.position()));
      }
      terms_[i].positions = pos;
    }
    return slop_ == 0 ? ExactPhraseFreq(terms_) : SloppyPhraseFreq(terms_, slop_);
  }

  uint8_t Norm() {
    if (doc_ < norm_bytes_.size()) return norm_bytes_[doc_];
    absl::StatusOr<uint8_t> norm = sim_.Norm(leaf_, field_, doc_);
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
  std::vector<std::vector<int32_t>> positions_;
  std::vector<PhraseTermPositions> terms_;
  std::vector<size_t> order_;
  std::vector<PostingsCursor*> cursors_;  // per term; null: not invert's own postings
  float freq_ = 0;
  absl::Status status_;
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

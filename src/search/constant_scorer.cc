// Constant-score weights: PrefixQuery (Lucene 8.8's default constant-score
// rewrite: every document with a matching term scores the boost),
// MatchAllDocs (every live document scores the boost) and MatchNone.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "search/weight.h"

namespace invert::search_internal {
namespace {

// Iterates a segment's documents marked in a bitmap.
class ConstantScorer final : public DocScorer {
 public:
  ConstantScorer(std::vector<bool> docs, uint64_t count, float score,
                 const std::string& description)
      : docs_(std::move(docs)), count_(count), score_(score), description_(description) {}

  uint32_t NextDoc() override {
    if (started_ && doc_ == kNoMoreDocs) return doc_;
    return Advance(started_ ? doc_ + 1 : 0);
  }
  uint32_t Advance(uint32_t target) override {
    if (started_ && doc_ >= target) return doc_;
    started_ = true;
    if (done_) return doc_ = kNoMoreDocs;
    for (size_t d = target; d < docs_.size(); ++d) {
      if (docs_[d]) return doc_ = static_cast<uint32_t>(d);
    }
    return doc_ = kNoMoreDocs;
  }
  float Score() override { return score_; }
  Explanation Explain() override {
    std::string desc = description_;
    if (score_ != 1.0f) absl::StrAppend(&desc, "^", score_);
    return {true, score_, desc, {}};
  }
  uint64_t cost() const override { return count_; }
  absl::Status status() const override { return absl::OkStatus(); }
  float MaxScore() override { return score_; }
  // Every match scores the same: once that is not competitive, none is.
  void SetMinCompetitiveScore(float score) override { done_ = done_ || score_ <= score; }

 private:
  bool done_ = false;
  std::vector<bool> docs_;
  uint64_t count_;
  float score_;
  const std::string& description_;
};

class PrefixWeight final : public Weight {
 public:
  PrefixWeight(std::string field, std::string prefix, float score, std::string description)
      : field_(std::move(field)),
        prefix_(std::move(prefix)),
        score_(score),
        description_(std::move(description)) {}

  absl::StatusOr<std::unique_ptr<DocScorer>> MakeScorer(const LeafReader& leaf) const override {
    absl::StatusOr<std::unique_ptr<TermsEnum>> terms = leaf.Terms(field_);
    if (!terms.ok()) return terms.status();
    absl::StatusOr<TermsEnum::SeekStatus> seek = (*terms)->SeekCeil(prefix_);
    if (!seek.ok()) return seek.status();
    if (*seek == TermsEnum::SeekStatus::kEnd) return nullptr;
    std::vector<bool> docs(leaf.max_doc());
    uint64_t count = 0;
    for (;;) {
      if (!(*terms)->term().starts_with(prefix_)) break;
      absl::StatusOr<std::unique_ptr<PostingsEnum>> p = (*terms)->Postings(kPostingsDocs);
      if (!p.ok()) return p.status();
      for (uint32_t d = (*p)->NextDoc(); d != kNoMoreDocs; d = (*p)->NextDoc()) {
        if (!docs[d]) ++count;
        docs[d] = true;
      }
      if (!(*p)->status().ok()) return (*p)->status();
      absl::StatusOr<bool> more = (*terms)->Next();
      if (!more.ok()) return more.status();
      if (!*more) break;
    }
    if (count == 0) return nullptr;
    return std::make_unique<ConstantScorer>(std::move(docs), count, score_, description_);
  }
  std::string Describe() const override { return description_; }

 private:
  std::string field_;
  std::string prefix_;
  float score_;
  std::string description_;
};

class MatchAllWeight final : public Weight {
 public:
  MatchAllWeight(float score, std::string description)
      : score_(score), description_(std::move(description)) {}

  absl::StatusOr<std::unique_ptr<DocScorer>> MakeScorer(const LeafReader& leaf) const override {
    std::vector<bool> docs(leaf.max_doc());
    for (uint32_t d = 0; d < leaf.max_doc(); ++d) docs[d] = !leaf.IsDeleted(d);
    return std::make_unique<ConstantScorer>(std::move(docs), leaf.num_docs(), score_, description_);
  }
  std::string Describe() const override { return description_; }

 private:
  float score_;
  std::string description_;
};

class MatchNoneWeight final : public Weight {
 public:
  explicit MatchNoneWeight(std::string description) : description_(std::move(description)) {}
  absl::StatusOr<std::unique_ptr<DocScorer>> MakeScorer(const LeafReader&) const override {
    return nullptr;
  }
  std::string Describe() const override { return description_; }

 private:
  std::string description_;
};

}  // namespace

std::unique_ptr<Weight> NewPrefixWeight(std::string field, std::string prefix, float score,
                                        std::string description) {
  return std::make_unique<PrefixWeight>(std::move(field), std::move(prefix), score,
                                        std::move(description));
}
std::unique_ptr<Weight> NewMatchAllWeight(float score, std::string description) {
  return std::make_unique<MatchAllWeight>(score, std::move(description));
}
std::unique_ptr<Weight> NewMatchNoneWeight(std::string description) {
  return std::make_unique<MatchNoneWeight>(std::move(description));
}

}  // namespace invert::search_internal

// TermWeight and TermScorer: one term's postings scored with BM25.
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "search/weight.h"

namespace invert::search_internal {
namespace {

class TermScorer final : public DocScorer {
 public:
  TermScorer(std::unique_ptr<PostingsEnum> postings, const LeafReader& leaf,
             const std::string& field, const Bm25Part& sim, const std::string& description)
      : postings_(std::move(postings)),
        leaf_(leaf),
        field_(field),
        sim_(sim),
        description_(description) {}

  uint32_t NextDoc() override {
    started_ = true;
    return doc_ = postings_->NextDoc();
  }
  uint32_t Advance(uint32_t target) override {
    if (started_ && doc_ >= target) return doc_;
    started_ = true;
    return doc_ = postings_->Advance(target);
  }
  float Score() override {
    return sim_.scorer.Score(static_cast<float>(postings_->freq()), Norm());
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

 private:
  uint8_t Norm() {
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
  absl::Status status_;
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

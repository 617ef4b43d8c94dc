// CorpusStats: the measurements invert-gen reports about a line-docs corpus
// (docs/corpus.md): sizes, body lengths and, when terms are counted, the
// vocabulary's Zipf and Heaps exponents.
//
// Tokenization for these statistics (not the indexing analyzer's): a token is
// a maximal run of ASCII letters, ASCII digits and bytes >= 0x80, except that
// the UTF-8 punctuation U+2013 U+2014 (dashes) and U+2018 U+2019 U+201C U+201D
// (quotes) separate tokens; ASCII letters are lowercased. Only bodies are
// tokenized.
//
// Fits (least squares on natural logs):
//   Zipf exponent: -slope of log frequency vs log rank, frequencies sorted
//     descending, over the ranks round(10^(k/20)) in [10, 10^4] (20 points per
//     decade, so each decade weighs the same). A tail exponent is fitted the
//     same way over [3 * 10^4, min(10^6, V / 3)] when that range spans at
//     least half a decade.
//   Heaps' beta: slope of log V(n) vs log n, V(n) the distinct terms among the
//     first n tokens, at checkpoints n = round(2^(k/4)) (and the final n = N),
//     over the checkpoints in [N / 1000, N]; also over [N / 10, N] (the local
//     exponent at the corpus' size).
//
// Memory: sizes need O(1) (a histogram of body lengths up to 64 KiB); counting
// terms needs a hash map of every distinct term (~110 bytes a term).
//
// Thread safety: none.
#ifndef INVERT_CORPUS_CORPUS_STATS_H_
#define INVERT_CORPUS_CORPUS_STATS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace invert {

// Calls f(std::string_view token) for each statistics token of `text` (see
// above); the view, lowercased in *scratch, is valid during the call.
template <typename F>
void ForEachStatsToken(std::string_view text, std::string* scratch, F&& f);

// Least-squares slope of y on x. REQUIRES: at least two distinct x.
double FitSlope(const std::vector<std::pair<double, double>>& points);

struct CorpusReport {
  uint64_t docs = 0;
  uint64_t bytes = 0;  // whole lines, LF included
  uint64_t body_bytes = 0;
  double body_mean = 0;
  uint64_t body_median = 0;
  uint64_t body_p10 = 0;
  uint64_t body_p90 = 0;
  uint64_t body_max = 0;
  // Term statistics; zero when terms were not counted.
  uint64_t tokens = 0;
  uint64_t unique_terms = 0;
  uint64_t hapax_terms = 0;  // terms seen once
  double zipf_exponent = 0;
  double zipf_tail_exponent = 0;  // 0 when the vocabulary is too small
  double heaps_beta = 0;
  double heaps_beta_last_decade = 0;
  double heaps_k = 0;           // V(N) / N^heaps_beta
  double mean_token_bytes = 0;  // over occurrences
  double token_share_le5 = 0;   // occurrences of <= 5 bytes
  double mean_term_bytes = 0;   // over distinct terms
  double term_share_le5 = 0;    // distinct terms of <= 5 bytes
  double non_ascii_token_share = 0;
  std::vector<std::pair<uint64_t, uint64_t>> heaps_checkpoints;  // (n, V(n))
  std::vector<std::pair<std::string, uint64_t>> top_terms;       // 10 most frequent
};

class CorpusStats {
 public:
  explicit CorpusStats(bool count_terms) : count_terms_(count_terms) {}

  // Accounts one document whose line (LF included) has `line_bytes` bytes.
  void AddDocument(uint64_t line_bytes, std::string_view body);
  // Accounts bytes outside documents (a header line).
  void AddBytes(uint64_t bytes) { bytes_ += bytes; }

  CorpusReport Report() const;

  // Human-readable report, one "name value" line per figure.
  static std::string Format(const CorpusReport& report, bool with_terms);

 private:
  void CountTerm(std::string_view term);

  bool count_terms_;
  uint64_t docs_ = 0;
  uint64_t bytes_ = 0;
  uint64_t body_bytes_ = 0;
  uint64_t body_max_ = 0;
  std::vector<uint64_t> body_histogram_ = std::vector<uint64_t>(65537);  // last: >= 64 KiB
  absl::flat_hash_map<std::string, uint64_t> counts_;
  uint64_t tokens_ = 0;
  uint64_t token_bytes_ = 0;
  uint64_t tokens_le5_ = 0;
  uint64_t non_ascii_tokens_ = 0;
  uint64_t next_checkpoint_k_ = 0;
  uint64_t next_checkpoint_ = 1;
  std::vector<std::pair<uint64_t, uint64_t>> checkpoints_;
  std::string scratch_;
};

// ---- Implementation details below ----

namespace internal {
inline bool IsStatsTokenByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}
// True iff text[i..] starts with one of the separating UTF-8 punctuation marks.
inline bool IsStatsSeparator(std::string_view text, size_t i) {
  if (static_cast<unsigned char>(text[i]) != 0xE2 || i + 2 >= text.size() ||
      static_cast<unsigned char>(text[i + 1]) != 0x80) {
    return false;
  }
  const unsigned char c = static_cast<unsigned char>(text[i + 2]);
  return c == 0x93 || c == 0x94 || c == 0x98 || c == 0x99 || c == 0x9C || c == 0x9D;
}
}  // namespace internal

template <typename F>
void ForEachStatsToken(std::string_view text, std::string* scratch, F&& f) {
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    while (i < n && (!internal::IsStatsTokenByte(static_cast<unsigned char>(text[i])) ||
                     internal::IsStatsSeparator(text, i))) {
      i += internal::IsStatsSeparator(text, i) ? 3 : 1;
    }
    if (i >= n) break;
    scratch->clear();
    while (i < n && internal::IsStatsTokenByte(static_cast<unsigned char>(text[i])) &&
           !internal::IsStatsSeparator(text, i)) {
      const char c = text[i++];
      scratch->push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
    }
    f(std::string_view(*scratch));
  }
}

}  // namespace invert

#endif  // INVERT_CORPUS_CORPUS_STATS_H_

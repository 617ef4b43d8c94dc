// CorpusStats: counting, the Zipf and Heaps fits, and the report.
#include "corpus/corpus_stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace invert {
namespace {

uint64_t HeapsCheckpoint(uint64_t k) {
  return static_cast<uint64_t>(std::llround(std::pow(2.0, k / 4.0)));
}

// Zipf exponent over the ranks round(10^(k/20)) in [lo, hi]; 0 if fewer than
// ten points.
double FitZipf(const std::vector<uint64_t>& sorted_counts, double lo, double hi) {
  std::vector<std::pair<double, double>> points;
  uint64_t last = 0;
  for (int k = 0;; ++k) {
    const uint64_t rank = static_cast<uint64_t>(std::llround(std::pow(10.0, k / 20.0)));
    if (rank > hi || rank > sorted_counts.size()) break;
    if (rank < lo || rank == last) continue;
    last = rank;
    points.emplace_back(std::log(static_cast<double>(rank)),
                        std::log(static_cast<double>(sorted_counts[rank - 1])));
  }
  return points.size() < 10 ? 0 : -FitSlope(points);
}

uint64_t Percentile(const std::vector<uint64_t>& histogram, uint64_t total, double p) {
  if (total == 0) return 0;
  const uint64_t target = static_cast<uint64_t>(std::ceil(p * total));
  uint64_t seen = 0;
  for (size_t length = 0; length < histogram.size(); ++length) {
    seen += histogram[length];
    if (seen >= std::max<uint64_t>(target, 1)) return length;
  }
  return histogram.size() - 1;
}

}  // namespace

double FitSlope(const std::vector<std::pair<double, double>>& points) {
  double sx = 0, sy = 0;
  for (const auto& [x, y] : points) {
    sx += x;
    sy += y;
  }
  const double n = static_cast<double>(points.size());
  const double mx = sx / n, my = sy / n;
  double sxy = 0, sxx = 0;
  for (const auto& [x, y] : points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) * (x - mx);
  }
  return sxy / sxx;
}

void CorpusStats::AddDocument(uint64_t line_bytes, std::string_view body) {
  ++docs_;
  bytes_ += line_bytes;
  body_bytes_ += body.size();
  body_max_ = std::max<uint64_t>(body_max_, body.size());
  ++body_histogram_[std::min(body.size(), body_histogram_.size() - 1)];
  if (!count_terms_) return;
  ForEachStatsToken(body, &scratch_, [this](std::string_view term) { CountTerm(term); });
}

void CorpusStats::CountTerm(std::string_view term) {
  ++tokens_;
  token_bytes_ += term.size();
  tokens_le5_ += term.size() <= 5;
  for (char c : term) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      ++non_ascii_tokens_;
      break;
    }
  }
  ++counts_[absl::string_view(term.data(), term.size())];
  while (tokens_ >= next_checkpoint_) {
    if (tokens_ == next_checkpoint_ &&
        (checkpoints_.empty() || checkpoints_.back().first != tokens_)) {
      checkpoints_.emplace_back(tokens_, counts_.size());
    }
    next_checkpoint_ = HeapsCheckpoint(++next_checkpoint_k_);
  }
}

CorpusReport CorpusStats::Report() const {
  CorpusReport r;
  r.docs = docs_;
  r.bytes = bytes_;
  r.body_bytes = body_bytes_;
  r.body_mean = docs_ == 0 ? 0 : static_cast<double>(body_bytes_) / docs_;
  r.body_median = Percentile(body_histogram_, docs_, 0.5);
  r.body_p10 = Percentile(body_histogram_, docs_, 0.1);
  r.body_p90 = Percentile(body_histogram_, docs_, 0.9);
  r.body_max = body_max_;
  if (!count_terms_ || tokens_ == 0) return r;

  r.tokens = tokens_;
  r.unique_terms = counts_.size();
  r.mean_token_bytes = static_cast<double>(token_bytes_) / tokens_;
  r.token_share_le5 = static_cast<double>(tokens_le5_) / tokens_;
  r.non_ascii_token_share = static_cast<double>(non_ascii_tokens_) / tokens_;

  std::vector<uint64_t> sorted;
  sorted.reserve(counts_.size());
  uint64_t term_bytes = 0, terms_le5 = 0;
  for (const auto& [term, count] : counts_) {
    sorted.push_back(count);
    term_bytes += term.size();
    terms_le5 += term.size() <= 5;
    r.hapax_terms += count == 1;
  }
  r.mean_term_bytes = static_cast<double>(term_bytes) / counts_.size();
  r.term_share_le5 = static_cast<double>(terms_le5) / counts_.size();
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  r.zipf_exponent = FitZipf(sorted, 10, 1e4);
  const double tail_hi = std::min(1e6, sorted.size() / 3.0);
  if (tail_hi >= 3e4 * std::sqrt(10.0)) r.zipf_tail_exponent = FitZipf(sorted, 3e4, tail_hi);

  r.heaps_checkpoints = checkpoints_;
  if (r.heaps_checkpoints.empty() || r.heaps_checkpoints.back().first != tokens_) {
    r.heaps_checkpoints.emplace_back(tokens_, counts_.size());
  }
  auto fit_heaps = [&](double lo) {
    std::vector<std::pair<double, double>> points;
    for (const auto& [n, v] : r.heaps_checkpoints) {
      if (n >= lo) points.emplace_back(std::log(static_cast<double>(n)), std::log(double(v)));
    }
    return points.size() < 2 ? 0.0 : FitSlope(points);
  };
  r.heaps_beta = fit_heaps(tokens_ / 1000.0);
  r.heaps_beta_last_decade = fit_heaps(tokens_ / 10.0);
  r.heaps_k = counts_.size() / std::pow(static_cast<double>(tokens_), r.heaps_beta);

  std::vector<std::pair<uint64_t, std::string_view>> top;
  for (const auto& [term, count] : counts_) {
    top.emplace_back(count, std::string_view(term));
    if (top.size() > 64) {
      std::nth_element(top.begin(), top.begin() + 10, top.end(), std::greater<>());
      top.resize(10);
    }
  }
  std::sort(top.begin(), top.end(), std::greater<>());
  for (size_t i = 0; i < top.size() && i < 10; ++i) {
    r.top_terms.emplace_back(std::string(top[i].second), top[i].first);
  }
  return r;
}

std::string CorpusStats::Format(const CorpusReport& r, bool with_terms) {
  std::string out;
  absl::StrAppendFormat(&out, "docs                    %d\n", r.docs);
  absl::StrAppendFormat(&out, "bytes                   %d (%.1f MB)\n", r.bytes, r.bytes / 1e6);
  absl::StrAppendFormat(&out, "body bytes              %d\n", r.body_bytes);
  absl::StrAppendFormat(&out,
                        "body length             mean %.0f  median %d  p10 %d  p90 %d  max %d\n",
                        r.body_mean, r.body_median, r.body_p10, r.body_p90, r.body_max);
  if (!with_terms) return out;
  absl::StrAppendFormat(&out, "tokens                  %d\n", r.tokens);
  absl::StrAppendFormat(&out, "unique terms            %d (%.1f%% seen once)\n", r.unique_terms,
                        r.unique_terms == 0 ? 0.0 : 100.0 * r.hapax_terms / r.unique_terms);
  absl::StrAppendFormat(&out, "zipf exponent           %.3f (ranks 10..10^4)\n", r.zipf_exponent);
  if (r.zipf_tail_exponent > 0) {
    absl::StrAppendFormat(&out, "zipf tail exponent      %.3f (ranks 3*10^4..min(10^6, V/3))\n",
                          r.zipf_tail_exponent);
  }
  absl::StrAppendFormat(&out, "heaps beta              %.3f (n in [N/1000, N]; K = %.1f)\n",
                        r.heaps_beta, r.heaps_k);
  absl::StrAppendFormat(&out, "heaps beta last decade  %.3f (n in [N/10, N])\n",
                        r.heaps_beta_last_decade);
  absl::StrAppendFormat(&out, "token bytes             mean %.2f, %.1f%% <= 5 bytes\n",
                        r.mean_token_bytes, 100 * r.token_share_le5);
  absl::StrAppendFormat(&out, "term bytes              mean %.2f, %.1f%% <= 5 bytes\n",
                        r.mean_term_bytes, 100 * r.term_share_le5);
  absl::StrAppendFormat(&out, "non-ASCII tokens        %.3f%%\n", 100 * r.non_ascii_token_share);
  out.append("top terms              ");
  for (const auto& [term, count] : r.top_terms) {
    absl::StrAppendFormat(&out, " %s(%.2f%%)", term, 100.0 * count / r.tokens);
  }
  out.append("\nheaps V(n)             ");
  for (size_t i = 0; i < r.heaps_checkpoints.size(); ++i) {
    const auto& [n, v] = r.heaps_checkpoints[i];
    // Every 10th checkpoint (2^2.5 apart) and the last.
    if (i % 10 == 0 || i + 1 == r.heaps_checkpoints.size()) {
      absl::StrAppendFormat(&out, " %d:%d", n, v);
    }
  }
  out.push_back('\n');
  return out;
}

}  // namespace invert

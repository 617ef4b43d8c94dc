// Workload generation for the terms-hash microbenchmark.
#include "workload.h"

#include <cmath>
#include <map>
#include <mutex>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "util/random.h"

namespace invert::bench {

std::string WorkloadSpec::Name() const {
  return skew == 0 ? "uuid" : absl::StrFormat("%.1f", skew);
}

namespace {

constexpr double kShortRatio = 0.75;

std::unique_ptr<Workload> Generate(const WorkloadSpec& spec) {
  auto w = std::make_unique<Workload>();
  w->spec = spec;
  Random rng(0x5EED0000 + static_cast<uint64_t>(spec.skew * 10) * 1000003 + spec.vocabulary);
  std::vector<std::pair<size_t, size_t>> spans;  // offset, length in arena
  if (spec.skew == 0) {
    static const char kHex[] = "0123456789abcdef";
    w->arena.resize(spec.tokens * 36);
    for (size_t t = 0; t < spec.tokens; ++t) {
      char* p = w->arena.data() + t * 36;
      const uint64_t hi = rng.Next();
      const uint64_t lo = rng.Next();
      int nibble = 0;
      for (int i = 0; i < 36; ++i) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
          p[i] = '-';
          continue;
        }
        const uint64_t word = nibble < 16 ? hi : lo;
        p[i] = kHex[(word >> (4 * (nibble & 15))) & 15];
        ++nibble;
      }
      spans.emplace_back(t * 36, 36);
    }
    w->tokens.reserve(spec.tokens);
    for (const auto& [offset, length] : spans) {
      w->tokens.emplace_back(w->arena.data() + offset, length);
    }
    w->distinct_terms = spec.tokens;
    return w;
  }
  absl::flat_hash_set<std::string> seen;
  seen.reserve(spec.vocabulary);
  std::string term;
  while (spans.size() < spec.vocabulary) {
    const bool is_short = rng.Bernoulli(kShortRatio);
    const size_t length = is_short ? rng.Range(1, 8) : rng.Range(9, 32);
    term.resize(length);
    for (char& c : term) c = static_cast<char>('a' + rng.Uniform(26));
    if (!seen.insert(term).second) continue;
    spans.emplace_back(w->arena.size(), length);
    w->arena += term;
  }
  std::vector<bool> drawn(spec.vocabulary);
  w->tokens.reserve(spec.tokens);
  for (size_t t = 0; t < spec.tokens; ++t) {
    const double u = rng.NextDouble();
    size_t rank =
        static_cast<size_t>(static_cast<double>(spec.vocabulary) * std::pow(u, spec.skew));
    if (rank >= spec.vocabulary) rank = spec.vocabulary - 1;
    const auto& [offset, length] = spans[rank];
    w->tokens.emplace_back(w->arena.data() + offset, length);
    if (!drawn[rank]) {
      drawn[rank] = true;
      ++w->distinct_terms;
    }
  }
  return w;
}

}  // namespace

uint64_t StreamHash(const Workload& w) {
  uint64_t h = 0xcbf29ce484222325ULL;
  auto mix = [&h](unsigned char c) {
    h ^= c;
    h *= 0x100000001b3ULL;
  };
  for (std::string_view token : w.tokens) {
    mix(static_cast<unsigned char>(token.size()));
    for (char c : token) mix(static_cast<unsigned char>(c));
  }
  return h;
}

const Workload& GetWorkload(const WorkloadSpec& spec) {
  static std::mutex mu;
  static std::map<std::tuple<double, size_t, size_t>, std::unique_ptr<Workload>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[{spec.skew, spec.vocabulary, spec.tokens}];
  if (slot == nullptr) slot = Generate(spec);
  return *slot;
}

}  // namespace invert::bench

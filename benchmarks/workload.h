// Workload: the token streams of the terms-hash microbenchmark
// (docs/benchmarks.md, section 1 of the design notes), generated once per
// process and deterministically from fixed seeds.
//
//   skew s > 0: a vocabulary of V distinct terms, 75% of them 1-8 bytes and
//     the rest 9-32 bytes (lowercase letters), in random order; each token is
//     vocabulary[floor(V * u^s)] with u uniform in [0, 1). s = 1 is uniform;
//     larger s concentrates tokens on a few frequent terms.
//   uuid: every token a fresh 36-byte UUID string (V = token count).
#ifndef INVERT_BENCHMARKS_WORKLOAD_H_
#define INVERT_BENCHMARKS_WORKLOAD_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace invert::bench {

struct WorkloadSpec {
  double skew;  // 0 means uuid
  size_t vocabulary;
  size_t tokens;
  std::string Name() const;  // "1.0", "6.0", "uuid"
};

struct Workload {
  WorkloadSpec spec;
  std::string arena;                     // all term bytes
  std::vector<std::string_view> tokens;  // the stream, views into arena
  size_t distinct_terms = 0;             // distinct terms actually drawn
};

inline constexpr size_t kTokensPerDoc = 1000;

// The matrix's sizes and workloads, shared by the benchmark and by
// invert_dump_workload (which writes the same streams for the Lucene peer).
struct WorkloadSize {
  const char* name;
  size_t vocabulary;
  size_t tokens;
};
inline constexpr WorkloadSize kWorkloadSizes[] = {{"light", 256 * 1024, 2'000'000},
                                                  {"scaled", 2 * 1024 * 1024, 16'000'000}};
inline constexpr double kWorkloadSkews[] = {1.0, 3.0, 6.0, 0.0};  // 0 = uuid

// The spec of one cell: for uuid the vocabulary is the token count.
inline WorkloadSpec MakeSpec(double skew, const WorkloadSize& size) {
  return WorkloadSpec{skew, skew == 0 ? size.tokens : size.vocabulary, size.tokens};
}

// FNV-1a (64-bit) over every token in order, each as its length (one byte,
// tokens are at most 36 bytes) followed by its bytes. The Lucene peer
// computes the same over the file it loads (benchmarks/peers/README.md).
uint64_t StreamHash(const Workload& w);

// Returns the workload for `spec`, generating it on first use.
const Workload& GetWorkload(const WorkloadSpec& spec);

}  // namespace invert::bench

#endif  // INVERT_BENCHMARKS_WORKLOAD_H_

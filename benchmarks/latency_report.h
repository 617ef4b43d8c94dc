// Latency percentiles for the prefetch benchmarks: both report P50/P90/P99
// of per-iteration latencies in nanoseconds as Google Benchmark counters.
#ifndef INVERT_BENCHMARKS_LATENCY_REPORT_H_
#define INVERT_BENCHMARKS_LATENCY_REPORT_H_

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace invert::bench {

// The q-quantile (nearest rank below) of sorted `latencies`; 0 if empty.
inline double QuantileOfSorted(const std::vector<uint64_t>& latencies, double q) {
  if (latencies.empty()) return 0;
  return static_cast<double>(latencies[static_cast<size_t>(q * (latencies.size() - 1))]);
}

// Sorts `latencies` once and sets the counters p50_ns, p90_ns and p99_ns.
inline void ReportLatencyPercentiles(benchmark::State& state, std::vector<uint64_t>& latencies) {
  std::sort(latencies.begin(), latencies.end());
  state.counters["p50_ns"] = QuantileOfSorted(latencies, 0.50);
  state.counters["p90_ns"] = QuantileOfSorted(latencies, 0.90);
  state.counters["p99_ns"] = QuantileOfSorted(latencies, 0.99);
}

}  // namespace invert::bench

#endif  // INVERT_BENCHMARKS_LATENCY_REPORT_H_

// The terms-hash microbenchmark matrix (design notes, benchmarks section 1):
//
//   indexSegment          add every token of the stream to one field
//   indexSegmentAndSort   the same, then sort the terms as a flush does
//   .../chain             the same stream through the whole indexing chain,
//                         as Lucene's side of the comparison runs it
//                         (benchmarks/peers/LuceneTermsHash.java): documents
//                         of pre-analyzed tokens (Field::Tokens, one field,
//                         docs+freqs+positions, no norms) added to a public
//                         InMemorySegment (one, reused across segments as a
//                         long-running indexer does); indexSegmentAndSort/.../chain is
//                         add + FlushTo (sort and write every file of the
//                         segment, to a tmpfs folder when /dev/shm exists),
//                         with the flush alone as flush_ns_per_token
//   flatHashMapFind       baseline: find-or-insert each token in an
//                         absl::flat_hash_map<std::string_view, uint32_t> whose
//                         keys are copied into an arena (no postings written)
//
// x workloads {1.0, 3.0, 6.0, uuid} x sizes {light: V=256k, 2M tokens;
// scaled: V=2M, 16M tokens} x term-byte layouts. Tokens go in documents of
// 1,000 (position = index in the doc) to a field indexing docs, freqs and
// positions. The counter ns_per_token is what the comparison table quotes.
//
// Run scripts/bench_terms_hash.sh, which adds repetitions, random
// interleaving and JSON output, and prints the table.
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "index/postings_writer_per_field.h"
#include "index/terms_hash.h"
#include "invert/document.h"
#include "invert/field_type.h"
#include "invert/in_memory_segment.h"
#include "invert/term_bytes_layout.h"
#include "workload.h"

namespace invert::bench {
namespace {

constexpr TermBytesLayout kLayouts[] = {TermBytesLayout::kShared, TermBytesLayout::kSeparate};

void SetCounters(benchmark::State& state, const Workload& w) {
  const double tokens = static_cast<double>(w.tokens.size());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * w.tokens.size()));
  state.counters["ns_per_token"] = benchmark::Counter(
      tokens * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["distinct_terms"] = static_cast<double>(w.distinct_terms);
  // The low 32 bits of the stream's hash (exact in a double): the table
  // script checks them against the file the Lucene peer indexed.
  state.counters["stream_hash32"] = static_cast<double>(StreamHash(w) & 0xffffffffu);
}

// Memory is warm, as in a long-running indexer after its first flush (and as
// in the seed's JMH runs, which pre-touch the heap): pool blocks come from an
// allocator that recycles them across iterations, the hash tables and
// per-term records from its BlockCache (as IndexWriter's threads and a reused
// InMemorySegment do), and malloc keeps other freed memory instead of
// returning it to the system (see main()). First-touch page faults cost ~5 us
// per 4 KiB page on the VMs we measure on, which would otherwise add ~20 ns
// per token to every cell.
BlockAllocator& WarmAllocator() {
  static RamCounter counter;
  // Up to 8 GiB of free blocks and of large arrays (the lists are reserved
  // up front, so the bounds must be finite: 256Ki pointers).
  static BlockCache cache(/*max_blocks=*/size_t{1} << 18);
  static BlockAllocator allocator(&counter, /*max_free_blocks=*/size_t{1} << 18, &cache);
  return allocator;
}

// One in-memory segment's worth of state, built fresh per iteration.
struct Segment {
  explicit Segment(TermBytesLayout layout)
      : terms_hash(&WarmAllocator(), layout),
        field(&terms_hash, IndexOptions::kDocsAndFreqsAndPositions, /*payloads=*/false, &counter) {}
  RamCounter counter;  // per-term arrays; pool blocks count on WarmAllocator's
  TermsHash terms_hash;
  PostingsWriterPerField field;
  int64_t ram_bytes() const {
    return counter.bytes() +
           WarmAllocator().live_blocks() * static_cast<int64_t>(BlockAllocator::kBlockSize);
  }
};

// Kept out of line so callgrind's --toggle-collect can isolate it.
__attribute__((noinline)) void RunIndexSegment(Segment& segment, const Workload& w) {
  const size_t n = w.tokens.size();
  const std::string_view* tokens = w.tokens.data();
  uint32_t doc = 0;
  uint32_t position = 0;
  for (size_t i = 0; i < n; ++i) {
    segment.field.Add(tokens[i], doc, position);
    if (++position == kTokensPerDoc) {
      position = 0;
      ++doc;
    }
  }
}

// The same, a document (kTokensPerDoc tokens) at a time through the batched
// path that the indexing chain uses.
__attribute__((noinline)) void RunIndexSegmentBatched(Segment& segment, const Workload& w) {
  const size_t n = w.tokens.size();
  uint32_t doc = 0;
  for (size_t start = 0; start < n; start += kTokensPerDoc, ++doc) {
    const size_t count = std::min(kTokensPerDoc, n - start);
    segment.field.AddTerms(doc, std::span<const std::string_view>(w.tokens.data() + start, count));
  }
}

__attribute__((noinline)) size_t RunSort(Segment& segment) {
  return segment.field.terms().SortTerms().size();
}

void BM_IndexSegment(benchmark::State& state, WorkloadSpec spec, TermBytesLayout layout, bool sort,
                     bool batched) {
  const Workload& w = GetWorkload(spec);
  int64_t ram = 0;
  for (auto _ : state) {
    auto segment = std::make_unique<Segment>(layout);
    if (batched) {
      RunIndexSegmentBatched(*segment, w);
    } else {
      RunIndexSegment(*segment, w);
    }
    if (sort) benchmark::DoNotOptimize(RunSort(*segment));
    ram = segment->ram_bytes();
    state.PauseTiming();
    segment.reset();
    state.ResumeTiming();
  }
  SetCounters(state, w);
  state.counters["ram_bytes_per_token"] = static_cast<double>(ram) / w.tokens.size();
}

// The stream as pre-analyzed tokens (position increment 1, no offsets),
// built once per workload outside any timing.
const std::vector<PreAnalyzedToken>& ChainTokens(const Workload& w) {
  static std::map<const Workload*, std::vector<PreAnalyzedToken>> cache;
  auto& tokens = cache[&w];
  if (tokens.empty()) {
    tokens.reserve(w.tokens.size());
    for (std::string_view t : w.tokens) tokens.push_back({.term = t});
  }
  return tokens;
}

std::filesystem::path FlushFolder() {
  const std::filesystem::path base = std::filesystem::is_directory("/dev/shm")
                                         ? "/dev/shm"
                                         : std::filesystem::temp_directory_path();
  return base / ("invert_terms_hash_flush_" + std::to_string(::getpid()));
}

// Minor page faults of the process so far (first touches of fresh pages).
int64_t MinorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Out of line for callgrind's --toggle-collect (the name matches
// scripts/bench_counters.sh's *RunIndexSegment*).
__attribute__((noinline)) absl::Status RunIndexSegmentChain(
    InMemorySegment& segment, const std::vector<PreAnalyzedToken>& tokens, const FieldType& type) {
  for (size_t start = 0; start < tokens.size(); start += kTokensPerDoc) {
    const size_t count = std::min(kTokensPerDoc, tokens.size() - start);
    Document doc;
    doc.Add(Field::Tokens("body", std::span(tokens.data() + start, count), type));
    if (absl::Status s = segment.AddDocument(doc); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// The whole chain: one document of kTokensPerDoc pre-analyzed tokens at a
// time into an InMemorySegment, then (flush) FlushTo a tmpfs folder.
void BM_ChainSegment(benchmark::State& state, WorkloadSpec spec, TermBytesLayout layout,
                     bool flush) {
  const Workload& w = GetWorkload(spec);
  const std::vector<PreAnalyzedToken>& tokens = ChainTokens(w);
  FieldType type;
  type.index_options = IndexOptions::kDocsAndFreqsAndPositions;
  type.norms = false;
  const std::filesystem::path folder = FlushFolder();
  double flush_seconds = 0;
  int64_t ram = 0;
  // One InMemorySegment for all segments, as a long-running indexer keeps
  // one per thread: FlushTo empties it and keeps the flushed segment's pool
  // blocks for the next one (Lucene's heap is pre-touched and reused). One
  // untimed segment first, so that every timed one reuses its predecessor's
  // blocks. The cells without flush flush untimed.
  std::unique_ptr<InMemorySegment> segment = InMemorySegment::Create({.layout = layout});
  auto fail = [&state](const absl::Status& s) {
    state.SkipWithError(std::string(s.message()).c_str());
  };
  auto flush_untimed = [&]() {
    absl::Status s = segment->FlushTo(folder.string(), "_0");
    std::filesystem::remove_all(folder);
    return s;
  };
  if (absl::Status s = RunIndexSegmentChain(*segment, tokens, type); !s.ok()) return fail(s);
  if (absl::Status s = flush_untimed(); !s.ok()) return fail(s);
  int64_t timed_faults = 0;  // minor page faults while adding (flush excluded)
  for (auto _ : state) {
    const int64_t faults_before = MinorFaults();
    if (absl::Status s = RunIndexSegmentChain(*segment, tokens, type); !s.ok()) return fail(s);
    timed_faults += MinorFaults() - faults_before;
    ram = segment->ram_bytes_used();
    if (flush) {
      const auto t0 = std::chrono::steady_clock::now();
      if (absl::Status s = segment->FlushTo(folder.string(), "_0"); !s.ok()) return fail(s);
      flush_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    state.PauseTiming();
    if (flush) {
      std::filesystem::remove_all(folder);
    } else if (absl::Status s = flush_untimed(); !s.ok()) {
      return fail(s);
    }
    state.ResumeTiming();
  }
  SetCounters(state, w);
  state.counters["ram_bytes_per_token"] = static_cast<double>(ram) / w.tokens.size();
  state.counters["minor_faults_per_segment"] =
      static_cast<double>(timed_faults) / static_cast<double>(state.iterations());
  if (flush) {
    state.counters["flush_ns_per_token"] =
        flush_seconds * 1e9 / static_cast<double>(state.iterations()) / w.tokens.size();
  }
}

// A bump arena for the baseline's keys.
class KeyArena {
 public:
  std::string_view Copy(std::string_view key) {
    if (key.size() > left_) {
      chunks_.push_back(std::make_unique<char[]>(kChunk));
      next_ = chunks_.back().get();
      left_ = kChunk;
    }
    std::memcpy(next_, key.data(), key.size());
    std::string_view copy(next_, key.size());
    next_ += key.size();
    left_ -= key.size();
    return copy;
  }

 private:
  static constexpr size_t kChunk = 1 << 20;
  std::vector<std::unique_ptr<char[]>> chunks_;
  char* next_ = nullptr;
  size_t left_ = 0;
};

__attribute__((noinline)) size_t RunFlatHashMap(const Workload& w) {
  absl::flat_hash_map<std::string_view, uint32_t> map;
  KeyArena arena;
  uint32_t next_id = 0;
  uint64_t checksum = 0;
  for (std::string_view token : w.tokens) {
    auto it = map.lazy_emplace(
        token, [&](const auto& construct) { construct(arena.Copy(token), next_id++); });
    checksum += it->second;
  }
  benchmark::DoNotOptimize(checksum);
  return map.size();
}

// Floor: read and hash every token, nothing else.
__attribute__((noinline)) uint64_t RunHashOnly(const Workload& w) {
  uint64_t sum = 0;
  for (std::string_view token : w.tokens) sum += BytesRefHash::HashBytes(token);
  return sum;
}

void BM_HashOnly(benchmark::State& state, WorkloadSpec spec) {
  const Workload& w = GetWorkload(spec);
  for (auto _ : state) benchmark::DoNotOptimize(RunHashOnly(w));
  SetCounters(state, w);
}

void BM_FlatHashMapFind(benchmark::State& state, WorkloadSpec spec) {
  const Workload& w = GetWorkload(spec);
  for (auto _ : state) benchmark::DoNotOptimize(RunFlatHashMap(w));
  SetCounters(state, w);
}

void RegisterAll() {
  for (const WorkloadSize& size : kWorkloadSizes) {
    for (double skew : kWorkloadSkews) {
      const WorkloadSpec spec = MakeSpec(skew, size);
      const std::string cell = "/" + spec.Name() + "/" + size.name;
      for (bool sort : {false, true}) {
        for (bool batched : {false, true}) {
          for (TermBytesLayout layout : kLayouts) {
            const std::string name = std::string(sort ? "indexSegmentAndSort" : "indexSegment") +
                                     cell + "/" + std::string(TermBytesLayoutName(layout)) +
                                     (batched ? "/doc" : "/token");
            benchmark::RegisterBenchmark(name.c_str(), BM_IndexSegment, spec, layout, sort, batched)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
          }
        }
      }
      for (bool flush : {false, true}) {
        for (TermBytesLayout layout : kLayouts) {
          const std::string name = std::string(flush ? "indexSegmentAndSort" : "indexSegment") +
                                   cell + "/" + std::string(TermBytesLayoutName(layout)) + "/chain";
          benchmark::RegisterBenchmark(name.c_str(), BM_ChainSegment, spec, layout, flush)
              ->Unit(benchmark::kMillisecond)
              ->UseRealTime();
        }
      }
      benchmark::RegisterBenchmark(("hashOnly" + cell + "/floor/token").c_str(), BM_HashOnly, spec)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
      benchmark::RegisterBenchmark(("flatHashMapFind" + cell + "/baseline/token").c_str(),
                                   BM_FlatHashMapFind, spec)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
}

}  // namespace
}  // namespace invert::bench

int main(int argc, char** argv) {
#ifndef NDEBUG
  std::fprintf(stderr, "WARNING: assertions are enabled; benchmarks are unnecessarily slow\n");
#endif
  // Keep freed memory in the process (see WarmAllocator).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, INT32_MAX);
  invert::bench::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

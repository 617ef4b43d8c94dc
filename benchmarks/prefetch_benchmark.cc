// Prefetch benchmark (design notes, benchmarks section 3; seeds 000, 001):
// random small reads from a large file of random bytes through the
// memory-mapped IndexInput, with each prefetch policy, and through the
// batched read path (BatchReader: io_uring, or the pread pool).
//
//   random3x16/<cache>/<path>   seed 001: each iteration reads 3 random
//       16-byte values, from 3 inputs, prefetching each first (Prefetch(offset,
//       1), as the seed does) unless the path is "off".
//       cache "cached": a 16 MiB slice, read once before the run;
//       cache "uncached": the whole file, evicted before the run with
//       posix_fadvise(POSIX_FADV_DONTNEED) (counter resident_pct says how
//       much of it was still in memory after the eviction).
//   mixed<hit%>/<path>          seed 000: a re-ranking step; each iteration
//       prefetches 16 candidates (16 bytes each), then reads them; each is
//       in the cached first 16 MiB with probability hit%, else in the
//       evicted rest. One input per thread, so kBackoff's counter sees the
//       mix.
//
// paths: off, always, backoff (PrefetchPolicy), batched (one BatchReader
// call per iteration). Threads 1 and 10; every thread opens its own inputs
// (and reader). Uncached and mixed runs advise ReadAdvice::kRandom (single
// page faults, as a random-access reader should; the default 128 KiB
// read-around would warm the file as the run goes).
//
// Counters (across all threads of a run): p50_ns p90_ns p99_ns per
// iteration, madvise/mincore/syscalls per iteration, resident_pct.
//
// File: --prefetch_file_mb (env INVERT_PREFETCH_FILE_MB, default 2048) MiB
// in --prefetch_dir (env INVERT_PREFETCH_DIR, default the system temp
// folder); created once, reused if it has the right size, deleted at exit
// unless --prefetch_keep_file. --prefetch_iterations_scale (default 1)
// multiplies every run's iteration count. --prefetch_batch_backend=pool makes
// the batched path use the pread thread pool even where io_uring works.
// For a quick run:
//   INVERT_PREFETCH_FILE_MB=256 invert_prefetch_benchmark
//       --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "invert/directory.h"
#include "latency_report.h"
#include "store/batch_reader.h"
#include "store/index_input.h"
#include "store/index_output.h"
#include "util/random.h"

namespace invert::bench {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kHotBytes = 16 * kMiB;
constexpr size_t kValueBytes = 16;

enum class Path { kOff, kAlways, kBackoff, kBatched };

const char* PathName(Path path) {
  switch (path) {
    case Path::kOff:
      return "off";
    case Path::kAlways:
      return "always";
    case Path::kBackoff:
      return "backoff";
    case Path::kBatched:
      return "batched";
  }
  return "?";
}

PrefetchPolicy PolicyOf(Path path) {
  return path == Path::kAlways    ? PrefetchPolicy::kAlways
         : path == Path::kBackoff ? PrefetchPolicy::kBackoff
                                  : PrefetchPolicy::kOff;
}

struct Flags {
  uint64_t file_mb = 2048;
  std::string dir;
  bool keep_file = false;
  double iterations_scale = 1.0;
  BatchReader::Backend backend = BatchReader::Backend::kIoUring;
};
Flags flags;

// What the runs of one benchmark share; rebuilt by each Setup.
struct Shared {
  std::unique_ptr<FSDirectory> dir;
  std::string name;
  std::string path;  // of the file, for fadvise and BatchReader
  uint64_t size = 0;
  std::optional<IndexInput> input;  // whole file, or the hot slice
  double resident_pct = 0;
  std::unique_ptr<std::barrier<>> barrier;
  std::mutex mu;
  std::vector<uint64_t> latencies;
  uint64_t madvise = 0, mincore = 0, syscalls = 0, iterations = 0;
  std::string backend;
};
Shared* shared = nullptr;

void Die(const std::string& what, const absl::Status& status) {
  std::fprintf(stderr, "prefetch benchmark: %s: %s\n", what.c_str(), status.ToString().c_str());
  std::exit(1);
}

// Creates (or reuses) the file of random bytes.
void PrepareFile() {
  auto dir = FSDirectory::Open(flags.dir, /*create=*/true);
  if (!dir.ok()) Die("open " + flags.dir, dir.status());
  shared->dir = *std::move(dir);
  shared->name = "invert_prefetch_bench_" + std::to_string(flags.file_mb) + "m.dat";
  shared->path = shared->dir->path() + "/" + shared->name;
  shared->size = flags.file_mb * kMiB;
  auto length = shared->dir->FileLength(shared->name);
  if (length.ok() && *length == shared->size) return;
  if (length.ok()) (void)shared->dir->DeleteFile(shared->name);
  std::fprintf(stderr, "prefetch benchmark: writing %llu MiB of random bytes to %s\n",
               static_cast<unsigned long long>(flags.file_mb), shared->path.c_str());
  auto out = CreateOutput(shared->dir.get(), shared->name);
  if (!out.ok()) Die("create", out.status());
  Random rng(20240517);
  std::vector<uint64_t> block(kMiB / 8);
  for (uint64_t written = 0; written < shared->size; written += kMiB) {
    for (uint64_t& word : block) word = rng.Next();
    (*out)->WriteBytes(block.data(), kMiB);
  }
  if (absl::Status s = (*out)->Close(); !s.ok()) Die("write", s);
  if (absl::Status s = shared->dir->Sync({shared->name}); !s.ok()) Die("fsync", s);
}

// Drops the file's pages from the page cache. Pages mapped by a live
// mapping are skipped by the kernel, so the caller unmaps first.
void Evict() {
  const int fd = ::open(shared->path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) Die("open for eviction", absl::ErrnoToStatus(errno, shared->path));
  const int error = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
  if (error != 0) Die("posix_fadvise", absl::ErrnoToStatus(error, shared->path));
}

// Percentage of the file's pages in memory (mincore over a fresh mapping).
double ResidentPercent(const MappedFile& file) {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t pages = (file.size() + page - 1) / page;
  std::vector<unsigned char> vec(pages);
  if (::mincore(const_cast<uint8_t*>(file.bytes().data()), file.size(), vec.data()) < 0) {
    return -1;
  }
  uint64_t resident = 0;
  for (unsigned char v : vec) resident += v & 1;
  return 100.0 * static_cast<double>(resident) / static_cast<double>(pages);
}

// Opens the file for a run: evicted first or not, the hot region warmed or
// not, the whole file or only the hot slice.
void OpenForRun(const benchmark::State& state, bool evict, bool warm_hot, bool hot_slice_only) {
  shared->input.reset();  // unmap before evicting
  if (evict) Evict();
  auto input = OpenInput(shared->dir.get(), shared->name);
  if (!input.ok()) Die("open input", input.status());
  if (evict) {
    if (absl::Status s = input->SetReadAdvice(ReadAdvice::kRandom); !s.ok()) Die("madvise", s);
  }
  auto mapped = shared->dir->OpenFile(shared->name);
  shared->resident_pct = mapped.ok() ? ResidentPercent(**mapped) : -1;
  if (warm_hot) {  // one read per page
    uint64_t sum = 0;
    const std::span<const uint8_t> bytes = input->bytes();
    for (uint64_t i = 0; i < kHotBytes; i += 4096) sum += bytes[i];
    benchmark::DoNotOptimize(sum);
  }
  if (hot_slice_only) {
    auto slice = input->Slice(0, kHotBytes);
    if (!slice.ok()) Die("slice", slice.status());
    shared->input = *std::move(slice);
  } else {
    shared->input = *std::move(input);
  }
  shared->barrier = std::make_unique<std::barrier<>>(state.threads());
  shared->latencies.clear();
  shared->madvise = shared->mincore = shared->syscalls = shared->iterations = 0;
  shared->backend.clear();
}

void SetupCached(const benchmark::State& state) { OpenForRun(state, false, true, true); }
void SetupUncached(const benchmark::State& state) { OpenForRun(state, true, false, false); }
void SetupMixed(const benchmark::State& state) { OpenForRun(state, true, true, false); }

void Teardown(const benchmark::State&) { shared->barrier.reset(); }

using Clock = std::chrono::steady_clock;

// Merges a thread's measurements; thread 0 reports them for the run.
void Report(benchmark::State& state, std::vector<uint64_t>& latencies, const PrefetchStats& stats,
            uint64_t syscalls, const char* backend) {
  {
    std::lock_guard<std::mutex> lock(shared->mu);
    shared->latencies.insert(shared->latencies.end(), latencies.begin(), latencies.end());
    shared->madvise += stats.madvise;
    shared->mincore += stats.mincore;
    shared->syscalls += syscalls;
    shared->iterations += latencies.size();
    if (backend != nullptr) shared->backend = backend;
  }
  shared->barrier->arrive_and_wait();
  if (state.thread_index() != 0) return;
  const double n = static_cast<double>(std::max<uint64_t>(shared->iterations, 1));
  ReportLatencyPercentiles(state, shared->latencies);
  state.counters["madvise_per_iter"] = static_cast<double>(shared->madvise) / n;
  state.counters["mincore_per_iter"] = static_cast<double>(shared->mincore) / n;
  state.counters["syscalls_per_iter"] = static_cast<double>(shared->syscalls) / n;
  state.counters["resident_pct"] = shared->resident_pct;
  if (!shared->backend.empty()) state.SetLabel(shared->backend);
}

// Reads `count` values at `offsets` the way `path` does; returns false on error.
bool ReadValues(Path path, std::span<IndexInput> inputs, BatchReader* reader,
                std::span<const uint64_t> offsets, uint8_t (*out)[kValueBytes],
                uint64_t prefetch_length) {
  const size_t count = offsets.size();
  if (path == Path::kBatched) {
    ReadRequest requests[16];
    for (size_t i = 0; i < count; ++i) requests[i] = {offsets[i], {out[i], kValueBytes}};
    return reader->Read({requests, count}).ok();
  }
  bool ok = true;
  for (size_t i = 0; i < count; ++i) {
    IndexInput& in = inputs[i % inputs.size()];
    if (path != Path::kOff) ok &= in.Prefetch(offsets[i], prefetch_length).ok();
  }
  for (size_t i = 0; i < count; ++i) {
    IndexInput& in = inputs[i % inputs.size()];
    ok &= in.Seek(offsets[i]).ok();
    ok &= in.ReadBytes(out[i], kValueBytes);
  }
  return ok;
}

std::unique_ptr<BatchReader> OpenReader(benchmark::State& state) {
  BatchReader::Options options;
  options.backend = flags.backend;
  options.queue_depth = 16;
  options.pool_threads = 3;
  auto reader = BatchReader::Open(shared->path, options);
  if (!reader.ok()) {
    state.SkipWithError(std::string(reader.status().message()).c_str());
    return nullptr;
  }
  return *std::move(reader);
}

// Seed 001: 3 inputs, 3 random 16-byte values per iteration.
void RandomReads(benchmark::State& state, Path path) {
  std::vector<IndexInput> inputs(3, *shared->input);
  for (IndexInput& in : inputs) in.set_prefetch_policy(PolicyOf(path));
  std::unique_ptr<BatchReader> reader;
  if (path == Path::kBatched && !(reader = OpenReader(state))) return;
  const uint64_t base = shared->input->file_offset();
  const uint64_t span = shared->input->length() - kValueBytes;
  Random rng(0x5eed0001 + static_cast<uint64_t>(state.thread_index()) * 7919);
  std::vector<uint64_t> latencies;
  latencies.reserve(static_cast<size_t>(state.max_iterations));
  uint8_t values[3][kValueBytes];
  uint64_t offsets[3];
  bool ok = true;
  for (auto _ : state) {
    for (uint64_t& offset : offsets) offset = rng.Uniform(span + 1);
    if (path == Path::kBatched) {
      for (uint64_t& offset : offsets) offset += base;  // reader offsets are file offsets
    }
    const Clock::time_point start = Clock::now();
    ok &= ReadValues(path, inputs, reader.get(), offsets, values, 1);
    const Clock::time_point end = Clock::now();
    benchmark::DoNotOptimize(values);
    latencies.push_back(static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count()));
  }
  if (!ok) state.SkipWithError("a read or prefetch failed");
  PrefetchStats stats;
  for (const IndexInput& in : inputs) {
    stats.madvise += in.prefetch_stats().madvise;
    stats.mincore += in.prefetch_stats().mincore;
  }
  Report(state, latencies, stats, reader ? reader->syscalls() : 0,
         reader ? BatchBackendName(reader->backend()) : nullptr);
}

// Seed 000: 16 candidates per iteration, `hit_pct` % of them in the hot
// (cached) first 16 MiB, the others in the evicted rest; prefetch all, then
// read all.
void MixedReads(benchmark::State& state, Path path, int hit_pct) {
  std::vector<IndexInput> inputs(1, *shared->input);
  inputs[0].set_prefetch_policy(PolicyOf(path));
  std::unique_ptr<BatchReader> reader;
  if (path == Path::kBatched && !(reader = OpenReader(state))) return;
  const uint64_t cold_span = shared->input->length() - kHotBytes - kValueBytes;
  Random rng(0x5eed0000 + static_cast<uint64_t>(state.thread_index()) * 7919);
  std::vector<uint64_t> latencies;
  latencies.reserve(static_cast<size_t>(state.max_iterations));
  constexpr size_t kCandidates = 16;
  uint8_t values[kCandidates][kValueBytes];
  uint64_t offsets[kCandidates];
  bool ok = true;
  for (auto _ : state) {
    for (uint64_t& offset : offsets) {
      offset = rng.Uniform(100) < static_cast<uint64_t>(hit_pct)
                   ? rng.Uniform(kHotBytes - kValueBytes)
                   : kHotBytes + rng.Uniform(cold_span);
    }
    const Clock::time_point start = Clock::now();
    ok &= ReadValues(path, inputs, reader.get(), offsets, values, kValueBytes);
    const Clock::time_point end = Clock::now();
    benchmark::DoNotOptimize(values);
    latencies.push_back(static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count()));
  }
  if (!ok) state.SkipWithError("a read or prefetch failed");
  Report(state, latencies, inputs[0].prefetch_stats(), reader ? reader->syscalls() : 0,
         reader ? BatchBackendName(reader->backend()) : nullptr);
}

int64_t Scaled(int64_t iterations) {
  return std::max<int64_t>(10, static_cast<int64_t>(iterations * flags.iterations_scale));
}

void RegisterAll() {
  constexpr Path kPaths[] = {Path::kOff, Path::kAlways, Path::kBackoff, Path::kBatched};
  for (bool cached : {true, false}) {
    for (Path path : kPaths) {
      const std::string name =
          std::string("random3x16/") + (cached ? "cached/" : "uncached/") + PathName(path);
      benchmark::RegisterBenchmark(name.c_str(),
                                   [path](benchmark::State& state) { RandomReads(state, path); })
          ->Setup(cached ? SetupCached : SetupUncached)
          ->Teardown(Teardown)
          ->Iterations(Scaled(cached ? 50000 : 1000))
          ->Threads(1)
          ->Threads(10)
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
  for (int hit_pct : {50, 90}) {
    for (Path path : kPaths) {
      const std::string name = "mixed" + std::to_string(hit_pct) + "/" + PathName(path);
      benchmark::RegisterBenchmark(
          name.c_str(),
          [path, hit_pct](benchmark::State& state) { MixedReads(state, path, hit_pct); })
          ->Setup(SetupMixed)
          ->Teardown(Teardown)
          ->Iterations(Scaled(400))
          ->Threads(1)
          ->Threads(10)
          ->UseRealTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

// Removes --prefetch_* flags from argv (Google Benchmark rejects unknown ones).
void ParseFlags(int* argc, char** argv) {
  if (const char* env = std::getenv("INVERT_PREFETCH_FILE_MB"))
    flags.file_mb = std::strtoull(env, nullptr, 10);
  if (const char* env = std::getenv("INVERT_PREFETCH_DIR")) flags.dir = env;
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* flag) -> const char* {
      const std::string prefix = std::string(flag) + "=";
      return arg.rfind(prefix, 0) == 0 ? argv[i] + prefix.size() : nullptr;
    };
    if (const char* v = value("--prefetch_file_mb")) {
      flags.file_mb = std::strtoull(v, nullptr, 10);
    } else if (const char* v2 = value("--prefetch_dir")) {
      flags.dir = v2;
    } else if (const char* v3 = value("--prefetch_iterations_scale")) {
      flags.iterations_scale = std::strtod(v3, nullptr);
    } else if (arg == "--prefetch_batch_backend=pool") {
      flags.backend = BatchReader::Backend::kThreadPool;
    } else if (arg == "--prefetch_keep_file" || arg == "--prefetch_keep_file=true") {
      flags.keep_file = true;
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  if (flags.dir.empty()) flags.dir = std::filesystem::temp_directory_path().string();
  if (flags.file_mb < 64) flags.file_mb = 64;  // room for the hot 16 MiB and a cold rest
}

}  // namespace
}  // namespace invert::bench

int main(int argc, char** argv) {
  using namespace invert::bench;
  ParseFlags(&argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
#ifndef NDEBUG
  std::fprintf(stderr, "prefetch benchmark: assertions are enabled; numbers are pessimistic\n");
#endif
  Shared state;
  shared = &state;
  PrepareFile();
  std::fprintf(stderr, "prefetch benchmark: %llu MiB file, io_uring %s\n",
               static_cast<unsigned long long>(flags.file_mb),
               invert::IoUringAvailable() ? "available" : "unavailable (pread pool)");
  RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  state.input.reset();
  if (!flags.keep_file) (void)state.dir->DeleteFile(state.name);
  return 0;
}

// MergeSegments (docs/merges.md, "The merge itself") on the bundled sample
// corpus (data/sample.lines, or $INVERT_CORPUS): the documents are indexed
// with LineDocSchema and flushed as $INVERT_MERGE_SEGMENTS (default 10)
// equal segments, once per configuration; each iteration merges them all into
// one new segment (fsync included, as a real merge), which is then deleted.
//   merge/vectors:V/store_body:S/deleted_pct:D
//     V: the body has term vectors (positions, offsets); S: the body is
//     stored; D: that share of each segment's documents is deleted (so its
//     stored fields and vectors are re-added instead of copied as blocks).
// Counters: in_MB/s (the inputs' file bytes per second, the number to
// compare with Lucene's merge MB/s on the same segments), out_MB/s, docs/s,
// blocks copied / recompressed, the merge's estimated peak memory. The files
// live in a temporary folder, in the page cache. Run with
// --benchmark_repetitions=5 and quote medians; not a timed test.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codec/segment_reader.h"
#include "index/indexing_chain.h"
#include "index/segment_flush.h"
#include "index/segment_merger.h"
#include "invert/line_docs.h"
#include "util/random.h"

namespace invert::bench {
namespace {

std::string CorpusPath() {
  if (const char* env = std::getenv("INVERT_CORPUS"); env != nullptr && *env) return env;
  return std::string(INVERT_SOURCE_DIR) + "/data/sample.lines";
}

int SegmentCount() {
  if (const char* env = std::getenv("INVERT_MERGE_SEGMENTS"); env != nullptr && *env) {
    return std::max(1, std::atoi(env));
  }
  return 10;
}

[[noreturn]] void Die(const std::string& what, const absl::Status& status) {
  std::fprintf(stderr, "%s: %s\n", what.c_str(), std::string(status.message()).c_str());
  std::exit(1);
}

std::string MakeTempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "invert_merge_XXXXXX");
  if (::mkdtemp(pattern.data()) == nullptr) std::exit(1);
  return pattern;
}

// One configuration's input segments.
struct Inputs {
  std::string path;
  std::unique_ptr<FSDirectory> dir;
  std::vector<std::unique_ptr<SegmentReader>> readers;
  std::vector<LiveDocs> live;
  std::vector<FieldInfo> fields;
  uint64_t bytes = 0;

  ~Inputs() {
    readers.clear();
    dir.reset();
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }

  std::vector<MergeInput> merge_inputs() const {
    std::vector<MergeInput> in;
    for (size_t i = 0; i < readers.size(); ++i) {
      in.push_back({readers[i].get(), live.empty() ? nullptr : &live[i]});
    }
    return in;
  }
};

const Inputs& GetInputs(bool vectors, bool store_body, int deleted_pct) {
  static std::map<std::tuple<bool, bool, int>, std::unique_ptr<Inputs>> cache;
  std::unique_ptr<Inputs>& slot = cache[{vectors, store_body, deleted_pct}];
  if (slot != nullptr) return *slot;
  slot = std::make_unique<Inputs>();
  Inputs& in = *slot;
  in.path = MakeTempDir();
  auto dir = FSDirectory::Open(in.path, false);
  if (!dir.ok()) Die("open temp dir", dir.status());
  in.dir = *std::move(dir);

  // Read the corpus once per configuration (it is small).
  auto source = OpenLineDocs(CorpusPath());
  if (!source.ok()) Die("cannot open corpus " + CorpusPath(), source.status());
  std::vector<std::string> storage;
  for (;;) {
    auto d = (*source)->Next();
    if (absl::IsOutOfRange(d.status())) break;
    if (!d.ok()) continue;
    storage.push_back(std::string(d->id) + '\0' + std::string(d->title) + '\0' +
                      std::string(d->date) + '\0' + std::string(d->body));
  }
  const LineDocSchema schema({.body_term_vectors = vectors, .store_body = store_body});
  const int segments = SegmentCount();
  const size_t per_segment = (storage.size() + segments - 1) / segments;
  Random rng(42);
  Document doc;
  for (int s = 0; s < segments; ++s) {
    IndexingChain chain(IndexingChainOptions{});
    for (size_t i = s * per_segment; i < std::min(storage.size(), (s + 1) * per_segment); ++i) {
      std::string_view line = storage[i];
      std::string_view parts[4];
      for (int p = 0; p < 3; ++p) {
        const size_t at = line.find('\0');
        parts[p] = line.substr(0, at);
        line.remove_prefix(at + 1);
      }
      parts[3] = line;
      schema.Build(parts[0], parts[1], parts[2], parts[3], &doc);
      if (!chain.AddDocument(doc).ok()) continue;
    }
    if (chain.num_docs() == 0) continue;
    const std::string name = "_" + std::to_string(s);
    absl::StatusOr<SegmentInfo> info = FlushSegment(chain, in.dir.get(), name);
    if (!info.ok()) Die("flush", info.status());
    auto reader = SegmentReader::Open(in.dir.get(), name, info->id);
    if (!reader.ok()) Die("open segment", reader.status());
    for (const SegmentFile& f : info->files) in.bytes += f.length;
    if (in.fields.empty()) in.fields = (*reader)->fields();
    if (deleted_pct > 0) {
      in.live.emplace_back((*reader)->doc_count());
      for (uint32_t d = 0; d < (*reader)->doc_count(); ++d) {
        if (rng.Uniform(100) < static_cast<uint64_t>(deleted_pct)) in.live.back().Delete(d);
      }
    }
    in.readers.push_back(std::move(*reader));
  }
  return in;
}

void BM_Merge(benchmark::State& state) {
  const bool vectors = state.range(0) != 0;
  const bool store_body = state.range(1) != 0;
  const int deleted_pct = static_cast<int>(state.range(2));
  const Inputs& in = GetInputs(vectors, store_body, deleted_pct);
  MergeOptions options;
  options.fields = in.fields;
  MergeStats last;
  uint64_t bytes_read = 0, bytes_written = 0, docs = 0;
  for (auto _ : state) {
    MergeStats stats;
    absl::StatusOr<MergeResult> merged =
        MergeSegments(in.merge_inputs(), in.dir.get(), "_m", {}, options, &stats);
    state.PauseTiming();
    if (!merged.ok()) Die("merge", merged.status());
    for (const SegmentFile& f : merged->info.files) (void)in.dir->DeleteFile(f.name);
    (void)in.dir->DeleteFile("_m.si");
    bytes_read += stats.bytes_read;
    bytes_written += stats.bytes_written;
    docs += stats.docs;
    last = stats;
    state.ResumeTiming();
  }
  state.counters["in_MB/s"] =
      benchmark::Counter(static_cast<double>(bytes_read) / 1e6, benchmark::Counter::kIsRate);
  state.counters["out_MB/s"] =
      benchmark::Counter(static_cast<double>(bytes_written) / 1e6, benchmark::Counter::kIsRate);
  state.counters["docs/s"] =
      benchmark::Counter(static_cast<double>(docs), benchmark::Counter::kIsRate);
  state.counters["in_MB"] = static_cast<double>(last.bytes_read) / 1e6;
  state.counters["terms"] = static_cast<double>(last.terms);
  state.counters["stored_copied"] = static_cast<double>(last.stored_blocks_copied);
  state.counters["stored_recomp"] = static_cast<double>(last.stored_blocks_recompressed);
  state.counters["peak_KB"] = static_cast<double>(last.peak_memory_bytes) / 1e3;
}
BENCHMARK(BM_Merge)
    ->ArgNames({"vectors", "store_body", "deleted_pct"})
    ->Args({0, 0, 0})
    ->Args({0, 1, 0})
    ->Args({0, 1, 10})
    ->Args({1, 1, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace invert::bench

BENCHMARK_MAIN();

// What the public read API costs over the internal cursors it wraps, on an
// index of the bundled sample corpus (data/sample.lines, title/date/body):
// walking every term of "body" and the postings (with positions) of every
// term, once through include/invert/ (TermsEnum, PostingsEnum: a virtual
// call per document and per position, flag checks) and once through the
// internal TermDictCursor/PostingsCursor. Reported per posting and per
// term; compare the two rows of each pair. Plus Advance over the skip
// headers of the frequent terms (internal cursor), per call.
//
//   invert_reader_api_benchmark --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "codec/segment_reader.h"
#include "index/commit_reader.h"
#include "invert/analysis.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"

namespace invert::bench {
namespace {

std::string SamplePath() { return std::string(INVERT_SOURCE_DIR) + "/data/sample.lines"; }

// Indexes the sample once per process into a temporary directory.
const std::string& SampleIndex() {
  static const std::string path = [] {
    const std::string dir =
        (std::filesystem::temp_directory_path() / "invert_reader_api_benchmark").string();
    std::filesystem::remove_all(dir);
    IndexWriterOptions options;
    options.open_mode = OpenMode::kCreate;
    auto writer = IndexWriter::Open(dir, options);
    if (!writer.ok()) {
      std::fprintf(stderr, "%s\n", std::string(writer.status().message()).c_str());
      std::abort();
    }
    std::ifstream in(SamplePath());
    std::string line;
    while (std::getline(in, line)) {
      const size_t a = line.find('\t');
      const size_t b = a == std::string::npos ? a : line.find('\t', a + 1);
      if (b == std::string::npos) continue;
      Document doc;
      doc.Add(Field::Text("title", std::string_view(line).substr(0, a), FieldType::Text(true)));
      doc.Add(Field::Text("body", std::string_view(line).substr(b + 1), FieldType::Text()));
      if (!(*writer)->AddDocument(doc).ok()) std::abort();
    }
    if (!(*writer)->Close().ok()) std::abort();
    return dir;
  }();
  return path;
}

void BM_WalkPublic(benchmark::State& state) {
  auto reader = IndexReader::Open(SampleIndex());
  if (!reader.ok()) std::abort();
  uint64_t postings = 0, positions = 0, terms = 0;
  for (auto _ : state) {
    for (const LeafReader* leaf : (*reader)->leaves()) {
      auto terms_enum = leaf->Terms("body");
      while (*(*terms_enum)->Next()) {
        ++terms;
        auto p = (*terms_enum)->Postings(kPostingsPositions);
        for (uint32_t d = (*p)->NextDoc(); d != PostingsEnum::kNoMoreDocs; d = (*p)->NextDoc()) {
          ++postings;
          for (uint32_t i = (*p)->freq(); i > 0 && (*p)->NextPosition(); --i) {
            benchmark::DoNotOptimize((*p)->position());
            ++positions;
          }
        }
      }
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(postings));
  state.counters["ns_per_posting"] = benchmark::Counter(
      static_cast<double>(postings), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["positions_per_posting"] = static_cast<double>(positions) / postings;
  state.counters["terms"] = static_cast<double>(terms) / state.iterations();
}

void BM_WalkInternal(benchmark::State& state) {
  auto reader = CommitReader::Open(SampleIndex());
  if (!reader.ok()) std::abort();
  uint64_t postings = 0, positions = 0, terms = 0;
  for (auto _ : state) {
    for (size_t s = 0; s < (*reader)->segment_count(); ++s) {
      const SegmentReader& seg = (*reader)->segment(s);
      const FieldInfo* body = seg.FieldByName("body");
      TermDictCursor cursor = seg.Terms(body->number)->NewCursor();
      while (*cursor.Next()) {
        ++terms;
        PostingsCursor p = seg.Postings(body->number, cursor.stats());
        while (p.NextDoc()) {
          ++postings;
          for (uint32_t i = p.freq(); i > 0 && p.NextPosition(); --i) {
            benchmark::DoNotOptimize(p.position());
            ++positions;
          }
        }
      }
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(postings));
  state.counters["ns_per_posting"] = benchmark::Counter(
      static_cast<double>(postings), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["positions_per_posting"] = static_cast<double>(positions) / postings;
  state.counters["terms"] = static_cast<double>(terms) / state.iterations();
}

// Advance over the skip headers: every term of "body" in >= 256 documents,
// from doc 0 in steps of 300 docs (mostly past two blocks), through the
// internal PostingsCursor; no positions read. Reported per Advance call.
void BM_AdvanceInternal(benchmark::State& state) {
  auto reader = CommitReader::Open(SampleIndex());
  if (!reader.ok()) std::abort();
  uint64_t advances = 0;
  for (auto _ : state) {
    for (size_t s = 0; s < (*reader)->segment_count(); ++s) {
      const SegmentReader& seg = (*reader)->segment(s);
      const FieldInfo* body = seg.FieldByName("body");
      TermDictCursor cursor = seg.Terms(body->number)->NewCursor();
      while (*cursor.Next()) {
        if (cursor.stats().doc_freq < 256) continue;
        PostingsCursor p = seg.Postings(body->number, cursor.stats());
        for (uint32_t target = 0; p.Advance(target); target = p.doc() + 300) {
          benchmark::DoNotOptimize(p.freq());
          ++advances;
        }
      }
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(advances));
  state.counters["ns_per_advance"] = benchmark::Counter(
      static_cast<double>(advances), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_WalkInternal)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AdvanceInternal)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_WalkPublic)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace invert::bench

BENCHMARK_MAIN();

// The whole in-memory indexing chain on the bundled sample corpus
// (data/sample.lines, or $INVERT_CORPUS): documents and tokens per second,
// input MB/s, and bytes of RAM per token indexed, for
//   layout {shared, separate} x input {analyzed text, pre-analyzed tokens}
//   x {without, with term vectors on the body}.
// Pre-analyzed: the corpus is run through the standard analyzer once, before
// timing, and the chain gets the tokens, so the cell measures inversion alone.
//
// Run scripts/bench_chain.sh for repetitions and the table.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "index/indexing_chain.h"
#include "index/segment_flush.h"
#include "invert/analysis.h"
#include "invert/directory.h"
#include "invert/line_docs.h"

namespace invert::bench {
namespace {

struct Corpus {
  struct Doc {
    std::string id, title, date, body;
    std::vector<std::string> body_terms;  // for the pre-analyzed input
    std::vector<PreAnalyzedToken> body_tokens;
    std::vector<std::string> title_terms;
    std::vector<PreAnalyzedToken> title_tokens;
  };
  std::vector<Doc> docs;
  uint64_t bytes = 0;
  uint64_t tokens = 0;
};

std::string CorpusPath() {
  if (const char* env = std::getenv("INVERT_CORPUS"); env != nullptr && *env) return env;
  return std::string(INVERT_SOURCE_DIR) + "/data/sample.lines";
}

void Tokenize(Analyzer& analyzer, const std::string& text, std::vector<std::string>* terms,
              std::vector<PreAnalyzedToken>* tokens) {
  TokenBuffer buffer;
  if (!analyzer.Analyze(text, &buffer).ok()) return;
  terms->reserve(buffer.size());
  for (size_t i = 0; i < buffer.size(); ++i) terms->emplace_back(buffer[i].term);
  for (size_t i = 0; i < buffer.size(); ++i) {
    const AnalyzedToken t = buffer[i];
    tokens->push_back({(*terms)[i], t.position_increment, t.start_offset, t.end_offset, {}});
  }
}

const Corpus& GetCorpus() {
  static const Corpus* corpus = [] {
    auto* c = new Corpus;
    auto source = OpenLineDocs(CorpusPath());
    if (!source.ok()) {
      std::fprintf(stderr, "cannot open corpus %s: %s\n", CorpusPath().c_str(),
                   std::string(source.status().message()).c_str());
      std::exit(1);
    }
    std::unique_ptr<Analyzer> analyzer = NewStandardAnalyzer();
    for (;;) {
      auto doc = (*source)->Next();
      if (absl::IsOutOfRange(doc.status())) break;
      if (!doc.ok()) continue;
      Corpus::Doc d{std::string(doc->id),
                    std::string(doc->title),
                    std::string(doc->date),
                    std::string(doc->body),
                    {},
                    {},
                    {},
                    {}};
      c->bytes += d.title.size() + d.date.size() + d.body.size() + d.id.size();
      c->docs.push_back(std::move(d));
    }
    for (Corpus::Doc& d : c->docs) {
      Tokenize(*analyzer, d.body, &d.body_terms, &d.body_tokens);
      Tokenize(*analyzer, d.title, &d.title_terms, &d.title_tokens);
      c->tokens += d.body_tokens.size() + d.title_tokens.size() + 1;
    }
    return c;
  }();
  return *corpus;
}

void BM_Chain(benchmark::State& state, TermBytesLayout layout, bool pre_analyzed,
              bool term_vectors) {
  const Corpus& corpus = GetCorpus();
  LineDocSchemaOptions schema_options;
  schema_options.body_term_vectors = term_vectors;
  const LineDocSchema schema(schema_options);
  FieldType title_type = FieldType::Text(true);
  int64_t ram = 0;
  for (auto _ : state) {
    IndexingChainOptions options;
    options.layout = layout;
    auto chain = std::make_unique<IndexingChain>(options);
    Document doc;
    for (const Corpus::Doc& d : corpus.docs) {
      if (pre_analyzed) {
        doc.fields.clear();
        doc.Add(Field::Keyword("id", d.id, FieldType::Keyword(true)));
        doc.Add(Field::Tokens("title", d.title_tokens, title_type, d.title));
        doc.Add(Field::Stored("date", d.date));
        doc.Add(Field::Tokens("body", d.body_tokens, schema.body_type()));
      } else {
        schema.Build(d.id, d.title, d.date, d.body, &doc);
      }
      if (!chain->AddDocument(doc).ok()) state.SkipWithError("document rejected");
    }
    ram = chain->ram_bytes_used();
    state.PauseTiming();
    chain.reset();
    state.ResumeTiming();
  }
  const double docs = static_cast<double>(corpus.docs.size());
  const double tokens = static_cast<double>(corpus.tokens);
  state.counters["docs_per_s"] =
      benchmark::Counter(docs, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["tokens_per_s"] =
      benchmark::Counter(tokens, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["MB_per_s"] = benchmark::Counter(static_cast<double>(corpus.bytes) / 1e6,
                                                  benchmark::Counter::kIsIterationInvariantRate);
  state.counters["ram_bytes_per_token"] = static_cast<double>(ram) / tokens;
  state.counters["docs"] = docs;
  state.counters["tokens"] = tokens;
}

// Flush alone: the chain is filled outside the timing; each iteration sorts
// every field's terms and writes all segment files to a scratch directory
// (page cache; fsync included, as in a real flush).
void BM_Flush(benchmark::State& state, TermBytesLayout layout, bool term_vectors) {
  const Corpus& corpus = GetCorpus();
  LineDocSchemaOptions schema_options;
  schema_options.body_term_vectors = term_vectors;
  const LineDocSchema schema(schema_options);
  char pattern[] = "/tmp/invert_flush_bench_XXXXXX";
  const std::string path = mkdtemp(pattern);
  auto dir = FSDirectory::Open(path, false);
  if (!dir.ok()) {
    state.SkipWithError("cannot open scratch directory");
    return;
  }
  uint64_t bytes = 0;
  uint64_t terms = 0;
  int segment = 0;
  for (auto _ : state) {
    state.PauseTiming();
    IndexingChainOptions options;
    options.layout = layout;
    auto chain = std::make_unique<IndexingChain>(options);
    Document doc;
    for (const Corpus::Doc& d : corpus.docs) {
      schema.Build(d.id, d.title, d.date, d.body, &doc);
      (void)chain->AddDocument(doc);
    }
    const std::string name = "_" + std::to_string(segment++);
    state.ResumeTiming();
    FlushStats stats;
    auto info = FlushSegment(*chain, dir->get(), name, &stats);
    state.PauseTiming();
    if (!info.ok()) state.SkipWithError("flush failed");
    bytes = stats.bytes_written;
    terms = stats.terms;
    chain.reset();
    for (const auto& f : info->files) (void)(*dir)->DeleteFile(f.name);
    (void)(*dir)->DeleteFile(name + ".si");
    state.ResumeTiming();
  }
  state.counters["MB_written_per_s"] = benchmark::Counter(
      static_cast<double>(bytes) / 1e6, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["ms_per_million_terms"] = benchmark::Counter(
      static_cast<double>(terms) / 1e6 / 1e3,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["terms"] = static_cast<double>(terms);
  state.counters["segment_bytes"] = static_cast<double>(bytes);
  std::filesystem::remove_all(path);
}

void RegisterAll() {
  for (TermBytesLayout layout : {TermBytesLayout::kShared, TermBytesLayout::kSeparate}) {
    for (bool tv : {false, true}) {
      const std::string name =
          std::string("flush/") + std::string(TermBytesLayoutName(layout)) + (tv ? "/tv" : "/notv");
      benchmark::RegisterBenchmark(name.c_str(), BM_Flush, layout, tv)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  for (TermBytesLayout layout : {TermBytesLayout::kShared, TermBytesLayout::kSeparate}) {
    for (bool pre : {false, true}) {
      for (bool tv : {false, true}) {
        const std::string name = std::string("chain/") + std::string(TermBytesLayoutName(layout)) +
                                 (pre ? "/preanalyzed" : "/analyzed") + (tv ? "/tv" : "/notv");
        benchmark::RegisterBenchmark(name.c_str(), BM_Chain, layout, pre, tv)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
  }
}

}  // namespace
}  // namespace invert::bench

int main(int argc, char** argv) {
#ifndef NDEBUG
  std::fprintf(stderr, "WARNING: assertions are enabled; benchmarks are unnecessarily slow\n");
#endif
  // Keep freed memory in the process: a long-running indexer reuses it, and
  // first-touch page faults are expensive on the VMs we measure on.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, INT32_MAX);
  invert::bench::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

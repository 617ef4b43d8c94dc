// Analysis throughput (MB/s of UTF-8 input, 1 MB = 10^6 bytes) of each
// analyzer, and of the standard analyzer's automatic path (ASCII fast path +
// ICU for non-ASCII pieces) against the ICU-only path:
//
//   <Analyzer>/<path>/<corpus>
//     Analyzer  Standard, StandardNfkc, Whitespace, Keyword, Utf8Check (the
//               input check alone: the floor every analyzer pays)
//     path      auto | icu   (standard analyzers only)
//     corpus    english        generated English-like text, ASCII only
//               english_mixed  the same with ~4% non-ASCII words ("café",
//                              “curly quotes”, em dashes, €)
//               sample         the document bodies of data/sample.lines
//                              (Wikipedia-like, see data/README.md), if the
//                              file exists (or INVERT_SAMPLE_LINES names
//                              another one); at most the first 16 MB
//
// The generated corpora are ~4 MB of documents of 2-12 sentences, built
// deterministically from a fixed seed. One iteration analyzes every document
// into one TokenBuffer, cleared per document, as an indexing thread does.
//
// Run with repetitions and quote medians, e.g.
//   invert_analysis_benchmark --benchmark_repetitions=5
//     --benchmark_report_aggregates_only=true --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/standard_analyzer.h"
#include "analysis/utf8.h"
#include "invert/analysis.h"
#include "util/random.h"

namespace invert::bench {
namespace {

struct Corpus {
  std::vector<std::string> documents;
  size_t bytes = 0;
};

// The most frequent English words, roughly in frequency order.
constexpr const char* kCommonWords[] = {
    "the",        "of",      "and",    "to",        "a",       "in",         "is",
    "that",       "for",     "it",     "as",        "was",     "with",       "be",
    "by",         "on",      "not",    "he",        "this",    "are",        "or",
    "his",        "from",    "at",     "which",     "but",     "have",       "an",
    "had",        "they",    "you",    "were",      "their",   "one",        "all",
    "we",         "can",     "her",    "has",       "there",   "been",       "if",
    "more",       "when",    "will",   "would",     "who",     "so",         "no",
    "she",        "other",   "its",    "may",       "these",   "what",       "them",
    "than",       "some",    "him",    "time",      "into",    "only",       "do",
    "new",        "about",   "two",    "also",      "first",   "could",      "most",
    "after",      "many",    "such",   "any",       "over",    "world",      "during",
    "between",    "people",  "state",  "years",     "city",    "national",   "government",
    "history",    "century", "system", "number",    "known",   "called",     "united",
    "used",       "under",   "later",  "including", "school",  "university", "family",
    "became",     "war",     "where",  "while",     "through", "since",      "however",
    "population", "public",  "early",  "original",  "season",  "released",   "album",
    "river",      "north",   "south",  "county",    "team",    "member",     "film",
    "series"};

constexpr const char* kContractions[] = {"don't", "it's",    "can't",  "isn't",   "wasn't",
                                         "we're", "they're", "didn't", "o'clock", "world's"};
constexpr const char* kProperNouns[] = {"London", "Paris",   "Einstein", "NASA",   "U.S.",
                                        "Berlin", "Jackson", "Google",   "Amazon", "Victoria"};
constexpr const char* kNonAscii[] = {"café",     "naïve",  "résumé",   "Zürich", "São",
                                     "Ångström", "Müller", "façade",   "piñata", "Kraków",
                                     "—",        "€100",   "“quoted”", "it’s",   "Dvořák",
                                     "Łódź",     "Ελλάδα", "Москва",   "東京",   "½"};

// A made-up word of 2-4 syllables for the vocabulary's long tail.
std::string MadeUpWord(Random& rng) {
  static constexpr const char* kSyllables[] = {"ka",  "ter", "lo",  "mi",  "san", "dre", "ol",
                                               "vin", "pa",  "res", "tu",  "gen", "bor", "el",
                                               "qui", "nat", "fu",  "ris", "com", "ex"};
  std::string word;
  const uint64_t syllables = rng.Range(2, 4);
  for (uint64_t i = 0; i < syllables; ++i) word += kSyllables[rng.Uniform(std::size(kSyllables))];
  return word;
}

template <size_t N>
const char* Pick(Random& rng, const char* const (&list)[N]) {
  return list[rng.Uniform(N)];
}

Corpus MakeEnglish(bool mixed) {
  Random rng(mixed ? 20240602 : 20240601);
  std::vector<std::string> vocabulary(std::begin(kCommonWords), std::end(kCommonWords));
  for (int i = 0; i < 20000; ++i) vocabulary.push_back(MadeUpWord(rng));
  Corpus corpus;
  while (corpus.bytes < 4'000'000) {
    std::string doc;
    const uint64_t sentences = rng.Range(2, 12);
    for (uint64_t s = 0; s < sentences; ++s) {
      const uint64_t words = rng.Range(6, 24);
      for (uint64_t w = 0; w < words; ++w) {
        std::string word;
        const uint64_t kind = rng.Uniform(100);
        if (mixed && kind < 4) {
          word = Pick(rng, kNonAscii);
        } else if (kind < 7) {
          switch (rng.Uniform(4)) {
            case 0:
              word = std::to_string(rng.Range(1800, 2024));
              break;
            case 1:
              word = std::to_string(rng.Uniform(100)) + "." + std::to_string(rng.Uniform(100));
              break;
            case 2:
              word = std::to_string(rng.Range(1, 99)) + "," + std::to_string(rng.Range(100, 999));
              break;
            default:
              word = std::to_string(rng.Range(1, 99)) + "th";
              break;
          }
        } else if (kind < 10) {
          word = Pick(rng, kContractions);
        } else if (kind < 13) {
          word = Pick(rng, kProperNouns);
        } else if (kind < 14) {
          word = "well-" + vocabulary[rng.Uniform(200)];
        } else {
          // Zipf-like: u^3 favours the front (common words).
          const double u = rng.NextDouble();
          word = vocabulary[static_cast<size_t>(vocabulary.size() * u * u * u)];
        }
        if (w == 0 && word[0] >= 'a' && word[0] <= 'z') word[0] = static_cast<char>(word[0] - 32);
        if (kind == 99) word = "(" + word + ")";
        doc += word;
        if (w + 1 < words) doc += rng.Bernoulli(0.08) ? ", " : " ";
      }
      const uint64_t end = rng.Uniform(20);
      doc += end == 0 ? "? " : end == 1 ? "! " : ". ";
    }
    corpus.bytes += doc.size();
    corpus.documents.push_back(std::move(doc));
  }
  return corpus;
}

// The bodies of data/sample.lines (or $INVERT_SAMPLE_LINES): luceneutil's
// line-doc format, a header line then `title<TAB>date<TAB>body` per document;
// a line without TAB is taken whole. Empty if the file is absent.
Corpus LoadSample() {
  Corpus corpus;
  const char* env = std::getenv("INVERT_SAMPLE_LINES");
  std::ifstream in(env != nullptr && *env != '\0' ? env : INVERT_SAMPLE_LINES_PATH);
  std::string line;
  while (corpus.bytes < 16'000'000 && std::getline(in, line)) {
    if (line.starts_with("FIELDS_HEADER_INDICATOR###")) continue;
    if (const size_t tab = line.rfind('\t'); tab != std::string::npos) line.erase(0, tab + 1);
    internal::Utf8Error error;
    if (line.empty() || !internal::ValidateUtf8(line, &error)) continue;
    corpus.bytes += line.size();
    corpus.documents.push_back(std::move(line));
  }
  return corpus;
}

void SetCounters(benchmark::State& state, const Corpus& corpus, size_t tokens) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * corpus.bytes));
  state.counters["MB/s"] = benchmark::Counter(static_cast<double>(corpus.bytes) * 1e-6,
                                              benchmark::Counter::kIsIterationInvariantRate);
  state.counters["tokens"] = static_cast<double>(tokens);
}

void RunAnalyzer(benchmark::State& state, Analyzer* analyzer, const Corpus* corpus) {
  TokenBuffer buffer;
  size_t tokens = 0;
  for (auto _ : state) {
    tokens = 0;
    for (const std::string& doc : corpus->documents) {
      buffer.Clear();
      if (!analyzer->Analyze(doc, &buffer).ok()) {
        state.SkipWithError("Analyze failed");
        return;
      }
      tokens += buffer.size();
    }
    benchmark::DoNotOptimize(tokens);
  }
  SetCounters(state, *corpus, tokens);
}

void RunUtf8Check(benchmark::State& state, const Corpus* corpus) {
  for (auto _ : state) {
    for (const std::string& doc : corpus->documents) {
      benchmark::DoNotOptimize(internal::CheckAnalyzerInput(doc).ok());
    }
  }
  SetCounters(state, *corpus, 0);
}

void RegisterAll() {
  static const Corpus english = MakeEnglish(false);
  static const Corpus mixed = MakeEnglish(true);
  static const Corpus sample = LoadSample();
  std::vector<std::pair<const char*, const Corpus*>> corpora = {{"english", &english},
                                                                {"english_mixed", &mixed}};
  if (!sample.documents.empty()) corpora.emplace_back("sample", &sample);

  using internal::StandardPath;
  static std::vector<std::unique_ptr<Analyzer>> analyzers;  // live for the whole run
  auto add = [](const std::string& name, std::unique_ptr<Analyzer> analyzer, const Corpus* c) {
    Analyzer* a = analyzer.get();
    analyzers.push_back(std::move(analyzer));
    benchmark::RegisterBenchmark(name.c_str(), RunAnalyzer, a, c)->Unit(benchmark::kMillisecond);
  };
  for (const auto& [corpus_name, corpus] : corpora) {
    const std::string suffix = std::string("/") + corpus_name;
    for (bool nfkc : {false, true}) {
      const std::string analyzer_name = nfkc ? "StandardNfkc" : "Standard";
      StandardAnalyzerOptions options;
      options.nfkc = nfkc;
      add(analyzer_name + "/auto" + suffix,
          internal::NewStandardAnalyzer(options, StandardPath::kAuto), corpus);
      add(analyzer_name + "/icu" + suffix,
          internal::NewStandardAnalyzer(options, StandardPath::kIcuOnly), corpus);
    }
    add("Whitespace" + suffix, NewWhitespaceAnalyzer(), corpus);
    add("Keyword" + suffix, NewKeywordAnalyzer(), corpus);
    benchmark::RegisterBenchmark(("Utf8Check" + suffix).c_str(), RunUtf8Check, corpus)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace invert::bench

int main(int argc, char** argv) {
#ifndef NDEBUG
  std::fprintf(stderr, "WARNING: assertions are enabled; benchmarks are unnecessarily slow\n");
#endif
  invert::bench::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

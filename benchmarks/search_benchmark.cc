// search_benchmark: invert's side of the search comparison with Lucene 8.8
// (docs/benchmarks-search.md; the Lucene side is
// benchmarks/peers/LuceneSearch.java, the drivers scripts/search_vs_lucene.sh
// and scripts/bench_search.sh). Public API only.
//
//   search_benchmark index LINES --index DIR [--ram-mb M]
//       Indexes pre-lowercased line documents (title<TAB>date<TAB>body) with
//       LineDocSchema's fields and the whitespace analyzer, one thread, no
//       merges while indexing, then ForceMerge(1): one segment in line order
//       (doc d is line d + 1; checked at the end).
//   search_benchmark queries --index DIR --lines LINES --set bench|agree
//       [--seed S] [--per-class N] [--sample-docs N] [-o FILE]
//       Writes a query file (benchmarks/search_query_file.h) from the index's
//       body term statistics and from phrases of the first --sample-docs
//       documents of LINES.
//   search_benchmark agree --index DIR --queries FILE [--threads N] [--prune 0|1]
//       Per query: "N<TAB>CLASS<TAB>COUNT<TAB>id:score ..." (the top 10,
//       stored ids, scores %.8e; COUNT is Count()).
//   search_benchmark bench --index DIR --queries FILE [--k K] [--warmup W]
//       [--passes P] [--modes pruned,exhaustive] [--per-query FILE]
//       One thread. Each pass runs every query in the first mode, then
//       every query in the next; the W warm-up passes are not measured.
//       Prints per (mode, class): "invert MODE CLASS K N MEDIAN_US P99_US QPS
//       HITS DOCS_SCORED" (means per query: total_hits as Search returns it,
//       "+" when some were lower bounds, and TopDocs::docs_scored).
//       --per-query FILE also writes one line per (query, mode):
//       "CLASS<TAB>MODE<TAB>MEDIAN_US<TAB>DOCS_SCORED<TAB>EXPR", to find
//       the queries a class's QPS (a mean) is made of.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "invert/analysis.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "invert/leaf_reader.h"
#include "invert/line_docs.h"
#include "invert/merge_policy.h"
#include "invert/search.h"
#include "invert/terms_enum.h"
#include "search_query_file.h"

namespace invert::bench {
namespace {

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "search_benchmark: %s\n", what.c_str());
  std::exit(1);
}

[[noreturn]] void Usage(const std::string& what) {
  std::fprintf(
      stderr,
      "search_benchmark: %s\nusage: search_benchmark index LINES --index DIR [--ram-mb M]\n"
      "       search_benchmark queries --index DIR --lines LINES --set bench|agree "
      "[--seed S] [--per-class N] [--sample-docs N] [-o FILE]\n"
      "       search_benchmark agree --index DIR --queries FILE [--threads N] [--prune 0|1]\n"
      "       search_benchmark bench --index DIR --queries FILE [--k K] [--warmup W] "
      "[--passes P] [--modes pruned,exhaustive]\n",
      what.c_str());
  std::exit(2);
}

// --flag value pairs after the mode (and one positional argument).
struct Args {
  std::string positional;
  std::map<std::string, std::string> flags;

  std::string Get(const std::string& name, const std::string& def = "") const {
    auto it = flags.find(name);
    return it == flags.end() ? def : it->second;
  }
  std::string Need(const std::string& name) const {
    auto it = flags.find(name);
    if (it == flags.end()) Usage("missing " + name);
    return it->second;
  }
  uint64_t Uint(const std::string& name, uint64_t def) const {
    auto it = flags.find(name);
    if (it == flags.end()) return def;
    char* end = nullptr;
    const uint64_t v = std::strtoull(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != '\0') Usage(name + " wants a number");
    return v;
  }
};

Args ParseArgs(int argc, char** argv) {
  Args args;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.size() > 1 && a[0] == '-') {
      if (i + 1 >= argc) Usage(a + " wants a value");
      args.flags[a] = argv[++i];
    } else if (args.positional.empty()) {
      args.positional = a;
    } else {
      Usage("unexpected argument " + a);
    }
  }
  return args;
}

// ---- index

int RunIndex(const Args& args) {
  if (args.positional.empty()) Usage("index wants LINES");
  const std::string dir = args.Need("--index");
  IndexWriterOptions options;
  options.open_mode = OpenMode::kCreate;
  options.analyzer = [] { return NewWhitespaceAnalyzer(); };
  options.ram_buffer_mb = static_cast<double>(args.Uint("--ram-mb", 1024));
  options.threads = 1;
  options.merge_policy = std::make_shared<NoMergePolicy>();
  auto writer = IndexWriter::Open(dir, options);
  if (!writer.ok()) Die(std::string(writer.status().message()));
  auto source = OpenLineDocs(args.positional);
  if (!source.ok()) Die(std::string(source.status().message()));
  const LineDocSchema schema;
  Document doc;
  uint64_t docs = 0;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    absl::StatusOr<SourceDoc> next = (*source)->Next();
    if (absl::IsOutOfRange(next.status())) break;
    if (!next.ok()) Die(std::string(next.status().message()));
    schema.Build(*next, &doc);
    if (absl::Status s = (*writer)->AddDocument(doc); !s.ok()) Die(std::string(s.message()));
    ++docs;
  }
  if (absl::Status s = (*writer)->Commit(); !s.ok()) Die(std::string(s.message()));
  if (absl::Status s = (*writer)->ForceMerge(1); !s.ok()) Die(std::string(s.message()));
  if (absl::Status s = (*writer)->Close(); !s.ok()) Die(std::string(s.message()));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // One segment in line order: doc d holds id d + 1 (no header line).
  auto reader = IndexReader::Open(dir);
  if (!reader.ok()) Die(std::string(reader.status().message()));
  const uint64_t max_doc = (*reader)->max_doc();
  for (uint64_t d : {uint64_t{0}, max_doc / 2, max_doc - 1}) {
    if (max_doc == 0) break;
    auto stored = (*reader)->Document(d);
    if (!stored.ok()) Die(std::string(stored.status().message()));
    if (stored->Get("id").value_or("") != std::to_string(d + 1)) {
      Die("doc " + std::to_string(d) + " is not line " + std::to_string(d + 1));
    }
  }
  std::printf("invert index: %" PRIu64 " docs, %zu segment(s), %.1f s (doc d = line d + 1)\n", docs,
              (*reader)->leaves().size(), seconds);
  return 0;
}

// ---- queries

// splitmix64: the same sequence on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t Below(uint64_t n) { return Next() % n; }
  bool Chance(uint32_t percent) { return Below(100) < percent; }

 private:
  uint64_t state_;
};

struct Vocab {
  std::vector<std::string> high, med, low;
};

// Body terms by document frequency f = df / doc_count: high f >= 5%, med
// 0.5% <= f < 5%, low 2 <= df <= max(2, 0.05% of the documents). Terms in
// byte order, so sampling is deterministic.
Vocab ReadVocab(const IndexReader& reader, uint64_t* doc_count) {
  std::map<std::string, uint64_t> merged;  // only when there are several leaves
  std::vector<std::pair<std::string, uint64_t>> terms;
  for (const LeafReader* leaf : reader.leaves()) {
    auto te = leaf->Terms(std::string(kQueryField));
    if (!te.ok()) Die(std::string(te.status().message()));
    for (;;) {
      absl::StatusOr<bool> more = (*te)->Next();
      if (!more.ok()) Die(std::string(more.status().message()));
      if (!*more) break;
      if (reader.leaves().size() == 1) {
        terms.emplace_back(std::string((*te)->term()), (*te)->doc_freq());
      } else {
        merged[std::string((*te)->term())] += (*te)->doc_freq();
      }
    }
  }
  if (reader.leaves().size() != 1) terms.assign(merged.begin(), merged.end());
  auto stats = reader.FieldStatistics(kQueryField);
  if (!stats.ok()) Die(std::string(stats.status().message()));
  *doc_count = stats->doc_count;
  const double n = static_cast<double>(stats->doc_count);
  const uint64_t low_max = std::max<uint64_t>(2, static_cast<uint64_t>(n * 0.0005));
  Vocab v;
  for (auto& [term, df] : terms) {
    const double f = static_cast<double>(df) / n;
    if (f >= 0.05) {
      v.high.push_back(term);
    } else if (f >= 0.005) {
      v.med.push_back(term);
    } else if (df >= 2 && df <= low_max) {
      v.low.push_back(term);
    }
  }
  if (v.high.empty() || v.med.empty() || v.low.empty()) {
    Die("corpus too small: a frequency band is empty (high " + std::to_string(v.high.size()) +
        ", med " + std::to_string(v.med.size()) + ", low " + std::to_string(v.low.size()) + ")");
  }
  return v;
}

// Bodies of the first `max_docs` line documents, split on spaces.
std::vector<std::vector<std::string>> SampleBodies(const std::string& lines, uint64_t max_docs) {
  auto source = OpenLineDocs(lines);
  if (!source.ok()) Die(std::string(source.status().message()));
  std::vector<std::vector<std::string>> bodies;
  while (bodies.size() < max_docs) {
    absl::StatusOr<SourceDoc> next = (*source)->Next();
    if (absl::IsOutOfRange(next.status())) break;
    if (!next.ok()) Die(std::string(next.status().message()));
    std::vector<std::string> words;
    for (std::string_view w : query_file_internal::SplitSpaces(next->body)) words.emplace_back(w);
    if (words.size() >= 4) bodies.push_back(std::move(words));
  }
  if (bodies.empty()) Die("no document of 4 or more words in " + lines);
  return bodies;
}

class QueryGen {
 public:
  QueryGen(Vocab vocab, std::vector<std::vector<std::string>> bodies, uint64_t seed)
      : v_(std::move(vocab)), bodies_(std::move(bodies)), rng_(seed) {}

  std::string High() { return Pick(v_.high); }
  std::string Med() { return Pick(v_.med); }
  std::string Low() { return Pick(v_.low); }
  static std::string Term(const std::string& w) { return "term " + w; }

  // A bool of (occur, expr) clauses.
  static std::string Bool(uint32_t msm, const std::vector<std::pair<std::string, std::string>>& c) {
    std::string s = "bool " + std::to_string(msm) + " " + std::to_string(c.size());
    for (const auto& [occ, expr] : c) s += " " + occ + " " + expr;
    return s;
  }

  // n consecutive words of a sampled document.
  std::string Phrase(int n) {
    const std::vector<std::string>& w = Window(n);
    std::string s = "phrase 0 " + std::to_string(n);
    for (int i = 0; i < n; ++i) s += " " + w[pos_ + i];
    return s;
  }
  // A sloppy phrase that matches its document: three words of four with the
  // third left out (slop 1 or 2), or a transposed pair (slop 2).
  std::string Sloppy() {
    if (rng_.Chance(50)) {
      const std::vector<std::string>& w = Window(4);
      return "phrase " + std::to_string(1 + rng_.Below(2)) + " 3 " + w[pos_] + " " + w[pos_ + 1] +
             " " + w[pos_ + 3];
    }
    const std::vector<std::string>& w = Window(2);
    return "phrase 2 2 " + w[pos_ + 1] + " " + w[pos_];
  }
  // The first 3 bytes of a medium term (ASCII words only, so the prefix is
  // whole code points).
  std::string Prefix() {
    for (;;) {
      std::string t = Med();
      if (t.size() >= 4 && static_cast<unsigned char>(t[0]) < 0x80 &&
          static_cast<unsigned char>(t[1]) < 0x80 && static_cast<unsigned char>(t[2]) < 0x80) {
        return "prefix " + t.substr(0, 3);
      }
    }
  }
  std::string Boost(const std::string& expr) {
    static constexpr const char* kBoosts[] = {"2", "0.5", "3", "1.5", "0.25"};
    return std::string("boost ") + kBoosts[rng_.Below(5)] + " " + expr;
  }
  Rng& rng() { return rng_; }

  // The query of class `c`.
  std::string Make(const std::string& c) {
    if (c == "term_high") return Term(High());
    if (c == "term_med") return Term(Med());
    if (c == "term_low") return Term(Low());
    if (c == "or2") return Bool(0, {{"should", Term(High())}, {"should", Term(Med())}});
    if (c == "or3") {
      return Bool(0, {{"should", Term(High())}, {"should", Term(Med())}, {"should", Term(Med())}});
    }
    if (c == "and2") return Bool(0, {{"must", Term(High())}, {"must", Term(Med())}});
    if (c == "and3") {
      return Bool(0, {{"must", Term(High())}, {"must", Term(High())}, {"must", Term(Med())}});
    }
    if (c == "phrase2") return Phrase(2);
    if (c == "phrase3") return Phrase(3);
    if (c == "sloppy") return Sloppy();
    if (c == "not") {
      return Bool(0, {{"must", Term(High())}, {"should", Term(Med())}, {"not", Term(Med())}});
    }
    if (c == "msm") {
      std::vector<std::pair<std::string, std::string>> cl = {
          {"should", Term(High())}, {"should", Term(Med())}, {"should", Term(Med())}};
      if (rng_.Chance(50)) cl.push_back({"should", Phrase(2)});
      return Bool(2, cl);
    }
    if (c == "boost") {
      return Bool(0, {{"should", Boost(Term(High()))},
                      {"should", Boost(Term(Med()))},
                      {"should", Boost(Phrase(2))}});
    }
    if (c == "filter") {
      return Bool(0, {{"must", Term(Med())}, {"filter", Term(High())}, {"should", Term(Low())}});
    }
    if (c == "prefix") return rng_.Chance(50) ? Prefix() : Boost(Prefix());
    if (c == "prefix_bool") {
      return Bool(0, {{"must", Term(Med())}, {"should", Prefix()}, {"should", Term(High())}});
    }
    if (c == "nested") {
      return Bool(0, {{"should", Bool(0, {{"must", Term(High())}, {"must", Term(Med())}})},
                      {"should", Phrase(3)},
                      {"should", Boost(Term(Low()))}});
    }
    Die("unknown class " + c);
  }

 private:
  const std::string& Pick(const std::vector<std::string>& v) { return v[rng_.Below(v.size())]; }
  // A document with at least n words; sets pos_ to a window start.
  const std::vector<std::string>& Window(int n) {
    for (;;) {
      const std::vector<std::string>& w = bodies_[rng_.Below(bodies_.size())];
      if (w.size() < static_cast<size_t>(n)) continue;
      pos_ = rng_.Below(w.size() - n + 1);
      return w;
    }
  }

  Vocab v_;
  std::vector<std::vector<std::string>> bodies_;
  Rng rng_;
  size_t pos_ = 0;
};

const std::vector<std::string> kBenchClasses = {"term_high", "term_med", "term_low", "or2",
                                                "or3",       "and2",     "and3",     "phrase2",
                                                "phrase3",   "sloppy"};
const std::vector<std::string> kAgreeExtraClasses = {"not",    "msm",         "boost", "filter",
                                                     "prefix", "prefix_bool", "nested"};

int RunQueries(const Args& args) {
  const std::string dir = args.Need("--index");
  const std::string set = args.Need("--set");
  if (set != "bench" && set != "agree") Usage("--set is bench or agree");
  const uint64_t seed = args.Uint("--seed", 1);
  const uint64_t per_class = args.Uint("--per-class", set == "bench" ? 100 : 75);
  const uint64_t sample_docs = args.Uint("--sample-docs", 20000);
  auto reader = IndexReader::Open(dir);
  if (!reader.ok()) Die(std::string(reader.status().message()));
  uint64_t doc_count = 0;
  Vocab vocab = ReadVocab(**reader, &doc_count);
  const size_t bands[3] = {vocab.high.size(), vocab.med.size(), vocab.low.size()};
  QueryGen gen(std::move(vocab), SampleBodies(args.Need("--lines"), sample_docs), seed);

  std::vector<std::string> classes = kBenchClasses;
  if (set == "agree")
    classes.insert(classes.end(), kAgreeExtraClasses.begin(), kAgreeExtraClasses.end());
  const std::string out_path = args.Get("-o", "-");
  FILE* out = out_path == "-" ? stdout : std::fopen(out_path.c_str(), "w");
  if (out == nullptr) Die("cannot write " + out_path);
  std::fprintf(out,
               "# search_benchmark queries --set %s --seed %" PRIu64 " --per-class %" PRIu64
               " --sample-docs %" PRIu64 "\n# body doc_count %" PRIu64
               "; terms high (df >= 5%%) %zu, med (0.5-5%%) %zu, low (df 2..max(2, 0.05%%)) %zu\n",
               set.c_str(), seed, per_class, sample_docs, doc_count, bands[0], bands[1], bands[2]);
  // Classes interleaved: query i is of class i % classes.
  for (uint64_t i = 0; i < per_class; ++i) {
    for (const std::string& c : classes)
      std::fprintf(out, "%s\t%s\n", c.c_str(), gen.Make(c).c_str());
  }
  if (out != stdout && std::fclose(out) != 0) Die("cannot write " + out_path);
  std::fprintf(stderr, "search_benchmark: %" PRIu64 " queries (seed %" PRIu64 ") -> %s\n",
               per_class * classes.size(), seed, out_path.c_str());
  return 0;
}

// ---- agree

int RunAgree(const Args& args) {
  auto reader = IndexReader::Open(args.Need("--index"));
  if (!reader.ok()) Die(std::string(reader.status().message()));
  auto queries = ReadQueryFile(args.Need("--queries"));
  if (!queries.ok()) Die(std::string(queries.status().message()));
  SearchOptions options;
  options.threads = static_cast<int>(args.Uint("--threads", 1));
  options.prune = args.Get("--prune", "0") == "1";
  const IndexSearcher searcher(**reader, options);
  size_t n = 0;
  for (const QueryLine& q : *queries) {
    auto top = searcher.Search(q.query, 10);
    if (!top.ok()) Die(q.expr + ": " + std::string(top.status().message()));
    auto count = searcher.Count(q.query);
    if (!count.ok()) Die(q.expr + ": " + std::string(count.status().message()));
    std::string line =
        std::to_string(++n) + "\t" + q.query_class + "\t" + std::to_string(*count) + "\t";
    for (size_t i = 0; i < top->hits.size(); ++i) {
      auto stored = (*reader)->Document(top->hits[i].doc);
      if (!stored.ok()) Die(std::string(stored.status().message()));
      char score[32];
      std::snprintf(score, sizeof score, "%.8e", static_cast<double>(top->hits[i].score));
      line += (i ? " " : "") + std::string(stored->Get("id").value_or("?")) + ":" + score;
    }
    std::printf("%s\n", line.c_str());
  }
  return 0;
}

// ---- bench

struct Cell {
  std::vector<uint64_t> ns;
  double hits = 0;
  double docs_scored = 0;
  bool lower_bound = false;
};

int RunBench(const Args& args) {
  auto reader = IndexReader::Open(args.Need("--index"));
  if (!reader.ok()) Die(std::string(reader.status().message()));
  auto queries = ReadQueryFile(args.Need("--queries"));
  if (!queries.ok()) Die(std::string(queries.status().message()));
  const size_t k = args.Uint("--k", 10);
  const uint64_t warmup = args.Uint("--warmup", 1);
  const uint64_t passes = args.Uint("--passes", 3);
  const std::string modes_flag = args.Get("--modes", "pruned,exhaustive");
  std::vector<std::pair<std::string, std::unique_ptr<IndexSearcher>>> modes;
  for (std::string_view m : {"pruned", "exhaustive"}) {
    if (modes_flag.find(m) == std::string::npos) continue;
    SearchOptions options;
    options.threads = 1;
    options.prune = m == "pruned";
    modes.emplace_back(std::string(m), std::make_unique<IndexSearcher>(**reader, options));
  }
  if (modes.empty()) Usage("--modes: pruned and/or exhaustive");

  std::vector<std::string> classes;  // in first-seen order
  std::map<std::pair<std::string, std::string>, Cell> cells;
  for (const QueryLine& q : *queries) {
    if (std::find(classes.begin(), classes.end(), q.query_class) == classes.end()) {
      classes.push_back(q.query_class);
    }
  }
  // Per (query, mode): its measured times and docs scored (--per-query).
  std::vector<std::vector<uint64_t>> query_ns(queries->size() * modes.size());
  std::vector<uint64_t> query_scored(queries->size() * modes.size());
  // Each pass runs the whole set in one mode, then in the next: a query
  // never follows itself, so no mode finds the postings another mode has
  // just brought into the CPU caches (with the modes interleaved query by
  // query, the second mode ran up to 2x faster on the same work), and every
  // mode sees what Lucene's passes see.
  for (uint64_t pass = 0; pass < warmup + passes; ++pass) {
    for (size_t mi = 0; mi < modes.size(); ++mi) {
      auto& [mode, searcher] = modes[mi];
      for (size_t qi = 0; qi < queries->size(); ++qi) {
        const QueryLine& q = (*queries)[qi];
        const auto t0 = std::chrono::steady_clock::now();
        absl::StatusOr<TopDocs> top = searcher->Search(q.query, k);
        const auto t1 = std::chrono::steady_clock::now();
        if (!top.ok()) Die(q.expr + ": " + std::string(top.status().message()));
        if (pass < warmup) continue;
        Cell& cell = cells[{mode, q.query_class}];
        const auto ns = static_cast<uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
        cell.ns.push_back(ns);
        query_ns[qi * modes.size() + mi].push_back(ns);
        query_scored[qi * modes.size() + mi] = top->docs_scored;
        cell.hits += static_cast<double>(top->total_hits);
        cell.docs_scored += static_cast<double>(top->docs_scored);
        cell.lower_bound |= !top->total_hits_exact;
      }
    }
  }
  if (const std::string path = args.Get("--per-query", ""); !path.empty()) {
    std::FILE* out = std::fopen(path.c_str(), "w");
    if (out == nullptr) Die("--per-query: cannot write " + path);
    for (size_t qi = 0; qi < queries->size(); ++qi) {
      for (size_t mi = 0; mi < modes.size(); ++mi) {
        std::vector<uint64_t>& ns = query_ns[qi * modes.size() + mi];
        if (ns.empty()) continue;
        std::sort(ns.begin(), ns.end());
        std::fprintf(out, "%s\t%s\t%.1f\t%" PRIu64 "\t%s\n", (*queries)[qi].query_class.c_str(),
                     modes[mi].first.c_str(), static_cast<double>(ns[ns.size() / 2]) / 1e3,
                     query_scored[qi * modes.size() + mi], (*queries)[qi].expr.c_str());
      }
    }
    if (std::fclose(out) != 0) Die("--per-query: cannot write " + path);
  }
  std::printf("# engine mode class k n median_us p99_us qps hits docs_scored\n");
  for (auto& [mode, searcher] : modes) {
    for (const std::string& c : classes) {
      Cell& cell = cells[{mode, c}];
      std::sort(cell.ns.begin(), cell.ns.end());
      const size_t n = cell.ns.size();
      uint64_t total = 0;
      for (uint64_t v : cell.ns) total += v;
      const double median = static_cast<double>(cell.ns[n / 2]) / 1e3;
      const double p99 = static_cast<double>(cell.ns[std::min(n - 1, (n * 99) / 100)]) / 1e3;
      const double qps = total == 0 ? 0 : static_cast<double>(n) * 1e9 / static_cast<double>(total);
      std::printf("invert %s %s %zu %zu %.1f %.1f %.1f %.0f%s %.0f\n", mode.c_str(), c.c_str(), k,
                  n, median, p99, qps, cell.hits / static_cast<double>(n),
                  cell.lower_bound ? "+" : "", cell.docs_scored / static_cast<double>(n));
    }
  }
  return 0;
}

}  // namespace
}  // namespace invert::bench

int main(int argc, char** argv) {
  using namespace invert::bench;
  if (argc < 2) Usage("missing mode");
  const std::string mode = argv[1];
  const Args args = ParseArgs(argc, argv);
  if (mode == "index") return RunIndex(args);
  if (mode == "queries") return RunQueries(args);
  if (mode == "agree") return RunAgree(args);
  if (mode == "bench") return RunBench(args);
  Usage("unknown mode " + mode);
}

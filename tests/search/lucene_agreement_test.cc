// invert's searcher against Lucene 8.8 itself without running Java: a sample
// of Lucene's results kept in tests/data/lucene88_search/ (made by
// scripts/search_vs_lucene.sh --sample, which also names the exact command;
// method in docs/benchmarks-search.md):
//   corpus.txt    the corpus: `docs N`, `seed S` of invert-gen (no header)
//   queries.txt   the queries (benchmarks/search_query_file.h), of every
//                 type: terms, OR, AND, phrases exact and sloppy, must_not,
//                 minimum_should_match, boosts, filters, prefixes, nesting
//   lucene.out    per query, Lucene's count and top 10 (stored id:score)
// The test regenerates the corpus with WikiGenerator (what invert-gen
// writes), pre-lowercases it exactly as the script does (ASCII letters
// lowercased, other printable ASCII bytes that are not letters or digits
// made spaces), indexes it with the whitespace analyzer and LineDocSchema's
// fields (the script's invert_search_benchmark index), and asserts, with
// pruning off and on: the same count, the same top-10 ids in the same order,
// scores within 1e-5 relative.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../../benchmarks/search_query_file.h"
#include "corpus/wiki_gen.h"
#include "gtest/gtest.h"
#include "invert/analysis.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "invert/line_docs.h"
#include "invert/merge_policy.h"
#include "invert/search.h"
#include "scratch_dir.h"

namespace invert {
namespace {

using testing::ScratchDir;

std::filesystem::path SampleDir() {
  return std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "lucene88_search";
}

// scripts/search_vs_lucene.sh's `tr 'A-Z' 'a-z' | tr '!-/:-@[-`{-~' ' '`.
void PreLowercase(std::string* s) {
  for (char& c : *s) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    } else if ((c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
               (c >= '{' && c <= '~')) {
      c = ' ';
    }
  }
}

struct LuceneResult {
  std::string query_class;
  uint64_t count = 0;
  std::vector<std::pair<std::string, std::string>> hits;  // (id, score text)
};

std::vector<LuceneResult> ReadLuceneOut(const std::string& path) {
  std::vector<LuceneResult> out;
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string col; std::getline(ss, col, '\t');) cols.push_back(col);
    EXPECT_GE(cols.size(), 3u) << line;
    if (cols.size() < 3) continue;
    LuceneResult r{cols[1], std::stoull(cols[2]), {}};
    if (cols.size() > 3) {
      std::stringstream hits(cols[3]);
      for (std::string h; hits >> h;) {
        const size_t colon = h.rfind(':');
        r.hits.emplace_back(h.substr(0, colon), h.substr(colon + 1));
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::map<std::string, uint64_t> ReadCorpusOptions(const std::string& path) {
  std::map<std::string, uint64_t> out;
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::string key;
  uint64_t value = 0;
  while (in >> key >> value) out[key] = value;
  return out;
}

TEST(LuceneAgreementTest, SameTopTenAndCountsAsLucene88) {
  const std::map<std::string, uint64_t> corpus =
      ReadCorpusOptions((SampleDir() / "corpus.txt").string());
  ASSERT_TRUE(corpus.count("docs") && corpus.count("seed"));

  // The corpus, pre-lowercased, indexed as invert_search_benchmark does.
  ScratchDir dir;
  {
    IndexWriterOptions options;
    options.open_mode = OpenMode::kCreate;
    options.analyzer = [] { return NewWhitespaceAnalyzer(); };
    options.ram_buffer_mb = 256;
    options.merge_policy = std::make_shared<NoMergePolicy>();
    auto writer = IndexWriter::Open(dir.path(), options);
    ASSERT_TRUE(writer.ok()) << writer.status();
    GenOptions gen_options;
    gen_options.seed = corpus.at("seed");
    WikiGenerator gen(gen_options);
    GenDoc g;
    const LineDocSchema schema;
    Document doc;
    for (uint64_t line = 1; line <= corpus.at("docs"); ++line) {
      gen.Next(&g);
      PreLowercase(&g.title);
      PreLowercase(&g.date);
      PreLowercase(&g.body);
      const std::string id = std::to_string(line);
      schema.Build(id, g.title, g.date, g.body, &doc);
      ASSERT_TRUE((*writer)->AddDocument(doc).ok());
    }
    ASSERT_TRUE((*writer)->Commit().ok());
    ASSERT_TRUE((*writer)->ForceMerge(1).ok());
    ASSERT_TRUE((*writer)->Close().ok());
  }
  auto reader = IndexReader::Open(dir.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_EQ((*reader)->max_doc(), corpus.at("docs"));

  auto queries = bench::ReadQueryFile((SampleDir() / "queries.txt").string());
  ASSERT_TRUE(queries.ok()) << queries.status();
  const std::vector<LuceneResult> lucene = ReadLuceneOut((SampleDir() / "lucene.out").string());
  ASSERT_EQ(queries->size(), lucene.size());
  ASSERT_GE(queries->size(), 200u);

  for (bool prune : {false, true}) {
    SearchOptions options;
    options.prune = prune;
    const IndexSearcher searcher(**reader, options);
    size_t agree = 0, scores = 0, identical = 0;
    for (size_t n = 0; n < queries->size(); ++n) {
      const bench::QueryLine& q = (*queries)[n];
      const LuceneResult& want = lucene[n];
      SCOPED_TRACE("query " + std::to_string(n + 1) + " [" + q.query_class + "] " + q.expr +
                   (prune ? " (pruned)" : " (exhaustive)"));
      ASSERT_EQ(q.query_class, want.query_class);
      absl::StatusOr<TopDocs> top = searcher.Search(q.query, 10);
      ASSERT_TRUE(top.ok()) << top.status();
      absl::StatusOr<uint64_t> count = searcher.Count(q.query);
      ASSERT_TRUE(count.ok()) << count.status();
      bool same = *count == want.count && top->hits.size() == want.hits.size();
      EXPECT_EQ(*count, want.count);
      ASSERT_EQ(top->hits.size(), want.hits.size());
      for (size_t i = 0; i < top->hits.size(); ++i) {
        absl::StatusOr<StoredDocument> stored = (*reader)->Document(top->hits[i].doc);
        ASSERT_TRUE(stored.ok()) << stored.status();
        const std::string id(stored->Get("id").value_or(""));
        const double expected = std::stod(want.hits[i].second);
        const double actual = top->hits[i].score;
        EXPECT_EQ(id, want.hits[i].first) << "rank " << i + 1;
        EXPECT_NEAR(actual, expected, std::abs(expected) * 1e-5) << "rank " << i + 1;
        same = same && id == want.hits[i].first &&
               std::abs(actual - expected) <= std::abs(expected) * 1e-5;
        // 9 significant digits name one float: read back, it is Lucene's.
        ++scores;
        identical += static_cast<float>(expected) == top->hits[i].score;
      }
      agree += same;
    }
    std::printf("[ LUCENE   ] %s: %zu of %zu queries agree; %zu of %zu scores bit-identical\n",
                prune ? "pruned" : "exhaustive", agree, queries->size(), identical, scores);
  }
}

}  // namespace
}  // namespace invert

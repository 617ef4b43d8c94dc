// invert-search INDEX QUERY [--field body] [--k 10] [--and] [--json]
// [--explain] [--threads N] [--analyzer standard|whitespace] [--no-prune]:
// the k best documents of the index's newest commit for QUERY (syntax in
// query_parser.h), printed as rank, score, doc id and stored title after
// "N hits" (exact) or "≥ N hits" (pruning skipped documents without
// counting them), or with --json as one object {"query", "total_hits",
// "total_hits_exact", "docs_scored", "hits": [{"rank", "doc", "score",
// "title"[, "explanation"]}]}. --explain adds how each score was computed;
// --no-prune scores every match (same hits, exact count). Exit status 0 on success (also with no
// hits), 1 when the index cannot be searched (unknown field, damaged index), 2 on a usage or query
// syntax error.
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/absl_compat.h"
#include "common/cli.h"
#include "common/display.h"
#include "invert/analysis.h"
#include "invert/index_reader.h"
#include "invert/search.h"
#include "query_parser.h"

namespace invert::tools {
namespace {

std::string Title(const IndexReader& reader, uint64_t doc) {
  absl::StatusOr<StoredDocument> stored = reader.Document(doc);
  if (!stored.ok()) return "";
  std::optional<std::string_view> title = stored->Get("title");
  return title ? std::string(*title) : "";
}

int Run(int argc, char** argv) {
  std::string index, text, field = "body", analyzer_name = "standard";
  uint64_t k = 10, threads = 1;
  bool and_words = false, json = false, explain = false, no_prune = false;
  CLI::App app(
      "Searches the index's newest commit with BM25 (Lucene 8.8's scores) and prints\n"
      "the k best documents. QUERY: words (OR; --and for AND), +must, -not,\n"
      "\"a phrase\", \"a phrase\"~2 (slop), pre* (prefix), field:word.",
      "invert-search");
  app.footer("Exit status: 0 ok, 1 the index cannot be searched, 2 usage or query syntax error.");
  app.add_option("INDEX", index, "index directory")->required();
  app.add_option("QUERY", text, "the query")->required();
  app.add_option("--field", field, "the field of words without field: (default body)");
  app.add_option("--k", k, "how many hits to print (default 10)")->check(UnsignedIn(1, 1000000));
  app.add_option("--threads", threads, "segments searched in parallel (default 1)")
      ->check(UnsignedIn(1, 256));
  app.add_option("--analyzer", analyzer_name,
                 "how query words are analyzed, as the index was (default standard)")
      ->check(CLI::IsMember({"standard", "whitespace"}));
  app.add_flag("--and", and_words, "every word must match (default: any word)");
  app.add_flag("--json", json, "print one JSON object");
  app.add_flag("--explain", explain, "show how each score was computed");
  app.add_flag("--no-prune", no_prune,
               "score every match: the same hits, and an exact hit count (default: skip "
               "documents that cannot make the top k)");
  if (std::optional<int> exit = ParseCommandLine(app, argc, argv)) return *exit;

  std::unique_ptr<Analyzer> analyzer =
      analyzer_name == "whitespace" ? NewWhitespaceAnalyzer() : NewStandardAnalyzer();
  const ParsedQuery parsed = ParseQuery(text, field, and_words, *analyzer);
  if (!parsed.ok) {
    std::fputs(FormatParseError(text, parsed).c_str(), stderr);
    return kExitUsage;
  }
  absl::StatusOr<std::unique_ptr<IndexReader>> reader = IndexReader::Open(index);
  if (!reader.ok()) {
    std::fprintf(stderr, "invert-search: %s\n",
                 EscapeForDisplay(StdSv(reader.status().message())).c_str());
    return kExitFailure;
  }
  IndexSearcher searcher(**reader, {.prune = !no_prune, .threads = static_cast<int>(threads)});
  absl::StatusOr<TopDocs> top = searcher.Search(parsed.query, k);
  if (!top.ok()) {
    std::fprintf(stderr, "invert-search: %s\n",
                 EscapeForDisplay(StdSv(top.status().message())).c_str());
    return kExitFailure;
  }
  std::string out;
  if (json) {
    absl::StrAppend(&out, "{\"query\":", JsonString(parsed.query.ToString()),
                    ",\"total_hits\":", top->total_hits,
                    ",\"total_hits_exact\":", top->total_hits_exact ? "true" : "false",
                    ",\"docs_scored\":", top->docs_scored, ",\"hits\":[");
  } else {
    absl::StrAppend(&out, "query: ", EscapeForDisplay(parsed.query.ToString()), "\n",
                    top->total_hits_exact ? "" : "\u2265 ", top->total_hits, " hits\n");
  }
  for (size_t i = 0; i < top->hits.size(); ++i) {
    const ScoredDoc& hit = top->hits[i];
    const std::string title = Title(**reader, hit.doc);
    std::string why;
    if (explain) {
      absl::StatusOr<Explanation> e = searcher.Explain(parsed.query, hit.doc);
      why = e.ok() ? e->ToString() : std::string(StdSv(e.status().message()));
    }
    if (json) {
      absl::StrAppend(&out, i ? "," : "", "{\"rank\":", i + 1, ",\"doc\":", hit.doc,
                      ",\"score\":", absl::StrFormat("%.9g", hit.score),
                      ",\"title\":", JsonString(title));
      if (explain) absl::StrAppend(&out, ",\"explanation\":", JsonString(why));
      out += "}";
    } else {
      absl::StrAppend(&out, absl::StrFormat("%4d  %10.6f  %8d  ", i + 1, hit.score, hit.doc),
                      EscapeForDisplay(title), "\n");
      if (explain) absl::StrAppend(&out, why);
    }
  }
  if (json) out += "]}\n";
  std::fputs(out.c_str(), stdout);
  return kExitOk;
}

}  // namespace
}  // namespace invert::tools

int main(int argc, char** argv) { return invert::tools::Run(argc, argv); }

// invert-dump: shows what an index holds, escaped so that any bytes print
// on one line (control bytes and invalid UTF-8 as \xNN, valid UTF-8 as is).
//
//   invert-dump INDEX --field F --term T [--limit N] [--show STORED_FIELD]
//       the term's doc freq and total term freq over the whole index and its
//       first N (default 10) postings (global doc id, freq, first
//       positions) with a stored field of each document (default: title) —
//       the simplest proof that an index says what went in. The term is
//       looked up as given (analyzed terms are lower case).
//   invert-dump INDEX --docs [--limit N]
//       every document, one line each: doc <global id>\t<field>=<value>...
//       (a deleted one: doc <global id>\t<deleted>)
//   invert-dump INDEX --ids
//       the stored "id" values of the live documents, one per line, sorted
//       bytewise.
//
// A stored value that cannot be read is reported where it would have been
// printed (<stored fields unreadable: MESSAGE>) and makes the exit status 1
// after everything else is printed. Exit status 2: usage error.
#include <cstdio>
#include <memory>
#include <string>

#include "common/absl_compat.h"
#include "common/cli.h"
#include "common/display.h"
#include "dump.h"
#include "invert/index_reader.h"

namespace invert::tools {
namespace {

int Run(int argc, char** argv) {
  std::string index, field, term, show = "title";
  uint64_t limit = 0;
  bool docs = false, ids = false;
  CLI::App app("Shows what an index holds: a term's postings, every document, or the ids.",
               "invert-dump");
  app.footer(
      "Modes: --field F --term T (a term's postings), --docs (every document's stored\n"
      "fields, one line each), --ids (the stored ids, sorted). Output escapes control\n"
      "bytes, backslashes and invalid UTF-8. Exit status: 0 ok, 1 something could not be\n"
      "read, 2 usage error.");
  app.add_option("INDEX", index, "index directory")->required();
  CLI::Option* field_opt = app.add_option("--field", field, "field of the term");
  CLI::Option* term_opt = app.add_option("--term", term, "the term, as indexed (exact bytes)");
  CLI::Option* limit_opt =
      app.add_option("--limit", limit, "postings (default 10) or documents (default all) shown")
          ->transform(UnsignedIn(0, UINT64_MAX));
  CLI::Option* show_opt =
      app.add_option("--show", show, "stored field printed with each posting (default title)");
  CLI::Option* docs_opt = app.add_flag("--docs", docs, "print every document's stored fields");
  CLI::Option* ids_opt = app.add_flag("--ids", ids, "print the stored ids, sorted");
  for (CLI::Option* o : {field_opt, term_opt, show_opt}) {
    docs_opt->excludes(o);
    ids_opt->excludes(o);
  }
  docs_opt->excludes(ids_opt);
  ids_opt->excludes(limit_opt);
  if (std::optional<int> exit = ParseCommandLine(app, argc, argv)) return *exit;
  if (!docs && !ids && (field_opt->count() == 0 || term_opt->count() == 0)) {
    return UsageError(app, "give --field F and --term T, or --docs, or --ids");
  }
  if (limit_opt->count() == 0) limit = docs ? UINT64_MAX : 10;

  absl::StatusOr<std::unique_ptr<IndexReader>> reader = IndexReader::Open(index);
  if (!reader.ok()) {
    std::fprintf(stderr, "invert-dump: cannot open the index in %s: %s\n", index.c_str(),
                 EscapeForDisplay(StdSv(reader.status().message())).c_str());
    return kExitFailure;
  }
  if (docs) return DumpDocs(**reader, limit);
  if (ids) return DumpIds(**reader);
  return DumpTerm(**reader, field, term, limit, show);
}

}  // namespace
}  // namespace invert::tools

int main(int argc, char** argv) { return invert::tools::Run(argc, argv); }

// invert-index: indexes a file (or stdin) of line documents
// (title<TAB>date<TAB>body, luceneutil's format, optional header) or JSON
// lines into an index directory, and prints a report like luceneutil's.
//
//   invert-index INPUT --index DIR [--threads N] [--ram-mb M]
//                [--layout shared|separate] [--term-vectors] [--store-body]
//                [--max-docs N] [--format lines|json] [--strict] [--json]
//                [--append | --overwrite] [--recover]
//
// INPUT "-" is stdin; the format defaults to JSON lines for *.json/*.jsonl.
// Input that is not line documents (binary, UTF-16, no TABs) is refused
// before anything is written. A malformed line (wrong field count, bad JSON,
// a field that is not UTF-8, an immense term ...) is skipped and counted
// with its line number, or stops the run with --strict; either way the index
// only ever holds whole documents. --max-docs N stops after N documents
// were added (skipped lines do not count).
//
// An existing index in DIR is left alone unless --append (add to it) or
// --overwrite (replace it, when this run commits) is given; before adding
// anything the run checks that its fields have the types the index fixed
// for them (--term-vectors and --store-body change the body's type).
//
// Exit status: 0 done (committed), 1 error (this run committed nothing; the
// report says what was rolled back), 2 usage error. Flags: --help.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "args.h"
#include "common/absl_compat.h"
#include "common/cli.h"
#include "common/display.h"
#include "feeder.h"
#include "invert/index_writer.h"
#include "invert/line_docs.h"
#include "report.h"
#include "schema_check.h"

namespace invert::tools {
namespace {

uint64_t DirectoryBytes(const std::string& path) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    if (entry.is_regular_file(ec)) total += entry.file_size(ec);
  }
  return total;
}

uint64_t PeakRssBytes() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

// Reports a failure before indexing started (nothing was added).
int Fail(const IndexArgs& args, const absl::Status& status) {
  std::fprintf(stderr, "invert-index: %s\n", EscapeForDisplay(StdSv(status.message())).c_str());
  PrintJsonFailure(args, status);
  return kExitFailure;
}

// Releases a writer that added nothing. Its status is not the run's.
void Release(IndexWriter& writer) { (void)writer.Rollback(); }

int Run(const IndexArgs& args) {
  absl::StatusOr<std::unique_ptr<DocSource>> source =
      args.json_input() ? OpenJsonLines(args.input) : OpenLineDocs(args.input);
  if (!source.ok()) return Fail(args, source.status());

  IndexWriterOptions options;
  options.open_mode = args.open_mode();
  options.recover = args.recover;
  options.ram_buffer_mb = args.ram_mb;
  options.threads = args.threads;
  options.layout = args.layout;
  absl::StatusOr<std::unique_ptr<IndexWriter>> opened = IndexWriter::Open(args.index, options);
  if (!opened.ok()) {
    return Fail(args, absl::Status(opened.status().code(),
                                   absl::StrCat("cannot open the index in ", args.index, ": ",
                                                opened.status().message())));
  }
  IndexWriter& writer = **opened;
  for (const std::string& w : writer.warnings()) {
    std::fprintf(stderr, "invert-index: warning: %s\n", EscapeForDisplay(w).c_str());
  }
  const IndexWriterOpenInfo open_info = writer.open_info();
  if (options.open_mode == OpenMode::kCreateOrAppend && !open_info.created) {
    Release(writer);
    return Fail(args, absl::AlreadyExistsError(absl::StrCat(
                          args.index, " already holds an index (generation ", open_info.generation,
                          ", ", CountOf(open_info.docs, "document"),
                          "); use --append to add to it or --overwrite to replace it")));
  }
  LineDocSchemaOptions schema_options;
  schema_options.body_term_vectors = args.term_vectors;
  schema_options.store_body = args.store_body;
  if (absl::Status s = CheckLineDocSchema(writer.schema(), schema_options); !s.ok()) {
    Release(writer);
    return Fail(args, s);
  }
  const LineDocSchema schema(schema_options);

  const auto start = std::chrono::steady_clock::now();
  FeedOptions feed_options;
  feed_options.max_docs = args.max_docs;
  feed_options.strict = args.strict;
  feed_options.threads = writer.threads();
  feed_options.progress = !args.json;
  RunReport r;
  r.args = &args;
  r.feed = Feed(source->get(), &writer, schema, feed_options);
  r.opened = open_info;
  r.threads = writer.threads();
  r.status = r.feed.fatal;
  if (r.status.ok()) {
    const uint64_t generation_before = writer.stats().commit_generation;
    r.status = writer.Close();
    // A Close() that fails after its commit point became durable still
    // committed; the generation tells.
    r.committed = r.status.ok() || writer.stats().commit_generation != generation_before;
  }
  if (!r.committed) (void)writer.Rollback();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.stats = writer.stats();
  r.input_bytes = (*source)->bytes_read();
  r.index_bytes = DirectoryBytes(args.index);
  r.peak_rss_bytes = PeakRssBytes();
  if (args.json) {
    PrintJsonReport(r);
  } else {
    PrintTextReport(r);
  }
  if (!r.status.ok()) {
    std::fprintf(stderr, "invert-index: %s\n", EscapeForDisplay(StdSv(r.status.message())).c_str());
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace
}  // namespace invert::tools

int main(int argc, char** argv) {
  invert::tools::IndexArgs args;
  if (std::optional<int> exit = invert::tools::ParseIndexArgs(argc, argv, &args)) return *exit;
  return invert::tools::Run(args);
}

// invert-index: indexes a file (or stdin) of line documents
// (title<TAB>date<TAB>body, luceneutil's format, optional header) or JSON
// lines into an index directory, and prints a report like luceneutil's.
//
//   invert-index INPUT --index DIR [--threads N] [--ram-mb M]
//                [--layout shared|separate] [--term-vectors] [--store-body]
//                [--max-docs N] [--format lines|json] [--strict] [--json]
//                [--append | --overwrite] [--recover]
//                [--merge-policy tiered|none] [--force-merge N] [--update-key FIELD]
//   invert-index --delete-ids FILE --index DIR [--update-key FIELD] [...]
//
// INPUT "-" is stdin; the format defaults to JSON lines for *.json/*.jsonl.
// Input that is not line documents (binary, UTF-16, no TABs) is refused
// before anything is written. A malformed line (wrong field count, bad JSON,
// a field that is not UTF-8, an immense term ...) is skipped and counted
// with its line number, or stops the run with --strict; either way the index
// only ever holds whole documents. --max-docs N stops after N documents
// were added (skipped lines do not count): the first N of the input.
//
// Threads (--threads N) each take ~1 MiB of whole lines at a time from the
// input and parse and add them in parallel (feeder.h); with one thread doc
// ids follow the input order, with several they do not.
//
// An existing index in DIR is left alone unless --append (add to it) or
// --overwrite (replace it, when this run commits) is given; before adding
// anything the run checks that its fields have the types the index fixed
// for them (--term-vectors and --store-body change the body's type).
//
// Merges: --merge-policy tiered (default) merges segments in the background
// while indexing, none keeps every flush; --force-merge N commits after the
// last document, then merges down to at most N segments and commits again
// (the forced merge and its commit timed on their own: the indexing time and
// docs/s exclude them). --update-key FIELD makes each document
// replace the documents with the same value of FIELD (a keyword field of
// line documents: id); the documents are then added in input order from one
// thread, so that of two lines with the same key the later one wins (--threads
// does not apply). --delete-ids FILE is a mode without INPUT: it
// deletes, from the existing index, the documents whose key field
// (--update-key, default id) equals a line of FILE (exact bytes, one value a
// line, LF or CRLF; empty lines skipped; a line that is not UTF-8 stops the
// run), then commits.
//
// Exit status: 0 done (committed), 1 error (this run committed nothing, the
// report says what was rolled back; or, when only the forced merge failed,
// the documents stay committed without it, as the report says), 2 usage
// error. Flags: --help.
#include <malloc.h>
#include <sys/resource.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "args.h"
#include "common/absl_compat.h"
#include "common/cli.h"
#include "common/display.h"
#include "feeder.h"
#include "invert/index_writer.h"
#include "invert/line_docs.h"
#include "invert/merge_policy.h"
#include "invert/utf8.h"
#include "report.h"
#include "schema_check.h"

namespace invert::tools {
namespace {

// glibc grows a heap by what an allocation needs plus M_TOP_PAD (128 KiB by
// default): the indexing chains' 32 KiB pool blocks make one brk() or
// mprotect() every block or few. With two threads faulting in fresh pages on
// two cores, that made page faults ~10x dearer on the 2-core VM of
// docs/benchmarks.md (sys 3-6 s instead of 0.5 s for a 150 MB corpus: two
// threads slower than one); a 64 MiB pad makes those calls rare. Setting it
// fixes glibc's mmap threshold, which otherwise adapts up to 32 MiB: fixed
// at 32 MiB here, or every hash table above 128 KiB would be mmap()ed and
// unmapped again. The pad costs address space, not memory (pages are touched
// when used), and up to 64 MiB freed at a heap's top stays with the process.
void GrowHeapsInLargeSteps() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TOP_PAD, 64 << 20);
#endif
}

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

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

IndexWriterOptions WriterOptions(const IndexArgs& args) {
  IndexWriterOptions options;
  options.open_mode = args.open_mode();
  options.recover = args.recover;
  options.ram_buffer_mb = args.ram_mb;
  // --update-key feeds from one thread (feeder.h): one in-memory segment.
  options.threads = args.update_key.empty() ? args.threads : 1;
  options.layout = args.layout;
  if (args.merge_policy == "none") options.merge_policy = std::make_shared<NoMergePolicy>();
  return options;
}

// The end of a run: Close() (which commits, waits for running merges and
// commits what they made), or Rollback() when anything failed. With
// --force-merge N, first Commit(), then ForceMerge(N) and Commit() again,
// timed on their own (force_merge_seconds), then Close(): the order of the
// Lucene peer (benchmarks/peers/), so that the forced merge starts from the
// same committed segments in both. Fills r.status, r.committed,
// r.force_merge_seconds and r.seconds (`start` on, without the forced merge
// and its commit). A forced merge that fails leaves the first commit: the
// run committed its documents and fails (exit status 1), and says so.
void Finish(const IndexArgs& args, IndexWriter& writer, std::chrono::steady_clock::time_point start,
            RunReport* r) {
  const uint64_t generation_before = writer.stats().commit_generation;
  if (r->status.ok() && args.force_merge > 0) {
    r->status = writer.Commit();
    if (r->status.ok()) {
      const uint64_t indexing_commit = writer.stats().commit_generation;
      const auto merge_start = std::chrono::steady_clock::now();
      r->status = writer.ForceMerge(args.force_merge);
      if (r->status.ok()) r->status = writer.Commit();
      r->force_merge_seconds = Since(merge_start);
      if (!r->status.ok()) {
        r->status =
            absl::Status(r->status.code(),
                         absl::StrCat("--force-merge ", args.force_merge, ": ", r->status.message(),
                                      " (the documents were committed before it, generation ",
                                      indexing_commit, ")"));
      }
    }
  }
  if (r->status.ok()) r->status = writer.Close();
  // A Close() (or forced merge) that fails after a commit point became
  // durable still committed; the generation tells.
  r->committed = r->status.ok() || writer.stats().commit_generation != generation_before;
  if (!r->status.ok()) (void)writer.Rollback();  // back to the last commit, if any
  r->seconds = Since(start) - r->force_merge_seconds;
  r->stats = writer.stats();
  r->index_bytes = DirectoryBytes(args.index);
  r->peak_rss_bytes = PeakRssBytes();
}

int Report(const IndexArgs& args, const RunReport& r) {
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

// Opens the writer, with the message invert-index gives when it cannot.
absl::StatusOr<std::unique_ptr<IndexWriter>> OpenWriter(const IndexArgs& args) {
  absl::StatusOr<std::unique_ptr<IndexWriter>> opened =
      IndexWriter::Open(args.index, WriterOptions(args));
  if (!opened.ok()) {
    return absl::Status(
        opened.status().code(),
        absl::StrCat("cannot open the index in ", args.index, ": ", opened.status().message()));
  }
  for (const std::string& w : (*opened)->warnings()) {
    std::fprintf(stderr, "invert-index: warning: %s\n", EscapeForDisplay(w).c_str());
  }
  return opened;
}

// --delete-ids: one DeleteDocuments(key field, line) per non-empty line.
int RunDeletes(const IndexArgs& args) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (args.delete_ids != "-") {
    file.open(args.delete_ids, std::ios::binary);
    if (!file) {
      return Fail(args,
                  absl::NotFoundError(absl::StrCat("--delete-ids: cannot open ", args.delete_ids,
                                                   ": ", std::strerror(errno))));
    }
    in = &file;
  }
  absl::StatusOr<std::unique_ptr<IndexWriter>> opened = OpenWriter(args);
  if (!opened.ok()) return Fail(args, opened.status());
  IndexWriter& writer = **opened;
  const std::string key = args.key_field();
  if (absl::Status s = CheckIndexKeyField(key, writer.schema()); !s.ok()) {
    Release(writer);
    return Fail(args, s);
  }
  const auto start = std::chrono::steady_clock::now();
  RunReport r;
  r.args = &args;
  r.opened = writer.open_info();
  r.threads = writer.threads();
  std::string line;
  for (uint64_t number = 1; r.status.ok() && std::getline(*in, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    Utf8Error error;
    if (!IsValidUtf8(line, &error)) {
      r.status = absl::InvalidArgumentError(absl::StrCat(
          "--delete-ids ", args.delete_ids, " line ", number, " is not valid UTF-8 at byte ",
          error.offset, " (", error.reason, "); nothing was deleted"));
      break;
    }
    r.status = writer.DeleteDocuments(key, line);
    ++r.delete_ids;
  }
  if (r.status.ok() && in->bad()) {
    r.status = absl::DataLossError(
        absl::StrCat("--delete-ids: error reading ", args.delete_ids, "; nothing was deleted"));
  }
  r.input_bytes = 0;
  Finish(args, writer, start, &r);
  return Report(args, r);
}

int Run(const IndexArgs& args) {
  if (args.delete_mode()) return RunDeletes(args);
  absl::StatusOr<std::unique_ptr<DocSource>> source =
      args.json_input() ? OpenJsonLines(args.input) : OpenLineDocs(args.input);
  if (!source.ok()) return Fail(args, source.status());

  const IndexWriterOptions options = WriterOptions(args);
  absl::StatusOr<std::unique_ptr<IndexWriter>> opened = OpenWriter(args);
  if (!opened.ok()) return Fail(args, opened.status());
  IndexWriter& writer = **opened;
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

  if (!args.update_key.empty() && args.threads > 1) {
    std::fprintf(stderr,
                 "invert-index: note: --update-key adds the documents in input order from one "
                 "thread (the later of two lines with the same key wins); --threads %d does not "
                 "apply\n",
                 args.threads);
  }
  const auto start = std::chrono::steady_clock::now();
  FeedOptions feed_options;
  feed_options.max_docs = args.max_docs;
  feed_options.strict = args.strict;
  feed_options.threads = writer.threads();
  feed_options.progress = !args.json;
  feed_options.update_key = args.update_key;
  RunReport r;
  r.args = &args;
  r.feed = Feed(source->get(), &writer, schema, feed_options);
  r.opened = open_info;
  r.threads = writer.threads();
  r.status = r.feed.fatal;
  Finish(args, writer, start, &r);
  r.input_bytes = (*source)->bytes_read();
  return Report(args, r);
}

}  // namespace
}  // namespace invert::tools

int main(int argc, char** argv) {
  invert::tools::GrowHeapsInLargeSteps();
  invert::tools::IndexArgs args;
  if (std::optional<int> exit = invert::tools::ParseIndexArgs(argc, argv, &args)) return *exit;
  return invert::tools::Run(args);
}

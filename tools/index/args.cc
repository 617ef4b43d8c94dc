// invert-index's command line (see args.h).
#include "args.h"

#include "absl/strings/str_cat.h"
#include "common/cli.h"
#include "schema_check.h"

namespace invert::tools {

std::optional<int> ParseIndexArgs(int argc, char** argv, IndexArgs* a) {
  // CLI11 rather than Abseil Flags: dashed names (--ram-mb), no process-global
  // state, positional INPUT, validators that name the flag and its range,
  // generated --help (the full reasoning is in tools/common/cli.h).
  CLI::App app(
      "Indexes line documents (title<TAB>date<TAB>body, luceneutil's format, optional\n"
      "FIELDS_HEADER_INDICATOR### header) or JSON lines into an index directory, and\n"
      "prints a report. A malformed line is skipped and counted (or stops the run with\n"
      "--strict); the index only ever holds whole documents.",
      "invert-index");
  app.option_defaults()->always_capture_default();
  app.footer(
      "No document is added to an existing index unless --append or --overwrite says how\n"
      "(opening it still tidies files a crashed writer of that index left behind).\n"
      "--delete-ids FILE is a mode of its own, without INPUT: it deletes the documents of\n"
      "the existing index whose key field (--update-key, default id) equals a line of\n"
      "FILE (one value per line, exact bytes; empty lines skipped), then commits.\n"
      "Exit status: 0 done, 1 error (nothing committed by this run; the report says what\n"
      "was rolled back), 2 usage error.");
  std::string layout = std::string(TermBytesLayoutName(a->layout));
  app.add_option("INPUT", a->input, "input file; - for standard input (not with --delete-ids)");
  app.add_option("--index", a->index, "index directory (created if missing; its parent must exist)")
      ->required();
  app.add_option("--threads", a->threads, "documents inverted concurrently")
      ->transform(UnsignedIn(1, kMaxThreads));
  app.add_option("--ram-mb", a->ram_mb, "RAM buffer for in-memory segments, all threads, in MB")
      ->transform(FiniteIn(kMinRamPerThreadMb, kMaxRamBufferMb));
  app.add_option("--layout", layout, "where term bytes live")
      ->check(CLI::IsMember({"shared", "separate"}));
  app.add_flag("--term-vectors", a->term_vectors, "body gets term vectors (positions and offsets)");
  app.add_flag("--store-body", a->store_body, "store the body too (title, date, id always are)");
  app.add_option("--max-docs", a->max_docs,
                 "stop after adding this many documents (skipped lines do not count)")
      ->transform(UnsignedIn(0, UINT64_MAX))
      ->default_str("no limit");
  app.add_option("--format", a->format,
                 "input format; default: json for *.json and *.jsonl, else lines")
      ->check(CLI::IsMember({"lines", "json"}));
  app.add_flag("--strict", a->strict,
               "stop at the first malformed line and roll back everything this run added");
  app.add_flag("--json", a->json, "print the report as one JSON object");
  CLI::Option* append =
      app.add_flag("--append", a->append, "add to the index already in --index (must exist)");
  CLI::Option* overwrite =
      app.add_flag("--overwrite", a->overwrite,
                   "replace the index in --index (the old one stays until this run commits)");
  append->excludes(overwrite);
  app.add_flag("--recover", a->recover,
               "if the newest commit point cannot be read, continue from the newest one that "
               "can (with --append or --overwrite; what was skipped is reported)");
  app.add_option("--merge-policy", a->merge_policy,
                 "merges while indexing: tiered (Lucene's default policy) or none (every flush "
                 "stays a segment)")
      ->check(CLI::IsMember({"tiered", "none"}));
  app.add_option("--force-merge", a->force_merge,
                 "after the last document, merge down to at most N segments (timed on its own)")
      ->transform(UnsignedIn(1, 1'000'000))
      ->default_str("no forced merge");
  app.add_option("--update-key", a->update_key,
                 "each document replaces the documents with the same value of this keyword "
                 "field (e.g. id); documents are then added in input order by one thread, so "
                 "the later of two lines with the same key wins")
      ->option_text("FIELD");
  app.add_option("--delete-ids", a->delete_ids,
                 "mode: delete the documents whose key field (--update-key, default id) equals "
                 "a line of FILE, then commit; - for standard input")
      ->option_text("FILE");
  if (std::optional<int> exit = ParseCommandLine(app, argc, argv)) return exit;
  if (a->delete_mode()) {
    if (!a->input.empty()) {
      return UsageError(app, absl::StrCat("INPUT (", a->input,
                                          ") and --delete-ids exclude each other: --delete-ids "
                                          "deletes from an existing index and adds nothing; run "
                                          "invert-index twice to do both"));
    }
    if (a->overwrite) {
      return UsageError(
          app,
          "--delete-ids deletes from the existing index: drop --overwrite (and --append, "
          "which it implies)");
    }
  } else if (a->input.empty()) {
    return UsageError(app, "INPUT is required (or --delete-ids FILE to delete documents)");
  }
  if (a->recover && !a->append && !a->overwrite && !a->delete_mode()) {
    return UsageError(app, "--recover needs --append or --overwrite");
  }
  a->layout = *ParseTermBytesLayout(layout);  // checked by IsMember
  if (!a->update_key.empty()) {
    const LineDocSchemaOptions schema{.body_term_vectors = a->term_vectors,
                                      .store_body = a->store_body};
    if (absl::Status s = CheckKeyField(a->update_key, schema); !s.ok()) {
      return UsageError(app, absl::StrCat("--update-key ", s.message()));
    }
  }
  return std::nullopt;
}

}  // namespace invert::tools

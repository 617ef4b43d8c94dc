// invert-index's command line: the flags, their ranges and combinations
// (CLI11, see tools/common/cli.h).
#ifndef INVERT_TOOLS_INDEX_ARGS_H_
#define INVERT_TOOLS_INDEX_ARGS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "invert/index_writer.h"
#include "invert/term_bytes_layout.h"

namespace invert::tools {

struct IndexArgs {
  std::string input;  // "-" = stdin
  std::string index;
  int threads = 1;
  // 64 MB, as IndexWriterOptions: measured faster per document than 128-256 MB
  // (docs/benchmarks.md, section 4, "RAM buffer size").
  double ram_mb = 64;
  TermBytesLayout layout = kDefaultTermBytesLayout;
  bool term_vectors = false;
  bool store_body = false;
  uint64_t max_docs = UINT64_MAX;
  std::string format;  // "", "lines", "json"
  bool strict = false;
  bool json = false;
  bool append = false;     // OpenMode::kAppend
  bool overwrite = false;  // OpenMode::kCreate
  bool recover = false;    // IndexWriterOptions::recover
  // Merges (docs/merges.md): "tiered" (TieredMergePolicy, the default) or
  // "none" (NoMergePolicy); --force-merge N (0: none) merges down to at most
  // N segments after the last document, before the final commit.
  std::string merge_policy = "tiered";
  int force_merge = 0;
  // --update-key FIELD: each document replaces those with its value of
  // FIELD (IndexWriter::UpdateDocument); empty: documents are only added.
  std::string update_key;
  // --delete-ids FILE (a mode, without INPUT): deletes the documents whose
  // key field (key_field()) equals a line of FILE ("-": standard input).
  std::string delete_ids;

  bool delete_mode() const { return !delete_ids.empty(); }
  // The field --delete-ids matches: --update-key's, else "id".
  std::string key_field() const { return update_key.empty() ? "id" : update_key; }

  // The mode Open() gets: kAppend, kCreate, or kCreateOrAppend when neither
  // flag was given (then an existing index makes the run stop, unchanged).
  // --delete-ids needs an existing index: kAppend.
  OpenMode open_mode() const {
    if (delete_mode()) return OpenMode::kAppend;
    return append ? OpenMode::kAppend : overwrite ? OpenMode::kCreate : OpenMode::kCreateOrAppend;
  }
  bool json_input() const {
    return format == "json" ||
           (format.empty() && (input.ends_with(".json") || input.ends_with(".jsonl")));
  }
};

// Parses the command line into *args. Returns nullopt to go on, or the exit
// status (0 after --help; 2 after a usage error, reported on stderr).
std::optional<int> ParseIndexArgs(int argc, char** argv, IndexArgs* args);

}  // namespace invert::tools

#endif  // INVERT_TOOLS_INDEX_ARGS_H_

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
  double ram_mb = 256;
  TermBytesLayout layout = TermBytesLayout::kSeparate;
  bool term_vectors = false;
  bool store_body = false;
  uint64_t max_docs = UINT64_MAX;
  std::string format;  // "", "lines", "json"
  bool strict = false;
  bool json = false;
  bool append = false;     // OpenMode::kAppend
  bool overwrite = false;  // OpenMode::kCreate
  bool recover = false;    // IndexWriterOptions::recover

  // The mode Open() gets: kAppend, kCreate, or kCreateOrAppend when neither
  // flag was given (then an existing index makes the run stop, unchanged).
  OpenMode open_mode() const {
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

// Feeder: invert-index's indexing loop. Threads take documents from one
// DocSource (under a lock), check that every field is well-formed UTF-8,
// build a line-doc Document and add it to the writer (in parallel).
//
// Counting (--max-docs): a thread takes a document only while
// added + in_flight < max_docs, where in_flight counts documents taken and
// not yet answered by AddDocument. A rejected document frees its slot, so
// exactly min(max_docs, documents the input can give) are added and never
// more; a thread that finds every slot taken by documents in flight waits
// for one of them to be answered.
//
// --update-key: UpdateDocument instead of AddDocument; a document the
// writer rejects deletes nothing (the writer's promise).
//
// Bad lines (malformed line, a field that is not UTF-8, a document the
// writer rejects with InvalidArgument or ResourceExhausted) are counted and
// the first few kept as "line N: reason"; with `strict` the first one stops
// the run. Any other error stops the run too.
#ifndef INVERT_TOOLS_INDEX_FEEDER_H_
#define INVERT_TOOLS_INDEX_FEEDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "invert/index_writer.h"
#include "invert/line_docs.h"

namespace invert::tools {

struct FeedOptions {
  uint64_t max_docs = UINT64_MAX;
  bool strict = false;
  int threads = 1;        // feeding threads (the writer's effective count)
  bool progress = false;  // status line on a terminal
  // Non-empty: each document replaces the documents with its value of this
  // field (IndexWriter::UpdateDocument with the value as indexed: the
  // field must be a keyword field, schema_check.h's CheckKeyField); a
  // document without the field is only added.
  std::string update_key;
};

struct FeedResult {
  uint64_t added = 0;                  // AddDocument returned OK
  uint64_t bad_lines = 0;              // skipped (or, strict, the one that stopped the run)
  std::vector<std::string> first_bad;  // up to kListedBadLines, "line N: reason"
  bool reached_max_docs = false;
  absl::Status fatal;  // what stopped the run early (OK: end of input or max_docs)
};

inline constexpr size_t kListedBadLines = 10;

// OK iff every field of the document is well-formed UTF-8; else
// InvalidArgument `field "date" is not valid UTF-8 at byte K (reason)`, K
// counted from 0 in the field's value.
absl::Status CheckFieldsUtf8(const SourceDoc& doc);

FeedResult Feed(DocSource* source, IndexWriter* writer, const LineDocSchema& schema,
                const FeedOptions& options);

}  // namespace invert::tools

#endif  // INVERT_TOOLS_INDEX_FEEDER_H_

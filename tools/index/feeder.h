// Feeder: invert-index's indexing loop. Each thread takes a block of whole
// input lines from the one DocSource (DocSource::NextBlock, ~1 MiB, under a
// lock), then parses its documents, checks that every field is well-formed
// UTF-8, builds line-doc Documents and adds them to the writer, all without
// the lock; so reading is the only serial step (a copy of the lines).
//
// Order: one thread adds the documents in input order (doc ids follow the
// input). Several threads add whole blocks concurrently, so doc ids do not
// follow the input order; what the index holds does not depend on it.
//
// Counting (--max-docs): a thread takes a block of at most
// max_docs - added - in_flight lines, where in_flight counts the lines of
// blocks taken and not yet done (every line may be a document); a line that
// is no document (malformed, rejected by the writer) frees its slot when its
// block is done. So exactly min(max_docs, documents the input can give) are
// added and never more, and they are the first ones the input gives (the
// lines taken are always a prefix of the input). A thread that finds every
// slot taken by lines in flight waits for a block to be done.
//
// --update-key: UpdateDocument instead of AddDocument; a document the
// writer rejects deletes nothing (the writer's promise). Of two lines with
// the same key the later must win, so the documents are added in input
// order by one thread: options.threads is ignored.
//
// Bad lines (malformed line, a field that is not UTF-8, a document the
// writer rejects with InvalidArgument or ResourceExhausted) are counted and
// the first few of the input kept as "line N: reason"; with `strict` the
// first bad line of the input stops the run and is the one reported, with
// any number of threads (threads still adding earlier lines go on up to it;
// the caller rolls everything back). Any other error stops the run at once.
#ifndef INVERT_TOOLS_INDEX_FEEDER_H_
#define INVERT_TOOLS_INDEX_FEEDER_H_

#include <cstddef>
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
  // document without the field is only added. Feeds from one thread.
  std::string update_key;
  // Input bytes a thread takes at once (whole lines: a block exceeds it by
  // less than one line).
  size_t block_bytes = size_t{1} << 20;
};

struct FeedResult {
  uint64_t added = 0;                  // AddDocument returned OK
  uint64_t bad_lines = 0;              // skipped (or, strict, the one that stopped the run)
  std::vector<std::string> first_bad;  // up to kListedBadLines, "line N: reason", input order
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

// invert-index's final report, in words or as one JSON object. It tells
// what the run committed: when the run was rolled back (--strict stopped it,
// or an error did) it never claims documents as indexed; it says how many
// were discarded and what the index still holds.
#ifndef INVERT_TOOLS_INDEX_REPORT_H_
#define INVERT_TOOLS_INDEX_REPORT_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "args.h"
#include "feeder.h"
#include "invert/index_writer.h"

namespace invert::tools {

struct RunReport {
  const IndexArgs* args = nullptr;
  FeedResult feed;
  absl::Status status;         // OK iff the run succeeded (and committed)
  bool committed = false;      // this run's documents are in a durable commit
  IndexWriterStats stats;      // after Close() or Rollback()
  IndexWriterOpenInfo opened;  // what Open() found
  int threads = 1;
  // Feeding, the commit after it and Close(); not --force-merge's merge and
  // commit.
  double seconds = 0;
  double force_merge_seconds = 0;  // --force-merge: ForceMerge() and its Commit()
  uint64_t delete_ids = 0;         // --delete-ids: values read (one delete each)
  uint64_t input_bytes = 0;
  uint64_t index_bytes = 0;
  uint64_t peak_rss_bytes = 0;
};

// The text report on stdout.
void PrintTextReport(const RunReport& r);

// One JSON object on stdout. Keys: docs (documents this run committed: 0
// when rolled back), seconds, docs_per_s, gb_per_hour, input_bytes,
// segments, unique_terms, index_bytes, peak_rss_bytes,
// peak_ram_buffer_bytes, skipped, threads, ram_mb, layout, term_vectors,
// flush_seconds, ok, committed, rolled_back_docs, commit_generation and
// index_docs (the index's last commit), created, merge_policy, merges,
// merge_bytes_read, merge_bytes_written, merge_seconds (inside merges, all
// merge threads), merge_cpu_seconds (CPU time of those threads inside
// merges), force_merge (N or null), force_merge_seconds (the forced merge
// and its commit), final_segments, deleted_docs (by this run's
// updates and deletes), flushed_bytes, write_amplification ((flushed_bytes
// + merge_bytes_written) / index_bytes; null for an empty directory),
// update_key (null or the field), delete_ids (null, or the values read in
// --delete-ids mode), error (null or a string).
void PrintJsonReport(const RunReport& r);

// For a run that stopped before indexing (bad input, the index cannot be
// opened or may not be changed): with --json, a JSON object with ok false,
// committed false, docs 0 and the error. Prints nothing without --json.
void PrintJsonFailure(const IndexArgs& args, const absl::Status& status);

}  // namespace invert::tools

#endif  // INVERT_TOOLS_INDEX_REPORT_H_

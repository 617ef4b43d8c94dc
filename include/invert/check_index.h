// CheckIndex: verifies an index completely and returns a structured report
// (what the invert-check tool prints): every checksum, and every invariant
// the formats promise (terms strictly increasing; doc ids in range and
// increasing; freqs equal to the positions read; positions and offsets in
// order; doc freq, total term freq and field statistics matching the
// postings; norms present where the field is; stored fields and term vectors
// of every document readable and consistent with the postings; every
// segment of the index the commit names, every field of the type the
// commit's schema gives it; every segment's live docs readable, intact and
// agreeing with the commit's deletion counts). Also lists the files of the
// directory that are not part of the index.
//
// Deleted documents: the totals count live documents (docs) and the
// deleted ones apart; per segment, docs counts every document. The field
// statistics come from the postings, which keep deleted documents until a
// merge drops them, so they count them (as the readers' statistics do), and
// every document of a segment, deleted or not, is checked.
//
// CheckIndex only reads: it never changes, repairs or deletes anything. It
// takes no lock, so it may run while a writer commits (it checks the commit
// that was newest when it started).
#ifndef INVERT_CHECK_INDEX_H_
#define INVERT_CHECK_INDEX_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "invert/directory.h"
#include "invert/export.h"

namespace invert {

// One field, summed over the segments.
struct FieldCheckStats {
  uint64_t terms = 0;      // distinct terms per segment, summed
  uint64_t postings = 0;   // sum of doc freqs
  uint64_t positions = 0;  // sum of total term freqs (positions-indexed fields)
  bool operator==(const FieldCheckStats&) const = default;
};

// One segment of the checked commit.
struct SegmentCheckStats {
  std::string name;        // "_3"
  uint32_t docs = 0;       // documents, deleted ones included (max doc)
  uint64_t bytes = 0;      // its files but the .si and the live docs
  std::string created_by;  // the version of invert that wrote it
  uint32_t deleted = 0;    // deleted documents (the commit's count); live = docs - deleted
  uint64_t del_gen = 0;    // generation of its live-docs file (0: no deletions)
  bool operator==(const SegmentCheckStats&) const = default;
};

struct CheckReport {
  bool ok = true;
  // What is wrong, one line each, naming the file, segment, field, term or
  // document (at most 50; empty iff ok). When the index could not be opened
  // at all, the first is why and generation stays 0.
  std::vector<std::string> problems;
  uint64_t generation = 0;  // of the commit checked
  uint64_t segments = 0;
  uint64_t docs = 0;            // live documents (not deleted)
  uint64_t deleted_docs = 0;    // deleted documents still in the segments
  uint64_t index_bytes = 0;     // the segments' files (but the .si)
  uint64_t doc_file_bytes = 0;  // the .doc files
  uint64_t pos_file_bytes = 0;  // the .pos files
  std::map<std::string, FieldCheckStats> fields;
  std::vector<SegmentCheckStats> segment_stats;  // in commit order
  std::vector<std::string> notes;                // e.g. damaged newer commits passed over
  // Files in the directory that the checked commit does not use (not
  // write.lock): foreign files, older commit points, leftovers.
  std::vector<std::string> not_in_index;
};

struct CheckOptions {
  // Check the newest commit point that reads when the newest does not (the
  // report notes the ones passed over); false reports the newest's cause.
  bool recover = false;
};

// Checks the index in `dir`.
INVERT_EXPORT CheckReport CheckIndex(Directory* dir, const CheckOptions& options = {});
// Checks the index in the folder `path` (a missing folder is a problem in
// the report, not a crash).
INVERT_EXPORT CheckReport CheckIndex(const std::string& path, const CheckOptions& options = {});

// The report as invert-check prints it.
INVERT_EXPORT std::string FormatCheckReport(const CheckReport& report);

}  // namespace invert

#endif  // INVERT_CHECK_INDEX_H_

// CheckIndex: verifies an index completely: every checksum, and every
// invariant the formats promise (terms strictly increasing; doc ids in range
// and increasing; freqs equal to the positions read; positions and offsets
// in order; doc freq, total term freq and field statistics matching the
// postings; norms present where the field is; stored fields and term vectors
// of every document readable and consistent with the postings; every
// segment of the index the commit names, every field of the type the
// commit's schema gives it). Lists the files of the directory that are not
// part of the index. Used by the invert-check tool and the tests.
#ifndef INVERT_INDEX_INDEX_CHECKER_H_
#define INVERT_INDEX_INDEX_CHECKER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "invert/directory.h"

namespace invert {

struct FieldCheckStats {
  uint64_t terms = 0;
  uint64_t postings = 0;   // sum of doc freqs
  uint64_t positions = 0;  // sum of total term freqs (positions-indexed fields)
};

struct CheckReport {
  bool ok = true;
  std::vector<std::string> problems;  // empty iff ok
  uint64_t segments = 0;
  uint64_t docs = 0;
  uint64_t generation = 0;
  uint64_t index_bytes = 0;
  uint64_t doc_file_bytes = 0;
  uint64_t pos_file_bytes = 0;
  std::map<std::string, FieldCheckStats> fields;  // summed over segments
  std::vector<std::string> notes;                 // e.g. damaged newer commits passed over
  // Files in the directory that the checked commit does not use (not
  // write.lock): foreign files, older commit points, leftovers.
  std::vector<std::string> not_in_index;
};

struct CheckOptions {
  // Check the newest commit point that reads when the newest does not (the
  // report notes the ones passed over); false reports the newest's cause.
  bool recover = false;
};

CheckReport CheckIndex(Directory* dir, const CheckOptions& options = {});

// Human-readable report.
std::string FormatCheckReport(const CheckReport& report);

}  // namespace invert

#endif  // INVERT_INDEX_INDEX_CHECKER_H_

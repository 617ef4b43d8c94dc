// IndexFileDeleter: the only code that deletes files of an index directory,
// and the rules it deletes by. A file is deleted only when it is provably
// invert's, of this index, and unreferenced:
//
//   pending_segments_<N>  a commit point being written; deleted by the lock
//                         holder (no commit is in flight then).
//   segments_<N>          a commit point older than the ones kept (the writer
//                         keeps the newest two, so that a damaged newest one
//                         can be recovered from): deleted only if it reads
//                         and carries this index's id. Damaged or foreign
//                         ones are kept.
//   _<n>.<ext>            (exactly segment_files.h's scheme) a file of a
//                         segment that no kept commit point lists, and that
//                         either
//                           (a) this writer created, or
//                           (b) a readable commit point of this index listed,
//                           or
//                           (c) carries in its header a segment id of this
//                               index (segment_flush.h: NewSegmentId) — a
//                               leftover of a crashed writer. Only while no
//                               damaged commit point (nor a foreign-looking
//                               one newer than every readable commit) is in
//                               the directory: those may list such files, and
//                               are kept for a person to inspect with them.
//                         While such a commit point is there, (b) is off
//                         too: it may list any file that was in the
//                         directory when the writer opened it (a .liv
//                         generation newer than every readable commit's, or
//                         a segment that readable commits listed before a
//                         merge replaced it), so only files this writer
//                         created go: (a), and .liv generations above every
//                         one seen at Scan. The index keeps those older
//                         files until the damaged commit point is repaired
//                         or removed by a person.
//   _<n>_<gen>.liv        a live-docs file (segment_files.h's scheme): it
//                         belongs to segment _<n> and is referenced iff a
//                         kept commit point lists _<n> with del_gen <gen>.
//                         An unreferenced one is deleted under the same
//                         (a), (b), (c) as the segment's other files (its
//                         header carries the segment's id), also while the
//                         segment itself is still referenced: so older
//                         generations go once no kept commit uses them.
//   anything else         never: write.lock, foreign files, files named like
//                         ours whose bytes do not prove it.
//
// Thread safety: none; the writer calls it under its state mutex.
#ifndef INVERT_INDEX_INDEX_FILE_DELETER_H_
#define INVERT_INDEX_INDEX_FILE_DELETER_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "codec/commit_format.h"
#include "codec/segment_files.h"
#include "invert/directory.h"

namespace invert {

inline constexpr std::string_view kWriteLockName = "write.lock";

// What a look at every commit point of the directory found.
struct CommitInventory {
  std::vector<CommitPoint> readable;     // of this index, any generation
  std::vector<std::string> damaged;      // named like commit points, unreadable
  std::vector<std::string> other_index;  // readable, of another index id
  uint64_t max_segment_number_seen = 0;  // over every _<n>.<ext> file name, + 1
  // Per segment name, the largest <gen> of its _<n>_<gen>.liv files: a new
  // generation must be above it so that it never meets a leftover.
  std::map<std::string, uint64_t, std::less<>> max_del_gen_seen;
  uint64_t max_generation_seen = 0;  // over every segments_N / pending_segments_N name
};

class IndexFileDeleter {
 public:
  IndexFileDeleter(Directory* dir, const SegmentId& index_id) : dir_(dir), index_id_(index_id) {}

  // Reads every commit point (and lists the segment files) of the
  // directory: segments of readable commits of this index become known
  // (rule b); a damaged one turns rule (c) off.
  absl::StatusOr<CommitInventory> Scan();

  // Rule (a): a segment this writer is creating or created.
  void AddOwnSegment(std::string_view name) { own_.emplace(name); }

  // Deletes what the rules allow, keeping the commit points `keep`, their
  // segments and the live-docs generation each lists. Called with no flush in progress (the writer
  // holds its commit lock). Best effort: a failed delete is retried at the next call. Returns the
  // names deleted.
  std::vector<std::string> DeleteUnreferenced(const std::vector<CommitPoint>& keep);

  // True iff rules (b) and (c) apply (no damaged commit point was seen).
  bool deletes_leftovers() const { return allow_leftovers_; }

 private:
  // Whether the unreferenced segment file `name` (parsed as `parts`) may
  // be deleted under the rules above.
  bool Deletable(const SegmentFileNameParts& parts, std::string_view name) const;

  // True iff `file` starts with a codec header whose id belongs to this index.
  bool HeaderBelongsToIndex(std::string_view file) const;

  Directory* dir_;
  SegmentId index_id_;
  // Segment names of rule (a) and of rule (b). std::sets: insertion may
  // throw (out of memory) and must leave them intact, which Abseil's tables
  // do not.
  std::set<std::string, std::less<>> own_;
  std::set<std::string, std::less<>> listed_;
  // Per segment, the highest .liv generation in the directory at Scan: a
  // higher one was written by this writer.
  std::map<std::string, uint64_t, std::less<>> del_gen_at_scan_;
  bool allow_leftovers_ = true;  // no damaged commit point: rules (b), (c) apply
};

}  // namespace invert

#endif  // INVERT_INDEX_INDEX_FILE_DELETER_H_

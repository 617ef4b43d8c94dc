// Commit points (segments_<generation>): the index's id, its schema and the
// list of live segments. A commit writes a new generation atomically under
// the temporary name pending_segments_<generation> (store/atomic_file.h);
// opening an index reads the newest generation. Layout (docs/format.md):
//   header(kCommitCodec, version 3, id = the index id)
//   VLong generation                 (equals the file name's)
//   VLong next_segment_number        (names of new segments continue from it)
//   VInt field_count                 the schema, in order of first use
//   field_count x { String name, byte index_options, byte flags }
//   VInt segment_count
//   segment_count x {
//     String name, 16-byte id, VInt doc_count, Fixed64 si_checksum,
//     VLong del_gen                  (0: no deletions; else _<n>_<del_gen>.liv)
//     VInt del_count                 (<= doc_count; 0 iff del_gen == 0)
//     [Fixed64 liv_checksum]         (only when del_gen > 0: the .liv's footer
//                                    checksum, so a swapped .liv is caught)
//   }
//   footer
// Version 2 (still read) is the same without the last three fields: no
// deletions. Do not change: persistent format.
//
// Names: "segments_" + the generation in decimal without leading zeros
// (generations start at 1). A file with such a name is taken for a commit
// point (possibly damaged) unless its bytes show it is not one: at least 4
// bytes, none of which start the codec header magic, and no codec name
// "InvertCommit" after them (one damaged byte cannot make a commit point
// look foreign). Foreign ones are reported; one newer than the newest commit
// point that reads is refused like a damaged one (it may be a commit point
// overwritten whole), unless the caller asks to recover.
#ifndef INVERT_CODEC_COMMIT_FORMAT_H_
#define INVERT_CODEC_COMMIT_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "codec/field_info.h"
#include "invert/directory.h"
#include "store/codec_util.h"

namespace invert {

inline constexpr std::string_view kCommitCodec = "InvertCommit";
inline constexpr std::string_view kCommitPrefix = "segments_";
inline constexpr std::string_view kPendingCommitPrefix = "pending_segments_";
inline constexpr uint32_t kCommitFormatVersion = 3;     // written
inline constexpr uint32_t kMinCommitFormatVersion = 2;  // oldest read

struct CommitSegment {
  std::string name;
  SegmentId id{};
  uint32_t doc_count = 0;
  uint64_t si_checksum = 0;  // checksum in the footer of the segment's .si
  // Deletions (codec/live_docs_format.h): the generation of the segment's
  // current .liv file (0: no deletions), the documents it deletes, and the
  // checksum in that file's footer (WriteLiveDocs gives it; 0 when del_gen
  // is 0). WriteCommit refuses a commit whose liv_checksum is not the
  // .liv's, and readers check it, like si_checksum.
  // Invariants: del_count <= doc_count; del_gen == 0 iff del_count == 0.
  uint64_t del_gen = 0;
  uint32_t del_count = 0;
  uint64_t liv_checksum = 0;
  bool operator==(const CommitSegment&) const = default;
};

struct CommitPoint {
  uint64_t generation = 0;
  // Random, made when the index is created; every commit point of the index
  // carries it in its header, and every segment id starts with its first 8
  // bytes (segment_flush.h).
  SegmentId index_id{};
  uint64_t next_segment_number = 0;
  std::vector<FieldInfo> schema;  // number = position
  std::vector<CommitSegment> segments;

  std::string file_name() const;  // "segments_<generation>"
  // Documents of every segment, deleted ones included ("max doc").
  uint64_t doc_count() const;
  // Documents not deleted: doc_count() minus every segment's del_count.
  uint64_t live_doc_count() const;
};

// Writes commit.file_name() atomically. kInvalidArgument (nothing written)
// for a segment whose deletion fields break the invariants above or whose
// liv_checksum is not the one in its .liv's footer (which must exist).
absl::Status WriteCommit(Directory* dir, const CommitPoint& commit);

// Reads and verifies one commit file. The error names the file and the
// cause: kNotFound (missing), kPermissionDenied, kDataLoss (checksum
// mismatch, truncation, ...), kFailedPrecondition (a format version this
// build does not read).
absl::StatusOr<CommitPoint> ReadCommit(Directory* dir, std::string_view file_name);

// Generation of a commit file name, or -1 if `name` is not one.
int64_t CommitGeneration(std::string_view name);
// Generation of a pending (temporary) commit file name, or -1.
int64_t PendingCommitGeneration(std::string_view name);

// True iff the bytes of a file named like a commit point show it is not one
// (see the top of this file).
bool IsForeignCommitFile(std::span<const uint8_t> bytes);

struct SkippedCommit {
  std::string file;
  absl::Status cause;
};

// What ReadNewestCommit found.
struct NewestCommit {
  CommitPoint commit;
  // Newer commit points that could not be read (only with fall_back).
  std::vector<SkippedCommit> skipped;
  // Files named like commit points that are not (IsForeignCommitFile).
  std::vector<std::string> foreign;
  // The largest generation of any segments_N or pending_segments_N name in
  // the directory, foreign and damaged ones included: a new commit must be
  // numbered above it so that it never replaces a file.
  uint64_t max_generation = 0;
};

// Reads the newest commit point. kNotFound if the directory holds none.
// When the newest cannot be read: without `fall_back`, its error (naming the
// file and the cause); with it, the newest older one that reads, the newer
// ones listed in `skipped`. A commit point that disappears between listing
// and reading was replaced by a concurrent commit: the directory is listed
// again (up to 100 times).
absl::StatusOr<NewestCommit> ReadNewestCommit(Directory* dir, bool fall_back = false);

}  // namespace invert

#endif  // INVERT_CODEC_COMMIT_FORMAT_H_

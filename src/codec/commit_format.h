// Commit points (segments_<generation>): the list of live segments. A commit
// writes a new generation atomically (temp file, fsync, rename, fsync of the
// directory: store/atomic_file.h); opening an index reads the newest
// generation that verifies, falling back to older ones if the newest is
// damaged. Layout (docs/format.md):
//   header(kCommitCodec, segment id = 16 zero bytes)
//   VLong generation
//   VLong next_segment_number       (names of new segments continue from it)
//   VInt segment_count
//   segment_count x { String name, 16-byte id, VInt doc_count, Fixed64 si_checksum }
//   footer
// Do not change: persistent format.
#ifndef INVERT_CODEC_COMMIT_FORMAT_H_
#define INVERT_CODEC_COMMIT_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "invert/directory.h"
#include "store/codec_util.h"

namespace invert {

inline constexpr std::string_view kCommitCodec = "InvertCommit";
inline constexpr std::string_view kCommitPrefix = "segments_";

struct CommitSegment {
  std::string name;
  SegmentId id{};
  uint32_t doc_count = 0;
  uint64_t si_checksum = 0;  // checksum in the footer of the segment's .si
  bool operator==(const CommitSegment&) const = default;
};

struct CommitPoint {
  uint64_t generation = 0;
  uint64_t next_segment_number = 0;
  std::vector<CommitSegment> segments;
  std::string file_name() const;  // "segments_<generation>"
};

// Writes commit.file_name() atomically.
absl::Status WriteCommit(Directory* dir, const CommitPoint& commit);

// Reads and verifies one commit file.
absl::StatusOr<CommitPoint> ReadCommit(Directory* dir, std::string_view file_name);

// The newest commit that verifies, or NotFound if there is none. `skipped`
// (if not null) receives the newer commit files that failed to verify.
absl::StatusOr<CommitPoint> ReadLatestCommit(Directory* dir,
                                             std::vector<std::string>* skipped = nullptr);

// Generation of a commit file name, or -1 if `name` is not one.
int64_t CommitGeneration(std::string_view name);

}  // namespace invert

#endif  // INVERT_CODEC_COMMIT_FORMAT_H_

// Segment info file (_N.si): what a segment is and which files make it up.
// Layout (docs/format.md):
//   header(kSegmentInfoCodec)            (carries the segment id)
//   VInt doc_count
//   String term_bytes_layout             ("shared"/"separate": how it was built;
//                                        "mixed": merged from segments of both)
//   String created_by                    (e.g. "invert 0.1.0")
//   VInt file_count
//   file_count x { String name, VLong length, Fixed64 checksum }
//   footer
// The files listed are every other file of the segment; their checksums are
// the XXH64 values in their footers, so the checker can tell a swapped file.
#ifndef INVERT_CODEC_SEGMENT_INFO_FORMAT_H_
#define INVERT_CODEC_SEGMENT_INFO_FORMAT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "invert/directory.h"
#include "store/codec_util.h"

namespace invert {

struct SegmentFile {
  std::string name;
  uint64_t length = 0;
  uint64_t checksum = 0;
  bool operator==(const SegmentFile&) const = default;
};

struct SegmentInfo {
  std::string name;  // "_0"
  SegmentId id{};
  uint32_t doc_count = 0;
  std::string term_bytes_layout;
  std::string created_by;
  std::vector<SegmentFile> files;  // all but the .si itself
};

// Fills in length and checksum of every file in info.files from the
// directory (reading each footer), then writes _N.si. Returns its name.
absl::StatusOr<std::string> WriteSegmentInfo(Directory* dir, SegmentInfo* info);

// Reads and verifies _N.si (its own checksum; not the other files).
absl::StatusOr<SegmentInfo> ReadSegmentInfo(Directory* dir, std::string_view segment,
                                            const SegmentId& id);

}  // namespace invert

#endif  // INVERT_CODEC_SEGMENT_INFO_FORMAT_H_

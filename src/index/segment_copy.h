// CopySegment: copies one committed segment of an index into another
// directory under a new name and a new segment id; the copy step of
// IndexWriter::AddIndexes (docs/merges.md).
//
// Why a copy and not a hard link: every file of a segment carries the
// segment's id in its header (store/codec_util.h), and every segment id of
// an index starts with that index's id (index/segment_flush.h), which is
// the writer's proof that a file is its own (docs/safety.md). A segment
// brought into another index needs an id of that index, so every file is
// rewritten: the same bytes with the new id in the header and the footer's
// checksum recomputed. Offsets inside a file stay valid because the header
// keeps its length (same codec name, same version, a 16-byte id).
//
// What is copied: every file the source .si lists, the segment's current
// live-docs file when segment.del_gen > 0 (same generation number, under
// the new name), and a new .si (written by WriteSegmentInfo with the new
// names, lengths and checksums).
//
// Checks while copying: the source .si is the one the commit recorded
// (si_checksum, doc_count); every source file has the length and checksum
// the .si recorded, a header carrying segment.id, and bytes that hash to
// its footer's checksum (verified in the same pass that copies them); the
// .liv is fully verified (ReadLiveDocs) and its checksum is the commit's
// liv_checksum. A damaged source fails with kDataLoss naming the source
// directory, the segment and the file.
//
// Memory: files are read through their mappings and written in chunks
// through IndexOutput; nothing holds a whole file.
//
// Durability and cleanup: the new files are fsynced (Directory::Sync)
// before CopySegment returns; making their directory entries durable is the
// commit's SyncMetaData. On any error every file this call created is
// deleted (a destination file that already exists is never touched: that
// fails with kAlreadyExists before anything is written).
//
// Thread safety: a free function; the caller keeps both directories stable
// (the source unchanged, the destination's names not taken meanwhile).
#ifndef INVERT_INDEX_SEGMENT_COPY_H_
#define INVERT_INDEX_SEGMENT_COPY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "codec/commit_format.h"
#include "invert/directory.h"
#include "store/codec_util.h"

namespace invert {

// Counters of CopySegment, added to (so one CopyStats may sum many calls).
struct CopyStats {
  uint64_t files = 0;          // files written, the .si and .liv included
  uint64_t bytes_read = 0;     // bytes of the source files, each counted once
                               // (the .si and .liv included)
  uint64_t bytes_written = 0;  // bytes of the new files
  double seconds = 0;          // wall time inside CopySegment
};

struct CopiedSegment {
  // The segment under its new name and id: doc_count, del_gen and del_count
  // as in the source; si_checksum and liv_checksum those of the new files.
  CommitSegment segment;
  // Every file written, the .si first.
  std::vector<std::string> files;
};

// Copies `segment` (an entry of a commit point of the index in `from`) into
// `to` as segment `new_name` with id `new_id`, which must be
// NewSegmentId(index id of the destination index). kInvalidArgument (nothing
// written) if new_name is not a segment name (SegmentName(n)) or `from` and
// `to` are the same directory object with new_name == segment.name;
// kAlreadyExists (nothing written) if a destination file exists; kDataLoss
// for a damaged source; other codes for I/O errors. With `stats`, its
// counters are added to.
absl::StatusOr<CopiedSegment> CopySegment(Directory* from, const CommitSegment& segment,
                                          Directory* to, std::string_view new_name,
                                          const SegmentId& new_id, CopyStats* stats = nullptr);

}  // namespace invert

#endif  // INVERT_INDEX_SEGMENT_COPY_H_

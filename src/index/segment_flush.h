// FlushSegment: writes an IndexingChain's in-memory segment as the files of
// one segment (codec/segment_files.h): sorts each field's terms with the
// radix sort, streams postings, norms, stored fields and term vectors to
// their files, records every file's length and checksum in the segment info,
// and fsyncs them all. On error every file it created is deleted and the
// error returned; the chain must then be discarded either way (its hashes are
// consumed by the sort).
#ifndef INVERT_INDEX_SEGMENT_FLUSH_H_
#define INVERT_INDEX_SEGMENT_FLUSH_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "codec/segment_info_format.h"
#include "index/indexing_chain.h"
#include "invert/directory.h"

namespace invert {

struct FlushStats {
  double sort_seconds = 0;
  double write_seconds = 0;
  uint64_t terms = 0;
  uint64_t bytes_written = 0;
};

// The segment's id is NewSegmentId(index_id). REQUIRES: chain.num_docs() > 0.
absl::StatusOr<SegmentInfo> FlushSegment(IndexingChain& chain, Directory* dir,
                                         std::string_view segment_name, FlushStats* stats = nullptr,
                                         const SegmentId& index_id = {});

// A fresh segment id of the index `index_id`: its first 8 bytes are the
// index id's, the other 8 random. So every file of a segment carries, in its
// header, proof of the index it was written for: the writer deletes a
// leftover file only with that proof (docs/safety.md).
SegmentId NewSegmentId(const SegmentId& index_id = {});

// A fresh random index id (16 random bytes).
SegmentId NewIndexId();

// True iff `segment_id` was made by NewSegmentId(index_id).
bool SegmentBelongsToIndex(const SegmentId& segment_id, const SegmentId& index_id);

}  // namespace invert

#endif  // INVERT_INDEX_SEGMENT_FLUSH_H_

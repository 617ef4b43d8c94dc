// DumpSegment: a canonical text rendering of everything in a flushed
// segment, in exactly the format of IndexingChain::DebugDump(), so a test can
// check a flush byte for byte: DumpSegment(read back) == chain.DebugDump().
//
// With live docs that delete something, two things are added (so the text
// is DebugDump's only without deletions): a line "deleted: N (del_gen G)"
// after the first, and " (deleted)" after "doc D" where the documents are
// listed. Postings, norms and statistics are shown as stored: deleted
// documents stay in them until a merge.
#ifndef INVERT_TESTING_SEGMENT_DUMP_H_
#define INVERT_TESTING_SEGMENT_DUMP_H_

#include <string>

#include "absl/status/statusor.h"
#include "codec/live_docs_format.h"
#include "codec/segment_reader.h"

namespace invert {

// `live` (null: no deletions) must cover the segment's documents; `del_gen`
// is only printed.
absl::StatusOr<std::string> DumpSegment(const SegmentReader& segment,
                                        const LiveDocs* live = nullptr, uint64_t del_gen = 0);

}  // namespace invert

#endif  // INVERT_TESTING_SEGMENT_DUMP_H_

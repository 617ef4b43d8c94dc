// DumpSegment: a canonical text rendering of everything in a flushed
// segment, in exactly the format of IndexingChain::DebugDump(), so a test can
// check a flush byte for byte: DumpSegment(read back) == chain.DebugDump().
#ifndef INVERT_TESTING_SEGMENT_DUMP_H_
#define INVERT_TESTING_SEGMENT_DUMP_H_

#include <string>

#include "absl/status/statusor.h"
#include "codec/segment_reader.h"

namespace invert {

absl::StatusOr<std::string> DumpSegment(const SegmentReader& segment);

}  // namespace invert

#endif  // INVERT_TESTING_SEGMENT_DUMP_H_

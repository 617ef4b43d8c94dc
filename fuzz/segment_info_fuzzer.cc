// Fuzz target: the segment info reader (codec/segment_info_format.h).
//
// Input: flags:u8 (bit 0: rewrite the footer checksum), then the bytes of
// _0.si, read from an in-memory directory by ReadSegmentInfo with the fuzz
// segment id (fuzz_common.h). Errors are fine; crashes are not.
#include <cstdint>
#include <string>

#include "codec/segment_info_format.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace invert;
  fuzz::FuzzInput in(data, size);
  const uint8_t flags = in.U8();
  std::string file(in.Rest());
  if (flags & 1) fuzz::FixFooterChecksum(&file);
  fuzz::MemDirectory dir;
  dir.Put("_0.si", file);
  absl::StatusOr<SegmentInfo> info = ReadSegmentInfo(&dir, "_0", fuzz::kFuzzSegmentId);
  if (info.ok()) {
    volatile size_t sink = info->doc_count + info->created_by.size();
    for (const SegmentFile& f : info->files) sink = sink + f.name.size() + f.length;
    (void)sink;
  }
  return 0;
}

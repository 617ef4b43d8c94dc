// Fuzz target: the field infos reader (codec/field_infos_format.h).
//
// Input: flags:u8 (bit 0: rewrite the footer checksum so that the reader gets
// past it), then the bytes of _0.fnm. The file goes into an in-memory
// directory and ReadFieldInfos reads it for the segment id every seed
// carries (fuzz_common.h). Errors are fine; crashes are not.
#include <cstdint>
#include <string>

#include "codec/field_infos_format.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace invert;
  fuzz::FuzzInput in(data, size);
  const uint8_t flags = in.U8();
  std::string file(in.Rest());
  if (flags & 1) fuzz::FixFooterChecksum(&file);
  fuzz::MemDirectory dir;
  dir.Put("_0.fnm", file);
  absl::StatusOr<std::vector<FieldInfo>> fields = ReadFieldInfos(&dir, "_0", fuzz::kFuzzSegmentId);
  if (fields.ok()) {
    volatile size_t sink = 0;
    for (const FieldInfo& f : *fields) sink = sink + f.name.size() + f.number + f.type.stored;
    (void)sink;
  }
  return 0;
}

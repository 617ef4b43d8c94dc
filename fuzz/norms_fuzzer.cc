// Fuzz target: the norms reader (codec/norms_format.h).
//
// Input: flags:u8 (bit 0: rewrite the footer checksum), doc_count:u32, then
// the bytes of _0.nvd. NormsReader::Open for that doc count, then Get() for
// fields 0..63 and every doc (at most 4096, plus a few past the end),
// HasNorms, and CheckIntegrity. Errors are fine; crashes are not.
#include <algorithm>
#include <cstdint>
#include <string>

#include "codec/norms_format.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace invert;
  fuzz::FuzzInput in(data, size);
  const uint8_t flags = in.U8();
  const uint32_t doc_count = in.U32();
  std::string file(in.Rest());
  if (flags & 1) fuzz::FixFooterChecksum(&file);
  fuzz::MemDirectory dir;
  dir.Put("_0.nvd", file);
  absl::StatusOr<NormsReader> norms =
      NormsReader::Open(&dir, "_0", fuzz::kFuzzSegmentId, doc_count);
  if (!norms.ok()) return 0;
  volatile uint64_t sink = 0;
  const uint32_t docs = std::min<uint32_t>(doc_count, 4096);
  for (uint32_t field = 0; field < 64; ++field) {
    if (!norms->HasNorms(field)) continue;
    for (uint32_t doc = 0; doc < docs; ++doc) sink = sink + norms->Get(field, doc);
    for (uint32_t doc : {doc_count, doc_count + 1, UINT32_MAX})
      sink = sink + norms->Get(field, doc);
  }
  sink = sink + norms->Get(UINT32_MAX, 0) + norms->CheckIntegrity().ok();
  (void)sink;
  return 0;
}

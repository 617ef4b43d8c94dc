// Fuzz target: frame-of-reference blocks (codec/for_block.h).
//
// Input: mode:u8, then bytes.
//   1. The bytes as a run of FOR blocks: DecodeForBlock one after another
//      until one fails; SkipForBlock from the same start must succeed and end
//      where DecodeForBlock did whenever the decode succeeds.
//   2. The bytes as a VInt tail of (mode & 0x7f) values (DecodeVIntTail).
//   3. Round trip: 128 values taken from the bytes (cycled), masked to
//      (mode % 33) bits, must encode and decode to themselves, consuming
//      exactly the encoding; a truncated encoding must fail.
// Reads go through an exact-size heap copy so ASan sees any overread.
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "codec/for_block.h"
#include "fuzz_common.h"

namespace {

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "for_block_fuzzer: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace invert;
  fuzz::FuzzInput in(data, size);
  const uint8_t mode = in.U8();
  const std::string_view rest = in.Rest();
  const fuzz::ExactBytes bytes(rest);
  const uint8_t* begin = bytes.span().data();
  const uint8_t* end = begin + bytes.span().size();

  // 1. A run of blocks.
  std::array<uint32_t, kForBlockSize> values{};
  const uint8_t* p = begin;
  for (int blocks = 0; blocks < 1024 && p < end; ++blocks) {
    const uint8_t* decoded = p;
    const uint8_t* skipped = p;
    const bool decode_ok = DecodeForBlock(&decoded, end, values);
    const bool skip_ok = SkipForBlock(&skipped, end);
    Check(decoded >= begin && decoded <= end, "DecodeForBlock moved outside the input");
    Check(skipped >= begin && skipped <= end, "SkipForBlock moved outside the input");
    if (!decode_ok) break;
    Check(skip_ok && skipped == decoded, "SkipForBlock disagrees with DecodeForBlock");
    p = decoded;
  }

  // 2. A VInt tail.
  std::vector<uint32_t> tail(mode & 0x7f);
  p = begin;
  if (DecodeVIntTail(&p, end, tail)) Check(p <= end, "DecodeVIntTail moved past the end");

  // 3. Round trip.
  if (!rest.empty()) {
    const int bits = mode % 33;
    const uint32_t mask = bits == 32 ? UINT32_MAX : (uint32_t{1} << bits) - 1;
    std::array<uint32_t, kForBlockSize> original{};
    for (size_t i = 0; i < kForBlockSize; ++i) {
      uint32_t v = 0;
      for (size_t b = 0; b < 4; ++b) {
        v |= uint32_t{static_cast<uint8_t>(rest[(i * 4 + b) % rest.size()])} << (8 * b);
      }
      original[i] = v & mask;
    }
    std::string encoded;
    EncodeForBlock(original, &encoded);
    Check(encoded.size() <= kMaxForBlockBytes, "encoding longer than kMaxForBlockBytes");
    const fuzz::ExactBytes exact(encoded);
    const uint8_t* q = exact.span().data();
    const uint8_t* q_end = q + exact.span().size();
    Check(DecodeForBlock(&q, q_end, values), "round trip: decode failed");
    Check(q == q_end, "round trip: decode did not consume the encoding");
    Check(values == original, "round trip: values differ");
    const uint8_t* s = exact.span().data();
    Check(SkipForBlock(&s, q_end) && s == q_end, "round trip: skip disagrees");
    if (encoded.size() > 1) {
      const fuzz::ExactBytes truncated(std::string_view(encoded).substr(0, encoded.size() - 1));
      const uint8_t* t = truncated.span().data();
      Check(!DecodeForBlock(&t, t + truncated.span().size(), values),
            "round trip: truncated block decoded");
    }
  }
  return 0;
}

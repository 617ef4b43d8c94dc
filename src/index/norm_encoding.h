// Norm encoding: a field's length in one document (the number of its tokens
// that advance the position, i.e. overlapping tokens at the same position
// count once) squeezed into one byte on a log scale for scoring.
//
//   length 0 (field absent or empty)  -> 0
//   1 <= length <= 31                 -> length (exact)
//   length >= 32                      -> 32 + (e - 1) * 16 + m, where
//       e = bit_width(length) - 5 (>= 1) and m = (length >> e) - 16 (0..15),
//       i.e. a 4-bit mantissa below the leading bit and a 4-bit exponent;
//       the length is rounded down to (16 + m) << e (at most 6.25% low).
//   lengths >= 31 << 14 = 507,904     -> 255 (saturated)
// Decoding is monotonic and EncodeNorm(DecodeNorm(b)) == b for every byte.
// Part of the persistent format (norms file): do not change.
#ifndef INVERT_INDEX_NORM_ENCODING_H_
#define INVERT_INDEX_NORM_ENCODING_H_

#include <bit>
#include <cstdint>

namespace invert {

inline uint8_t EncodeNorm(uint64_t length) {
  if (length < 32) return static_cast<uint8_t>(length);
  const int e = static_cast<int>(std::bit_width(length)) - 5;
  const uint64_t code = 32 + static_cast<uint64_t>(e - 1) * 16 + ((length >> e) - 16);
  return code > 255 ? 255 : static_cast<uint8_t>(code);
}

inline uint64_t DecodeNorm(uint8_t code) {
  if (code < 32) return code;
  const int e = (code - 32) / 16 + 1;
  const uint64_t m = (code - 32) % 16;
  return (16 + m) << e;
}

}  // namespace invert

#endif  // INVERT_INDEX_NORM_ENCODING_H_

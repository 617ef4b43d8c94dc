// Norm encoding: a field's length in one document (the number of its tokens
// that advance the position, i.e. overlapping tokens at the same position
// count once) squeezed into one byte for scoring.
//
// Version 2 (current; norms files with header version 2): the byte Lucene
// 8.8's BM25Similarity stores (SmallFloat.intToByte4), so that BM25 sees the
// lengths Lucene sees and scores agree (docs/scoring.md):
//
//   length L < 24                 -> L (exact)
//   24 <= L < 2^31 - 1            -> 24 + c(L - 24), where c(x) is a float
//       with a 3-bit mantissa: x < 8 -> x; else with s = bit_width(x) - 4,
//       c(x) = ((s + 1) << 3) | ((x >> s) & 7)
//   L >= 2^31 - 1                 -> 255 (Lucene's lengths are Java ints)
// Decoding: b < 24 -> b; else 24 + d(b - 24), d(y) = y for y < 8, else
// (8 | (y & 7)) << ((y >> 3) - 1). For L < 2^31 the decoded length is at
// most L and more than L * 8/9 (a 3-bit mantissa below the leading bit drops
// less than 1/9 of L - 24); DecodeNorm(255) = 2,013,265,944.
//
// Version 1 (files written before): L < 32 -> L; else 32 + (e - 1) * 16 + m
// with e = bit_width(L) - 5 and m = (L >> e) - 16, capped at 255; decoded
// (16 + m) << e. A reader translates each version-1 byte b to
// EncodeNorm(DecodeNormV1(b)) (TranslateNormV1), so everything above the
// codec sees version-2 bytes only.
//
// Both decodings are monotonic and EncodeNorm(DecodeNorm(b)) == b for every
// byte. Part of the persistent format (norms file): do not change.
#ifndef INVERT_CODEC_NORM_ENCODING_H_
#define INVERT_CODEC_NORM_ENCODING_H_

#include <bit>
#include <cstdint>

namespace invert {

// Bytes below this encode their length exactly (Lucene's NUM_FREE_VALUES:
// 255 minus the 3-bit float code of 2^31 - 1, which is 231).
inline constexpr uint32_t kNormExactBytes = 24;
// The largest length with its own code; longer ones encode as 255.
inline constexpr uint64_t kNormMaxLength = 0x7fffffff;

inline uint8_t EncodeNorm(uint64_t length) {
  if (length < kNormExactBytes) return static_cast<uint8_t>(length);
  if (length > kNormMaxLength) length = kNormMaxLength;
  const uint64_t x = length - kNormExactBytes;
  uint32_t code;
  if (x < 8) {
    code = static_cast<uint32_t>(x);
  } else {
    const int shift = static_cast<int>(std::bit_width(x)) - 4;
    code = (static_cast<uint32_t>(shift + 1) << 3) | static_cast<uint32_t>((x >> shift) & 7);
  }
  return static_cast<uint8_t>(kNormExactBytes + code);
}

inline uint64_t DecodeNorm(uint8_t byte) {
  if (byte < kNormExactBytes) return byte;
  const uint32_t y = byte - kNormExactBytes;
  const uint64_t mantissa = y & 7;
  const int shift = static_cast<int>(y >> 3) - 1;
  return kNormExactBytes + (shift < 0 ? mantissa : (mantissa | 8) << shift);
}

// Version 1 (read only: a reader translates these bytes).
inline uint8_t EncodeNormV1(uint64_t length) {
  if (length < 32) return static_cast<uint8_t>(length);
  const int e = static_cast<int>(std::bit_width(length)) - 5;
  const uint64_t code = 32 + static_cast<uint64_t>(e - 1) * 16 + ((length >> e) - 16);
  return code > 255 ? 255 : static_cast<uint8_t>(code);
}

inline uint64_t DecodeNormV1(uint8_t code) {
  if (code < 32) return code;
  const int e = (code - 32) / 16 + 1;
  const uint64_t m = (code - 32) % 16;
  return (16 + m) << e;
}

// The version-2 byte of a version-1 byte's decoded length.
inline uint8_t TranslateNormV1(uint8_t v1_byte) { return EncodeNorm(DecodeNormV1(v1_byte)); }

}  // namespace invert

#endif  // INVERT_CODEC_NORM_ENCODING_H_

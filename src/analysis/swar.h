// SWAR ("SIMD within a register") helpers: classify eight bytes at once in a
// uint64_t, portable C++ with no intrinsics. Used by the ASCII fast paths.
//
// The classifiers add a per-byte constant and test each byte's high bit. That
// is exact for bytes < 0x80 (no carry leaves a byte). A byte >= 0x80 may carry
// into the byte above it, i.e. the next byte in memory on little-endian
// machines; callers either guarantee all-ASCII input or only trust the first
// selected byte when every byte before it is ASCII.
#ifndef INVERT_ANALYSIS_SWAR_H_
#define INVERT_ANALYSIS_SWAR_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace invert::internal {

// Classifier results have the high bit of each selected byte set.
inline constexpr uint64_t kHighBits = 0x8080808080808080ull;

constexpr uint64_t Broadcast(uint8_t b) { return 0x0101010101010101ull * b; }

// Bytes in [lo, hi]. REQUIRES: lo >= 1.
constexpr uint64_t BytesInRange(uint64_t x, uint8_t lo, uint8_t hi) {
  return (x + Broadcast(0x80 - lo)) & ~(x + Broadcast(0x7F - hi)) & kHighBits;
}
// Bytes equal to c.
constexpr uint64_t BytesEqual(uint64_t x, uint8_t c) {
  return ~((x ^ Broadcast(c)) + Broadcast(0x7F)) & kHighBits;
}

// The eight bytes at p, as they lie in memory.
inline uint64_t Load8(const unsigned char* p) {
  uint64_t x;
  std::memcpy(&x, p, 8);
  return x;
}

// Index (0..7) of the first selected byte of a non-zero mask in memory order.
inline size_t FirstByte(uint64_t mask) {
  if constexpr (std::endian::native == std::endian::little) {
    return static_cast<size_t>(std::countr_zero(mask)) >> 3;
  } else {
    return static_cast<size_t>(std::countl_zero(mask)) >> 3;
  }
}

}  // namespace invert::internal

#endif  // INVERT_ANALYSIS_SWAR_H_

// VInt: the variable-length unsigned integer encoding used by postings streams
// and segment files. Seven bits per byte, least significant group first; the
// high bit of a byte is set iff more bytes follow. A uint32_t takes 1 to 5
// bytes, a uint64_t 1 to 10.
#ifndef INVERT_UTIL_VARINT_H_
#define INVERT_UTIL_VARINT_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace invert {

inline constexpr size_t kMaxVInt32Bytes = 5;
inline constexpr size_t kMaxVInt64Bytes = 10;

// Writes `value` at `out`; returns the number of bytes written.
inline size_t EncodeVInt(uint64_t value, uint8_t* out) {
  size_t n = 0;
  while (value >= 0x80) {
    out[n++] = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  out[n++] = static_cast<uint8_t>(value);
  return n;
}

// Number of bytes EncodeVInt writes for `value`.
inline constexpr size_t VIntSize(uint64_t value) {
  size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

// Decodes a VInt from [*p, end). On success advances *p and returns true;
// returns false (leaving *p unspecified) on a truncated or over-long encoding.
inline bool DecodeVInt64(const uint8_t** p, const uint8_t* end, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*p == end) return false;
    uint8_t byte = *(*p)++;
    if (shift == 63 && byte > 1) return false;
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

inline bool DecodeVInt32(const uint8_t** p, const uint8_t* end, uint32_t* value) {
  uint32_t result = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (*p == end) return false;
    uint8_t byte = *(*p)++;
    if (shift == 28 && byte > 0x0f) return false;
    result |= static_cast<uint32_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

// DecodeVInt32 (T = uint32_t) / DecodeVInt64 (T = uint64_t) where the
// caller knows that at least kMaxVInt32Bytes / kMaxVInt64Bytes bytes are
// readable at *p: the same results (over-long encodings rejected), without
// an end check per byte; the one- and two-byte values common in skip
// headers take no loop. Always inlined: as a call it costs what it saves.
template <typename T>
[[gnu::always_inline]] inline bool DecodeVIntUnchecked(const uint8_t** p, T* value) {
  static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>);
  const uint8_t* q = *p;
  if (q[0] < 0x80) {
    *value = q[0];
    *p = q + 1;
    return true;
  }
  if (q[1] < 0x80) {
    *value = static_cast<T>(q[0] & 0x7fu) | static_cast<T>(q[1]) << 7;
    *p = q + 2;
    return true;
  }
  if constexpr (sizeof(T) == sizeof(uint32_t)) {
    return DecodeVInt32(p, q + kMaxVInt32Bytes, value);
  } else {
    return DecodeVInt64(p, q + kMaxVInt64Bytes, value);
  }
}

}  // namespace invert

#endif  // INVERT_UTIL_VARINT_H_

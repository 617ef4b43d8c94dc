// Byte-buffer helpers shared by the codec primitives: appending little-endian
// fixed-width integers and VInts to a std::string, and ByteReader, a
// bounds-checked cursor over a std::span<const uint8_t>.
//
// Every persistent integer in codec/ is little-endian regardless of the host;
// the codecs load words with memcpy, so the build requires a little-endian host
// (checked below) rather than byte-swapping on every load.
//
// ByteReader never reads outside its span: every Read* checks the remaining
// length first and returns false (leaving the reader at an unspecified
// position inside the span) when the input is too short or malformed.
//
// Thread safety: ByteReader is a value type; distinct readers over the same
// bytes may be used from different threads.
#ifndef INVERT_CODEC_BYTE_IO_H_
#define INVERT_CODEC_BYTE_IO_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "util/varint.h"

namespace invert {

static_assert(std::endian::native == std::endian::little,
              "codec/ loads little-endian persistent words with memcpy; a big-endian port "
              "must byte-swap in LoadFixed32/LoadFixed64");

inline uint32_t LoadFixed32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

inline uint64_t LoadFixed64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

inline void PutFixed32(std::string* out, uint32_t v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(v));
}

inline void PutFixed64(std::string* out, uint64_t v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(v));
}

inline void PutVInt(std::string* out, uint64_t v) {
  uint8_t buf[kMaxVInt64Bytes];
  out->append(reinterpret_cast<const char*>(buf), EncodeVInt(v, buf));
}

// ZigZag: maps signed to unsigned so that small magnitudes get short VInts
// (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...).
inline uint64_t ZigZagEncode64(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t ZigZagDecode64(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

inline std::span<const uint8_t> AsBytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}
inline std::string_view AsChars(std::span<const uint8_t> s) {
  return {reinterpret_cast<const char*>(s.data()), s.size()};
}

class ByteReader {
 public:
  ByteReader() = default;
  explicit ByteReader(std::span<const uint8_t> bytes)
      : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}
  ByteReader(const uint8_t* begin, const uint8_t* end) : p_(begin), end_(end) {}

  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  const uint8_t* position() const { return p_; }
  bool empty() const { return p_ == end_; }

  // One-byte VInts (most lengths and deltas) take the inline fast path.
  bool ReadVInt32(uint32_t* v) {
    if (p_ != end_ && *p_ < 0x80) {
      *v = *p_++;
      return true;
    }
    return DecodeVInt32(&p_, end_, v);
  }
  bool ReadVInt64(uint64_t* v) {
    if (p_ != end_ && *p_ < 0x80) {
      *v = *p_++;
      return true;
    }
    return DecodeVInt64(&p_, end_, v);
  }

  bool ReadByte(uint8_t* v) {
    if (p_ == end_) return false;
    *v = *p_++;
    return true;
  }
  bool ReadFixed32(uint32_t* v) {
    if (remaining() < 4) return false;
    *v = LoadFixed32(p_);
    p_ += 4;
    return true;
  }
  bool ReadFixed64(uint64_t* v) {
    if (remaining() < 8) return false;
    *v = LoadFixed64(p_);
    p_ += 8;
    return true;
  }
  // Returns the next `n` bytes in *bytes and skips them.
  bool ReadBytes(size_t n, const uint8_t** bytes) {
    if (remaining() < n) return false;
    *bytes = p_;
    p_ += n;
    return true;
  }

 private:
  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
};

}  // namespace invert

#endif  // INVERT_CODEC_BYTE_IO_H_

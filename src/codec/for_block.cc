// Frame-of-reference block encoding: one packer and one unpacker per bit
// width, generated from a template whose loops have compile-time trip counts
// and shifts, so the compiler fully unrolls them and turns each group of 4
// lanes into one 128-bit shift/mask/or (see for_block.h for the layout).
#include "codec/for_block.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "codec/byte_io.h"
#include "util/varint.h"

namespace invert {
namespace {

constexpr int kLanes = 4;
constexpr int kValuesPerLane = kForBlockSize / kLanes;  // 32

template <int kBits>
constexpr uint32_t Mask() {
  return kBits == 32 ? ~uint32_t{0} : (uint32_t{1} << kBits) - 1;
}

// Value j of every lane (values 4j .. 4j + 3).
template <int kBits, int kJ>
inline void PackStep(const uint32_t* __restrict in, uint32_t* __restrict words) {
  constexpr int kBit = kJ * kBits;
  constexpr int kWord = kBit / 32;
  constexpr int kShift = kBit % 32;
  for (int l = 0; l < kLanes; ++l) {
    const uint32_t v = in[kLanes * kJ + l];
    words[kLanes * kWord + l] |= v << kShift;
    if constexpr (kShift + kBits > 32) words[kLanes * (kWord + 1) + l] |= v >> (32 - kShift);
  }
}

// With kBase, adds `base` to each value as it is unpacked (a block stored
// with a frame of reference): one more vector add per step, instead of a
// second pass over the 128 values.
template <int kBits, bool kBase, int kJ>
inline void UnpackStep(const uint8_t* __restrict in, uint32_t* __restrict out, uint32_t base) {
  constexpr int kBit = kJ * kBits;
  constexpr int kWord = kBit / 32;
  constexpr int kShift = kBit % 32;
  for (int l = 0; l < kLanes; ++l) {
    uint32_t v = LoadFixed32(in + 4 * (kLanes * kWord + l)) >> kShift;
    if constexpr (kShift + kBits > 32) {
      v |= LoadFixed32(in + 4 * (kLanes * (kWord + 1) + l)) << (32 - kShift);
    }
    v &= Mask<kBits>();
    if constexpr (kBase) v += base;
    out[kLanes * kJ + l] = v;
  }
}

template <int kBits, size_t... kJ>
void PackImpl(const uint32_t* __restrict in, uint8_t* __restrict out, std::index_sequence<kJ...>) {
  uint32_t words[kLanes * kBits] = {};
  (PackStep<kBits, kJ>(in, words), ...);
  std::memcpy(out, words, sizeof(words));
}

template <int kBits, bool kBase, size_t... kJ>
void UnpackImpl(const uint8_t* __restrict in, uint32_t* __restrict out, uint32_t base,
                std::index_sequence<kJ...>) {
  (UnpackStep<kBits, kBase, kJ>(in, out, base), ...);
}

template <int kBits>
void Pack(const uint32_t* __restrict in, uint8_t* __restrict out) {
  if constexpr (kBits > 0) PackImpl<kBits>(in, out, std::make_index_sequence<kValuesPerLane>());
}

// Unpacks 128 values of kBits bits, plus `base` if kBase.
template <int kBits, bool kBase>
void Unpack(const uint8_t* __restrict in, uint32_t* __restrict out, uint32_t base) {
  if constexpr (kBits == 0) {
    // A run-time fill value keeps GCC from emitting `rep stos` for a zero
    // fill, which costs ~3x a vector loop for 512 bytes.
    for (size_t i = 0; i < kForBlockSize; ++i) out[i] = base;
  } else {
    UnpackImpl<kBits, kBase>(in, out, base, std::make_index_sequence<kValuesPerLane>());
  }
}

using PackFn = void (*)(const uint32_t*, uint8_t*);
using UnpackFn = void (*)(const uint8_t*, uint32_t*, uint32_t);

template <size_t... kBits>
constexpr std::array<PackFn, sizeof...(kBits)> MakePackers(std::index_sequence<kBits...>) {
  return {&Pack<static_cast<int>(kBits)>...};
}
template <bool kBase, size_t... kBits>
constexpr std::array<UnpackFn, sizeof...(kBits)> MakeUnpackers(std::index_sequence<kBits...>) {
  return {&Unpack<static_cast<int>(kBits), kBase>...};
}

constexpr auto kPackers = MakePackers(std::make_index_sequence<33>());
constexpr auto kUnpackers = MakeUnpackers<false>(std::make_index_sequence<33>());
constexpr auto kBaseUnpackers = MakeUnpackers<true>(std::make_index_sequence<33>());

}  // namespace

namespace internal {
void PackLanes(int bpv, const uint32_t* values, uint8_t* out) { kPackers[bpv](values, out); }
void UnpackLanes(int bpv, const uint8_t* in, uint32_t* values) { kUnpackers[bpv](in, values, 0); }
}  // namespace internal

void EncodeForBlock(std::span<const uint32_t, kForBlockSize> values, std::string* out) {
  // One pass; GCC vectorizes it (SSE2 emulates the unsigned min/max).
  uint32_t min = values[0];
  uint32_t max = values[0];
  for (uint32_t v : values) {
    min = std::min(min, v);
    max = std::max(max, v);
  }
  uint8_t buf[kMaxForBlockBytes];
  size_t n = 0;
  const int plain_bits = BitsRequired(max);
  const int delta_bits = BitsRequired(max - min);
  if (delta_bits < plain_bits) {
    buf[n++] = static_cast<uint8_t>(kForHeaderHasBase | delta_bits);
    n += EncodeVInt(min, buf + n);
    if (delta_bits > 0) {
      uint32_t shifted[kForBlockSize];
      for (size_t i = 0; i < kForBlockSize; ++i) shifted[i] = values[i] - min;
      kPackers[delta_bits](shifted, buf + n);
      n += 16 * delta_bits;
    }
  } else {
    buf[n++] = static_cast<uint8_t>(plain_bits);
    kPackers[plain_bits](values.data(), buf + n);
    n += 16 * plain_bits;
  }
  out->append(reinterpret_cast<const char*>(buf), n);
}

namespace {

// Parses the header and base; on success *p is at the packed bytes, which
// are known to be in bounds.
inline bool ReadHeader(const uint8_t** p, const uint8_t* end, int* bpv, uint32_t* base) {
  if (*p == end) return false;
  const uint8_t header = *(*p)++;
  *bpv = header & kForHeaderBitsMask;
  if (*bpv > 32 || (header & kForHeaderReservedBit) != 0) return false;
  *base = 0;
  if ((header & kForHeaderHasBase) != 0 && !DecodeVInt32(p, end, base)) return false;
  return static_cast<size_t>(end - *p) >= 16 * static_cast<size_t>(*bpv);
}

}  // namespace

bool DecodeForBlock(const uint8_t** p, const uint8_t* end,
                    std::span<uint32_t, kForBlockSize> values) {
  int bpv;
  uint32_t base;
  if (!ReadHeader(p, end, &bpv, &base)) return false;
  (base != 0 ? kBaseUnpackers : kUnpackers)[bpv](*p, values.data(), base);
  *p += 16 * bpv;
  return true;
}

bool SkipForBlock(const uint8_t** p, const uint8_t* end) {
  int bpv;
  uint32_t base;
  if (!ReadHeader(p, end, &bpv, &base)) return false;
  *p += 16 * bpv;
  return true;
}

void EncodeVIntTail(std::span<const uint32_t> values, std::string* out) {
  for (uint32_t v : values) PutVInt(out, v);
}

bool DecodeVIntTail(const uint8_t** p, const uint8_t* end, std::span<uint32_t> values) {
  for (uint32_t& v : values) {
    // Fast path: one-byte VInts dominate postings tails.
    if (*p != end && **p < 0x80) {
      v = *(*p)++;
    } else if (!DecodeVInt32(p, end, &v)) {
      return false;
    }
  }
  return true;
}

}  // namespace invert

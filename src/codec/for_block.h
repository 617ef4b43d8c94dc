// Frame-of-reference bit packing of blocks of 128 uint32 values (postings doc
// deltas, term frequencies, position deltas), plus a VInt encoding for the
// tail of fewer than 128 values that ends a postings list.
//
// Part of the persistent format; docs/codec-primitives.md section 1 is the
// byte-level specification, with a worked example. In short:
//
//   block := header:uint8 [base:VInt32 if header & 0x80] packed[16 * bpv]
//   header: bits 0-5 bpv (0..32), bit 6 reserved (0), bit 7 has_base
//   value[i] = base + unpacked[i] (mod 2^32); base = 0 when absent
//
// Packed layout ("4 lanes"): the 16 * bpv bytes are 4 * bpv little-endian
// uint32 words; word 4k + l is the k-th word of lane l (l = 0..3). Lane l
// holds the 32 values value[4j + l], j = 0..31, as one little-endian bit
// stream: unpacked value j of the lane is the bpv bits starting at bit j * bpv
// of the lane, where bit t of the lane is bit t % 32 of the lane's word t / 32.
// The layout lets a decoder unpack 4 values per 128-bit instruction with plain
// shifts and masks, so the specialized C++ unpackers compile to SIMD (SSE2 /
// NEON) without intrinsics.
//
// Encoder rule (so output is deterministic): with min and max of the block,
// the base is stored (= min) iff BitsRequired(max - min) < BitsRequired(max);
// then bpv = BitsRequired(max - min), else bpv = BitsRequired(max). A block of
// zeros is the single byte 0x00; a block of one repeated value v > 0 is 0x80
// followed by VInt(v).
//
// Decoding is bounds-checked: a truncated block, bpv > 32 or a set reserved bit
// returns false and never reads past `end`. Corruption that keeps the header
// well formed decodes to wrong values (checksums of the enclosing file catch
// it), never to an out-of-bounds read.
//
// Thread safety: stateless functions.
#ifndef INVERT_CODEC_FOR_BLOCK_H_
#define INVERT_CODEC_FOR_BLOCK_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace invert {

inline constexpr size_t kForBlockSize = 128;
// Header + 5-byte base + 32 bits per value.
inline constexpr size_t kMaxForBlockBytes = 1 + 5 + kForBlockSize * 4;

inline constexpr uint8_t kForHeaderBitsMask = 0x3f;
inline constexpr uint8_t kForHeaderReservedBit = 0x40;
inline constexpr uint8_t kForHeaderHasBase = 0x80;

// Number of bits needed to write `v` (0 for 0, 32 for values >= 2^31).
inline constexpr int BitsRequired(uint32_t v) { return 32 - std::countl_zero(v); }

// Appends the encoding of the 128 values to *out.
void EncodeForBlock(std::span<const uint32_t, kForBlockSize> values, std::string* out);

// Decodes one block from [*p, end) into `values`. Returns true iff the block
// was well formed and complete; then *p points past it. On false *p is
// unspecified (but inside [*p, end]) and `values` may be partly written.
bool DecodeForBlock(const uint8_t** p, const uint8_t* end,
                    std::span<uint32_t, kForBlockSize> values);

// DecodeForBlock for a block of doc deltas: values[i] = doc_base + d[0] +
// ... + d[i] (mod 2^32) for the block's values d, and *minus_one_bits the OR
// over i of d[i] - 1 (mod 2^32: below 2^k iff every d[i] is in [1, 2^k]),
// in one pass where the CPU has AVX2. Returns what DecodeForBlock would.
bool DecodeForDeltaBlock(const uint8_t** p, const uint8_t* end, uint32_t doc_base,
                         std::span<uint32_t, kForBlockSize> values, uint32_t* minus_one_bits);

// DecodeForBlock, also setting *minus_one_bits to the OR over i of
// values[i] - 1 and *sum to the values' sum (both modulo 2^32), in the same
// pass where the CPU has AVX2 (a block of freqs and its checks).
bool DecodeForCountedBlock(const uint8_t** p, const uint8_t* end,
                           std::span<uint32_t, kForBlockSize> values, uint32_t* minus_one_bits,
                           uint32_t* sum);

// Advances *p past one block without unpacking it (for skipping). Returns
// false on a malformed or truncated header or short packed area.
bool SkipForBlock(const uint8_t** p, const uint8_t* end);

// Encoded size of a block in bytes, from its header alone (0 if the header is
// invalid). The base, when present, adds its VInt length on top of this.
inline constexpr size_t ForBlockPackedBytes(uint8_t header) {
  const unsigned bpv = header & kForHeaderBitsMask;
  return (bpv > 32 || (header & kForHeaderReservedBit) != 0) ? 0 : 16 * bpv;
}

// Tail encoding: `values` as consecutive VInts, with no count (the caller
// knows it, e.g. doc_freq % 128). Intended for fewer than 128 values.
void EncodeVIntTail(std::span<const uint32_t> values, std::string* out);

// Decodes values.size() VInts from [*p, end). Returns true iff all were well
// formed; then *p points past the last one.
bool DecodeVIntTail(const uint8_t** p, const uint8_t* end, std::span<uint32_t> values);

namespace internal {
// The specialized packers/unpackers for one bit width (exposed for the
// benchmark and tests). Pack REQUIRES every value < 2^bpv; writes 16 * bpv
// bytes. Unpack reads 16 * bpv bytes. REQUIRES: 0 <= bpv <= 32.
void PackLanes(int bpv, const uint32_t* values, uint8_t* out);
void UnpackLanes(int bpv, const uint8_t* in, uint32_t* values);
// The AVX2 unpacker of `bpv` (values plus `base`), which DecodeForBlock uses
// where the CPU has AVX2: false, writing nothing, where it has not.
bool UnpackLanesAvx2(int bpv, const uint8_t* in, uint32_t* values, uint32_t base);
// DecodeForDeltaBlock's unpack of `bpv` (the frame base `for_base`): the
// baseline, and the AVX2 one (false, writing nothing, without AVX2).
void UnpackDeltasBaseline(int bpv, const uint8_t* in, uint32_t* values, uint32_t for_base,
                          uint32_t doc_base, uint32_t* minus_one_bits);
bool UnpackDeltasAvx2(int bpv, const uint8_t* in, uint32_t* values, uint32_t for_base,
                      uint32_t doc_base, uint32_t* minus_one_bits);
// DecodeForCountedBlock's, likewise.
void UnpackCountedBaseline(int bpv, const uint8_t* in, uint32_t* values, uint32_t for_base,
                           uint32_t* minus_one_bits, uint32_t* sum);
bool UnpackCountedAvx2(int bpv, const uint8_t* in, uint32_t* values, uint32_t for_base,
                       uint32_t* minus_one_bits, uint32_t* sum);
}  // namespace internal

}  // namespace invert

#endif  // INVERT_CODEC_FOR_BLOCK_H_

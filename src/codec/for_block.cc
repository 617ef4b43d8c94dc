// Frame-of-reference block encoding: one packer and one unpacker per bit
// width, generated from a template whose loops have compile-time trip counts
// and shifts, so the compiler fully unrolls them and turns each group of 4
// lanes into one 128-bit shift/mask/or (see for_block.h for the layout); and
// on x86-64 an AVX2 unpacker per bit width, 8 lanes at a time, used where the
// CPU has AVX2.
#include "codec/for_block.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "codec/byte_io.h"
#include "codec/doc_block_sums.h"
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

#if defined(__x86_64__)
// The AVX2 unpackers: 8 values per step, the two rows of 4 lanes that
// values 4j .. 4j + 3 and 4j + 4 .. 4j + 7 start in (rows k_j and k_{j+1},
// 16 bytes each; equal or consecutive, as bpv <= 32) in one register, each
// half shifted by its own count (vpsrlvd), and where a value runs into the
// next row that row's bits shifted in (vpsllvd; a count of 32 gives 0, so a
// half that does not spill takes nothing). Each load is a whole 32 bytes
// only where both rows are needed, else one row broadcast to both halves:
// nothing is read past the row a value needs, so never past 16 * bpv bytes.
// Compiled for AVX2 alone (the `target` attribute); DecodeForBlock calls
// them only where the CPU has it.
template <int kRow, int kNextRow>
__attribute__((target("avx2"))) inline __m256i LoadRows(const uint8_t* in) {
  static_assert(kNextRow == kRow || kNextRow == kRow + 1 || kNextRow < 0);
  if constexpr (kNextRow == kRow + 1) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 16 * kRow));
  } else {
    return _mm256_broadcastsi128_si256(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * kRow)));
  }
}

// Values 4 * (2 kPair) .. 4 * (2 kPair) + 7, unpacked (masked, no base).
template <int kBits, int kPair>
__attribute__((target("avx2"))) inline __m256i UnpackedPairAvx2(const uint8_t* __restrict in) {
  constexpr int kJ0 = 2 * kPair;
  constexpr int kJ1 = kJ0 + 1;
  constexpr int kRow0 = kJ0 * kBits / 32;
  constexpr int kRow1 = kJ1 * kBits / 32;
  constexpr int kShift0 = kJ0 * kBits % 32;
  constexpr int kShift1 = kJ1 * kBits % 32;
  constexpr bool kSpill0 = kShift0 + kBits > 32;
  constexpr bool kSpill1 = kShift1 + kBits > 32;
  __m256i v = _mm256_srlv_epi32(
      LoadRows<kRow0, kRow1>(in),
      _mm256_setr_epi32(kShift0, kShift0, kShift0, kShift0, kShift1, kShift1, kShift1, kShift1));
  if constexpr (kSpill0 || kSpill1) {
    // The rows after each half's: both, or the one a spilling half needs.
    constexpr int kLo = kSpill0 ? kRow0 + 1 : kRow1 + 1;
    constexpr int kHi = kSpill1 ? kRow1 + 1 : kRow0 + 1;
    constexpr int kLeft0 = kSpill0 ? 32 - kShift0 : 32;
    constexpr int kLeft1 = kSpill1 ? 32 - kShift1 : 32;
    const __m256i next = kSpill0 && kSpill1 ? LoadRows<kLo, kHi>(in) : LoadRows<kLo, kLo>(in);
    v = _mm256_or_si256(
        v, _mm256_sllv_epi32(next, _mm256_setr_epi32(kLeft0, kLeft0, kLeft0, kLeft0, kLeft1, kLeft1,
                                                     kLeft1, kLeft1)));
  }
  if constexpr (kBits < 32) {
    v = _mm256_and_si256(v, _mm256_set1_epi32(static_cast<int>(Mask<kBits>())));
  }
  return v;
}

template <int kBits, bool kBase, size_t... kPair>
__attribute__((target("avx2"))) inline void UnpackAvx2Impl(const uint8_t* __restrict in,
                                                           uint32_t* __restrict out, uint32_t base,
                                                           std::index_sequence<kPair...>) {
  const __m256i bases = _mm256_set1_epi32(static_cast<int>(base));
  auto pair = [&]<int kP>(std::integral_constant<int, kP>) __attribute__((target("avx2"))) {
    __m256i v = UnpackedPairAvx2<kBits, kP>(in);
    if constexpr (kBase) v = _mm256_add_epi32(v, bases);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * kP), v);
  };
  (pair(std::integral_constant<int, static_cast<int>(kPair)>()), ...);
}

template <int kBits, bool kBase>
__attribute__((target("avx2"))) void UnpackAvx2(const uint8_t* __restrict in,
                                                uint32_t* __restrict out, uint32_t base) {
  if constexpr (kBits == 0) {
    for (size_t i = 0; i < kForBlockSize; ++i) out[i] = base;
  } else {
    UnpackAvx2Impl<kBits, kBase>(in, out, base, std::make_index_sequence<kValuesPerLane / 2>());
  }
}

// The OR and the sum of a register's 8 lanes.
__attribute__((target("avx2"))) inline uint32_t OrLanes(__m256i x) {
  __m128i v = _mm_or_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
  v = _mm_or_si128(v, _mm_shuffle_epi32(v, 0x4e));
  v = _mm_or_si128(v, _mm_shuffle_epi32(v, 0xb1));
  return static_cast<uint32_t>(_mm_cvtsi128_si32(v));
}
__attribute__((target("avx2"))) inline uint32_t AddLanes(__m256i x) {
  __m128i v = _mm_add_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
  v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0x4e));
  v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0xb1));
  return static_cast<uint32_t>(_mm_cvtsi128_si32(v));
}

// DecodeForDeltaBlock's unpacker: each 8 deltas (plus the frame base if
// kBase) OR'd minus 1 into the checks, then turned into their prefix sums
// in the register (within each 128-bit half by two shifted adds, the low
// half's total into the high half, then the sum before them), stored, and
// the last lane carried on: the unpacking, the checks' pass and the prefix
// sum's in one, with no second load or store of the block.
template <int kBits, bool kBase, size_t... kPair>
__attribute__((target("avx2"))) inline void UnpackDeltasAvx2Impl(
    const uint8_t* __restrict in, uint32_t* __restrict out, uint32_t for_base, uint32_t doc_base,
    uint32_t* minus_one_bits, std::index_sequence<kPair...>) {
  const __m256i bases = _mm256_set1_epi32(static_cast<int>(for_base));
  const __m256i ones = _mm256_set1_epi32(1);
  const __m256i low_total = _mm256_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3);
  const __m256i last = _mm256_set1_epi32(7);
  __m256i carry = _mm256_set1_epi32(static_cast<int>(doc_base));
  __m256i bits = _mm256_setzero_si256();
  auto pair = [&]<int kP>(std::integral_constant<int, kP>) __attribute__((target("avx2"))) {
    __m256i v = kBits == 0 ? _mm256_setzero_si256() : UnpackedPairAvx2<kBits, kP>(in);
    if constexpr (kBase) v = _mm256_add_epi32(v, bases);
    bits = _mm256_or_si256(bits, _mm256_sub_epi32(v, ones));
    v = _mm256_add_epi32(v, _mm256_slli_si256(v, 4));
    v = _mm256_add_epi32(v, _mm256_slli_si256(v, 8));
    const __m256i spread = _mm256_permutevar8x32_epi32(v, low_total);  // lane 3 in 4..7
    v = _mm256_add_epi32(v, _mm256_blend_epi32(_mm256_setzero_si256(), spread, 0xf0));
    v = _mm256_add_epi32(v, carry);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * kP), v);
    carry = _mm256_permutevar8x32_epi32(v, last);
  };
  (pair(std::integral_constant<int, static_cast<int>(kPair)>()), ...);
  *minus_one_bits = OrLanes(bits);
}

template <int kBits, bool kBase>
__attribute__((target("avx2"))) void UnpackDeltasAvx2(const uint8_t* __restrict in,
                                                      uint32_t* __restrict out, uint32_t for_base,
                                                      uint32_t doc_base, uint32_t* minus_one_bits) {
  UnpackDeltasAvx2Impl<kBits, kBase>(in, out, for_base, doc_base, minus_one_bits,
                                     std::make_index_sequence<kValuesPerLane / 2>());
}

// DecodeForCountedBlock's unpacker: each 8 values (plus the frame base if
// kBase) stored, OR'd minus 1 into the checks and added into 8 lane sums.
template <int kBits, bool kBase, size_t... kPair>
__attribute__((target("avx2"))) inline void UnpackCountedAvx2Impl(
    const uint8_t* __restrict in, uint32_t* __restrict out, uint32_t for_base,
    uint32_t* minus_one_bits, uint32_t* sum, std::index_sequence<kPair...>) {
  const __m256i bases = _mm256_set1_epi32(static_cast<int>(for_base));
  const __m256i ones = _mm256_set1_epi32(1);
  __m256i bits = _mm256_setzero_si256();
  __m256i sums = _mm256_setzero_si256();
  auto pair = [&]<int kP>(std::integral_constant<int, kP>) __attribute__((target("avx2"))) {
    __m256i v = kBits == 0 ? _mm256_setzero_si256() : UnpackedPairAvx2<kBits, kP>(in);
    if constexpr (kBase) v = _mm256_add_epi32(v, bases);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 8 * kP), v);
    bits = _mm256_or_si256(bits, _mm256_sub_epi32(v, ones));
    sums = _mm256_add_epi32(sums, v);
  };
  (pair(std::integral_constant<int, static_cast<int>(kPair)>()), ...);
  *minus_one_bits = OrLanes(bits);
  *sum = AddLanes(sums);
}

template <int kBits, bool kBase>
__attribute__((target("avx2"))) void UnpackCountedAvx2(const uint8_t* __restrict in,
                                                       uint32_t* __restrict out, uint32_t for_base,
                                                       uint32_t* minus_one_bits, uint32_t* sum) {
  UnpackCountedAvx2Impl<kBits, kBase>(in, out, for_base, minus_one_bits, sum,
                                      std::make_index_sequence<kValuesPerLane / 2>());
}
#endif

using PackFn = void (*)(const uint32_t*, uint8_t*);
using UnpackFn = void (*)(const uint8_t*, uint32_t*, uint32_t);
using UnpackDeltasFn = void (*)(const uint8_t*, uint32_t*, uint32_t, uint32_t, uint32_t*);
using UnpackCountedFn = void (*)(const uint8_t*, uint32_t*, uint32_t, uint32_t*, uint32_t*);

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

#if defined(__x86_64__)
template <bool kBase, size_t... kBits>
constexpr std::array<UnpackFn, sizeof...(kBits)> MakeAvx2Unpackers(std::index_sequence<kBits...>) {
  return {&UnpackAvx2<static_cast<int>(kBits), kBase>...};
}
constexpr auto kAvx2Unpackers = MakeAvx2Unpackers<false>(std::make_index_sequence<33>());
constexpr auto kAvx2BaseUnpackers = MakeAvx2Unpackers<true>(std::make_index_sequence<33>());
template <bool kBase, size_t... kBits>
constexpr std::array<UnpackDeltasFn, sizeof...(kBits)> MakeAvx2DeltaUnpackers(
    std::index_sequence<kBits...>) {
  return {&UnpackDeltasAvx2<static_cast<int>(kBits), kBase>...};
}
constexpr auto kAvx2DeltaUnpackers = MakeAvx2DeltaUnpackers<false>(std::make_index_sequence<33>());
template <bool kBase, size_t... kBits>
constexpr std::array<UnpackCountedFn, sizeof...(kBits)> MakeAvx2CountedUnpackers(
    std::index_sequence<kBits...>) {
  return {&UnpackCountedAvx2<static_cast<int>(kBits), kBase>...};
}
constexpr auto kAvx2CountedUnpackers =
    MakeAvx2CountedUnpackers<false>(std::make_index_sequence<33>());
constexpr auto kAvx2BaseCountedUnpackers =
    MakeAvx2CountedUnpackers<true>(std::make_index_sequence<33>());
constexpr auto kAvx2BaseDeltaUnpackers =
    MakeAvx2DeltaUnpackers<true>(std::make_index_sequence<33>());

bool CpuHasAvx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
#else
bool CpuHasAvx2() { return false; }
#endif

// The unpackers DecodeForBlock uses: AVX2's where the CPU has it.
struct Unpackers {
  const std::array<UnpackFn, 33>* plain;
  const std::array<UnpackFn, 33>* with_base;
};
const Unpackers& ChosenUnpackers() {
#if defined(__x86_64__)
  static const Unpackers chosen = CpuHasAvx2() ? Unpackers{&kAvx2Unpackers, &kAvx2BaseUnpackers}
                                               : Unpackers{&kUnpackers, &kBaseUnpackers};
#else
  static const Unpackers chosen{&kUnpackers, &kBaseUnpackers};
#endif
  return chosen;
}

}  // namespace

namespace internal {
void PackLanes(int bpv, const uint32_t* values, uint8_t* out) { kPackers[bpv](values, out); }
void UnpackLanes(int bpv, const uint8_t* in, uint32_t* values) { kUnpackers[bpv](in, values, 0); }
void UnpackDeltasBaseline(int bpv, const uint8_t* in, uint32_t* values, uint32_t for_base,
                          uint32_t doc_base, uint32_t* minus_one_bits) {
  (for_base != 0 ? kBaseUnpackers : kUnpackers)[bpv](in, values, for_base);
  uint32_t bits = 0;
  for (size_t i = 0; i < kForBlockSize; ++i) bits |= values[i] - 1;
  *minus_one_bits = bits;
  postings_internal::PrefixSumDocBlockBaseline(doc_base, values);
}
void UnpackCountedBaseline(int bpv, const uint8_t* in, uint32_t* values, uint32_t for_base,
                           uint32_t* minus_one_bits, uint32_t* sum) {
  (for_base != 0 ? kBaseUnpackers : kUnpackers)[bpv](in, values, for_base);
  uint32_t bits = 0;
  uint32_t total = 0;
  for (size_t i = 0; i < kForBlockSize; ++i) {
    bits |= values[i] - 1;
    total += values[i];
  }
  *minus_one_bits = bits;
  *sum = total;
}
bool UnpackCountedAvx2(int bpv, const uint8_t* in, uint32_t* values, uint32_t for_base,
                       uint32_t* minus_one_bits, uint32_t* sum) {
#if defined(__x86_64__)
  if (!CpuHasAvx2()) return false;
  (for_base != 0 ? kAvx2BaseCountedUnpackers : kAvx2CountedUnpackers)[bpv](in, values, for_base,
                                                                           minus_one_bits, sum);
  return true;
#else
  (void)bpv, (void)in, (void)values, (void)for_base, (void)minus_one_bits, (void)sum;
  return false;
#endif
}
bool UnpackDeltasAvx2(int bpv, const uint8_t* in, uint32_t* values, uint32_t for_base,
                      uint32_t doc_base, uint32_t* minus_one_bits) {
#if defined(__x86_64__)
  if (!CpuHasAvx2()) return false;
  (for_base != 0 ? kAvx2BaseDeltaUnpackers : kAvx2DeltaUnpackers)[bpv](in, values, for_base,
                                                                       doc_base, minus_one_bits);
  return true;
#else
  (void)bpv, (void)in, (void)values, (void)for_base, (void)doc_base, (void)minus_one_bits;
  return false;
#endif
}
bool UnpackLanesAvx2(int bpv, const uint8_t* in, uint32_t* values, uint32_t base) {
#if defined(__x86_64__)
  if (!CpuHasAvx2()) return false;
  (base != 0 ? kAvx2BaseUnpackers : kAvx2Unpackers)[bpv](in, values, base);
  return true;
#else
  (void)bpv, (void)in, (void)values, (void)base;
  return false;
#endif
}
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
  const Unpackers& unpackers = ChosenUnpackers();
  (*(base != 0 ? unpackers.with_base : unpackers.plain))[bpv](*p, values.data(), base);
  *p += 16 * bpv;
  return true;
}

bool DecodeForDeltaBlock(const uint8_t** p, const uint8_t* end, uint32_t doc_base,
                         std::span<uint32_t, kForBlockSize> values, uint32_t* minus_one_bits) {
  int bpv;
  uint32_t base;
  if (!ReadHeader(p, end, &bpv, &base)) return false;
  if (!internal::UnpackDeltasAvx2(bpv, *p, values.data(), base, doc_base, minus_one_bits)) {
    internal::UnpackDeltasBaseline(bpv, *p, values.data(), base, doc_base, minus_one_bits);
  }
  *p += 16 * bpv;
  return true;
}

bool DecodeForCountedBlock(const uint8_t** p, const uint8_t* end,
                           std::span<uint32_t, kForBlockSize> values, uint32_t* minus_one_bits,
                           uint32_t* sum) {
  int bpv;
  uint32_t base;
  if (!ReadHeader(p, end, &bpv, &base)) return false;
  if (!internal::UnpackCountedAvx2(bpv, *p, values.data(), base, minus_one_bits, sum)) {
    internal::UnpackCountedBaseline(bpv, *p, values.data(), base, minus_one_bits, sum);
  }
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

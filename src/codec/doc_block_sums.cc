// PrefixSumDocBlock: a baseline build (SSE2 on x86-64)
// and, on x86-64, an AVX2 version compiled for that target alone (the
// `target` attribute), chosen by what the CPU reports on first use.
#include "codec/doc_block_sums.h"

#include <cstddef>

#include "codec/for_block.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace invert::postings_internal {

static_assert(kForBlockSize % 8 == 0, "whole vectors of 8 lanes");

void PrefixSumDocBlockBaseline(uint32_t base, uint32_t* a) {
#if defined(__SSE2__)
  // Each 4 lanes: their prefix sums plus the carry of the lanes before,
  // which is then the last lane in every lane.
  __m128i carry = _mm_set1_epi32(static_cast<int>(base));
  for (size_t i = 0; i < kForBlockSize; i += 4) {
    __m128i* lanes = reinterpret_cast<__m128i*>(a + i);
    const __m128i x = PrefixSum4(_mm_loadu_si128(lanes), carry);
    _mm_storeu_si128(lanes, x);
    carry = _mm_shuffle_epi32(x, 0xff);
  }
#else
  for (size_t i = 0; i < kForBlockSize; ++i) a[i] = base += a[i];
#endif
}

#if defined(__x86_64__)

bool CpuHasAvx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}

__attribute__((target("avx2"))) void PrefixSumDocBlockAvx2(uint32_t base, uint32_t* a) {
  // Each 8 lanes: the prefix sums within each 128-bit half (two shifted
  // adds), then the low half's total added to the high half, then the
  // carry of the lanes before; the new carry is lane 7 in every lane.
  const __m256i low_total = _mm256_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3);
  const __m256i last = _mm256_set1_epi32(7);
  __m256i carry = _mm256_set1_epi32(static_cast<int>(base));
  for (size_t i = 0; i < kForBlockSize; i += 8) {
    __m256i* lanes = reinterpret_cast<__m256i*>(a + i);
    __m256i x = _mm256_loadu_si256(lanes);
    x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
    x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
    const __m256i spread = _mm256_permutevar8x32_epi32(x, low_total);  // lane 3 in 4..7
    x = _mm256_add_epi32(x, _mm256_blend_epi32(_mm256_setzero_si256(), spread, 0xf0));
    x = _mm256_add_epi32(x, carry);
    _mm256_storeu_si256(lanes, x);
    carry = _mm256_permutevar8x32_epi32(x, last);
  }
}

void PrefixSumDocBlock(uint32_t base, uint32_t* a) {
  if (CpuHasAvx2()) {
    PrefixSumDocBlockAvx2(base, a);
  } else {
    PrefixSumDocBlockBaseline(base, a);
  }
}

#else  // no AVX2 variants: the baseline everywhere

bool CpuHasAvx2() { return false; }
void PrefixSumDocBlockAvx2(uint32_t base, uint32_t* a) { PrefixSumDocBlockBaseline(base, a); }
void PrefixSumDocBlock(uint32_t base, uint32_t* a) { PrefixSumDocBlockBaseline(base, a); }

#endif

}  // namespace invert::postings_internal

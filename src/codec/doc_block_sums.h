// The prefix sum of a block of kForBlockSize values: doc deltas into doc
// ids where DecodeForDeltaBlock does not fuse it into the unpacking (no
// AVX2), and the positions' starts of a doc block. It runs 8 lanes wide with
// AVX2 where the CPU has it (asked once per process), else 4 lanes with SSE2
// (every x86-64), else one value at a time; every variant returns the same
// values, bit for bit (tests/codec/doc_block_sums_test.cc).
#ifndef INVERT_CODEC_DOC_BLOCK_SUMS_H_
#define INVERT_CODEC_DOC_BLOCK_SUMS_H_

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace invert::postings_internal {

#if defined(__SSE2__)
// The prefix sums of x's 4 lanes plus `carry` (the sum before them, in
// every lane): two shifted adds. The step of every SSE2 prefix sum here
// (the doc blocks' below, the positions' in postings_format.cc).
inline __m128i PrefixSum4(__m128i x, __m128i carry) {
  x = _mm_add_epi32(x, _mm_slli_si128(x, 4));
  x = _mm_add_epi32(x, _mm_slli_si128(x, 8));
  return _mm_add_epi32(x, carry);
}
#endif

// a[i] = base + a[0] + ... + a[i] modulo 2^32, over kForBlockSize values.
void PrefixSumDocBlock(uint32_t base, uint32_t* a);

// The variants PrefixSumDocBlock chooses from, for tests. The AVX2 one
// REQUIRES CpuHasAvx2().
bool CpuHasAvx2();
void PrefixSumDocBlockBaseline(uint32_t base, uint32_t* a);
void PrefixSumDocBlockAvx2(uint32_t base, uint32_t* a);

}  // namespace invert::postings_internal

#endif  // INVERT_CODEC_DOC_BLOCK_SUMS_H_

// Passes over a block of kForBlockSize decoded values: the freqs' checks
// (one OR and one sum) PostingsCursor makes on each full doc block, and a
// prefix sum (doc deltas into doc ids without AVX2, where DecodeForDeltaBlock
// does not fuse it into the unpacking; the positions' starts of a block).
// Each runs 8 lanes wide with AVX2 where the CPU has it (asked once per
// process), else 4 lanes with SSE2 (every x86-64), else one value at a time;
// every variant returns the same values, bit for bit
// (tests/codec/doc_block_sums_test.cc).
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

struct DocBlockChecks {
  // OR over i of freqs[i] - 1, modulo 2^32: below 2^24 iff every value is
  // in [1, 2^24] (a 0 wraps to all ones).
  uint32_t minus_one_bits = 0;
  // The freqs' sum modulo 2^32 (exact when minus_one_bits < 2^24).
  uint32_t freq_sum = 0;
};

// Over kForBlockSize freqs.
DocBlockChecks CheckFreqBlock(const uint32_t* freqs);
// a[i] = base + a[0] + ... + a[i] modulo 2^32, over kForBlockSize values.
void PrefixSumDocBlock(uint32_t base, uint32_t* a);

// The variants the two above choose from, for tests. The AVX2 ones
// REQUIRE CpuHasAvx2().
bool CpuHasAvx2();
DocBlockChecks CheckFreqBlockBaseline(const uint32_t* freqs);
DocBlockChecks CheckFreqBlockAvx2(const uint32_t* freqs);
void PrefixSumDocBlockBaseline(uint32_t base, uint32_t* a);
void PrefixSumDocBlockAvx2(uint32_t base, uint32_t* a);

}  // namespace invert::postings_internal

#endif  // INVERT_CODEC_DOC_BLOCK_SUMS_H_

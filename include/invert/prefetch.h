// PrefetchPolicy: whether a reader asks the operating system to read ahead
// the pages it is about to touch (madvise(MADV_WILLNEED)) before it touches
// them, so that K reads of a cold index wait for one round of I/O instead of
// K (docs/prefetch.md has the measurements).
#ifndef INVERT_PREFETCH_H_
#define INVERT_PREFETCH_H_

#include <cstdint>

namespace invert {

// Do not reorder: benchmark output and tests print these by value.
enum class PrefetchPolicy : uint8_t {
  // Never prefetch: every read faults its pages in as it touches them.
  kOff = 0,
  // Prefetch every range before reading it (one madvise per range). Best
  // when the index is larger than memory; costs a system call per range
  // when it is cached.
  kAlways = 1,
  // Check residency first (mincore) and prefetch only on a miss; after k
  // straight hits only O(log k) checks reach the kernel. Nearly free on a
  // cached index; when hits and misses mix, misses that fall between two
  // checks are not prefetched.
  kBackoff = 2,
};

}  // namespace invert

#endif  // INVERT_PREFETCH_H_

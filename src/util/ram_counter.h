// RamCounter: one exact, thread-safe tally of the bytes an in-memory segment
// holds. Every block allocator and every growable per-term array reports its
// allocations here, so the writer's flush decision reads a number that is the
// sum of what was actually allocated, not an estimate.
//
// Thread safety: Add() and bytes() may be called from any thread. Several
// indexing threads can share one counter (the writer's total) while each owns
// its own allocators.
#ifndef INVERT_UTIL_RAM_COUNTER_H_
#define INVERT_UTIL_RAM_COUNTER_H_

#include <atomic>
#include <cstdint>

namespace invert {

class RamCounter {
 public:
  RamCounter() = default;
  RamCounter(const RamCounter&) = delete;
  RamCounter& operator=(const RamCounter&) = delete;

  // Adds `delta` bytes (negative when memory is released).
  void Add(int64_t delta) { bytes_.fetch_add(delta, std::memory_order_relaxed); }

  int64_t bytes() const { return bytes_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> bytes_{0};
};

}  // namespace invert

#endif  // INVERT_UTIL_RAM_COUNTER_H_

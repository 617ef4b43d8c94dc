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
  // A counter whose changes are also added to `parent` (if not null), so a
  // segment can know its own bytes while a writer sees the sum over segments.
  // `parent` must outlive this counter.
  explicit RamCounter(RamCounter* parent = nullptr) : parent_(parent) {}
  RamCounter(const RamCounter&) = delete;
  RamCounter& operator=(const RamCounter&) = delete;

  // Adds `delta` bytes (negative when memory is released).
  void Add(int64_t delta) {
    bytes_.fetch_add(delta, std::memory_order_relaxed);
    if (parent_ != nullptr) parent_->Add(delta);
  }

  int64_t bytes() const { return bytes_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> bytes_{0};
  RamCounter* parent_;
};

}  // namespace invert

#endif  // INVERT_UTIL_RAM_COUNTER_H_

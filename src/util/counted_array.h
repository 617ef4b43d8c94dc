// CountedArray<T>: a growable array of trivially copyable values whose
// capacity is reported to a RamCounter, so per-term arrays are part of the
// exact RAM figure the flush decision reads.
//
// With a BlockCache, an array growing to BlockCache::kMinArrayBytes or more
// first takes the smallest cached array of its element size that holds the
// new capacity (its capacity is then all of that array, counted as such),
// and a released array of that size goes back to the cache: the per-term
// records of the next in-memory segment reuse the flushed one's memory
// instead of fresh pages.
#ifndef INVERT_UTIL_COUNTED_ARRAY_H_
#define INVERT_UTIL_COUNTED_ARRAY_H_

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#include "util/block_allocator.h"
#include "util/ram_counter.h"

namespace invert {

template <typename T>
class CountedArray {
  static_assert(std::is_trivially_copyable_v<T>, "CountedArray moves elements with realloc");

 public:
  // `counter` and `cache` (may be null) must outlive the array.
  explicit CountedArray(RamCounter* counter, BlockCache* cache = nullptr)
      : counter_(counter), cache_(cache) {}
  ~CountedArray() { Release(); }
  CountedArray(const CountedArray&) = delete;
  CountedArray& operator=(const CountedArray&) = delete;

  T& operator[](size_t i) {
    assert(i < size_);
    return data_[i];
  }
  const T& operator[](size_t i) const {
    assert(i < size_);
    return data_[i];
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }

  // Appends a value-initialized element and returns it.
  T& EmplaceBack() {
    if (size_ == capacity_) Reserve(capacity_ < 16 ? 16 : capacity_ + capacity_ / 2);
    T* slot = new (data_ + size_) T();
    ++size_;
    return *slot;
  }

  void PushBack(const T& value) { EmplaceBack() = value; }

  // Appends n elements.
  void Append(const T* values, size_t n) {
    if (n == 0) return;
    if (size_ + n > capacity_) Reserve(std::max(size_ + n, capacity_ + capacity_ / 2));
    std::memcpy(data_ + size_, values, n * sizeof(T));
    size_ += n;
  }

  // Grows to `n` elements, value-initializing the new ones.
  void Resize(size_t n) {
    if (n > capacity_) Reserve(std::max(n, capacity_ + capacity_ / 2));
    for (size_t i = size_; i < n; ++i) new (data_ + i) T();
    size_ = n;
  }

  // Drops elements [n, size()). REQUIRES: n <= size().
  void Truncate(size_t n) {
    assert(n <= size_);
    size_ = n;
  }

  // Grows capacity to at least `capacity` elements.
  void Reserve(size_t capacity) {
    if (capacity <= capacity_) return;
    if (cache_ != nullptr && capacity * sizeof(T) >= BlockCache::kMinArrayBytes &&
        ReserveFromCache(capacity)) {
      return;
    }
    T* grown = static_cast<T*>(std::realloc(data_, capacity * sizeof(T)));
    if (grown == nullptr) throw std::bad_alloc();
    counter_->Add(static_cast<int64_t>((capacity - capacity_) * sizeof(T)));
    data_ = grown;
    capacity_ = capacity;
  }

  // Drops all elements and frees the memory.
  void Release() {
    FreeData();
    counter_->Add(-static_cast<int64_t>(capacity_ * sizeof(T)));
    data_ = nullptr;
    size_ = capacity_ = 0;
  }

  size_t bytes() const { return capacity_ * sizeof(T); }
  RamCounter* counter() const { return counter_; }

 private:
  // Takes a cached array of at least `capacity` elements; returns false if
  // the cache has none.
  bool ReserveFromCache(size_t capacity) {
    size_t bytes = 0;
    T* taken =
        static_cast<T*>(cache_->TakeArray(kCacheKind, capacity * sizeof(T), SIZE_MAX, &bytes));
    if (taken == nullptr) return false;
    if (size_ > 0) std::memcpy(taken, data_, size_ * sizeof(T));
    FreeData();
    const size_t taken_capacity = bytes / sizeof(T);
    counter_->Add(static_cast<int64_t>((taken_capacity - capacity_) * sizeof(T)));
    data_ = taken;
    capacity_ = taken_capacity;
    return true;
  }

  // Frees data_ or gives it to the cache (the counter is the caller's).
  void FreeData() {
    if (data_ == nullptr) return;
    if (cache_ == nullptr || !cache_->PutArray(kCacheKind, data_, capacity_ * sizeof(T)))
      std::free(data_);
  }

  // This array's kind in the BlockCache: arrays of one element size.
  static constexpr int kCacheKind = static_cast<int>(sizeof(T));

  RamCounter* counter_;
  BlockCache* cache_;
  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace invert

#endif  // INVERT_UTIL_COUNTED_ARRAY_H_

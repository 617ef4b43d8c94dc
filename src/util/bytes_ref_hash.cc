// BytesRefHash: slot-table management and the flush sort.
#include "util/bytes_ref_hash.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "util/radix_sort.h"

namespace invert::internal {

TagTable::TagTable(RamCounter* counter, uint32_t initial_capacity, BlockCache* cache)
    : counter_(counter),
      cache_(cache),
      initial_capacity_(std::bit_ceil(std::max<uint32_t>(initial_capacity, 2))) {
  Allocate(initial_capacity_);
}

TagTable::~TagTable() {
  Free(slots_, capacity());
  counter_->Add(-static_cast<int64_t>(capacity()) * 8);
}

uint64_t* TagTable::NewSlots(uint32_t capacity) {
  const size_t bytes = static_cast<size_t>(capacity) * sizeof(uint64_t);
  if (cache_ != nullptr && bytes >= BlockCache::kMinArrayBytes) {
    size_t got = 0;
    if (void* slots = cache_->TakeArray(kCacheKind, bytes, bytes, &got)) {
      std::memset(slots, 0, bytes);
      return static_cast<uint64_t*>(slots);
    }
  }
  uint64_t* slots = static_cast<uint64_t*>(std::calloc(capacity, sizeof(uint64_t)));
  if (slots == nullptr) throw std::bad_alloc();
  return slots;
}

void TagTable::Free(uint64_t* slots, uint32_t capacity) {
  if (slots == nullptr) return;
  const size_t bytes = static_cast<size_t>(capacity) * sizeof(uint64_t);
  if (cache_ == nullptr || !cache_->PutArray(kCacheKind, slots, bytes)) std::free(slots);
}

void TagTable::Allocate(uint32_t capacity) {
  uint64_t* slots = NewSlots(capacity);
  if (slots_ != nullptr) {
    Free(slots_, this->capacity());
    counter_->Add(-static_cast<int64_t>(this->capacity()) * 8);
  }
  slots_ = slots;
  mask_ = capacity - 1;
  counter_->Add(static_cast<int64_t>(capacity) * 8);
}

void TagTable::Reset() { Allocate(initial_capacity_); }

void TagTable::Zero() {
  std::memset(slots_, 0, static_cast<size_t>(capacity()) * sizeof(uint64_t));
}

void TagTable::Grow() {
  const uint32_t old_capacity = capacity();
  const uint32_t new_capacity = old_capacity * 2;
  uint64_t* slots = NewSlots(new_capacity);
  const uint32_t mask = new_capacity - 1;
  for (uint32_t j = 0; j < old_capacity; ++j) {
    const uint64_t slot = slots_[j];
    if (slot == 0) continue;
    size_t i = SlotTag(slot) & mask;
    while (slots[i] != 0) i = (i + 1) & mask;
    slots[i] = slot;
  }
  Free(slots_, old_capacity);
  slots_ = slots;
  mask_ = mask;
  counter_->Add(static_cast<int64_t>(new_capacity - old_capacity) * 8);
}

void TagTable::SortEntries(uint64_t* entries, uint32_t n, const ByteBlockPool& pool,
                           RamCounter* counter) {
  auto cache = std::make_unique<uint16_t[]>(n);
  counter->Add(static_cast<int64_t>(n) * 2);
  MsbRadixSort(entries, n, cache.get(), [&pool](uint64_t entry) {
    return BytesRefHash::TermAt(pool, static_cast<uint32_t>(entry >> 32));
  });
  counter->Add(-static_cast<int64_t>(n) * 2);
}

}  // namespace invert::internal

// BytesRefHash: table management, offset mode and the flush sort.
#include "util/bytes_ref_hash.h"

#include <bit>
#include <cstdlib>
#include <memory>
#include <new>

#include "absl/strings/str_cat.h"
#include "util/radix_sort.h"

namespace invert {

BytesRefHash::BytesRefHash(ByteBlockPool* pool, RamCounter* counter, uint32_t initial_capacity)
    : pool_(pool),
      counter_(counter),
      initial_capacity_(std::bit_ceil(std::max<uint32_t>(initial_capacity, 2))),
      bytes_start_(counter) {
  AllocateTable(initial_capacity_);
}

BytesRefHash::~BytesRefHash() {
  std::free(slots_);
  counter_->Add(-static_cast<int64_t>(capacity()) * 8);
}

void BytesRefHash::AllocateTable(uint32_t capacity) {
  uint64_t* slots = static_cast<uint64_t*>(std::calloc(capacity, sizeof(uint64_t)));
  if (slots == nullptr) throw std::bad_alloc();
  if (slots_ != nullptr) {
    std::free(slots_);
    counter_->Add(-static_cast<int64_t>(this->capacity()) * 8);
  }
  slots_ = slots;
  mask_ = capacity - 1;
  counter_->Add(static_cast<int64_t>(capacity) * 8);
}

absl::StatusOr<BytesRefHash::AddResult> BytesRefHash::Add(std::string_view term) {
  if (term.size() > kMaxTermLength) {
    return absl::InvalidArgumentError(absl::StrCat("term of ", term.size(),
                                                   " bytes is longer than the maximum of ",
                                                   kMaxTermLength, " bytes"));
  }
  const int32_t r = AddUnchecked(term);
  if (r >= 0) return AddResult{static_cast<uint32_t>(r), true};
  return AddResult{static_cast<uint32_t>(-(r + 1)), false};
}

uint32_t BytesRefHash::WriteEntry(uint8_t* p, std::string_view term) {
  const size_t length = term.size();
  size_t prefix;
  if (length < 128) {
    p[0] = static_cast<uint8_t>(length);
    prefix = 1;
  } else {
    p[0] = static_cast<uint8_t>(0x80 | (length & 0x7f));
    p[1] = static_cast<uint8_t>(length >> 7);
    prefix = 2;
  }
  if (length > 0) std::memcpy(p + prefix, term.data(), length);
  return static_cast<uint32_t>(prefix + length);
}

void BytesRefHash::Insert(size_t slot_index, uint32_t tag, uint32_t bytes_start) {
  const uint32_t id = count_++;
  bytes_start_.PushBack(bytes_start);
  slots_[slot_index] = MakeSlot(tag, id);
  if (count_ > capacity() / 2) Grow();
}

int32_t BytesRefHash::Find(std::string_view term) const {
  assert(!sorted_);
  if (term.size() > kMaxTermLength) return -1;
  const uint32_t tag = static_cast<uint32_t>(HashBytes(term) >> 32);
  for (size_t i = tag & mask_;; i = (i + 1) & mask_) {
    const uint64_t slot = slots_[i];
    if (slot == 0) return -1;
    if (SlotTag(slot) == tag && TermEquals(SlotId(slot), term)) {
      return static_cast<int32_t>(SlotId(slot));
    }
  }
}

int32_t BytesRefHash::AddByPoolOffset(uint32_t offset) {
  assert(!sorted_);
  const uint32_t tag = static_cast<uint32_t>(HashOffset(offset) >> 32);
  size_t i = tag & mask_;
  for (;;) {
    const uint64_t slot = slots_[i];
    if (slot == 0) break;
    if (SlotTag(slot) == tag && bytes_start_[SlotId(slot)] == offset) {
      return -static_cast<int32_t>(SlotId(slot)) - 1;
    }
    i = (i + 1) & mask_;
  }
  const uint32_t id = count_;
  Insert(i, tag, offset);
  return static_cast<int32_t>(id);
}

void BytesRefHash::Grow() {
  const uint64_t* old_slots = slots_;
  const uint32_t old_capacity = capacity();
  const uint32_t new_capacity = old_capacity * 2;
  uint64_t* slots = static_cast<uint64_t*>(std::calloc(new_capacity, sizeof(uint64_t)));
  if (slots == nullptr) throw std::bad_alloc();
  const uint32_t mask = new_capacity - 1;
  for (uint32_t j = 0; j < old_capacity; ++j) {
    const uint64_t slot = old_slots[j];
    if (slot == 0) continue;
    size_t i = SlotTag(slot) & mask;
    while (slots[i] != 0) i = (i + 1) & mask;
    slots[i] = slot;
  }
  std::free(slots_);
  slots_ = slots;
  mask_ = mask;
  counter_->Add(static_cast<int64_t>(new_capacity - old_capacity) * 8);
}

std::vector<uint32_t> BytesRefHash::SortIds() {
  assert(!sorted_);
  sorted_ = true;
  const uint32_t n = count_;
  // Compact: the table (capacity >= 2n slots, see Insert) becomes the work
  // array, entry = bytes_start << 32 | id, in id order.
  uint64_t* entries = slots_;
  for (uint32_t id = 0; id < n; ++id) entries[id] = uint64_t{bytes_start_[id]} << 32 | id;
  auto cache = std::make_unique<uint16_t[]>(n);
  counter_->Add(static_cast<int64_t>(n) * 2);
  const ByteBlockPool& pool = *pool_;
  MsbRadixSort(entries, n, cache.get(), [&pool](uint64_t entry) {
    return TermAt(pool, static_cast<uint32_t>(entry >> 32));
  });
  counter_->Add(-static_cast<int64_t>(n) * 2);
  std::vector<uint32_t> ids(n);
  for (uint32_t i = 0; i < n; ++i) ids[i] = static_cast<uint32_t>(entries[i]);
  return ids;
}

void BytesRefHash::Clear() {
  count_ = 0;
  sorted_ = false;
  bytes_start_.Release();
  AllocateTable(initial_capacity_);
}

size_t BytesRefHash::bytes_used() const {
  return static_cast<size_t>(capacity()) * 8 + bytes_start_.bytes();
}

}  // namespace invert

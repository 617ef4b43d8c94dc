// TokenBuffer's slow paths: growth of the arena and the token array under the
// byte limit, kept out of line so that the inline Add/ReserveTerm/CommitTerm
// stay small.
#include "invert/token_buffer.h"

#include <algorithm>

namespace invert {

void TokenBuffer::Release() {
  TokenBuffer empty;
  empty.byte_limit_ = byte_limit_;
  Swap(empty);
}

void TokenBuffer::ResetLimitState() {
  over_limit_ = false;
  arena_capacity_ = arena_allocated_;
  entries_capacity_ = entries_allocated_;
  spill_.reset();
  spill_capacity_ = 0;
  spilled_ = false;
}

void TokenBuffer::SetOverLimit() {
  over_limit_ = true;
  ClampToSizes();
}

size_t TokenBuffer::ArenaGrowth(size_t needed) const {
  size_t capacity = std::max<size_t>(arena_allocated_, 256);
  while (capacity < needed) capacity *= 2;
  const size_t others = entries_allocated_ * sizeof(Entry) + spill_capacity_;
  if (byte_limit_ != SIZE_MAX) {
    const size_t room = byte_limit_ > others ? byte_limit_ - others : 0;
    capacity = std::min(capacity, room);
  }
  return capacity >= needed ? capacity : 0;
}

void TokenBuffer::Reallocate(size_t capacity, size_t keep) {
  assert(keep <= arena_allocated_ && keep <= capacity);
  std::unique_ptr<char[]> arena = std::make_unique_for_overwrite<char[]>(capacity);
  if (keep > 0) std::memcpy(arena.get(), arena_.get(), keep);
  arena_ = std::move(arena);
  arena_capacity_ = arena_allocated_ = capacity;
}

bool TokenBuffer::GrowEntries() {
  if (over_limit_) return false;
  size_t capacity = entries_allocated_ < 64 ? 64 : entries_allocated_ + entries_allocated_ / 2;
  if (byte_limit_ != SIZE_MAX) {
    const size_t others = arena_allocated_ + spill_capacity_;
    const size_t room = byte_limit_ > others ? byte_limit_ - others : 0;
    capacity = std::min(capacity, room / sizeof(Entry));
  }
  if (capacity <= size_) {
    SetOverLimit();
    return false;
  }
  std::unique_ptr<Entry[]> entries = std::make_unique_for_overwrite<Entry[]>(capacity);
  if (size_ > 0) std::memcpy(entries.get(), entries_.get(), size_ * sizeof(Entry));
  entries_ = std::move(entries);
  entries_capacity_ = entries_allocated_ = capacity;
  return true;
}

void TokenBuffer::AddSlow(std::string_view term, uint32_t position_increment, uint32_t start_offset,
                          uint32_t end_offset, std::string_view payload) {
  if (over_limit_) return;
  if (size_ == entries_capacity_ && !GrowEntries()) return;
  const size_t bytes = term.size() + payload.size();
  if (arena_capacity_ - arena_size_ < bytes) {
    // `term` or `payload` may point into the old arena: copy them into the new
    // one before the old one is freed.
    const size_t capacity = ArenaGrowth(arena_size_ + bytes);
    if (capacity == 0) {
      SetOverLimit();
      return;
    }
    std::unique_ptr<char[]> arena = std::make_unique_for_overwrite<char[]>(capacity);
    if (arena_size_ > 0) std::memcpy(arena.get(), arena_.get(), arena_size_);
    char* p = arena.get() + arena_size_;
    if (!term.empty()) std::memcpy(p, term.data(), term.size());
    if (!payload.empty()) std::memcpy(p + term.size(), payload.data(), payload.size());
    arena_ = std::move(arena);
    arena_capacity_ = arena_allocated_ = capacity;
  } else {
    char* p = arena_.get() + arena_size_;
    if (!term.empty()) std::memcpy(p, term.data(), term.size());
    if (!payload.empty()) std::memcpy(p + term.size(), payload.data(), payload.size());
  }
  Push(term.size(), payload.size(), position_increment, start_offset, end_offset);
}

void TokenBuffer::CommitSlow(size_t length, uint32_t position_increment, uint32_t start_offset,
                             uint32_t end_offset, std::string_view payload) {
  if (over_limit_ || (size_ == entries_capacity_ && !GrowEntries())) {
    reserved_ = 0;  // dropped
    return;
  }
  if (!payload.empty()) {
    if (arena_capacity_ - arena_size_ < length + payload.size()) {
      const size_t capacity = ArenaGrowth(arena_size_ + length + payload.size());
      if (capacity == 0) {
        SetOverLimit();
        reserved_ = 0;
        return;
      }
      Reallocate(capacity, arena_size_ + length);
    }
    std::memcpy(arena_.get() + arena_size_ + length, payload.data(), payload.size());
  }
  Push(length, payload.size(), position_increment, start_offset, end_offset);
}

char* TokenBuffer::ReserveSlow(size_t max_bytes) {
  if (!over_limit_) {
    const size_t capacity = ArenaGrowth(arena_size_ + max_bytes);
    if (capacity != 0) {
      Reallocate(capacity, arena_size_ + reserved_);
      reserved_ = max_bytes;
      return arena_.get() + arena_size_;
    }
    SetOverLimit();
  }
  // Over the limit: serve the reservation from the side buffer, keeping what
  // was written under the pending one (in the arena or the side buffer).
  const char* kept = spilled_ ? spill_.get() : arena_.get() + arena_size_;
  const size_t keep = std::min(reserved_, max_bytes);
  if (spill_capacity_ < max_bytes) {
    // Exactly the size asked for: the side buffer stays one term's worth.
    std::unique_ptr<char[]> spill = std::make_unique_for_overwrite<char[]>(max_bytes);
    if (keep > 0) std::memcpy(spill.get(), kept, keep);
    spill_ = std::move(spill);
    spill_capacity_ = max_bytes;
  } else if (!spilled_ && keep > 0) {
    std::memcpy(spill_.get(), kept, keep);
  }
  spilled_ = true;
  reserved_ = max_bytes;
  return spill_.get();
}

}  // namespace invert

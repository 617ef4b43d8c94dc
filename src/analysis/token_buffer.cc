// TokenBuffer's slow paths: arena growth, kept out of line so that the inline
// Add/CommitTerm stay small.
#include "invert/token_buffer.h"

#include <algorithm>

namespace invert {

void TokenBuffer::Grow(size_t keep, size_t extra) {
  assert(keep <= arena_capacity_);
  const size_t needed = arena_size_ + extra;
  size_t capacity = std::max<size_t>(arena_capacity_, 256);
  while (capacity < needed) capacity *= 2;
  std::unique_ptr<char[]> arena = std::make_unique_for_overwrite<char[]>(capacity);
  if (keep > 0) std::memcpy(arena.get(), arena_.get(), keep);
  arena_ = std::move(arena);
  arena_capacity_ = capacity;
}

void TokenBuffer::AddSlow(std::string_view term, uint32_t position_increment, uint32_t start_offset,
                          uint32_t end_offset, std::string_view payload) {
  // `term` or `payload` may point into the old arena: copy them into the new
  // one before the old one is freed.
  const size_t bytes = term.size() + payload.size();
  size_t capacity = std::max<size_t>(arena_capacity_, 256);
  while (capacity - arena_size_ < bytes) capacity *= 2;
  std::unique_ptr<char[]> arena = std::make_unique_for_overwrite<char[]>(capacity);
  if (arena_size_ > 0) std::memcpy(arena.get(), arena_.get(), arena_size_);
  char* p = arena.get() + arena_size_;
  if (!term.empty()) std::memcpy(p, term.data(), term.size());
  if (!payload.empty()) std::memcpy(p + term.size(), payload.data(), payload.size());
  arena_ = std::move(arena);
  arena_capacity_ = capacity;
  Push(term.size(), payload.size(), position_increment, start_offset, end_offset);
}

}  // namespace invert

// TokenBuffer: the tokens that analysis hands to the indexing chain for one
// document (one or more field values), kept in two flat arrays so that adding
// a token allocates nothing once the buffer has grown to its working size. One
// buffer is reused for every document an indexing thread sees: Clear() keeps
// the capacity.
//
// Memory layout:
//
//   arena_    [term 0][payload 0][term 1][payload 1] ... [term n-1][payload n-1]
//             ^ entries_[0].begin  ^ entries_[1].begin          arena_size_ ^
//   entries_  one 32-byte Entry per token: where its bytes start in the arena,
//             the term and payload lengths, the position increment and the
//             start/end offsets.
//
// Invariants:
//   1. entries_[0].begin == 0, and entries_[i].begin + term_length +
//      payload_length == entries_[i + 1].begin (== arena_size_ for the last
//      token): the tokens' bytes are contiguous and in token order, so
//      Truncate(n) is O(1): the arena ends where token n began.
//   2. arena_size_ <= arena_capacity_; arena_[0, arena_size_) holds exactly the
//      bytes of the tokens in entries_.
//   3. Only Grow() reallocates the arena; it doubles the capacity, so appends
//      are amortized O(bytes).
//
// Views (AnalyzedToken::term/payload, ReserveTerm's pointer) point into the
// arena: they stay valid until the next call of a non-const method.
//
// Thread safety: none; one buffer per indexing thread.
#ifndef INVERT_TOKEN_BUFFER_H_
#define INVERT_TOKEN_BUFFER_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace invert {

// One analyzed token. `term` and `payload` point into the owning TokenBuffer's
// arena. Offsets are UTF-8 byte offsets into the analyzed field value:
// [start_offset, end_offset) is the source text of the token.
struct AnalyzedToken {
  std::string_view term;
  // Positions advanced since the previous token (Lucene's convention: the
  // first token of a value has increment 1 and lands on position 0).
  uint32_t position_increment;
  uint32_t start_offset;
  uint32_t end_offset;
  std::string_view payload;  // empty unless the producer set one
};

class TokenBuffer {
 public:
  TokenBuffer() = default;
  // A moved-from buffer is empty and holds no memory.
  TokenBuffer(TokenBuffer&& other) noexcept { Swap(other); }
  TokenBuffer& operator=(TokenBuffer&& other) noexcept {
    TokenBuffer moved(std::move(other));
    Swap(moved);
    return *this;
  }
  TokenBuffer(const TokenBuffer&) = delete;
  TokenBuffer& operator=(const TokenBuffer&) = delete;

  // Forgets every token; keeps the memory for the next document.
  void Clear() {
    entries_.clear();
    arena_size_ = 0;
  }

  // Appends a token, copying `term` and `payload` into the arena. They may
  // point into this buffer (e.g. a term of an earlier token).
  // REQUIRES: term.size() and payload.size() < 2^32.
  void Add(std::string_view term, uint32_t position_increment, uint32_t start_offset,
           uint32_t end_offset, std::string_view payload = {}) {
    const size_t bytes = term.size() + payload.size();
    if (arena_capacity_ - arena_size_ < bytes) {
      AddSlow(term, position_increment, start_offset, end_offset, payload);
      return;
    }
    char* p = arena_.get() + arena_size_;
    if (!term.empty()) std::memcpy(p, term.data(), term.size());
    if (!payload.empty()) std::memcpy(p + term.size(), payload.data(), payload.size());
    Push(term.size(), payload.size(), position_increment, start_offset, end_offset);
  }

  // In-place construction of a term, for producers that transform text
  // straight into the arena (lower-casing, case folding) instead of building
  // it elsewhere and copying it in:
  //
  //   char* p = buffer.ReserveTerm(max_bytes);   // write up to max_bytes at p
  //   buffer.CommitTerm(length, 1, start, end);  // length <= max_bytes
  //
  // ReserveTerm returns room for `max_bytes` at the end of the arena. Calling
  // it again before CommitTerm (to ask for more room) keeps the bytes already
  // written under the earlier reservation (the pointer may change). Any other
  // non-const call abandons the reservation.
  char* ReserveTerm(size_t max_bytes) {
    if (arena_capacity_ - arena_size_ < max_bytes) Grow(arena_size_ + reserved_, max_bytes);
    reserved_ = max_bytes;
    return arena_.get() + arena_size_;
  }

  // Appends the token whose term is the first `length` bytes written at the
  // pointer ReserveTerm returned; `payload` is copied after it.
  // REQUIRES: a reservation of at least `length` bytes is pending.
  void CommitTerm(size_t length, uint32_t position_increment, uint32_t start_offset,
                  uint32_t end_offset, std::string_view payload = {}) {
    assert(length <= reserved_);
    if (!payload.empty()) {
      if (arena_capacity_ - arena_size_ < length + payload.size()) {
        Grow(arena_size_ + length, length + payload.size());
      }
      std::memcpy(arena_.get() + arena_size_ + length, payload.data(), payload.size());
    }
    Push(length, payload.size(), position_increment, start_offset, end_offset);
  }

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }

  // REQUIRES: i < size().
  AnalyzedToken operator[](size_t i) const {
    assert(i < entries_.size());
    const Entry& e = entries_[i];
    const char* p = arena_.get() + e.begin;
    return AnalyzedToken{std::string_view(p, e.term_length), e.position_increment, e.start_offset,
                         e.end_offset, std::string_view(p + e.term_length, e.payload_length)};
  }

  // Drops tokens [n, size()) and their arena bytes (undo of a partly added
  // value). REQUIRES: n <= size().
  void Truncate(size_t n) {
    assert(n <= entries_.size());
    if (n == entries_.size()) return;
    arena_size_ = entries_[n].begin;
    entries_.resize(n);
    reserved_ = 0;
  }

  void Swap(TokenBuffer& other) noexcept {
    std::swap(arena_, other.arena_);
    std::swap(arena_size_, other.arena_size_);
    std::swap(arena_capacity_, other.arena_capacity_);
    std::swap(reserved_, other.reserved_);
    entries_.swap(other.entries_);
  }

  // Bytes of term and payload data of the current tokens.
  size_t arena_bytes() const { return arena_size_; }

  // Bytes of memory held (arena and token array capacity), for RAM accounting.
  size_t bytes_used() const { return arena_capacity_ + entries_.capacity() * sizeof(Entry); }

 private:
  struct Entry {
    size_t begin;  // arena offset of the term; the payload follows it
    uint32_t term_length;
    uint32_t payload_length;
    uint32_t position_increment;
    uint32_t start_offset;
    uint32_t end_offset;
  };
  static_assert(sizeof(Entry) <= 32, "one token costs at most 32 bytes of bookkeeping");

  void Push(size_t term_length, size_t payload_length, uint32_t position_increment,
            uint32_t start_offset, uint32_t end_offset) {
    assert(term_length <= UINT32_MAX && payload_length <= UINT32_MAX);
    entries_.push_back(Entry{arena_size_, static_cast<uint32_t>(term_length),
                             static_cast<uint32_t>(payload_length), position_increment,
                             start_offset, end_offset});
    arena_size_ += term_length + payload_length;
    reserved_ = 0;
  }

  // Reallocates the arena to hold at least arena_size_ + `extra` bytes,
  // keeping its first `keep` bytes.
  void Grow(size_t keep, size_t extra);
  void AddSlow(std::string_view term, uint32_t position_increment, uint32_t start_offset,
               uint32_t end_offset, std::string_view payload);

  std::unique_ptr<char[]> arena_;
  size_t arena_size_ = 0;
  size_t arena_capacity_ = 0;
  size_t reserved_ = 0;  // size of the pending ReserveTerm reservation
  std::vector<Entry> entries_;
};

}  // namespace invert

#endif  // INVERT_TOKEN_BUFFER_H_

// TokenBuffer: the tokens an Analyzer hands to the indexing chain for one
// document (one or more field values), kept in two flat arrays so that adding
// a token allocates nothing once the buffer has grown to its working size. The
// chain reuses one buffer for every document an indexing thread sees.
//
// Stable API: the analyzer extension point. Analyzer::Analyze (analysis.h)
// appends to a TokenBuffer, so a custom analyzer uses the public methods
// below, and they keep their meaning and guarantees across releases:
//   * producers (an analyzer): Add; ReserveTerm + CommitTerm (a term written
//     in place); Truncate (to undo what this call added); size, empty and
//     operator[] to read back tokens;
//   * owners (whoever analyzes outside the chain, e.g. to test an analyzer):
//     construction, moves, Clear.
// docs/analysis.md ("Writing your own analyzer") has an example. What the
// chain needs besides (a byte limit per document, memory accounting,
// Release) is private: the chain reaches it through LimitedTokenBuffer
// (src/analysis/limited_token_buffer.h, internal).
//
// Guarantees to a producer:
//   1. Tokens keep the order they were added in; Add copies the term and
//      payload, which may point anywhere (into this buffer too).
//   2. The buffer may already hold tokens when Analyze is called (earlier
//      values and fields of the document): append only, and never Truncate
//      below the size() seen on entry.
//   3. A token may be dropped without notice (Add and CommitTerm do nothing)
//      when the document is over the chain's memory limit; the chain then
//      rejects the document. A producer needs no check for it: ReserveTerm
//      still returns writable room.
//   4. A growth that cannot allocate throws std::bad_alloc and leaves the
//      buffer as before the call; an analyzer may let it propagate (the chain
//      catches it and rejects the document).
//   5. Views (AnalyzedToken::term/payload, ReserveTerm's pointer) stay valid
//      until the next call of a non-const method.
//
// ABI: Add, ReserveTerm and CommitTerm are inline (a token costs a compare
// and a copy), so the class's layout is compiled into every analyzer and is
// part of the ABI: changing it needs a new major version (SOVERSION).
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
//   2. arena_size_ <= arena_capacity_ <= arena_allocated_ and size_ <=
//      entries_capacity_ <= entries_allocated_; arena_[0, arena_size_) holds
//      exactly the bytes of the tokens in entries_. The *_capacity_ fields are
//      what the inline fast paths compare against: equal to the allocations
//      unless the buffer is over its byte limit, when they are clamped to the
//      current sizes so that every further token takes the slow path.
//   3. Only the out-of-line slow paths reallocate; the arena doubles and the
//      token array grows by half, so appends are amortized O(bytes).
//
// Byte limit (internal; LimitedTokenBuffer sets it): caps bytes_used() (arena
// plus token array) at a number of bytes. The check lives on the growth slow
// paths only: Add, ReserveTerm and CommitTerm cost what they cost without a
// limit. A growth is clamped to the limit; when even the clamped growth cannot
// hold what is asked, the buffer goes over_limit(): it never grows again
// (until Clear()/Release()) and drops every further token (Add and CommitTerm
// do nothing). A pending ReserveTerm still gets writable room: a side buffer
// as large as the largest reservation asked for while over the limit (one
// term's worth; counted in bytes_used(), freed by Clear()). The tokens already
// added stay readable.
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

#include "invert/export.h"

namespace invert {

// One analyzed token. `term` and `payload` point into the owning TokenBuffer's
// arena. Offsets are UTF-8 byte offsets into the analyzed field value:
// [start_offset, end_offset) is the source text of the token.
struct AnalyzedToken {
  std::string_view term = {};
  // Positions advanced since the previous token (Lucene's convention: the
  // first token of a value has increment 1 and lands on position 0).
  uint32_t position_increment = 1;
  uint32_t start_offset = 0;
  uint32_t end_offset = 0;
  std::string_view payload = {};  // empty unless the producer set one
};

class INVERT_EXPORT TokenBuffer {
 public:
  // ---- For the buffer's owner.

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

  // Forgets every token; keeps the memory for the next document. Not for
  // producers (it drops the tokens of the document's other values).
  void Clear() {
    size_ = 0;
    arena_size_ = 0;
    reserved_ = 0;
    if (over_limit_) ResetLimitState();
  }

  // ---- For producers (analyzers).

  // Appends a token, copying `term` and `payload` into the arena. They may
  // point into this buffer (e.g. a term of an earlier token).
  // REQUIRES: term.size() and payload.size() < 2^32.
  void Add(std::string_view term, uint32_t position_increment, uint32_t start_offset,
           uint32_t end_offset, std::string_view payload = {}) {
    const size_t bytes = term.size() + payload.size();
    if (arena_capacity_ - arena_size_ < bytes || size_ == entries_capacity_) [[unlikely]] {
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
  // ReserveTerm returns room for `max_bytes` at the end of the arena (or, over
  // the byte limit, in the side buffer). Calling it again before CommitTerm
  // (to ask for more room) keeps the bytes already written under the earlier
  // reservation (the pointer may change). Any other non-const call abandons
  // the reservation.
  char* ReserveTerm(size_t max_bytes) {
    if (arena_capacity_ - arena_size_ < max_bytes) [[unlikely]]
      return ReserveSlow(max_bytes);
    reserved_ = max_bytes;
    return arena_.get() + arena_size_;
  }

  // Appends the token whose term is the first `length` bytes written at the
  // pointer ReserveTerm returned; `payload` is copied after it.
  // REQUIRES: a reservation of at least `length` bytes is pending.
  void CommitTerm(size_t length, uint32_t position_increment, uint32_t start_offset,
                  uint32_t end_offset, std::string_view payload = {}) {
    assert(length <= reserved_);
    if (!payload.empty() || size_ == entries_capacity_) [[unlikely]] {
      CommitSlow(length, position_increment, start_offset, end_offset, payload);
      return;
    }
    Push(length, 0, position_increment, start_offset, end_offset);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // REQUIRES: i < size().
  AnalyzedToken operator[](size_t i) const {
    assert(i < size_);
    const Entry& e = entries_[i];
    const char* p = arena_.get() + e.begin;
    return AnalyzedToken{std::string_view(p, e.term_length), e.position_increment, e.start_offset,
                         e.end_offset, std::string_view(p + e.term_length, e.payload_length)};
  }

  // Drops tokens [n, size()) and their arena bytes in O(1): how a producer
  // that fails undoes what it added (Analyze leaves *out as it found it).
  // REQUIRES: n <= size(); a producer's n is at least the size() it saw on
  // entry.
  void Truncate(size_t n) {
    assert(n <= size_);
    if (n == size_) return;
    arena_size_ = entries_[n].begin;
    size_ = n;
    reserved_ = 0;
    if (over_limit_) ClampToSizes();
  }

 private:
  // The chain's side of the buffer (byte limit, memory accounting, Release),
  // public there.
  friend class LimitedTokenBuffer;

  // Clear(), and frees all memory: bytes_used() becomes 0. For a buffer that
  // grew for one exceptional document.
  void Release();

  // Caps bytes_used() at `bytes` from the next growth on (see the header
  // comment); SIZE_MAX (the default) is no limit. Memory already held is
  // kept even if it exceeds the new limit, but it will not grow. Clear()
  // keeps the limit; moving the buffer takes it along.
  void set_byte_limit(size_t bytes) { byte_limit_ = bytes; }
  size_t byte_limit() const { return byte_limit_; }
  // Returns true iff a growth since the last Clear() would have exceeded the
  // byte limit: tokens were dropped and the buffer's content is incomplete.
  bool over_limit() const { return over_limit_; }

  void Swap(TokenBuffer& other) noexcept {
    std::swap(arena_, other.arena_);
    std::swap(arena_size_, other.arena_size_);
    std::swap(arena_capacity_, other.arena_capacity_);
    std::swap(arena_allocated_, other.arena_allocated_);
    std::swap(reserved_, other.reserved_);
    std::swap(entries_, other.entries_);
    std::swap(size_, other.size_);
    std::swap(entries_capacity_, other.entries_capacity_);
    std::swap(entries_allocated_, other.entries_allocated_);
    std::swap(byte_limit_, other.byte_limit_);
    std::swap(over_limit_, other.over_limit_);
    std::swap(spill_, other.spill_);
    std::swap(spill_capacity_, other.spill_capacity_);
    std::swap(spilled_, other.spilled_);
  }

  // Bytes of term and payload data of the current tokens.
  size_t arena_bytes() const { return arena_size_; }

  // Bytes of memory held (arena, token array and side buffer), for RAM
  // accounting.
  size_t bytes_used() const {
    return arena_allocated_ + entries_allocated_ * sizeof(Entry) + spill_capacity_;
  }

  // Bookkeeping bytes per token (beside its term and payload bytes).
  static constexpr size_t kBytesPerToken = 32;

  struct Entry {
    size_t begin;  // arena offset of the term; the payload follows it
    uint32_t term_length;
    uint32_t payload_length;
    uint32_t position_increment;
    uint32_t start_offset;
    uint32_t end_offset;
  };
  static_assert(sizeof(Entry) == kBytesPerToken, "one token costs 32 bytes of bookkeeping");

  // REQUIRES: size_ < entries_capacity_, and the token's bytes are in
  // arena_[arena_size_, arena_size_ + term_length + payload_length).
  void Push(size_t term_length, size_t payload_length, uint32_t position_increment,
            uint32_t start_offset, uint32_t end_offset) {
    assert(term_length <= UINT32_MAX && payload_length <= UINT32_MAX);
    assert(size_ < entries_capacity_);
    entries_[size_++] = Entry{arena_size_,
                              static_cast<uint32_t>(term_length),
                              static_cast<uint32_t>(payload_length),
                              position_increment,
                              start_offset,
                              end_offset};
    arena_size_ += term_length + payload_length;
    reserved_ = 0;
  }

  // Slow paths (token_buffer.cc). Each returns having dropped the token (or
  // served the reservation from the side buffer) if the byte limit forbids
  // the growth it needs.
  void AddSlow(std::string_view term, uint32_t position_increment, uint32_t start_offset,
               uint32_t end_offset, std::string_view payload);
  void CommitSlow(size_t length, uint32_t position_increment, uint32_t start_offset,
                  uint32_t end_offset, std::string_view payload);
  char* ReserveSlow(size_t max_bytes);
  // Makes room for one more entry; false (and over the limit) if the limit
  // forbids it.
  bool GrowEntries();
  // The arena capacity to grow to for `needed` bytes: doubling, clamped to
  // the limit; 0 if even the clamped capacity is below `needed`.
  size_t ArenaGrowth(size_t needed) const;
  // Reallocates the arena to `capacity` bytes, keeping its first `keep`.
  void Reallocate(size_t capacity, size_t keep);
  void SetOverLimit();
  void ClampToSizes() {
    arena_capacity_ = arena_size_;
    entries_capacity_ = size_;
  }
  void ResetLimitState();

  std::unique_ptr<char[]> arena_;
  size_t arena_size_ = 0;
  size_t arena_capacity_ = 0;   // fast-path bound (see invariant 2)
  size_t arena_allocated_ = 0;  // bytes allocated
  size_t reserved_ = 0;         // size of the pending ReserveTerm reservation
  std::unique_ptr<Entry[]> entries_;
  size_t size_ = 0;
  size_t entries_capacity_ = 0;   // fast-path bound (see invariant 2)
  size_t entries_allocated_ = 0;  // entries allocated
  size_t byte_limit_ = SIZE_MAX;
  bool over_limit_ = false;
  // Over the limit: the side buffer serving reservations, and whether the
  // pending reservation lives there.
  std::unique_ptr<char[]> spill_;
  size_t spill_capacity_ = 0;
  bool spilled_ = false;
};

}  // namespace invert

#endif  // INVERT_TOKEN_BUFFER_H_

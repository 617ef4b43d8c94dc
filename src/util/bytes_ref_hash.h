// BytesRefHash: maps term bytes to dense ids 0..size()-1, storing each term's
// bytes once in a ByteBlockPool.
//
// Term entry in the pool (never crosses a block):
//   length < 128:  [len]                       [bytes...]
//   otherwise:     [0x80 | len & 0x7f][len >> 7][bytes...]
//   bytes_start(id) is the address of the first length byte.
//
// Table: open addressing with linear probing over a power-of-two array of
// 64-bit slots, grown (doubled) as soon as it is more than half full.
//
//   slot = tag << 32 | (id + 1)      0 = empty
//   tag  = upper 32 bits of the 64-bit xxHash (XXH3) of the term bytes
//   home = tag & mask
//
// A probe compares the 32-bit tag before reading the term's bytes, so a probe
// that meets another term touches the pool only when their tags collide
// (< 2^-(32 - log2(capacity)) per foreign slot met). Growth re-inserts slots
// from their tags alone and never reads term bytes.
//
// Two modes; one hash uses one of them for its whole life:
//   * bytes mode (Add/Find): the hash owns its term entries, appended to the
//     pool it was given;
//   * offset mode (AddByPoolOffset): for a chained hash (term vectors) whose
//     terms already sit in another hash's pool. The key is the entry address;
//     nothing is copied, and bytes_start(id) is that address.
//
// Sorting (SortIds) reuses the table's memory for its work array, so the
// flush allocates only one uint16_t per term beyond what is already counted;
// afterwards the hash answers no lookups until Clear().
//
// Memory accounting: the table and the per-id array are reported to the
// RamCounter; term bytes are counted by the pool's allocator.
//
// Thread safety: none.
#ifndef INVERT_UTIL_BYTES_REF_HASH_H_
#define INVERT_UTIL_BYTES_REF_HASH_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "util/byte_block_pool.h"
#include "util/counted_array.h"
#include "util/ram_counter.h"
#include "xxhash.h"

namespace invert {

class BytesRefHash {
 public:
  // A block minus the longest (2-byte) length prefix.
  static constexpr size_t kMaxTermLength = ByteBlockPool::kBlockSize - 2;  // 32766

  struct AddResult {
    uint32_t id;
    bool is_new;
  };

  // `pool` holds the term entries (bytes mode) or is the pool that the
  // offsets given to AddByPoolOffset point into. `pool` and `counter` must
  // outlive the hash. `initial_capacity` is rounded up to a power of two.
  BytesRefHash(ByteBlockPool* pool, RamCounter* counter, uint32_t initial_capacity = 16);
  ~BytesRefHash();
  BytesRefHash(const BytesRefHash&) = delete;
  BytesRefHash& operator=(const BytesRefHash&) = delete;

  // Adds `term` if absent. Fails with InvalidArgument, leaving the hash and the
  // pool unchanged, if the term is longer than kMaxTermLength.
  absl::StatusOr<AddResult> Add(std::string_view term);

  // Hot-path Add: returns the new id, or -(id + 1) if the term was present.
  // REQUIRES: term.size() <= kMaxTermLength; bytes mode.
  int32_t AddUnchecked(std::string_view term) { return AddHashed(term, HashBytes(term)); }

  // AddUnchecked with a hash computed by HashBytes(term).
  int32_t AddHashed(std::string_view term, uint64_t hash);

  // Like AddUnchecked, except that a new term's entry is written by the
  // caller: `allocate_entry(entry_size)` must return the pool address of
  // `entry_size` zero bytes inside one block (it may allocate more around
  // them). Lets TermsHashPerField place a term's first slices right after it.
  template <typename AllocateEntry>
  int32_t AddHashed(std::string_view term, uint64_t hash, AllocateEntry&& allocate_entry);

  // Returns the id of `term`, or -1 if absent.
  int32_t Find(std::string_view term) const;

  // Batched lookups (see TermsHashPerField::AddBatch) split a lookup into
  // stages so that the cache misses of many terms overlap:
  //   PrefetchSlot(hash)        starts loading the term's home slot;
  //   Candidate(hash)           returns the id of the first slot on the probe
  //                             path whose tag matches, or -1 at an empty slot,
  //                             without reading term bytes;
  //   PrefetchEntry(id)         starts loading the id's bytes_start and entry;
  //   Matches(id, term)         compares the stored bytes.
  // A candidate is only a guess: the caller must confirm it with Matches()
  // and otherwise fall back to AddHashed, which probes from scratch.
  void PrefetchSlot(uint64_t hash) const {
    __builtin_prefetch(&slots_[static_cast<uint32_t>(hash >> 32) & mask_]);
  }
  int32_t Candidate(uint64_t hash) const {
    const uint32_t tag = static_cast<uint32_t>(hash >> 32);
    for (size_t i = tag & mask_;; i = (i + 1) & mask_) {
      const uint64_t slot = slots_[i];
      if (slot == 0) return -1;
      if (SlotTag(slot) == tag) return static_cast<int32_t>(SlotId(slot));
    }
  }
  void PrefetchBytesStart(uint32_t id) const { __builtin_prefetch(&bytes_start_[id]); }
  void PrefetchEntry(uint32_t id) const { __builtin_prefetch(pool_->At(bytes_start_[id])); }
  bool Matches(uint32_t id, std::string_view term) const { return TermEquals(id, term); }

  // Offset mode: adds the term whose entry is at `offset` in the pool; returns
  // the new id, or -(id + 1) if present.
  int32_t AddByPoolOffset(uint32_t offset);

  static uint64_t HashBytes(std::string_view term) { return XXH3_64bits(term.data(), term.size()); }

  uint32_t size() const { return count_; }
  uint32_t capacity() const { return mask_ + 1; }
  uint32_t bytes_start(uint32_t id) const { return bytes_start_[id]; }
  const ByteBlockPool* pool() const { return pool_; }

  // The bytes of term `id`; valid while the pool is.
  std::string_view term(uint32_t id) const { return TermAt(*pool_, bytes_start_[id]); }

  // Decodes the term entry at `address` of `pool`.
  static std::string_view TermAt(const ByteBlockPool& pool, uint32_t address) {
    const uint8_t* p = pool.At(address);
    if ((p[0] & 0x80) == 0) return {reinterpret_cast<const char*>(p + 1), p[0]};
    const size_t length = (p[0] & 0x7f) | (size_t{p[1]} << 7);
    return {reinterpret_cast<const char*>(p + 2), length};
  }

  // Size of the entry (prefix + bytes) for a term of `length` bytes.
  static uint32_t EntrySize(size_t length) {
    return static_cast<uint32_t>(length + (length < 128 ? 1 : 2));
  }

  // Returns all ids ordered by their term bytes (unsigned, shorter first on a
  // common prefix). Afterwards Add/Find must not be called until Clear().
  std::vector<uint32_t> SortIds();

  // Forgets every term and shrinks the table to `initial_capacity`. The pool
  // is not touched: its owner resets it.
  void Clear();

  // Bytes held by the table and per-id array (also reported to the counter).
  size_t bytes_used() const;

 private:
  static uint64_t MakeSlot(uint32_t tag, uint32_t id) { return uint64_t{tag} << 32 | (id + 1); }
  static uint32_t SlotTag(uint64_t slot) { return static_cast<uint32_t>(slot >> 32); }
  static uint32_t SlotId(uint64_t slot) { return static_cast<uint32_t>(slot) - 1; }
  static uint64_t HashOffset(uint32_t offset) { return offset * 0x9E3779B97F4A7C15ull; }

  bool TermEquals(uint32_t id, std::string_view term) const {
    const std::string_view stored = TermAt(*pool_, bytes_start_[id]);
    return stored.size() == term.size() && std::memcmp(stored.data(), term.data(), term.size()) == 0;
  }

  static uint32_t WriteEntry(uint8_t* p, std::string_view term);
  void Insert(size_t slot_index, uint32_t tag, uint32_t bytes_start);
  void AllocateTable(uint32_t capacity);
  void Grow();

  ByteBlockPool* pool_;
  RamCounter* counter_;
  uint32_t initial_capacity_;
  uint64_t* slots_ = nullptr;
  uint32_t mask_ = 0;
  uint32_t count_ = 0;
  bool sorted_ = false;
  CountedArray<uint32_t> bytes_start_;
};

template <typename AllocateEntry>
int32_t BytesRefHash::AddHashed(std::string_view term, uint64_t hash,
                                AllocateEntry&& allocate_entry) {
  assert(!sorted_);
  assert(term.size() <= kMaxTermLength);
  const uint32_t tag = static_cast<uint32_t>(hash >> 32);
  size_t i = tag & mask_;
  for (;;) {
    const uint64_t slot = slots_[i];
    if (slot == 0) break;
    if (SlotTag(slot) == tag && TermEquals(SlotId(slot), term)) {
      return -static_cast<int32_t>(SlotId(slot)) - 1;
    }
    i = (i + 1) & mask_;
  }
  const uint32_t address = allocate_entry(EntrySize(term.size()));
  WriteEntry(pool_->At(address), term);
  const uint32_t id = count_;
  Insert(i, tag, address);
  return static_cast<int32_t>(id);
}

inline int32_t BytesRefHash::AddHashed(std::string_view term, uint64_t hash) {
  return AddHashed(term, hash, [this](uint32_t size) { return pool_->Allocate(size); });
}

}  // namespace invert

#endif  // INVERT_UTIL_BYTES_REF_HASH_H_

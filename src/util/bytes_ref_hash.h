// BytesRefHash: maps term bytes to dense ids 0..size()-1, storing each term's
// bytes once in a ByteBlockPool, and keeping a caller-defined record per id.
//
// Term entry in the pool (never crosses a block):
//   length < 128:  [len]                       [bytes...]
//   otherwise:     [0x80 | len & 0x7f][len >> 7][bytes...]
//
// Per-id records (one array, so a lookup touches one line for everything the
// caller keeps about a term):
//   records_[id] = { bytes_start (address of the entry's first byte), extra }
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
//   * bytes mode (Add/AddHashed/Find): the hash owns its term entries,
//     appended to the pool it was given (or placed by the caller);
//   * offset mode (AddByPoolOffset): for a chained hash (term vectors) whose
//     terms already sit in another hash's pool. The key is the entry address;
//     nothing is copied, and bytes_start(id) is that address.
//
// Sorting (SortIds) reuses the table's memory for its work array, so the
// flush allocates only one uint16_t per term beyond what is already counted;
// afterwards the hash answers no lookups until Clear().
//
// Memory accounting: the table and the record array are reported to the
// RamCounter; term bytes are counted by the pool's allocator. With a
// BlockCache, tables and record arrays of BlockCache::kMinArrayBytes and up
// come from the cache when it has one of the size wanted (a table: exactly;
// records: the smallest that holds them) and go back to it when freed.
//
// Thread safety: none.
#ifndef INVERT_UTIL_BYTES_REF_HASH_H_
#define INVERT_UTIL_BYTES_REF_HASH_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "util/block_allocator.h"
#include "util/byte_block_pool.h"
#include "util/counted_array.h"
#include "util/ram_counter.h"

#define XXH_INLINE_ALL
#include "xxhash.h"

namespace invert {

namespace internal {

// The slot table of a BytesRefHash: everything that does not depend on the
// record type. See BytesRefHash for the slot format.
class TagTable {
 public:
  // `cache` (may be null): where tables of BlockCache::kMinArrayBytes and
  // up come from and go to.
  TagTable(RamCounter* counter, uint32_t initial_capacity, BlockCache* cache = nullptr);
  ~TagTable();
  TagTable(const TagTable&) = delete;
  TagTable& operator=(const TagTable&) = delete;

  static uint64_t MakeSlot(uint32_t tag, uint32_t id) { return uint64_t{tag} << 32 | (id + 1); }
  static uint32_t SlotTag(uint64_t slot) { return static_cast<uint32_t>(slot >> 32); }
  static uint32_t SlotId(uint64_t slot) { return static_cast<uint32_t>(slot) - 1; }

  uint64_t* slots() const { return slots_; }
  uint32_t mask() const { return mask_; }
  uint32_t capacity() const { return mask_ + 1; }

  // Doubles the table, re-inserting slots by their tags.
  void Grow();
  // Replaces the table with an empty one of the initial capacity.
  void Reset();
  // Empties the table, keeping its capacity.
  void Zero();

  // Sorts entries[0, n) (each bytes_start << 32 | id) by the term bytes at
  // bytes_start in `pool`.
  static void SortEntries(uint64_t* entries, uint32_t n, const ByteBlockPool& pool,
                          RamCounter* counter);

 private:
  void Allocate(uint32_t capacity);
  // A zeroed table of `capacity` slots; Free gives one back.
  uint64_t* NewSlots(uint32_t capacity);
  void Free(uint64_t* slots, uint32_t capacity);
  // Tables' kind in the BlockCache (record arrays use their element size).
  static constexpr int kCacheKind = 0;

  RamCounter* counter_;
  BlockCache* cache_;
  uint32_t initial_capacity_;
  uint64_t* slots_ = nullptr;
  uint32_t mask_ = 0;
};

}  // namespace internal

struct NoExtra {};

template <typename Extra>
class BasicBytesRefHash {
  static_assert(std::is_trivially_copyable_v<Extra>, "records live in a CountedArray");

 public:
  // A block minus the longest (2-byte) length prefix.
  static constexpr size_t kMaxTermLength = ByteBlockPool::kBlockSize - 2;  // 32766

  struct Record {
    uint32_t bytes_start;
    [[no_unique_address]] Extra extra;
  };

  struct AddResult {
    uint32_t id;
    bool is_new;
  };

  // `pool` holds the term entries (bytes mode) or is the pool that the
  // offsets given to AddByPoolOffset point into. `pool` and `counter` must
  // outlive the hash. `initial_capacity` is rounded up to a power of two.
  // `cache` (may be null): large tables and record arrays are taken from it
  // and given back to it (block_allocator.h); it must outlive the hash.
  BasicBytesRefHash(ByteBlockPool* pool, RamCounter* counter, uint32_t initial_capacity = 16,
                    BlockCache* cache = nullptr)
      : pool_(pool), table_(counter, initial_capacity, cache), records_(counter, cache) {}

  // Adds `term` if absent. Fails with InvalidArgument, leaving the hash and the
  // pool unchanged, if the term is longer than kMaxTermLength.
  absl::StatusOr<AddResult> Add(std::string_view term) {
    if (term.size() > kMaxTermLength) {
      return absl::InvalidArgumentError(absl::StrCat("term of ", term.size(),
                                                     " bytes is longer than the maximum of ",
                                                     kMaxTermLength, " bytes"));
    }
    const int32_t r = AddUnchecked(term);
    if (r >= 0) return AddResult{static_cast<uint32_t>(r), true};
    return AddResult{static_cast<uint32_t>(-(r + 1)), false};
  }

  // Hot-path Add: returns the new id, or -(id + 1) if the term was present.
  // REQUIRES: term.size() <= kMaxTermLength; bytes mode.
  int32_t AddUnchecked(std::string_view term) { return AddHashed(term, HashBytes(term)); }

  int32_t AddHashed(std::string_view term, uint64_t hash) {
    return AddHashed(term, hash, [this](uint32_t size) { return pool_->Allocate(size); });
  }

  // AddUnchecked with hash = HashBytes(term), where a new term's entry is
  // placed by the caller: `allocate_entry(entry_size)` must return the pool
  // address of `entry_size` zero bytes inside one block (it may allocate more
  // around them). Lets TermsHashPerField put a term's first slices right
  // after it. A new record's extra is value-initialized.
  template <typename AllocateEntry>
  int32_t AddHashed(std::string_view term, uint64_t hash, AllocateEntry&& allocate_entry) {
    assert(!sorted_);
    assert(term.size() <= kMaxTermLength);
    const uint32_t tag = static_cast<uint32_t>(hash >> 32);
    const uint32_t mask = table_.mask();
    uint64_t* slots = table_.slots();
    size_t i = tag & mask;
    for (;;) {
      const uint64_t slot = slots[i];
      if (slot == 0) break;
      if (internal::TagTable::SlotTag(slot) == tag && TermEquals(SlotId(slot), term)) {
        return -static_cast<int32_t>(SlotId(slot)) - 1;
      }
      i = (i + 1) & mask;
    }
    const uint32_t address = allocate_entry(EntrySize(term.size()));
    WriteEntry(pool_->At(address), term);
    return static_cast<int32_t>(Insert(i, tag, address));
  }

  // Returns the id of `term`, or -1 if absent.
  int32_t Find(std::string_view term) const {
    assert(!sorted_);
    if (term.size() > kMaxTermLength) return -1;
    const uint32_t tag = static_cast<uint32_t>(HashBytes(term) >> 32);
    const uint32_t mask = table_.mask();
    for (size_t i = tag & mask;; i = (i + 1) & mask) {
      const uint64_t slot = table_.slots()[i];
      if (slot == 0) return -1;
      if (internal::TagTable::SlotTag(slot) == tag && TermEquals(SlotId(slot), term)) {
        return static_cast<int32_t>(SlotId(slot));
      }
    }
  }

  // Offset mode: adds the term whose entry is at `offset` in the pool; returns
  // the new id, or -(id + 1) if present.
  int32_t AddByPoolOffset(uint32_t offset) {
    assert(!sorted_);
    const uint32_t tag = static_cast<uint32_t>(HashOffset(offset) >> 32);
    const uint32_t mask = table_.mask();
    uint64_t* slots = table_.slots();
    size_t i = tag & mask;
    for (;;) {
      const uint64_t slot = slots[i];
      if (slot == 0) break;
      if (internal::TagTable::SlotTag(slot) == tag &&
          records_[SlotId(slot)].bytes_start == offset) {
        return -static_cast<int32_t>(SlotId(slot)) - 1;
      }
      i = (i + 1) & mask;
    }
    return static_cast<int32_t>(Insert(i, tag, offset));
  }

  // Batched lookups (see TermsHashPerField::AddBatch) split a lookup into
  // stages so that the cache misses of many terms overlap:
  //   PrefetchSlot(hash)   starts loading the term's home slot;
  //   Candidate(hash)      returns the id of the first slot on the probe path
  //                        whose tag matches, or -1 at an empty slot, without
  //                        reading term bytes;
  //   PrefetchRecord(id)   starts loading the id's record;
  //   Entry(id)            the id's term entry (reads the record), for the
  //                        caller to prefetch and keep: entries never move;
  //   EntryMatches(entry, term)  compares the stored bytes.
  // A candidate is only a guess: the caller must confirm it with
  // EntryMatches() and otherwise fall back to AddHashed, which probes from
  // scratch.
  void PrefetchSlot(uint64_t hash) const {
    __builtin_prefetch(&table_.slots()[static_cast<uint32_t>(hash >> 32) & table_.mask()]);
  }
  int32_t Candidate(uint64_t hash) const {
    const uint32_t tag = static_cast<uint32_t>(hash >> 32);
    const uint32_t mask = table_.mask();
    for (size_t i = tag & mask;; i = (i + 1) & mask) {
      const uint64_t slot = table_.slots()[i];
      if (slot == 0) return -1;
      if (internal::TagTable::SlotTag(slot) == tag) return static_cast<int32_t>(SlotId(slot));
    }
  }
  void PrefetchRecord(uint32_t id) const { __builtin_prefetch(&records_[id]); }
  const uint8_t* Entry(uint32_t id) const { return pool_->At(records_[id].bytes_start); }
  static bool EntryMatches(const uint8_t* entry, std::string_view term) {
    const std::string_view stored = EntryTerm(entry);
    return stored.size() == term.size() && BytesEqual(stored.data(), term.data(), term.size());
  }

  static uint64_t HashBytes(std::string_view term) { return XXH3_64bits(term.data(), term.size()); }

  uint32_t size() const { return static_cast<uint32_t>(records_.size()); }
  uint32_t capacity() const { return table_.capacity(); }
  uint32_t bytes_start(uint32_t id) const { return records_[id].bytes_start; }
  Extra& extra(uint32_t id) { return records_[id].extra; }
  const Extra& extra(uint32_t id) const { return records_[id].extra; }
  const ByteBlockPool* pool() const { return pool_; }

  // The bytes of term `id`; valid while the pool is.
  std::string_view term(uint32_t id) const { return TermAt(*pool_, records_[id].bytes_start); }

  // Decodes the term entry at `address` of `pool`.
  static std::string_view TermAt(const ByteBlockPool& pool, uint32_t address) {
    return EntryTerm(pool.At(address));
  }
  // Decodes the term entry at `p`.
  static std::string_view EntryTerm(const uint8_t* p) {
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
  std::vector<uint32_t> SortIds() {
    assert(!sorted_);
    sorted_ = true;
    const uint32_t n = size();
    // Compact: the table (capacity >= 2n slots, see Insert) becomes the work
    // array, entry = bytes_start << 32 | id, in id order.
    uint64_t* entries = table_.slots();
    for (uint32_t id = 0; id < n; ++id) {
      entries[id] = uint64_t{records_[id].bytes_start} << 32 | id;
    }
    internal::TagTable::SortEntries(entries, n, *pool_, records_counter());
    std::vector<uint32_t> ids(n);
    for (uint32_t i = 0; i < n; ++i) ids[i] = static_cast<uint32_t>(entries[i]);
    return ids;
  }

  // Forgets every term. Frees the table and records (shrinking the table to
  // its initial capacity), or with `keep_capacity` keeps both allocations for
  // the next use, as the per-document term-vector hash does. The pool is not
  // touched: its owner resets it.
  void Clear(bool keep_capacity = false) {
    sorted_ = false;
    if (keep_capacity) {
      records_.Truncate(0);
      table_.Zero();
    } else {
      records_.Release();
      table_.Reset();
    }
  }

  // Bytes held by the table and the record array (also on the counter).
  size_t bytes_used() const { return static_cast<size_t>(capacity()) * 8 + records_.bytes(); }

 private:
  static uint32_t SlotId(uint64_t slot) { return internal::TagTable::SlotId(slot); }
  static uint64_t HashOffset(uint32_t offset) { return offset * 0x9E3779B97F4A7C15ull; }

  RamCounter* records_counter() const { return records_.counter(); }

  bool TermEquals(uint32_t id, std::string_view term) const {
    const std::string_view stored = TermAt(*pool_, records_[id].bytes_start);
    return stored.size() == term.size() && BytesEqual(stored.data(), term.data(), term.size());
  }

  // memcmp(a, b, n) == 0 without a call for the short terms that dominate
  // text: overlapping loads that stay inside both ranges.
  static bool BytesEqual(const char* a, const char* b, size_t n) {
    if (n >= 8) {
      if (n > 16) return std::memcmp(a, b, n) == 0;
      return (Load64(a) ^ Load64(b)) == 0 && (Load64(a + n - 8) ^ Load64(b + n - 8)) == 0;
    }
    if (n >= 4) return Load32(a) == Load32(b) && Load32(a + n - 4) == Load32(b + n - 4);
    if (n == 0) return true;
    return a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1];
  }
  static uint64_t Load64(const char* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  static uint32_t Load32(const char* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }

  static void WriteEntry(uint8_t* p, std::string_view term) {
    const size_t length = term.size();
    if (length < 128) {
      *p++ = static_cast<uint8_t>(length);
    } else {
      *p++ = static_cast<uint8_t>(0x80 | (length & 0x7f));
      *p++ = static_cast<uint8_t>(length >> 7);
    }
    if (length > 0) std::memcpy(p, term.data(), length);
  }

  // Fills slot `slot_index` with a new id whose entry is at `bytes_start`;
  // keeps the table at most half full. Returns the id.
  uint32_t Insert(size_t slot_index, uint32_t tag, uint32_t bytes_start) {
    const uint32_t id = size();
    Record& record = records_.EmplaceBack();
    record.bytes_start = bytes_start;
    table_.slots()[slot_index] = internal::TagTable::MakeSlot(tag, id);
    if (size() > capacity() / 2) table_.Grow();
    return id;
  }

  ByteBlockPool* pool_;
  internal::TagTable table_;
  CountedArray<Record> records_;
  bool sorted_ = false;
};

using BytesRefHash = BasicBytesRefHash<NoExtra>;

}  // namespace invert

#endif  // INVERT_UTIL_BYTES_REF_HASH_H_

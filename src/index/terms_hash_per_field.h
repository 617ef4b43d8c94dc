// TermsHashPerField<State>: one field's terms in a TermsHash, each with
// `stream_count` byte streams and a consumer-defined per-term State.
//
// Per term id:
//   hash record[id] = { bytes_start, byte_start, int_start, state }  one array
//   int_pool[int_start + s]   end address of stream s (where the next byte goes)
//   byte_start + s * 5        start address of stream s (its first slice)
// The int pool is the TermsHash's, shared by all its fields. With the
// 20-byte PostingState a record is 32 bytes: two per cache line, never
// straddling one. The first slices of a term's
// streams are allocated back to back; with the kShared layout they also
// follow the term's bytes directly, in one block:
//
//   kShared:   byte_pool: ... [len][term bytes][slice 0][slice 1] ...
//   kSeparate: term pool: ... [len][term bytes] ...
//              byte_pool: ... [slice 0][slice 1] ...
//
// Usage, per token: Add(term) (or AddByPoolOffset for a chained field) makes
// the term current and returns its id and State; then WriteByte/WriteVInt/
// WriteBytes append to the current term's streams. AddBatch does the same for
// many tokens with their cache misses overlapped.
//
// Flush: SortTerms() returns the ids in term byte order; StreamReader(id, s)
// reads a stream back. Reset() forgets every term (the TermsHash's pools are
// reset by their owner).
//
// Thread safety: none.
#ifndef INVERT_INDEX_TERMS_HASH_PER_FIELD_H_
#define INVERT_INDEX_TERMS_HASH_PER_FIELD_H_

#include <cassert>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <vector>

#include "index/terms_hash.h"
#include "util/byte_slices.h"
#include "util/bytes_ref_hash.h"

namespace invert {

template <typename State>
class TermsHashPerField {
  static_assert(std::is_trivially_copyable_v<State>, "per-term state lives in a CountedArray");

 public:
  static constexpr int kMaxStreams = 4;

  struct Extra {
    uint32_t byte_start;
    uint32_t int_start;
    State state;
  };
  using Hash = BasicBytesRefHash<Extra>;

  struct Added {
    uint32_t id;
    bool is_new;
    State* state;  // valid until the next Add
  };

  // `terms_hash` and `counter` must outlive this. Large hash tables and
  // record arrays come from (and go back to) the BlockCache of the
  // terms_hash's allocator, if it has one.
  // REQUIRES: 1 <= stream_count <= kMaxStreams.
  TermsHashPerField(TermsHash* terms_hash, int stream_count, RamCounter* counter,
                    uint32_t initial_hash_capacity = 16)
      : terms_hash_(terms_hash),
        byte_pool_(&terms_hash->byte_pool()),
        int_pool_(&terms_hash->int_pool()),
        stream_count_(static_cast<uint32_t>(stream_count)),
        hash_(&terms_hash->term_byte_pool(), counter, initial_hash_capacity,
              terms_hash->allocator()->cache()) {
    assert(stream_count >= 1 && stream_count <= kMaxStreams);
  }

  // Adds one occurrence of `term` and makes it current.
  // REQUIRES: term.size() <= BytesRefHash::kMaxTermLength; not chained.
  Added Add(std::string_view term) {
    assert(!terms_hash_->is_chained());
    return AddNew(term, Hash::HashBytes(term));
  }

  // Adds the terms term_at(0) .. term_at(n - 1) in order, calling
  // visit(i, Added) for each right after it is added, exactly as n calls of
  // Add() would, but in groups of kBatch whose memory accesses are staged so
  // that their cache misses overlap instead of following one another:
  //   1. hash each term, prefetch its home slot;
  //   2. probe for a candidate id, prefetch its record;
  //   3. prefetch the candidate's term entry and its stream ends;
  //   4. prefetch the byte at the end of stream `hot_stream` (where the next
  //      write goes);
  //   5. confirm each candidate and visit, in order. Terms new to the hash
  //      (no candidate, or a repeat within the group) take the plain path.
  // REQUIRES: every term.size() <= BytesRefHash::kMaxTermLength; not chained.
  template <typename TermAt, typename Visit>
  void AddBatch(size_t n, TermAt&& term_at, int hot_stream, Visit&& visit) {
    assert(!terms_hash_->is_chained());
    uint64_t hashes[kBatch];
    int32_t candidates[kBatch];
    // A candidate's term entry and stream ends, found in stage 3 and kept for
    // stages 4 and 5: pool blocks never move, and an existing term's entry
    // and int_start never change.
    const uint8_t* entries[kBatch];
    int32_t* ends[kBatch];
    for (size_t base = 0; base < n; base += kBatch) {
      const size_t m = n - base < kBatch ? n - base : kBatch;
      // The next group's term bytes, so that hashing them does not stall.
      const size_t ahead = n - base - m < kBatch ? n - base - m : kBatch;
      for (size_t i = 0; i < ahead; ++i) __builtin_prefetch(term_at(base + m + i).data());
      for (size_t i = 0; i < m; ++i) {
        hashes[i] = Hash::HashBytes(term_at(base + i));
        hash_.PrefetchSlot(hashes[i]);
      }
      for (size_t i = 0; i < m; ++i) {
        const int32_t c = hash_.Candidate(hashes[i]);
        candidates[i] = c;
        if (c >= 0) hash_.PrefetchRecord(static_cast<uint32_t>(c));
      }
      for (size_t i = 0; i < m; ++i) {
        if (candidates[i] < 0) continue;
        const uint32_t c = static_cast<uint32_t>(candidates[i]);
        entries[i] = hash_.Entry(c);
        __builtin_prefetch(entries[i]);
        ends[i] = int_pool_->At(hash_.extra(c).int_start);
        __builtin_prefetch(ends[i] + hot_stream);
      }
      for (size_t i = 0; i < m; ++i) {
        if (candidates[i] < 0) continue;
        __builtin_prefetch(byte_pool_->At(static_cast<uint32_t>(ends[i][hot_stream])), 1);
      }
      for (size_t i = 0; i < m; ++i) {
        const std::string_view term = term_at(base + i);
        const int32_t c = candidates[i];
        if (c >= 0 && Hash::EntryMatches(entries[i], term)) {
          current_ends_ = ends[i];
          visit(base + i, Added{static_cast<uint32_t>(c), false, &hash_.extra(c).state});
        } else {
          visit(base + i, AddNew(term, hashes[i]));
        }
      }
    }
  }

  // Chained: adds one occurrence of the term whose entry is at
  // `term_entry_address` in the primary's term pool, and makes it current.
  Added AddByPoolOffset(uint32_t term_entry_address) {
    assert(terms_hash_->is_chained());
    const int32_t r = hash_.AddByPoolOffset(term_entry_address);
    if (r < 0) return Existing(static_cast<uint32_t>(-(r + 1)));
    return New(static_cast<uint32_t>(r), NewFirstSlices(*byte_pool_, stream_count_));
  }

  // Appends to stream `stream` of the current term.
  void WriteByte(int stream, uint8_t byte) {
    int32_t* end = current_ends_ + stream;
    uint32_t address = static_cast<uint32_t>(*end);
    uint8_t* p = byte_pool_->At(address);
    if (*p != 0) {
      address = GrowSlice(*byte_pool_, address);
      p = byte_pool_->At(address);
    }
    *p = byte;
    *end = static_cast<int32_t>(address + 1);
  }

  void WriteVInt(int stream, uint32_t value) {
    int32_t* end = current_ends_ + stream;
    uint32_t address = static_cast<uint32_t>(*end);
    uint8_t* p = byte_pool_->At(address);
    for (;;) {
      const uint8_t byte = static_cast<uint8_t>(value < 0x80 ? value : (value | 0x80));
      if (*p != 0) {
        address = GrowSlice(*byte_pool_, address);
        p = byte_pool_->At(address);
      }
      *p++ = byte;
      ++address;
      if (value < 0x80) break;
      value >>= 7;
    }
    *end = static_cast<int32_t>(address);
  }

  void WriteBytes(int stream, const uint8_t* bytes, size_t length) {
    for (size_t i = 0; i < length; ++i) WriteByte(stream, bytes[i]);
  }

  uint32_t size() const { return hash_.size(); }
  State& state(uint32_t id) { return hash_.extra(id).state; }
  const State& state(uint32_t id) const { return hash_.extra(id).state; }

  // Address of term `id`'s entry in the term pool (the primary's, if chained).
  uint32_t term_entry_address(uint32_t id) const { return hash_.bytes_start(id); }
  std::string_view term(uint32_t id) const { return hash_.term(id); }
  // Id of `term`, or -1. Not for chained fields.
  int32_t Find(std::string_view term) const { return hash_.Find(term); }

  // Read-ahead for a pass over the terms in an order of their own (the
  // flush's sorted ids), where each term's record, term entry, stream ends
  // and first slices are lines far apart: two stages, issued some terms
  // ahead of the reads (StreamReader, term, state). Stage 1 starts loading
  // the record; stage 2, issued once stage 1 has had time, reads it and
  // starts loading the entry, the stream ends and the first slices.
  void PrefetchRecord(uint32_t id) const { hash_.PrefetchRecord(id); }
  void PrefetchTermData(uint32_t id) const {
    const Extra& e = hash_.extra(id);
    __builtin_prefetch(hash_.Entry(id));
    __builtin_prefetch(int_pool_->At(e.int_start));
    __builtin_prefetch(byte_pool_->At(e.byte_start));
  }

  // Reader over stream `stream` of term `id`, from its start to its end.
  SliceReader StreamReader(uint32_t id, int stream) const {
    const StreamBounds bounds = Bounds(id, stream);
    return SliceReader(byte_pool_, bounds.start, bounds.end);
  }
  // Where stream `stream` of term `id` starts (its first slice) and ends, in
  // byte_pool(). It lies wholly in its first slice iff end - start <
  // kFirstSliceSize (byte_slices.h, invariant 4): then its end - start
  // (<= 4) bytes are the contiguous run at byte_pool().At(start).
  struct StreamBounds {
    uint32_t start;
    uint32_t end;
  };
  StreamBounds Bounds(uint32_t id, int stream) const {
    const Extra& e = hash_.extra(id);
    return {e.byte_start + static_cast<uint32_t>(stream) * kFirstSliceSize,
            static_cast<uint32_t>(*int_pool_->At(e.int_start + stream))};
  }
  const ByteBlockPool& byte_pool() const { return *byte_pool_; }

  // Term ids in unsigned byte order of their terms. After this, Add*() must
  // not be called until Reset().
  std::vector<uint32_t> SortTerms() { return hash_.SortIds(); }

  // Forgets every term; with `keep_capacity` the hash keeps its memory for
  // the next use (per-document term vectors). The TermsHash's pools are reset
  // by their owner.
  void Reset(bool keep_capacity = false) {
    hash_.Clear(keep_capacity);
    current_ends_ = nullptr;
  }

  int stream_count() const { return static_cast<int>(stream_count_); }
  const Hash& hash() const { return hash_; }
  TermsHash* terms_hash() const { return terms_hash_; }

 private:
  static constexpr size_t kBatch = 32;

  // Add() with the hash computed: finds the term or adds it with fresh slices
  // (placed right after its bytes with kShared).
  Added AddNew(std::string_view term, uint64_t hash) {
    if (!terms_hash_->shares_term_pool()) {
      const int32_t r = hash_.AddHashed(term, hash);
      if (r < 0) return Existing(static_cast<uint32_t>(-(r + 1)));
      return New(static_cast<uint32_t>(r), NewFirstSlices(*byte_pool_, stream_count_));
    }
    uint32_t byte_start = 0;
    const int32_t r = hash_.AddHashed(term, hash, [this, &byte_start](uint32_t entry_size) {
      const uint32_t slices = stream_count_ * kFirstSliceSize;
      if (entry_size + slices > ByteBlockPool::kBlockSize) {
        // An immense term fills its own block; slices go to the next.
        const uint32_t entry = byte_pool_->Allocate(entry_size);
        byte_start = NewFirstSlices(*byte_pool_, stream_count_);
        return entry;
      }
      const uint32_t entry = byte_pool_->Allocate(entry_size + slices);
      byte_start = entry + entry_size;
      uint8_t* p = byte_pool_->At(byte_start);
      for (uint32_t i = 1; i <= stream_count_; ++i) p[i * kFirstSliceSize - 1] = kSliceMarkerBase;
      return entry;
    });
    if (r < 0) return Existing(static_cast<uint32_t>(-(r + 1)));
    return New(static_cast<uint32_t>(r), byte_start);
  }

  Added Existing(uint32_t id) {
    Extra& extra = hash_.extra(id);
    current_ends_ = int_pool_->At(extra.int_start);
    return {id, false, &extra.state};
  }

  Added New(uint32_t id, uint32_t byte_start) {
    const uint32_t int_start = int_pool_->Allocate(stream_count_);
    int32_t* ends = int_pool_->At(int_start);
    for (uint32_t s = 0; s < stream_count_; ++s) {
      ends[s] = static_cast<int32_t>(byte_start + s * kFirstSliceSize);
    }
    Extra& extra = hash_.extra(id);
    extra.byte_start = byte_start;
    extra.int_start = int_start;
    current_ends_ = ends;
    return {id, true, &extra.state};
  }

  TermsHash* terms_hash_;
  ByteBlockPool* byte_pool_;
  IntBlockPool* int_pool_;
  uint32_t stream_count_;
  Hash hash_;
  int32_t* current_ends_ = nullptr;
};

}  // namespace invert

#endif  // INVERT_INDEX_TERMS_HASH_PER_FIELD_H_

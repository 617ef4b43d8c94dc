// BlockAllocator: hands out the fixed-size 32 KiB blocks that byte-block pools
// and int-block pools are made of, and takes them back.
//
// Several pools share one allocator (a TermsHash's postings pool, its term-byte
// pool and its int pool), so the bytes they hold are counted in one place.
//
// Contract:
//   1. Allocate() returns a block of kBlockSize bytes, 64-byte aligned and
//      zero-filled. Slices rely on fresh bytes being zero (a non-zero byte marks
//      the end of a slice), so a recycled block is zeroed before reuse.
//   2. counter()->bytes() rises by kBlockSize on every Allocate() and falls by
//      kBlockSize for every block handed back with Release(), whether the block
//      is kept on the free list for reuse or returned to the system. A block on
//      the free list is not counted: it is not part of any segment.
//   3. When the allocator is destroyed, the blocks on its free list go to its
//      BlockCache (if any, up to the cache's bound); the rest are freed.
//      Every pool must be destroyed or reset before its allocator.
//   4. With a BlockCache, Allocate() takes a block from the allocator's own
//      free list first, then from the cache, and only then from the system;
//      Release() fills the own free list first, then the cache. A block in
//      the cache is counted by no allocator (contract 2): it is idle, and
//      BlockCache::bytes() says how much is.
//
// Why a cache: an in-memory segment is flushed and a new one started in its
// place, many times per run. Without the cache the new segment's blocks,
// hash tables and per-term records are fresh pages (a page fault and the
// kernel's zeroing per 4 KiB: ~64k faults for a 2M-token uuid segment) while
// the flushed segment's go back to the system; with it, the new segment
// reuses them, as Lucene reuses its heap.
//
// Thread safety: an allocator is used by one thread at a time (one per
// indexing thread); the RamCounter it reports to may be shared. A BlockCache
// is used by the allocators of one thread at a time; only bytes() may be
// read from any thread.
#ifndef INVERT_UTIL_BLOCK_ALLOCATOR_H_
#define INVERT_UTIL_BLOCK_ALLOCATOR_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "util/ram_counter.h"

namespace invert {

// Free blocks kept beyond the life of the allocators that draw on them (e.g.
// one cache per indexing thread); and, under the same bound, large arrays
// (kMinArrayBytes and up: the hash tables and per-term records of big fields,
// util/bytes_ref_hash.h, util/counted_array.h). At most max_blocks() *
// kBlockSize bytes are kept in all. Blocks and arrays are zeroed (where their
// user needs it) when they are taken again, not when they enter the cache.
class BlockCache {
 public:
  // Arrays smaller than this are not kept: malloc reuses their memory well.
  static constexpr size_t kMinArrayBytes = size_t{1} << 20;
  // At most this many arrays are kept.
  static constexpr size_t kMaxArrays = 64;

  // Reserves room for `max_blocks` block pointers and kMaxArrays arrays up
  // front, so that putting memory back never allocates.
  explicit BlockCache(size_t max_blocks);
  ~BlockCache();  // frees what is cached
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  size_t blocks() const { return free_.size(); }
  size_t arrays() const { return arrays_.size(); }
  size_t max_blocks() const { return max_blocks_; }
  // Bytes cached (blocks and arrays); safe to read from any thread.
  int64_t bytes() const { return bytes_.load(std::memory_order_relaxed); }
  // Frees every cached array, and cached blocks until at most `keep` remain.
  void Trim(size_t keep);

  // Arrays are kept by `kind` (hash tables apart from record arrays of each
  // element size), so that one kind does not take the sizes another needs.
  //
  // Returns the smallest cached array of `kind` with min_bytes..max_bytes
  // bytes (not zeroed; allocated with malloc) and sets *bytes to its size, or
  // returns null.
  void* TakeArray(int kind, size_t min_bytes, size_t max_bytes, size_t* bytes);
  // Keeps `array` (from malloc, calloc or realloc; `bytes` bytes), or
  // returns false (keeping nothing) if it is smaller than kMinArrayBytes or
  // does not fit the bound. Never allocates.
  bool PutArray(int kind, void* array, size_t bytes);

 private:
  friend class BlockAllocator;
  struct Array {
    int kind;
    void* data;
    size_t bytes;
  };
  // Returns a cached block (not zeroed), or null if there is none.
  uint8_t* Take();
  // Keeps `block`; returns false (and keeps nothing) if the cache is full.
  bool Put(uint8_t* block);
  bool Fits(size_t bytes) const { return held_ + bytes <= max_bytes_; }
  void Held(int64_t delta);

  size_t max_blocks_;
  size_t max_bytes_;
  size_t held_ = 0;  // bytes of free_ and arrays_
  std::vector<uint8_t*> free_;
  std::vector<Array> arrays_;
  std::atomic<int64_t> bytes_{0};  // held_, for other threads
};

class BlockAllocator {
 public:
  static constexpr int kBlockShift = 15;
  static constexpr size_t kBlockSize = size_t{1} << kBlockShift;  // 32 KiB
  static constexpr size_t kBlockAlignment = 64;                   // one cache line

  // `counter` must outlive the allocator. `max_free_blocks` bounds the free
  // list kept for reuse; 0 disables recycling (released blocks go back to the
  // system at once, or to `cache`). `cache` (may be null) must outlive the
  // allocator; see contract 4.
  explicit BlockAllocator(RamCounter* counter, size_t max_free_blocks = 0,
                          BlockCache* cache = nullptr);
  ~BlockAllocator();
  BlockAllocator(const BlockAllocator&) = delete;
  BlockAllocator& operator=(const BlockAllocator&) = delete;

  // Returns a zero-filled block. Throws std::bad_alloc, like operator new,
  // when the system is out of memory.
  uint8_t* Allocate();

  // Takes back blocks obtained from Allocate(). They are recycled up to
  // max_free_blocks, then kept in the cache up to its bound, the rest are
  // freed. Never allocates, never throws.
  void Release(std::span<uint8_t* const> blocks);

  RamCounter* counter() const { return counter_; }
  BlockCache* cache() const { return cache_; }
  size_t free_blocks() const { return free_.size(); }
  // Blocks handed out and not yet released.
  int64_t live_blocks() const { return live_blocks_; }

 private:
  RamCounter* counter_;
  size_t max_free_blocks_;
  BlockCache* cache_;
  std::vector<uint8_t*> free_;
  int64_t live_blocks_ = 0;
};

}  // namespace invert

#endif  // INVERT_UTIL_BLOCK_ALLOCATOR_H_

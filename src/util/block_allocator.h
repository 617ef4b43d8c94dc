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
//   3. Blocks still on the free list are freed when the allocator is destroyed.
//      Every pool must be destroyed or reset before its allocator.
//
// Thread safety: an allocator is used by one thread at a time (one per
// indexing thread); the RamCounter it reports to may be shared.
#ifndef INVERT_UTIL_BLOCK_ALLOCATOR_H_
#define INVERT_UTIL_BLOCK_ALLOCATOR_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "util/ram_counter.h"

namespace invert {

class BlockAllocator {
 public:
  static constexpr int kBlockShift = 15;
  static constexpr size_t kBlockSize = size_t{1} << kBlockShift;  // 32 KiB
  static constexpr size_t kBlockAlignment = 64;                   // one cache line

  // `counter` must outlive the allocator. `max_free_blocks` bounds the free
  // list kept for reuse; 0 disables recycling (released blocks go back to the
  // system at once).
  explicit BlockAllocator(RamCounter* counter, size_t max_free_blocks = 0);
  ~BlockAllocator();
  BlockAllocator(const BlockAllocator&) = delete;
  BlockAllocator& operator=(const BlockAllocator&) = delete;

  // Returns a zero-filled block. Throws std::bad_alloc, like operator new,
  // when the system is out of memory.
  uint8_t* Allocate();

  // Takes back blocks obtained from Allocate(). They are recycled up to
  // max_free_blocks, the rest are freed. Never allocates, never throws.
  void Release(std::span<uint8_t* const> blocks);

  RamCounter* counter() const { return counter_; }
  size_t free_blocks() const { return free_.size(); }
  // Blocks handed out and not yet released.
  int64_t live_blocks() const { return live_blocks_; }

 private:
  RamCounter* counter_;
  size_t max_free_blocks_;
  std::vector<uint8_t*> free_;
  int64_t live_blocks_ = 0;
};

}  // namespace invert

#endif  // INVERT_UTIL_BLOCK_ALLOCATOR_H_

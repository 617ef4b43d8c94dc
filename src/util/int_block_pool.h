// IntBlockPool: an append-only arena of int32 blocks. TermsHashPerField keeps
// each term's stream end addresses here: streamCount consecutive ints per term.
//
// Layout: blocks of kBlockInts = 8192 ints (32 KiB, so they come from the same
// BlockAllocator as byte blocks and are counted with them). An int address is
// block_index * kBlockInts + offset. A run returned by Allocate() never
// crosses a block boundary.
//
// Thread safety: none; one pool belongs to one indexing thread.
#ifndef INVERT_UTIL_INT_BLOCK_POOL_H_
#define INVERT_UTIL_INT_BLOCK_POOL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "util/block_allocator.h"

namespace invert {

class IntBlockPool {
 public:
  static constexpr int kBlockShift = BlockAllocator::kBlockShift - 2;
  static constexpr uint32_t kBlockInts = uint32_t{1} << kBlockShift;  // 8192
  static constexpr uint32_t kBlockMask = kBlockInts - 1;
  static_assert(kBlockInts * sizeof(int32_t) == BlockAllocator::kBlockSize,
                "an int block is exactly one allocator block");

  explicit IntBlockPool(BlockAllocator* allocator) : allocator_(allocator) {}
  ~IntBlockPool() { Reset(); }
  IntBlockPool(const IntBlockPool&) = delete;
  IntBlockPool& operator=(const IntBlockPool&) = delete;

  // Returns the address of `count` consecutive ints (initially 0).
  // REQUIRES: 0 < count <= kBlockInts.
  uint32_t Allocate(uint32_t count) {
    if (count > kBlockInts - int_upto_) NextBlock();
    uint32_t address = block_start_ + int_upto_;
    int_upto_ += count;
    return address;
  }

  int32_t* At(uint32_t address) const {
    return blocks_[address >> kBlockShift] + (address & kBlockMask);
  }

  // Releases every block to the allocator; with `keep_first` the first block
  // is kept for reuse (its ints are not cleared: a run is always written
  // before it is read).
  void Reset(bool keep_first = false);

  size_t block_count() const { return blocks_.size(); }

 private:
  void NextBlock();

  BlockAllocator* allocator_;
  std::vector<int32_t*> blocks_;
  uint32_t block_start_ = 0;
  uint32_t int_upto_ = kBlockInts;
};

}  // namespace invert

#endif  // INVERT_UTIL_INT_BLOCK_POOL_H_

// ByteBlockPool: an append-only arena of 32 KiB blocks addressed by 32-bit
// offsets. Term bytes and postings slices live here.
//
// Memory layout:
//
//   blocks_[0]        blocks_[1]                 blocks_[n-1] (current)
//   +--------------+  +--------------+    ...    +-----------------------+
//   | 32 KiB       |  | 32 KiB       |           | used  | free (zeros)  |
//   +--------------+  +--------------+           +-----------------------+
//   address = block_index * kBlockSize + offset_in_block      ^ byte_upto_
//
// Invariants:
//   1. An address names one byte: address >> kBlockShift is the block,
//      address & kBlockMask the offset. Addresses only grow: a region allocated
//      later has a larger address than any allocated before it.
//   2. A region returned by Allocate() never crosses a block boundary; when the
//      current block cannot hold it, the rest of that block is left unused.
//   3. Bytes never written are zero (the allocator hands out zeroed blocks and
//      Reset() re-zeroes the block it keeps).
//   4. At most kMaxBlocks blocks (4 GiB): the indexing chain flushes long
//      before. Going past it aborts, since addresses would wrap.
//
// Thread safety: none; one pool belongs to one indexing thread.
#ifndef INVERT_UTIL_BYTE_BLOCK_POOL_H_
#define INVERT_UTIL_BYTE_BLOCK_POOL_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "util/block_allocator.h"

namespace invert {

class ByteBlockPool {
 public:
  static constexpr int kBlockShift = BlockAllocator::kBlockShift;
  static constexpr uint32_t kBlockSize = uint32_t{1} << kBlockShift;
  static constexpr uint32_t kBlockMask = kBlockSize - 1;
  static constexpr size_t kMaxBlocks = size_t{1} << (32 - kBlockShift);

  // `allocator` must outlive the pool.
  explicit ByteBlockPool(BlockAllocator* allocator);
  ~ByteBlockPool();
  ByteBlockPool(const ByteBlockPool&) = delete;
  ByteBlockPool& operator=(const ByteBlockPool&) = delete;

  // Returns the address of `size` contiguous zero bytes inside one block.
  // REQUIRES: 0 < size <= kBlockSize.
  uint32_t Allocate(uint32_t size) {
    if (size > kBlockSize - byte_upto_) NextBlock();
    uint32_t address = block_start_ + byte_upto_;
    byte_upto_ += size;
    return address;
  }

  // Pointer to the byte at `address`. REQUIRES: address was allocated.
  uint8_t* At(uint32_t address) const {
    return blocks_[address >> kBlockShift] + (address & kBlockMask);
  }

  // Copies `length` bytes starting at `address` into `out`; the range may span
  // blocks (bytes written by Append()).
  void ReadBytes(uint32_t address, uint8_t* out, size_t length) const;

  // Appends `bytes` at the end of the pool, spanning blocks if needed, and
  // returns the address of the first byte.
  uint32_t Append(std::string_view bytes);

  // Starts a new block; the rest of the current one stays unused.
  void NextBlock();

  // Releases all blocks to the allocator. With `keep_first`, the first block
  // is zeroed and kept so the pool can be refilled without allocating.
  void Reset(bool keep_first);

  // Bytes used in the current block.
  uint32_t byte_upto() const { return byte_upto_; }
  // Address the next Allocate() of a fitting size returns.
  uint32_t end_address() const { return block_start_ + byte_upto_; }
  size_t block_count() const { return blocks_.size(); }
  BlockAllocator* allocator() const { return allocator_; }

 private:
  BlockAllocator* allocator_;
  std::vector<uint8_t*> blocks_;
  // Address of the current block's first byte.
  uint32_t block_start_ = 0;
  // Offset of the first free byte in the current block. Starts "full" so the
  // first Allocate() takes a block.
  uint32_t byte_upto_ = kBlockSize;
};

}  // namespace invert

#endif  // INVERT_UTIL_BYTE_BLOCK_POOL_H_

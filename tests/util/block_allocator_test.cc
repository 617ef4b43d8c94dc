// Tests of BlockAllocator: zeroed blocks, exact byte accounting, recycling.
#include "util/block_allocator.h"

#include <cstring>
#include <vector>

#include "gtest/gtest.h"

namespace invert {
namespace {

bool AllZero(const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}

TEST(BlockAllocatorTest, BlocksAreZeroedAlignedAndCounted) {
  RamCounter counter;
  BlockAllocator allocator(&counter);
  std::vector<uint8_t*> blocks;
  for (int i = 0; i < 5; ++i) {
    uint8_t* b = allocator.Allocate();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % BlockAllocator::kBlockAlignment, 0u);
    EXPECT_TRUE(AllZero(b, BlockAllocator::kBlockSize));
    blocks.push_back(b);
    EXPECT_EQ(counter.bytes(), static_cast<int64_t>((i + 1) * BlockAllocator::kBlockSize));
  }
  EXPECT_EQ(allocator.live_blocks(), 5);
  allocator.Release(blocks);
  EXPECT_EQ(counter.bytes(), 0);
  EXPECT_EQ(allocator.live_blocks(), 0);
  EXPECT_EQ(allocator.free_blocks(), 0u);  // no recycling by default
}

TEST(BlockAllocatorTest, RecycledBlocksComeBackZeroedAndUncounted) {
  RamCounter counter;
  BlockAllocator allocator(&counter, /*max_free_blocks=*/2);
  std::vector<uint8_t*> blocks = {allocator.Allocate(), allocator.Allocate(), allocator.Allocate()};
  for (uint8_t* b : blocks) std::memset(b, 0xAB, BlockAllocator::kBlockSize);
  allocator.Release(blocks);
  EXPECT_EQ(allocator.free_blocks(), 2u);
  EXPECT_EQ(counter.bytes(), 0);
  uint8_t* again = allocator.Allocate();
  EXPECT_TRUE(again == blocks[0] || again == blocks[1]);
  EXPECT_TRUE(AllZero(again, BlockAllocator::kBlockSize));
  EXPECT_EQ(counter.bytes(), static_cast<int64_t>(BlockAllocator::kBlockSize));
  EXPECT_EQ(allocator.free_blocks(), 1u);
  allocator.Release({&again, 1});
}

TEST(BlockAllocatorTest, AllocatorsShareOneCounter) {
  RamCounter counter;
  BlockAllocator a(&counter);
  BlockAllocator b(&counter);
  uint8_t* x = a.Allocate();
  uint8_t* y = b.Allocate();
  EXPECT_EQ(counter.bytes(), static_cast<int64_t>(2 * BlockAllocator::kBlockSize));
  a.Release({&x, 1});
  b.Release({&y, 1});
  EXPECT_EQ(counter.bytes(), 0);
}

}  // namespace
}  // namespace invert

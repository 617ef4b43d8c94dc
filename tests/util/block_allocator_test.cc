// Tests of BlockAllocator: zeroed blocks, exact byte accounting, recycling;
// and of BlockCache: blocks kept across allocators, within the cache's bound.
#include "util/block_allocator.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "util/counted_array.h"

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

// An allocator's blocks outlive it in the cache, up to the cache's bound; the
// next allocator takes them back zeroed, each counter counting only its own.
TEST(BlockCacheTest, NextAllocatorReusesCachedBlocksZeroed) {
  BlockCache cache(/*max_blocks=*/3);
  std::vector<uint8_t*> first;
  {
    RamCounter counter;
    BlockAllocator allocator(&counter, /*max_free_blocks=*/1, &cache);
    for (int i = 0; i < 5; ++i) first.push_back(allocator.Allocate());
    for (uint8_t* b : first) std::memset(b, 0xCD, BlockAllocator::kBlockSize);
    allocator.Release({first.data(), 2});  // one to its own free list, one to the cache
    EXPECT_EQ(allocator.free_blocks(), 1u);
    EXPECT_EQ(cache.blocks(), 1u);
    EXPECT_EQ(counter.bytes(), static_cast<int64_t>(3 * BlockAllocator::kBlockSize));
    allocator.Release({first.data() + 2, 3});  // two more fit the cache, one is freed
    EXPECT_EQ(cache.blocks(), 3u);
    EXPECT_EQ(counter.bytes(), 0);
    EXPECT_EQ(allocator.live_blocks(), 0);
  }  // the allocator's own free block finds the cache full: freed
  EXPECT_EQ(cache.blocks(), 3u);
  EXPECT_EQ(cache.bytes(), static_cast<int64_t>(3 * BlockAllocator::kBlockSize));

  RamCounter counter;
  BlockAllocator next(&counter, /*max_free_blocks=*/0, &cache);
  std::vector<uint8_t*> live;
  for (int i = 0; i < 4; ++i) {
    uint8_t* b = next.Allocate();
    if (i < 3) {
      EXPECT_NE(std::find(first.begin(), first.end(), b), first.end()) << "block " << i;
      EXPECT_EQ(cache.blocks(), static_cast<size_t>(2 - i));
    }
    EXPECT_TRUE(AllZero(b, BlockAllocator::kBlockSize)) << "block " << i;
    EXPECT_EQ(counter.bytes(), static_cast<int64_t>((i + 1) * BlockAllocator::kBlockSize));
    std::memset(b, 0xEF, BlockAllocator::kBlockSize);
    next.Release({&b, 1});
    EXPECT_EQ(counter.bytes(), static_cast<int64_t>(i * BlockAllocator::kBlockSize));
    // Keep it live again, so that the next Allocate() goes to the cache.
    EXPECT_EQ(next.Allocate(), b);
    EXPECT_TRUE(AllZero(b, BlockAllocator::kBlockSize));
    live.push_back(b);
  }
  EXPECT_EQ(cache.blocks(), 0u);
  EXPECT_EQ(next.live_blocks(), 4);
  next.Release(live);
  EXPECT_EQ(counter.bytes(), 0);
  EXPECT_EQ(cache.blocks(), 3u);
}

TEST(BlockCacheTest, NeverHoldsMoreThanItsBoundAndTrims) {
  BlockCache cache(/*max_blocks=*/4);
  RamCounter counter;
  {
    BlockAllocator allocator(&counter, /*max_free_blocks=*/2, &cache);
    std::vector<uint8_t*> blocks;
    for (int i = 0; i < 10; ++i) blocks.push_back(allocator.Allocate());
    for (uint8_t* b : blocks) {
      allocator.Release({&b, 1});
      EXPECT_LE(cache.blocks(), cache.max_blocks());
    }
    EXPECT_EQ(cache.blocks(), 4u);
    EXPECT_EQ(allocator.free_blocks(), 2u);
  }
  EXPECT_EQ(cache.blocks(), 4u);
  EXPECT_EQ(counter.bytes(), 0);
  cache.Trim(1);
  EXPECT_EQ(cache.blocks(), 1u);
  EXPECT_EQ(cache.bytes(), static_cast<int64_t>(BlockAllocator::kBlockSize));
  BlockCache none(/*max_blocks=*/0);
  BlockAllocator allocator(&counter, /*max_free_blocks=*/0, &none);
  uint8_t* b = allocator.Allocate();
  allocator.Release({&b, 1});
  EXPECT_EQ(none.blocks(), 0u);
  EXPECT_EQ(counter.bytes(), 0);
}

TEST(BlockCacheTest, ArraysAreKeptByKindWithinTheBound) {
  constexpr size_t kMiB = size_t{1} << 20;
  BlockCache cache(/*max_blocks=*/(4 * kMiB) / BlockAllocator::kBlockSize);  // 4 MiB in all
  size_t got = 0;
  EXPECT_EQ(cache.TakeArray(0, kMiB, SIZE_MAX, &got), nullptr);
  void* small = std::malloc(BlockCache::kMinArrayBytes / 2);
  EXPECT_FALSE(cache.PutArray(0, small, BlockCache::kMinArrayBytes / 2)) << "below the minimum";
  std::free(small);
  void* a = std::malloc(kMiB);
  void* b = std::malloc(2 * kMiB);
  void* c = std::malloc(2 * kMiB);
  ASSERT_TRUE(cache.PutArray(0, a, kMiB));
  ASSERT_TRUE(cache.PutArray(8, b, 2 * kMiB));
  EXPECT_FALSE(cache.PutArray(8, c, 2 * kMiB)) << "over the bound";
  std::free(c);
  EXPECT_EQ(cache.bytes(), static_cast<int64_t>(3 * kMiB));
  EXPECT_EQ(cache.arrays(), 2u);
  // One free block still fits the remaining MiB; then the cache is full.
  RamCounter counter;
  {
    BlockAllocator allocator(&counter, /*max_free_blocks=*/0, &cache);
    uint8_t* block = allocator.Allocate();
    allocator.Release({&block, 1});
  }
  EXPECT_EQ(cache.blocks(), 1u);
  EXPECT_EQ(cache.TakeArray(0, 2 * kMiB, SIZE_MAX, &got), nullptr) << "too small";
  EXPECT_EQ(cache.TakeArray(4, kMiB, SIZE_MAX, &got), nullptr) << "no array of that kind";
  EXPECT_EQ(cache.TakeArray(8, kMiB, SIZE_MAX, &got), b);
  EXPECT_EQ(got, 2 * kMiB);
  EXPECT_EQ(cache.TakeArray(0, kMiB, kMiB, &got), a);
  EXPECT_EQ(got, kMiB);
  EXPECT_EQ(cache.bytes(), static_cast<int64_t>(BlockAllocator::kBlockSize));
  ASSERT_TRUE(cache.PutArray(0, a, kMiB));
  ASSERT_TRUE(cache.PutArray(8, b, 2 * kMiB));
  cache.Trim(0);
  EXPECT_EQ(cache.bytes(), 0);
  EXPECT_EQ(cache.arrays(), 0u);
  EXPECT_EQ(cache.blocks(), 0u);
}

// A CountedArray that grows past kMinArrayBytes takes the smallest cached
// array of its element size that holds it, counts all of it, and gives it
// back on Release().
TEST(BlockCacheTest, CountedArrayReusesCachedArrays) {
  constexpr size_t kMiB = size_t{1} << 20;
  BlockCache cache(/*max_blocks=*/(64 * kMiB) / BlockAllocator::kBlockSize);
  RamCounter counter;
  void* big = std::malloc(8 * kMiB);
  void* bigger = std::malloc(16 * kMiB);
  ASSERT_TRUE(cache.PutArray(sizeof(uint64_t), bigger, 16 * kMiB));
  ASSERT_TRUE(cache.PutArray(sizeof(uint64_t), big, 8 * kMiB));
  {
    CountedArray<uint64_t> array(&counter, &cache);
    for (uint64_t i = 0; i < 100000; ++i) array.PushBack(i);  // 800 KB: malloc's
    EXPECT_EQ(cache.arrays(), 2u);
    for (uint64_t i = 100000; i < 200000; ++i) array.PushBack(i);  // past 1 MiB: `big`
    EXPECT_EQ(array.data(), big);
    EXPECT_EQ(array.capacity(), 8 * kMiB / sizeof(uint64_t));
    EXPECT_EQ(counter.bytes(), static_cast<int64_t>(8 * kMiB));
    EXPECT_EQ(cache.arrays(), 1u);
    for (uint64_t i = 0; i < 200000; ++i) ASSERT_EQ(array[i], i);
  }
  EXPECT_EQ(counter.bytes(), 0);
  EXPECT_EQ(cache.arrays(), 2u) << "released back to the cache";
  EXPECT_EQ(cache.bytes(), static_cast<int64_t>(24 * kMiB));
}

}  // namespace
}  // namespace invert

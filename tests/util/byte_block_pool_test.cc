// Tests of ByteBlockPool: allocation inside blocks, spanning appends, resets.
#include "util/byte_block_pool.h"

#include <string>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

TEST(ByteBlockPoolTest, AllocationsNeverCrossBlocksAndOnlyGrow) {
  Random rng(testing::TestSeed(11));
  RamCounter counter;
  BlockAllocator allocator(&counter);
  ByteBlockPool pool(&allocator);
  uint32_t last_end = 0;
  for (int i = 0; i < 20000; ++i) {
    const uint32_t size = static_cast<uint32_t>(rng.Range(1, 300));
    const uint32_t a = pool.Allocate(size);
    EXPECT_GE(a, last_end);
    EXPECT_EQ(a >> ByteBlockPool::kBlockShift, (a + size - 1) >> ByteBlockPool::kBlockShift);
    for (uint32_t j = 0; j < size; ++j) ASSERT_EQ(*pool.At(a + j), 0);
    *pool.At(a) = 1;
    last_end = a + size;
  }
  EXPECT_EQ(counter.bytes(), static_cast<int64_t>(pool.block_count() * ByteBlockPool::kBlockSize));
}

TEST(ByteBlockPoolTest, FullBlockAllocation) {
  RamCounter counter;
  BlockAllocator allocator(&counter);
  ByteBlockPool pool(&allocator);
  pool.Allocate(1);
  const uint32_t a = pool.Allocate(ByteBlockPool::kBlockSize);
  EXPECT_EQ(a, ByteBlockPool::kBlockSize);
  EXPECT_EQ(pool.block_count(), 2u);
}

TEST(ByteBlockPoolTest, AppendSpansBlocksAndReadsBack) {
  Random rng(testing::TestSeed(12));
  RamCounter counter;
  BlockAllocator allocator(&counter);
  ByteBlockPool pool(&allocator);
  std::vector<std::pair<uint32_t, std::string>> written;
  for (int i = 0; i < 200; ++i) {
    std::string s(rng.Range(0, 3 * ByteBlockPool::kBlockSize), '\0');
    for (char& c : s) c = static_cast<char>(rng.Next());
    written.emplace_back(pool.Append(s), s);
  }
  for (const auto& [address, s] : written) {
    std::string back(s.size(), '\0');
    pool.ReadBytes(address, reinterpret_cast<uint8_t*>(back.data()), back.size());
    ASSERT_EQ(back, s);
  }
}

TEST(ByteBlockPoolTest, ResetKeepsFirstBlockZeroedOrReleasesAll) {
  RamCounter counter;
  BlockAllocator allocator(&counter);
  ByteBlockPool pool(&allocator);
  for (int i = 0; i < 5; ++i) *pool.At(pool.Allocate(ByteBlockPool::kBlockSize)) = 7;
  EXPECT_EQ(pool.block_count(), 5u);
  pool.Reset(/*keep_first=*/true);
  EXPECT_EQ(pool.block_count(), 1u);
  EXPECT_EQ(counter.bytes(), static_cast<int64_t>(ByteBlockPool::kBlockSize));
  const uint32_t a = pool.Allocate(ByteBlockPool::kBlockSize);
  EXPECT_EQ(a, 0u);
  for (uint32_t j = 0; j < ByteBlockPool::kBlockSize; ++j) ASSERT_EQ(*pool.At(j), 0);
  pool.Reset(/*keep_first=*/false);
  EXPECT_EQ(pool.block_count(), 0u);
  EXPECT_EQ(counter.bytes(), 0);
  EXPECT_EQ(pool.Allocate(3), 0u);
}

}  // namespace
}  // namespace invert

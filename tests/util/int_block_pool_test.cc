// Tests of IntBlockPool: runs stay inside blocks, values persist, accounting.
#include "util/int_block_pool.h"

#include <vector>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

TEST(IntBlockPoolTest, RunsStayInBlocksAndKeepTheirValues) {
  Random rng(testing::TestSeed(21));
  RamCounter counter;
  BlockAllocator allocator(&counter);
  {
    IntBlockPool pool(&allocator);
    std::vector<std::pair<uint32_t, std::vector<int32_t>>> runs;
    for (int i = 0; i < 50000; ++i) {
      const uint32_t n = static_cast<uint32_t>(rng.Range(1, 7));
      const uint32_t a = pool.Allocate(n);
      ASSERT_EQ(a >> IntBlockPool::kBlockShift, (a + n - 1) >> IntBlockPool::kBlockShift);
      std::vector<int32_t> values(n);
      for (uint32_t j = 0; j < n; ++j) {
        ASSERT_EQ(pool.At(a)[j], 0);
        values[j] = static_cast<int32_t>(rng.Next());
        pool.At(a)[j] = values[j];
      }
      runs.emplace_back(a, values);
    }
    for (const auto& [a, values] : runs) {
      for (size_t j = 0; j < values.size(); ++j) ASSERT_EQ(pool.At(a)[j], values[j]);
    }
    EXPECT_EQ(counter.bytes(),
              static_cast<int64_t>(pool.block_count() * BlockAllocator::kBlockSize));
  }
  EXPECT_EQ(counter.bytes(), 0);
}

}  // namespace
}  // namespace invert

// Tests of HugePageSlabs against a plain model (the set of blocks handed
// out): distinct aligned blocks, zeroed when fresh, contents kept while
// handed out, slabs unmapped when empty (but one spare), safe across threads.
#include "util/huge_page_slabs.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

constexpr size_t kBlock = HugePageSlabs::kBlockSize;

uintptr_t SlabOf(const uint8_t* block) {
  return reinterpret_cast<uintptr_t>(block) >> HugePageSlabs::kSlabShift;
}

bool AllZero(const uint8_t* p) {
  for (size_t i = 0; i < kBlock; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}

// Stamps a block with its own address at both ends, so a block handed out
// twice, or overwritten by a neighbour, shows.
void Stamp(uint8_t* block) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(block);
  std::memcpy(block, &a, sizeof(a));
  std::memcpy(block + kBlock - sizeof(a), &a, sizeof(a));
}

bool Stamped(const uint8_t* block) {
  uintptr_t head = 0, tail = 0;
  std::memcpy(&head, block, sizeof(head));
  std::memcpy(&tail, block + kBlock - sizeof(tail), sizeof(tail));
  return head == reinterpret_cast<uintptr_t>(block) && tail == head;
}

TEST(HugePageSlabsTest, FreshBlocksAreZeroAlignedAndOneSlabHoldsSixtyFour) {
  HugePageSlabs slabs;
  std::vector<uint8_t*> blocks;
  for (int i = 0; i < HugePageSlabs::kBlocksPerSlab; ++i) {
    bool zeroed = false;
    uint8_t* b = slabs.Take(&zeroed);
    ASSERT_NE(b, nullptr);
    EXPECT_TRUE(zeroed);
    EXPECT_TRUE(AllZero(b));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % kBlock, 0u);
    Stamp(b);
    blocks.push_back(b);
  }
  EXPECT_EQ(slabs.mapped_slabs(), 1u);
  EXPECT_EQ(slabs.blocks_in_use(), 64u);
  bool zeroed = false;
  uint8_t* next = slabs.Take(&zeroed);  // the 65th needs a second slab
  EXPECT_EQ(slabs.mapped_slabs(), 2u);
  EXPECT_NE(SlabOf(next), SlabOf(blocks[0]));
  for (uint8_t* b : blocks) EXPECT_TRUE(Stamped(b));
  slabs.Give(next);
  for (uint8_t* b : blocks) slabs.Give(b);
  EXPECT_EQ(slabs.blocks_in_use(), 0u);
  EXPECT_EQ(slabs.mapped_slabs(), 1u);  // the spare
}

TEST(HugePageSlabsTest, AGivenBlockComesBackNotZeroedAndTheSpareIsReused) {
  HugePageSlabs slabs;
  bool zeroed = false;
  uint8_t* b = slabs.Take(&zeroed);
  std::memset(b, 0xAB, kBlock);
  slabs.Give(b);
  EXPECT_EQ(slabs.mapped_slabs(), 1u);  // kept as the spare, not unmapped
  uint8_t* again = slabs.Take(&zeroed);
  EXPECT_EQ(again, b);
  EXPECT_FALSE(zeroed);  // the caller must clear it
  EXPECT_EQ(again[0], 0xAB);
  slabs.Give(again);
}

// Random takes and gives against the model; after every step the slabs
// mapped are exactly the slabs of the blocks handed out, plus at most one.
TEST(HugePageSlabsTest, RandomTakesAndGivesMatchTheModel) {
  Random rng(testing::TestSeed(71));
  HugePageSlabs slabs;
  std::vector<uint8_t*> live;
  std::set<uint8_t*> model;
  for (int step = 0; step < 20000; ++step) {
    const bool take = live.empty() || rng.Uniform(100) < (step < 10000 ? 60u : 40u);
    if (take) {
      bool zeroed = false;
      uint8_t* b = slabs.Take(&zeroed);
      ASSERT_NE(b, nullptr);
      ASSERT_TRUE(model.insert(b).second) << "block handed out twice at step " << step;
      ASSERT_EQ(reinterpret_cast<uintptr_t>(b) % kBlock, 0u);
      if (zeroed) {
        ASSERT_TRUE(AllZero(b)) << "step " << step;
      }
      Stamp(b);
      live.push_back(b);
    } else {
      const size_t i = rng.Uniform(live.size());
      uint8_t* b = live[i];
      ASSERT_TRUE(Stamped(b)) << "block overwritten at step " << step;
      live[i] = live.back();
      live.pop_back();
      model.erase(b);
      slabs.Give(b);
    }
    std::set<uintptr_t> live_slabs;
    for (uint8_t* b : model) live_slabs.insert(SlabOf(b));
    ASSERT_EQ(slabs.blocks_in_use(), model.size());
    ASSERT_GE(slabs.mapped_slabs(), live_slabs.size()) << "step " << step;
    ASSERT_LE(slabs.mapped_slabs(), live_slabs.size() + 1) << "step " << step;
  }
  for (uint8_t* b : live) {
    EXPECT_TRUE(Stamped(b));
    slabs.Give(b);
  }
  EXPECT_LE(slabs.mapped_slabs(), 1u);
}

// Two threads taking and giving at once: each sees only its own blocks
// (TSan checks the locking).
TEST(HugePageSlabsTest, ThreadsShareTheSlabs) {
  HugePageSlabs slabs;
  auto worker = [&slabs](uint64_t seed, bool* ok) {
    Random rng(seed);
    std::vector<uint8_t*> mine;
    for (int step = 0; step < 4000; ++step) {
      if (mine.empty() || rng.Uniform(2) == 0) {
        bool zeroed = false;
        uint8_t* b = slabs.Take(&zeroed);
        if (b == nullptr) return;
        Stamp(b);
        mine.push_back(b);
      } else {
        const size_t i = rng.Uniform(mine.size());
        if (!Stamped(mine[i])) return;
        slabs.Give(mine[i]);
        mine[i] = mine.back();
        mine.pop_back();
      }
    }
    for (uint8_t* b : mine) {
      if (!Stamped(b)) return;
      slabs.Give(b);
    }
    *ok = true;
  };
  const uint64_t seed = testing::TestSeed(72);
  bool ok1 = false, ok2 = false;
  std::thread t1(worker, seed, &ok1);
  std::thread t2(worker, seed + 1, &ok2);
  t1.join();
  t2.join();
  EXPECT_TRUE(ok1);
  EXPECT_TRUE(ok2);
  EXPECT_EQ(slabs.blocks_in_use(), 0u);
  EXPECT_LE(slabs.mapped_slabs(), 1u);
}

// The VmFlags of the mapping holding `address`, from /proc/self/smaps.
std::string VmFlagsOf(uintptr_t address) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2 &&
        line.find(':') > line.find(' ')) {
      inside = lo <= address && address < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

bool KernelHasThp() { return std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good(); }

// Where the kernel has transparent huge pages, slabs and big arrays carry
// the advice ("hg" in VmFlags); elsewhere they are plain mappings.
TEST(HugePageSlabsTest, SlabsAndBigArraysAreAdvisedHuge) {
  const bool thp = KernelHasThp();
  HugePageSlabs slabs;
  bool zeroed = false;
  uint8_t* b = slabs.Take(&zeroed);
  const std::string slab_flags = VmFlagsOf(reinterpret_cast<uintptr_t>(b));
  ASSERT_FALSE(slab_flags.empty());
  EXPECT_EQ(slab_flags.find(" hg") != std::string::npos, thp) << slab_flags;
  slabs.Give(b);

  const size_t bytes = 8 * HugePageSlabs::kSlabSize;
  void* array = std::malloc(bytes);
  ASSERT_NE(array, nullptr);
  HugePageSlabs::AdviseHugePages(array, bytes);
  const uintptr_t inside = (reinterpret_cast<uintptr_t>(array) + HugePageSlabs::kSlabSize) &
                           ~(HugePageSlabs::kSlabSize - 1);
  const std::string array_flags = VmFlagsOf(inside);
  EXPECT_EQ(array_flags.find(" hg") != std::string::npos, thp) << array_flags;
  std::free(array);
}

}  // namespace
}  // namespace invert

// Tests of MsbRadixSort against std::sort on unsigned bytes, on inputs chosen
// to hit every branch: empty keys, 0x00 and 0xFF bytes, long shared prefixes
// (past the prefix-skip cap and the level cap), duplicates, tiny and big ranges.
#include "util/radix_sort.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

bool UnsignedLess(const std::string& a, const std::string& b) { return CompareFrom(a, b, 0) < 0; }

void ExpectSortsLikeStdSort(std::vector<std::string> keys) {
  std::vector<uint32_t> order(keys.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<uint16_t> cache(keys.size());
  MsbRadixSort(order.data(), order.size(), cache.data(),
               [&keys](uint32_t i) { return std::string_view(keys[i]); });
  std::vector<std::string> got;
  for (uint32_t i : order) got.push_back(keys[i]);
  std::sort(keys.begin(), keys.end(), UnsignedLess);
  ASSERT_EQ(got.size(), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(got[i], keys[i]) << "at " << i;
  // The result is a permutation.
  std::sort(order.begin(), order.end());
  for (uint32_t i = 0; i < order.size(); ++i) ASSERT_EQ(order[i], i);
}

std::string RandomBytes(Random& rng, size_t length, int alphabet) {
  std::string s(length, '\0');
  for (char& c : s) {
    // alphabet 2 gives only 0x00/0xFF; 256 gives every byte.
    c = alphabet == 2 ? (rng.Uniform(2) ? '\xFF' : '\0') : static_cast<char>(rng.Uniform(alphabet));
  }
  return s;
}

TEST(RadixSortTest, CompareFromIsUnsigned) {
  EXPECT_LT(CompareFrom("a", "\xFF", 0), 0);
  EXPECT_LT(CompareFrom(std::string("\0", 1), "\x01", 0), 0);
  EXPECT_LT(CompareFrom("ab", "abc", 0), 0);
  EXPECT_EQ(CompareFrom("xab", "yab", 1), 0);
}

TEST(RadixSortTest, EmptyAndTinyInputs) {
  ExpectSortsLikeStdSort({});
  ExpectSortsLikeStdSort({""});
  ExpectSortsLikeStdSort({"b", "", "a"});
}

TEST(RadixSortTest, ExtremeBytesAndEmptyKeys) {
  Random rng(testing::TestSeed(31));
  std::vector<std::string> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back(RandomBytes(rng, rng.Uniform(6), 2));
  for (int i = 0; i < 100; ++i) keys.push_back("");
  ExpectSortsLikeStdSort(keys);
}

TEST(RadixSortTest, LongSharedPrefixes) {
  Random rng(testing::TestSeed(32));
  std::vector<std::string> keys;
  const std::string p30(30, 'p');       // longer than the prefix-skip cap
  const std::string p100(100, '\xFF');  // deeper than the level cap
  for (int i = 0; i < 3000; ++i) {
    const uint64_t kind = rng.Uniform(4);
    std::string s = kind == 0 ? p30 : kind == 1 ? p100 : kind == 2 ? p30 + p100 : "";
    s += RandomBytes(rng, rng.Uniform(12), rng.Uniform(2) ? 4 : 256);
    keys.push_back(s);
  }
  ExpectSortsLikeStdSort(keys);
}

TEST(RadixSortTest, ManyDuplicates) {
  Random rng(testing::TestSeed(33));
  std::vector<std::string> keys;
  for (int i = 0; i < 20000; ++i) keys.push_back(std::to_string(rng.Uniform(50)));
  ExpectSortsLikeStdSort(keys);
}

TEST(RadixSortTest, MaxLengthKeys) {
  Random rng(testing::TestSeed(34));
  std::vector<std::string> keys;
  const std::string base(32766, 'm');
  for (int i = 0; i < 200; ++i) {
    std::string s = base;
    s[rng.Uniform(s.size())] = static_cast<char>(rng.Uniform(256));
    keys.push_back(s);
  }
  keys.push_back(base);
  ExpectSortsLikeStdSort(keys);
}

TEST(RadixSortTest, MillionRandomTerms) {
  Random rng(testing::TestSeed(35));
  std::vector<std::string> keys;
  keys.reserve(1000000);
  for (int i = 0; i < 1000000; ++i) keys.push_back(RandomBytes(rng, rng.Range(0, 20), 256));
  ExpectSortsLikeStdSort(std::move(keys));
}

}  // namespace
}  // namespace invert

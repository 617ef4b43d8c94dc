// Tests of the VInt encoding: edge values round-trip with the expected sizes;
// truncated and over-long encodings are rejected.
#include "util/varint.h"

#include <vector>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

TEST(VarintTest, EdgeValuesRoundTrip) {
  const std::vector<std::pair<uint64_t, size_t>> cases = {{0, 1},
                                                          {1, 1},
                                                          {127, 1},
                                                          {128, 2},
                                                          {16383, 2},
                                                          {16384, 3},
                                                          {(1u << 21) - 1, 3},
                                                          {1u << 21, 4},
                                                          {(1u << 28) - 1, 4},
                                                          {1u << 28, 5},
                                                          {0xFFFFFFFFull, 5},
                                                          {1ull << 35, 6},
                                                          {~0ull, 10}};
  for (const auto& [value, size] : cases) {
    uint8_t buf[kMaxVInt64Bytes];
    ASSERT_EQ(EncodeVInt(value, buf), size) << value;
    EXPECT_EQ(VIntSize(value), size);
    const uint8_t* p = buf;
    uint64_t back = 0;
    ASSERT_TRUE(DecodeVInt64(&p, buf + size, &back));
    EXPECT_EQ(back, value);
    EXPECT_EQ(p, buf + size);
    if (value <= 0xFFFFFFFFull) {
      p = buf;
      uint32_t back32 = 0;
      ASSERT_TRUE(DecodeVInt32(&p, buf + size, &back32));
      EXPECT_EQ(back32, value);
    }
    // Every truncation fails.
    for (size_t cut = 0; cut < size; ++cut) {
      p = buf;
      EXPECT_FALSE(DecodeVInt64(&p, buf + cut, &back));
    }
  }
}

TEST(VarintTest, OverlongEncodingsAreRejected) {
  const uint8_t six[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
  const uint8_t* p = six;
  uint32_t v32;
  EXPECT_FALSE(DecodeVInt32(&p, six + sizeof(six), &v32));
  const uint8_t big5[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x1F};  // > 32 bits
  p = big5;
  EXPECT_FALSE(DecodeVInt32(&p, big5 + sizeof(big5), &v32));
  const uint8_t eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
  p = eleven;
  uint64_t v64;
  EXPECT_FALSE(DecodeVInt64(&p, eleven + sizeof(eleven), &v64));
}

TEST(VarintTest, RandomValuesRoundTrip) {
  Random rng(testing::TestSeed(5));
  std::vector<uint8_t> buf;
  std::vector<uint64_t> values;
  for (int i = 0; i < 100000; ++i) {
    const uint64_t v = rng.Next() >> rng.Uniform(64);
    values.push_back(v);
    uint8_t tmp[kMaxVInt64Bytes];
    buf.insert(buf.end(), tmp, tmp + EncodeVInt(v, tmp));
  }
  const uint8_t* p = buf.data();
  for (uint64_t v : values) {
    uint64_t back = 0;
    ASSERT_TRUE(DecodeVInt64(&p, buf.data() + buf.size(), &back));
    ASSERT_EQ(back, v);
  }
  EXPECT_EQ(p, buf.data() + buf.size());
}

}  // namespace
}  // namespace invert

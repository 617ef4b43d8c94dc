// Tests of the VInt encoding: edge values round-trip with the expected sizes;
// truncated and over-long encodings are rejected; the decoders (checked and
// unchecked) agree with a plain reference decoder on random bytes.
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

// The decoders against a plain one written from the encoding's definition
// (byte i holds bits 7i..7i+6; the last byte a type allows carries only the
// bits left), on random byte strings of random lengths: mostly
// continuation bytes, so every length, truncation and over-long case comes
// up, at the end of the input and away from it.
bool ReferenceDecode(const uint8_t* p, const uint8_t* end, size_t max_bytes, uint8_t last_max,
                     uint64_t* value, size_t* used) {
  uint64_t result = 0;
  for (size_t i = 0; i < max_bytes; ++i) {
    if (p + i == end) return false;
    const uint8_t byte = p[i];
    if (i + 1 == max_bytes && byte > last_max) return false;
    result |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
    if ((byte & 0x80) == 0) {
      *value = result;
      *used = i + 1;
      return true;
    }
  }
  return false;
}

TEST(VarintTest, DecodersMatchAReferenceOnRandomBytes) {
  Random rng(testing::TestSeed(21));
  int accepted = 0;
  int rejected = 0;
  for (int round = 0; round < 200000; ++round) {
    std::vector<uint8_t> buf(rng.Uniform(16));
    for (uint8_t& b : buf) {
      const uint32_t kind = rng.Uniform(8);
      b = static_cast<uint8_t>(kind < 5   ? 0x80 | rng.Uniform(128)
                               : kind < 7 ? rng.Uniform(128)
                                          : rng.Uniform(256));
    }
    const uint8_t* begin = buf.data();
    const uint8_t* end = begin + buf.size();
    uint64_t want = 0;
    size_t used = 0;

    const uint8_t* p = begin;
    uint64_t got64 = 0;
    const bool ok64 = DecodeVInt64(&p, end, &got64);
    ASSERT_EQ(ok64, ReferenceDecode(begin, end, kMaxVInt64Bytes, 0x01, &want, &used))
        << "round " << round;
    if (ok64) {
      ASSERT_EQ(got64, want) << "round " << round;
      ASSERT_EQ(p, begin + used) << "round " << round;
    }

    p = begin;
    uint32_t got32 = 0;
    const bool ok32 = DecodeVInt32(&p, end, &got32);
    ASSERT_EQ(ok32, ReferenceDecode(begin, end, kMaxVInt32Bytes, 0x0f, &want, &used))
        << "round " << round;
    if (ok32) {
      ASSERT_EQ(got32, want) << "round " << round;
      ASSERT_EQ(p, begin + used) << "round " << round;
    }
    (ok32 ? accepted : rejected) += 1;

    // The unchecked decoders, on the same bytes padded to their maximum
    // length with bytes that are not part of the value the reference read
    // (where the reference ran out of input, the padding decides: read
    // again with the padded end).
    std::vector<uint8_t> padded(buf);
    padded.resize(buf.size() + kMaxVInt64Bytes);
    for (size_t pad = buf.size(); pad < padded.size(); ++pad) {
      padded[pad] = static_cast<uint8_t>(rng.Uniform(256));
    }
    const uint8_t* padded_end = padded.data() + padded.size();
    const auto check_unchecked = [&](auto got, size_t max_bytes, uint8_t last_max) {
      const uint8_t* q = padded.data();
      const bool ok = DecodeVIntUnchecked(&q, &got);
      ASSERT_EQ(ok, ReferenceDecode(padded.data(), padded_end, max_bytes, last_max, &want, &used))
          << "round " << round << ", " << max_bytes << "-byte maximum";
      if (ok) {
        ASSERT_EQ(got, want) << "round " << round;
        ASSERT_EQ(q, padded.data() + used) << "round " << round;
      }
    };
    check_unchecked(uint64_t{0}, kMaxVInt64Bytes, 0x01);
    check_unchecked(uint32_t{0}, kMaxVInt32Bytes, 0x0f);
  }
  // Both outcomes came up often (else the strings tested little).
  EXPECT_GT(accepted, 20000);
  EXPECT_GT(rejected, 20000);
}

}  // namespace
}  // namespace invert

// Norm encoding (codec/norm_encoding.h): version 2 must give Lucene 8.8's
// SmallFloat.intToByte4 byte for every length and decode as byte4ToInt.
// Checked against two references written here from the definition: a
// literal one (subnormal bytes below 24, then a float with an implicit
// leading bit, a 3-bit mantissa and the exponent + 1 above it) and a
// characterization (the byte is the largest whose decoded length does not
// exceed the length). Dense over [0, 2^22), at every power of two +-2, and
// at random lengths up to 2^31 - 1 (fixed printed seed). Version 1 bytes
// translate to the version-2 byte of their decoded length.
#include "codec/norm_encoding.h"

#include <array>
#include <cstdint>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

// SmallFloat.byte4ToInt, from its definition.
uint64_t ReferenceDecode(uint8_t byte) {
  const uint32_t free_values = 24;  // 255 - code of 2^31 - 1 (= 231)
  if (byte < free_values) return byte;
  const uint32_t code = byte - free_values;
  const uint32_t exponent_plus_one = code / 8;
  const uint32_t mantissa = code % 8;
  if (exponent_plus_one == 0) return free_values + mantissa;  // subnormal
  return free_values + (uint64_t{8 + mantissa} << (exponent_plus_one - 1));
}

// SmallFloat.intToByte4, from its definition: length < 2^31.
uint8_t ReferenceEncode(uint64_t length) {
  const uint32_t free_values = 24;
  if (length < free_values) return static_cast<uint8_t>(length);
  const uint64_t x = length - free_values;
  int bits = 0;
  while ((x >> bits) != 0) ++bits;
  if (bits < 4) return static_cast<uint8_t>(free_values + x);
  const int shift = bits - 4;
  const uint64_t top4 = x >> shift;  // 8..15: the implicit bit and 3 bits
  return static_cast<uint8_t>(free_values + ((shift + 1) * 8 + (top4 - 8)));
}

// The table of ReferenceDecode and the largest byte not above `length`.
const std::array<uint64_t, 256>& Table() {
  static const std::array<uint64_t, 256> table = [] {
    std::array<uint64_t, 256> t{};
    for (int b = 0; b < 256; ++b) t[b] = ReferenceDecode(static_cast<uint8_t>(b));
    return t;
  }();
  return table;
}
uint8_t FloorByte(uint64_t length) {
  int b = 255;
  while (Table()[b] > length) --b;
  return static_cast<uint8_t>(b);
}

void CheckLength(uint64_t length) {
  const uint8_t byte = EncodeNorm(length);
  ASSERT_EQ(byte, ReferenceEncode(length)) << "length " << length;
  ASSERT_EQ(byte, FloorByte(length)) << "length " << length;
  ASSERT_LE(DecodeNorm(byte), length) << "length " << length;
  ASSERT_GT(DecodeNorm(byte) * 9.0, length * 8.0 - 1e-9) << "length " << length;
}

TEST(NormEncodingTest, DecodeIsLuceneByte4ToInt) {
  for (int b = 0; b < 256; ++b) {
    const uint8_t byte = static_cast<uint8_t>(b);
    EXPECT_EQ(DecodeNorm(byte), ReferenceDecode(byte)) << "byte " << b;
    EXPECT_EQ(EncodeNorm(DecodeNorm(byte)), byte) << "byte " << b;
    if (b > 0) {
      EXPECT_GT(DecodeNorm(byte), DecodeNorm(static_cast<uint8_t>(b - 1)));
    }
  }
  // Values of Lucene's own table (byte4ToInt, printed by LuceneBm25 norms).
  EXPECT_EQ(DecodeNorm(23), 23u);
  EXPECT_EQ(DecodeNorm(24), 24u);
  EXPECT_EQ(DecodeNorm(40), 40u);
  EXPECT_EQ(DecodeNorm(41), 42u);
  EXPECT_EQ(DecodeNorm(42), 44u);
  EXPECT_EQ(DecodeNorm(100), 3096u);
  EXPECT_EQ(DecodeNorm(255), 2013265944u);
}

TEST(NormEncodingTest, EveryLengthOfADenseRangeIsLucenes) {
  uint8_t last = 0;
  for (uint64_t length = 0; length < (uint64_t{1} << 22); ++length) {
    const uint8_t byte = EncodeNorm(length);
    ASSERT_GE(byte, last) << "length " << length;
    last = byte;
    if (length < 4096 || length % 97 == 0) CheckLength(length);
    ASSERT_EQ(byte, ReferenceEncode(length)) << "length " << length;
  }
}

TEST(NormEncodingTest, PowersOfTwoAndRandomLargeLengths) {
  for (int k = 0; k <= 31; ++k) {
    for (int64_t d = -2; d <= 2; ++d) {
      const int64_t length = (int64_t{1} << k) + d;
      if (length >= 0 && length <= int64_t{kNormMaxLength}) CheckLength(length);
    }
    for (int64_t d = -2; d <= 2; ++d) {  // around each byte boundary above 24
      const int64_t length = 24 + (int64_t{1} << k) + d;
      if (length >= 0 && length <= int64_t{kNormMaxLength}) CheckLength(length);
    }
  }
  const uint64_t seed = testing::TestSeed(0x6e6f726d);
  Random rng(seed);
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  uint8_t last_byte = 0;
  uint64_t last_length = 0;
  for (int i = 0; i < 1000000; ++i) {
    // Log-uniform-ish: every magnitude up to 2^31 - 1 about equally often.
    const uint64_t length = (rng.Next() >> (rng.Next() % 64)) % (kNormMaxLength + 1);
    CheckLength(length);
    // Monotonic: order the byte as its length orders.
    const uint8_t byte = EncodeNorm(length);
    if (length >= last_length) {
      ASSERT_GE(byte, last_byte);
    } else {
      ASSERT_LE(byte, last_byte);
    }
    last_byte = byte;
    last_length = length;
  }
  EXPECT_EQ(EncodeNorm(kNormMaxLength), 255);
  EXPECT_EQ(EncodeNorm(kNormMaxLength - 1), 255);
  EXPECT_EQ(EncodeNorm(uint64_t{1} << 31), 255);  // Lucene's lengths are ints
  EXPECT_EQ(EncodeNorm(UINT64_MAX), 255);
}

TEST(NormEncodingTest, VersionOneBytesTranslateThroughTheirLength) {
  for (int b = 0; b < 256; ++b) {
    const uint8_t v1 = static_cast<uint8_t>(b);
    EXPECT_EQ(EncodeNormV1(DecodeNormV1(v1)), v1);
    EXPECT_EQ(TranslateNormV1(v1), EncodeNorm(DecodeNormV1(v1)));
    // The translated length is the version-1 one, rounded down once more.
    EXPECT_LE(DecodeNorm(TranslateNormV1(v1)), DecodeNormV1(v1));
    if (b > 0) {
      EXPECT_GE(TranslateNormV1(v1), TranslateNormV1(static_cast<uint8_t>(b - 1)));
    }
  }
  // Lengths both versions hold exactly translate to the fresh byte.
  for (uint64_t length = 0; length < (uint64_t{1} << 20); ++length) {
    const uint8_t v1 = EncodeNormV1(length);
    if (DecodeNormV1(v1) == length) {
      ASSERT_EQ(TranslateNormV1(v1), EncodeNorm(length));
    }
  }
}

}  // namespace
}  // namespace invert

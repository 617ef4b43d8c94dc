// Tests of the frame-of-reference block codec against a naive bit-by-bit
// reference written from the spec (docs/codec-primitives.md section 1): exact
// bytes for every bit width 0..32, with and without a base, random blocks,
// golden bytes, and truncated / random input to the decoders.
#include "codec/for_block.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"
#include "util/varint.h"

namespace invert {
namespace {

using Block = std::array<uint32_t, kForBlockSize>;

// The spec, one bit at a time.
std::string ReferenceEncode(const Block& values) {
  const uint32_t min = *std::min_element(values.begin(), values.end());
  const uint32_t max = *std::max_element(values.begin(), values.end());
  int bpv = BitsRequired(max);
  uint32_t base = 0;
  std::string out;
  if (BitsRequired(max - min) < bpv) {
    bpv = BitsRequired(max - min);
    base = min;
    out.push_back(static_cast<char>(0x80 | bpv));
    uint8_t buf[kMaxVInt32Bytes];
    out.append(reinterpret_cast<char*>(buf), EncodeVInt(base, buf));
  } else {
    out.push_back(static_cast<char>(bpv));
  }
  std::string packed(16 * bpv, '\0');
  for (size_t i = 0; i < kForBlockSize; ++i) {
    const uint32_t v = values[i] - base;
    const size_t lane = i % 4;
    const size_t j = i / 4;
    for (int t = 0; t < bpv; ++t) {
      if (((v >> t) & 1) == 0) continue;
      const size_t stream_bit = j * bpv + t;
      const size_t word = 4 * (stream_bit / 32) + lane;
      const size_t bit_in_word = stream_bit % 32;
      packed[4 * word + bit_in_word / 8] |= static_cast<char>(1 << (bit_in_word % 8));
    }
  }
  return out + packed;
}

// Values < 2^bits, with the extremes 0 and 2^bits - 1 present.
Block RandomBlock(Random& rng, int bits, uint32_t base = 0) {
  Block block;
  const uint64_t limit = uint64_t{1} << bits;
  for (uint32_t& v : block) v = base + static_cast<uint32_t>(rng.Uniform(limit));
  if (bits > 0) {
    const size_t lo = rng.Uniform(kForBlockSize);
    const size_t hi = (lo + 1 + rng.Uniform(kForBlockSize - 1)) % kForBlockSize;
    block[lo] = base;
    block[hi] = base + static_cast<uint32_t>(limit - 1);
  }
  return block;
}

// Decodes from a heap copy of exactly `bytes`, so ASan sees any overread.
bool DecodeExact(const std::string& bytes, Block* values, size_t* consumed) {
  std::vector<uint8_t> copy(bytes.begin(), bytes.end());
  const uint8_t* p = copy.data();
  const bool ok = DecodeForBlock(&p, copy.data() + copy.size(), *values);
  *consumed = static_cast<size_t>(p - copy.data());
  return ok;
}

void ExpectRoundTrip(const Block& block) {
  std::string encoded;
  EncodeForBlock(block, &encoded);
  ASSERT_EQ(encoded, ReferenceEncode(block));
  Block decoded{};
  size_t consumed = 0;
  ASSERT_TRUE(DecodeExact(encoded, &decoded, &consumed));
  EXPECT_EQ(consumed, encoded.size());
  ASSERT_EQ(decoded, block);
  const uint8_t* p = reinterpret_cast<const uint8_t*>(encoded.data());
  ASSERT_TRUE(SkipForBlock(&p, p + encoded.size()));
  EXPECT_EQ(p, reinterpret_cast<const uint8_t*>(encoded.data()) + encoded.size());
}

TEST(ForBlockTest, EveryBitWidthMatchesReference) {
  Random rng(testing::TestSeed(101));
  for (int bits = 0; bits <= 32; ++bits) {
    for (int round = 0; round < 20; ++round) {
      const Block block = RandomBlock(rng, bits);
      ExpectRoundTrip(block);
      std::string encoded;
      EncodeForBlock(block, &encoded);
      ASSERT_EQ(encoded.size(), 1 + 16 * static_cast<size_t>(bits)) << bits;
      ASSERT_EQ(static_cast<uint8_t>(encoded[0]), bits);
    }
  }
}

TEST(ForBlockTest, EveryBitWidthWithBase) {
  Random rng(testing::TestSeed(102));
  for (int bits = 0; bits < 32; ++bits) {
    for (int round = 0; round < 20; ++round) {
      const uint32_t max_base = ~uint32_t{0} - ((uint32_t{1} << bits) - 1);
      // Any base >= 1 pushes max past 2^bits - 1, so the base is stored.
      const uint32_t base =
          static_cast<uint32_t>(rng.Bernoulli(0.5) ? rng.Range(1, 1000) : rng.Range(1, max_base));
      const Block block = RandomBlock(rng, bits, base);
      ExpectRoundTrip(block);
      std::string encoded;
      EncodeForBlock(block, &encoded);
      ASSERT_EQ(static_cast<uint8_t>(encoded[0]), 0x80 | bits) << bits << " base " << base;
      ASSERT_EQ(encoded.size(), 1 + VIntSize(base) + 16 * static_cast<size_t>(bits));
    }
  }
}

TEST(ForBlockTest, RandomDistributionsRoundTrip) {
  Random rng(testing::TestSeed(103));
  std::string stream;
  std::vector<Block> blocks;
  for (int round = 0; round < 2000; ++round) {
    Block block;
    const uint64_t kind = rng.Uniform(4);
    for (uint32_t& v : block) {
      switch (kind) {
        case 0:  // doc deltas: mostly small, a few large gaps
          v = rng.Bernoulli(0.05) ? static_cast<uint32_t>(rng.Uniform(1 << 20)) + 1
                                  : static_cast<uint32_t>(rng.Uniform(8)) + 1;
          break;
        case 1:  // freqs, often all 1
          v = rng.Bernoulli(0.9) ? 1 : static_cast<uint32_t>(rng.Uniform(30)) + 1;
          break;
        case 2:  // anything
          v = static_cast<uint32_t>(rng.Next() >> rng.Uniform(33));
          break;
        default:  // clustered around a large value
          v = 3'000'000'000u + static_cast<uint32_t>(rng.Uniform(1000));
          break;
      }
    }
    ExpectRoundTrip(block);
    EncodeForBlock(block, &stream);
    blocks.push_back(block);
  }
  // Blocks concatenate: each decode stops exactly at the next block.
  const uint8_t* p = reinterpret_cast<const uint8_t*>(stream.data());
  const uint8_t* end = p + stream.size();
  for (const Block& expected : blocks) {
    Block decoded;
    ASSERT_TRUE(DecodeForBlock(&p, end, decoded));
    ASSERT_EQ(decoded, expected);
  }
  EXPECT_EQ(p, end);
}

TEST(ForBlockTest, ConstantBlocks) {
  Block zeros{};
  std::string encoded;
  EncodeForBlock(zeros, &encoded);
  EXPECT_EQ(encoded, std::string(1, '\0'));
  ExpectRoundTrip(zeros);
  for (uint32_t v : {1u, 127u, 128u, 0xffffffffu}) {
    Block same;
    same.fill(v);
    encoded.clear();
    EncodeForBlock(same, &encoded);
    ASSERT_EQ(static_cast<uint8_t>(encoded[0]), 0x80);
    ASSERT_EQ(encoded.size(), 1 + VIntSize(v));
    ExpectRoundTrip(same);
  }
}

// The worked example of docs/codec-primitives.md.
TEST(ForBlockTest, GoldenBytes) {
  Block block;
  for (size_t i = 0; i < kForBlockSize; ++i) block[i] = 100 + static_cast<uint32_t>(i % 4) * 2;
  block[5] = 107;
  std::string encoded;
  EncodeForBlock(block, &encoded);
  // min 100, max 107: 7 needs 3 bits < 7 bits of 107, so base 100, bpv 3.
  ASSERT_EQ(encoded.size(), 1 + 1 + 48u);
  EXPECT_EQ(static_cast<uint8_t>(encoded[0]), 0x83);
  EXPECT_EQ(static_cast<uint8_t>(encoded[1]), 100);
  // Lane l holds value i = 4j + l at bits [3j, 3j + 3) of its words. Lane 0:
  // all 0. Lane 1: value 2 everywhere except j = 1 (i = 5), which is 7.
  const auto word = [&](int k, int lane) {
    uint32_t w;
    std::memcpy(&w, encoded.data() + 2 + 4 * (4 * k + lane), 4);
    return w;
  };
  // Lane 0 is all 0; lane 1 holds 2 except 7 at j = 1 (i = 5); lanes 2 and 3
  // hold 4 and 6. Value j of a lane sits at bits [3j, 3j + 3) of its stream.
  const uint32_t expected[3][4] = {{0, 0x924924ba, 0x24924924, 0xb6db6db6},
                                   {0, 0x24924924, 0x49249249, 0x6db6db6d},
                                   {0, 0x49249249, 0x92492492, 0xdb6db6db}};
  for (int k = 0; k < 3; ++k) {
    for (int lane = 0; lane < 4; ++lane) EXPECT_EQ(word(k, lane), expected[k][lane]) << k << lane;
  }
}

TEST(ForBlockTest, TruncatedBlocksFail) {
  Random rng(testing::TestSeed(104));
  for (int bits = 0; bits <= 32; ++bits) {
    for (uint32_t base : {0u, 1000u}) {
      const Block block = RandomBlock(rng, bits == 32 && base != 0 ? 31 : bits, base);
      std::string encoded;
      EncodeForBlock(block, &encoded);
      for (size_t length = 0; length < encoded.size(); ++length) {
        Block decoded;
        size_t consumed;
        ASSERT_FALSE(DecodeExact(encoded.substr(0, length), &decoded, &consumed))
            << bits << " " << length;
        std::vector<uint8_t> copy(encoded.begin(), encoded.begin() + length);
        const uint8_t* p = copy.data();
        ASSERT_FALSE(SkipForBlock(&p, copy.data() + copy.size()));
      }
    }
  }
}

TEST(ForBlockTest, BadHeadersFail) {
  std::string bytes(kMaxForBlockBytes + 8, '\0');
  for (int header = 0; header < 256; ++header) {
    bytes[0] = static_cast<char>(header);
    Block decoded;
    size_t consumed;
    const int bpv = header & 0x3f;
    const bool valid = bpv <= 32 && (header & 0x40) == 0;
    EXPECT_EQ(DecodeExact(bytes, &decoded, &consumed), valid) << header;
    if (valid) {
      EXPECT_EQ(consumed, 1 + ((header & 0x80) ? 1 : 0) + 16 * static_cast<size_t>(bpv));
    }
  }
  // A base VInt that overflows 32 bits.
  const std::string overlong = std::string("\x80\xff\xff\xff\xff\x1f", 6);
  Block decoded;
  size_t consumed;
  EXPECT_FALSE(DecodeExact(overlong, &decoded, &consumed));
}

TEST(ForBlockTest, RandomBytesNeverOverread) {
  Random rng(testing::TestSeed(105));
  for (int round = 0; round < 20000; ++round) {
    std::string bytes(rng.Uniform(kMaxForBlockBytes + 16), '\0');
    for (char& c : bytes) c = static_cast<char>(rng.Uniform(256));
    if (!bytes.empty() && rng.Bernoulli(0.7)) bytes[0] = static_cast<char>(rng.Uniform(33));
    Block decoded;
    size_t consumed;
    if (DecodeExact(bytes, &decoded, &consumed)) {
      const uint8_t header = static_cast<uint8_t>(bytes[0]);
      ASSERT_LE(consumed, bytes.size());
      ASSERT_GE(consumed, 1 + 16 * static_cast<size_t>(header & 0x3f));
    }
  }
}

TEST(ForBlockTest, VIntTailRoundTripsAndRejectsTruncation) {
  Random rng(testing::TestSeed(106));
  for (size_t n = 0; n < kForBlockSize; ++n) {
    std::vector<uint32_t> values(n);
    for (uint32_t& v : values) v = static_cast<uint32_t>(rng.Next() >> rng.Uniform(33));
    std::string encoded;
    EncodeVIntTail(values, &encoded);
    size_t expected_size = 0;
    for (uint32_t v : values) expected_size += VIntSize(v);
    ASSERT_EQ(encoded.size(), expected_size);
    std::vector<uint8_t> copy(encoded.begin(), encoded.end());
    std::vector<uint32_t> decoded(n);
    const uint8_t* p = copy.data();
    ASSERT_TRUE(DecodeVIntTail(&p, copy.data() + copy.size(), decoded));
    EXPECT_EQ(p, copy.data() + copy.size());
    ASSERT_EQ(decoded, values);
    if (n > 0) {
      const size_t cut = rng.Uniform(copy.size());
      std::vector<uint8_t> truncated(copy.begin(), copy.begin() + cut);
      p = truncated.data();
      EXPECT_FALSE(DecodeVIntTail(&p, truncated.data() + truncated.size(), decoded));
    }
  }
  // Over-long VInt (6 bytes) is rejected.
  const uint8_t overlong[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
  uint32_t value;
  const uint8_t* p = overlong;
  EXPECT_FALSE(DecodeVIntTail(&p, overlong + sizeof(overlong), std::span<uint32_t>(&value, 1)));
}

TEST(ForBlockTest, InternalPackersMatchReferenceLayout) {
  Random rng(testing::TestSeed(107));
  for (int bits = 1; bits <= 32; ++bits) {
    Block block = RandomBlock(rng, bits);
    std::vector<uint8_t> packed(16 * bits + 16, 0xAB);
    internal::PackLanes(bits, block.data(), packed.data());
    EXPECT_EQ(packed[16 * bits], 0xAB) << "packer wrote past its 16 * bpv bytes";
    const std::string reference = ReferenceEncode(block);
    ASSERT_EQ(std::memcmp(packed.data(), reference.data() + 1, 16 * bits), 0) << bits;
    Block unpacked;
    internal::UnpackLanes(bits, packed.data(), unpacked.data());
    ASSERT_EQ(unpacked, block);
  }
}

// Whether this CPU runs the AVX2 decoders (the library asks the same).
bool CpuHasAvx2ForTest() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

// The AVX2 unpackers (what DecodeForBlock runs where the CPU has AVX2)
// against the values packed, for every bit width, with and without a base,
// from a heap copy of exactly 16 * bpv bytes (ASan sees any read past the
// rows a value needs). Where the CPU has no AVX2 they report so and write
// nothing.
TEST(ForBlockTest, Avx2UnpackersMatchThePackedValues) {
  Random rng(testing::TestSeed(109));
  const bool avx2 = CpuHasAvx2ForTest();
  std::printf("[ CPU      ] AVX2 %s\n", avx2 ? "yes: its unpackers checked" : "no");
  for (int round = 0; round < 20; ++round) {
    for (int bits = 0; bits <= 32; ++bits) {
      const Block block = RandomBlock(rng, bits);
      std::vector<uint8_t> packed(16 * bits);
      if (bits > 0) internal::PackLanes(bits, block.data(), packed.data());
      const uint32_t base = round % 2 == 0 ? 0 : static_cast<uint32_t>(rng.Next());
      Block unpacked;
      unpacked.fill(0xdeadbeef);
      ASSERT_EQ(internal::UnpackLanesAvx2(bits, packed.data(), unpacked.data(), base), avx2);
      if (!avx2) {
        for (uint32_t v : unpacked) ASSERT_EQ(v, 0xdeadbeefU);
        continue;
      }
      for (size_t i = 0; i < kForBlockSize; ++i) {
        ASSERT_EQ(unpacked[i], block[i] + base) << "bits " << bits << ", value " << i;
      }
    }
  }
}

// A block for the decoders' tests: `bits` bits per value, with a frame
// base in odd rounds (values from 0 to 2^32 - 1, so sums wrap and zeros
// show in ORs); its encoding as a heap copy of exactly its bytes, and its
// packed lanes with the frame base the encoder stored.
struct DecoderCase {
  Block block;
  std::vector<uint8_t> encoded;
  std::vector<uint8_t> packed;
  uint32_t stored_frame = 0;
};
DecoderCase MakeDecoderCase(Random& rng, int bits, int round) {
  DecoderCase c;
  const uint32_t frame = round % 2 == 0 || bits == 32
                             ? 0
                             : static_cast<uint32_t>(rng.Uniform(uint64_t{1} << (32 - bits)));
  c.block = RandomBlock(rng, bits, frame);
  std::string encoded;
  EncodeForBlock(c.block, &encoded);
  c.encoded.assign(encoded.begin(), encoded.end());
  // RandomBlock spans exactly `bits` bits from its frame, so the encoder
  // stores the frame (the minimum) iff it is not 0.
  c.stored_frame = frame != 0 ? *std::min_element(c.block.begin(), c.block.end()) : 0;
  Block lanes = c.block;
  for (uint32_t& v : lanes) v -= c.stored_frame;
  c.packed.resize(16 * bits);
  if (bits > 0) internal::PackLanes(bits, lanes.data(), c.packed.data());
  return c;
}

// DecodeForDeltaBlock (and both unpackers it picks from: the baseline, and
// AVX2's where the CPU has it) against plain loops: the prefix sums of the
// block's values from a random doc base, modulo 2^32, and the OR of every
// value minus 1; every bit width, with and without a frame base.
TEST(ForBlockTest, DeltaBlocksDecodeToPrefixSumsAndChecks) {
  Random rng(testing::TestSeed(111));
  const bool avx2 = CpuHasAvx2ForTest();
  for (int round = 0; round < 40; ++round) {
    for (int bits = 0; bits <= 32; ++bits) {
      const DecoderCase c = MakeDecoderCase(rng, bits, round);
      const uint32_t doc_base = static_cast<uint32_t>(rng.Next());
      Block want;
      uint32_t want_bits = 0;
      uint32_t sum = doc_base;
      for (size_t i = 0; i < kForBlockSize; ++i) {
        want[i] = sum += c.block[i];
        want_bits |= c.block[i] - 1;
      }
      SCOPED_TRACE("bits " + std::to_string(bits) + ", frame " + std::to_string(c.stored_frame));
      const uint8_t* p = c.encoded.data();
      Block got;
      uint32_t got_bits = 0;
      ASSERT_TRUE(
          DecodeForDeltaBlock(&p, c.encoded.data() + c.encoded.size(), doc_base, got, &got_bits));
      EXPECT_EQ(p, c.encoded.data() + c.encoded.size());
      ASSERT_EQ(got, want);
      ASSERT_EQ(got_bits, want_bits);
      got.fill(0);
      internal::UnpackDeltasBaseline(bits, c.packed.data(), got.data(), c.stored_frame, doc_base,
                                     &got_bits);
      ASSERT_EQ(got, want) << "baseline";
      ASSERT_EQ(got_bits, want_bits) << "baseline";
      got.fill(0);
      ASSERT_EQ(internal::UnpackDeltasAvx2(bits, c.packed.data(), got.data(), c.stored_frame,
                                           doc_base, &got_bits),
                avx2);
      if (avx2) {
        ASSERT_EQ(got, want) << "AVX2";
        ASSERT_EQ(got_bits, want_bits) << "AVX2";
      }
    }
  }
}

// DecodeForCountedBlock (and both unpackers it picks from) against plain
// loops: the values, the OR of every value minus 1 and their sum, both
// modulo 2^32; every bit width, with and without a frame base.
TEST(ForBlockTest, CountedBlocksDecodeWithTheirChecks) {
  Random rng(testing::TestSeed(113));
  const bool avx2 = CpuHasAvx2ForTest();
  for (int round = 0; round < 40; ++round) {
    for (int bits = 0; bits <= 32; ++bits) {
      const DecoderCase c = MakeDecoderCase(rng, bits, round);
      uint32_t want_bits = 0;
      uint32_t want_sum = 0;
      for (uint32_t v : c.block) {
        want_bits |= v - 1;
        want_sum += v;
      }
      SCOPED_TRACE("bits " + std::to_string(bits) + ", frame " + std::to_string(c.stored_frame));
      const uint8_t* p = c.encoded.data();
      Block got;
      uint32_t got_bits = 0;
      uint32_t got_sum = 0;
      ASSERT_TRUE(
          DecodeForCountedBlock(&p, c.encoded.data() + c.encoded.size(), got, &got_bits, &got_sum));
      EXPECT_EQ(p, c.encoded.data() + c.encoded.size());
      ASSERT_EQ(got, c.block);
      ASSERT_EQ(got_bits, want_bits);
      ASSERT_EQ(got_sum, want_sum);
      got.fill(0);
      internal::UnpackCountedBaseline(bits, c.packed.data(), got.data(), c.stored_frame, &got_bits,
                                      &got_sum);
      ASSERT_EQ(got, c.block) << "baseline";
      ASSERT_EQ(got_bits, want_bits) << "baseline";
      ASSERT_EQ(got_sum, want_sum) << "baseline";
      got.fill(0);
      ASSERT_EQ(internal::UnpackCountedAvx2(bits, c.packed.data(), got.data(), c.stored_frame,
                                            &got_bits, &got_sum),
                avx2);
      if (avx2) {
        ASSERT_EQ(got, c.block) << "AVX2";
        ASSERT_EQ(got_bits, want_bits) << "AVX2";
        ASSERT_EQ(got_sum, want_sum) << "AVX2";
      }
    }
  }
}

}  // namespace
}  // namespace invert

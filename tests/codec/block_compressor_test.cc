// Tests of the stored-fields block compressors: round trips of text-like and
// random blocks of many sizes (empty included), decoding by codec id, and
// corrupt, truncated or wrongly sized input, which must fail with DataLoss
// without touching memory outside the buffers (run under ASan).
#include "codec/block_compressor.h"

#include <memory>
#include <string>
#include <vector>

#include "codec/byte_io.h"
#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

std::vector<std::unique_ptr<BlockCompressor>> AllCompressors() {
  std::vector<std::unique_ptr<BlockCompressor>> all;
  all.push_back(NewNoneCompressor());
  all.push_back(NewLz4Compressor());
  all.push_back(NewLz4HcCompressor(9));
  all.push_back(NewZstdCompressor(1));
  all.push_back(NewZstdCompressor(3));
  return all;
}

// Word salad over a small vocabulary: compressible like text.
std::string TextLike(Random& rng, size_t size) {
  static const char* const kWords[] = {"the",   "of",      "and",     "in",  "a",
                                       "was",   "is",      "for",     "as",  "city",
                                       "river", "history", "station", "war", "album"};
  std::string s;
  while (s.size() < size) {
    s += kWords[rng.Uniform(std::size(kWords))];
    s += rng.Bernoulli(0.1) ? ". " : " ";
  }
  s.resize(size);
  return s;
}

std::string RandomBytes(Random& rng, size_t size) {
  std::string s(size, '\0');
  for (char& c : s) c = static_cast<char>(rng.Uniform(256));
  return s;
}

TEST(BlockCompressorTest, RoundTrips) {
  Random rng(testing::TestSeed(201));
  for (auto& compressor : AllCompressors()) {
    for (size_t size : {0, 1, 2, 15, 100, 4096, 16 * 1024, 60 * 1024, 80 * 1024, 300 * 1024}) {
      for (bool text : {true, false}) {
        const std::string src = text ? TextLike(rng, size) : RandomBytes(rng, size);
        std::string compressed = "prefix";
        ASSERT_TRUE(compressor->Compress(AsBytes(src), &compressed).ok());
        ASSERT_EQ(compressed.substr(0, 6), "prefix");
        const std::string block = compressed.substr(6);
        if (text && size >= 4096 && compressor->codec() != CompressionCodec::kNone) {
          EXPECT_LT(block.size(), size * 2 / 3) << compressor->name();
        }
        std::string out = "xy";
        ASSERT_TRUE(compressor->Decompress(AsBytes(block), size, &out).ok())
            << compressor->name() << " " << size;
        ASSERT_EQ(out, "xy" + src) << compressor->name();
        // Any instance for the codec id decodes it.
        auto decompressor = NewDecompressor(static_cast<uint8_t>(compressor->codec()));
        ASSERT_TRUE(decompressor.ok());
        out.clear();
        ASSERT_TRUE((*decompressor)->Decompress(AsBytes(block), size, &out).ok());
        ASSERT_EQ(out, src);
      }
    }
  }
}

TEST(BlockCompressorTest, WrongExpectedSizeIsDataLoss) {
  Random rng(testing::TestSeed(202));
  for (auto& compressor : AllCompressors()) {
    const std::string src = TextLike(rng, 5000);
    std::string block;
    ASSERT_TRUE(compressor->Compress(AsBytes(src), &block).ok());
    for (size_t expected : {size_t{0}, size_t{4999}, size_t{5001}, size_t{100000}}) {
      std::string out = "keep";
      const absl::Status status = compressor->Decompress(AsBytes(block), expected, &out);
      EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << compressor->name() << expected;
      EXPECT_EQ(out, "keep");
    }
  }
}

TEST(BlockCompressorTest, EmptyInputRoundTrips) {
  for (auto& compressor : AllCompressors()) {
    std::string block;
    ASSERT_TRUE(compressor->Compress({}, &block).ok());
    std::string out;
    ASSERT_TRUE(compressor->Decompress(AsBytes(block), 0, &out).ok()) << compressor->name();
    EXPECT_TRUE(out.empty());
    // An empty source is not a valid compressed block (except for kNone).
    const absl::Status empty = compressor->Decompress({}, 10, &out);
    EXPECT_EQ(empty.code(), absl::StatusCode::kDataLoss) << compressor->name();
  }
}

// Truncations and byte flips of compressed blocks: an error, or (flips only;
// no codec here checksums) some output of exactly the expected size.
TEST(BlockCompressorTest, CorruptInputNeverOverruns) {
  Random rng(testing::TestSeed(203));
  for (auto& compressor : AllCompressors()) {
    const std::string src = TextLike(rng, 3000) + RandomBytes(rng, 200) + TextLike(rng, 3000);
    std::string block;
    ASSERT_TRUE(compressor->Compress(AsBytes(src), &block).ok());
    for (size_t length = 0; length < block.size(); ++length) {
      const std::vector<uint8_t> truncated(block.begin(), block.begin() + length);
      std::vector<uint8_t> dst(src.size());
      EXPECT_FALSE(compressor->DecompressTo(truncated, dst).ok())
          << compressor->name() << " truncated to " << length;
    }
    for (int round = 0; round < 3000; ++round) {
      std::vector<uint8_t> corrupt(block.begin(), block.end());
      const int flips = 1 + static_cast<int>(rng.Uniform(3));
      for (int f = 0; f < flips; ++f) {
        corrupt[rng.Uniform(corrupt.size())] ^= static_cast<uint8_t>(1 + rng.Uniform(255));
      }
      std::string out = "keep";
      const absl::Status status = compressor->Decompress(corrupt, src.size(), &out);
      if (status.ok()) {
        EXPECT_EQ(out.size(), 4 + src.size());
      } else {
        EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
        EXPECT_EQ(out, "keep");
      }
    }
  }
}

TEST(BlockCompressorTest, RandomGarbageIsRejectedOrBounded) {
  Random rng(testing::TestSeed(204));
  for (auto& compressor : AllCompressors()) {
    for (int round = 0; round < 2000; ++round) {
      const std::string garbage = RandomBytes(rng, rng.Uniform(300));
      std::vector<uint8_t> src(garbage.begin(), garbage.end());
      std::vector<uint8_t> dst(rng.Uniform(2000));
      const absl::Status status = compressor->DecompressTo(src, dst);
      if (!status.ok()) {
        EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
      }
    }
  }
}

TEST(BlockCompressorTest, UnknownCodecIdIsInvalidArgument) {
  EXPECT_EQ(NewDecompressor(3).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(NewDecompressor(255).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((*NewDecompressor(0))->codec(), CompressionCodec::kNone);
  EXPECT_EQ((*NewDecompressor(1))->codec(), CompressionCodec::kLz4);
  EXPECT_EQ((*NewDecompressor(2))->codec(), CompressionCodec::kZstd);
}

}  // namespace
}  // namespace invert

// Tests of byte slices: many interleaved streams of random lengths, crossing
// every slice level and many block boundaries, read back byte-exact.
#include "util/byte_slices.h"

#include <vector>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

struct Stream {
  uint32_t start;
  SliceWriter writer;
  std::vector<uint8_t> expected;
};

// Payload bytes held by a stream that has reached `level` slices in total.
size_t PayloadThroughLevel(int level) {
  size_t total = 0;
  for (int l = 0; l <= level; ++l) total += kSliceLevelSize[l] - kSliceAddressBytes;
  return total;
}

TEST(ByteSlicesTest, FirstSliceHoldsFourBytesUntilLinked) {
  RamCounter counter;
  BlockAllocator allocator(&counter);
  ByteBlockPool pool(&allocator);
  const uint32_t start = NewFirstSlices(pool, 1);
  SliceWriter w(&pool, start);
  for (int i = 0; i < 4; ++i) w.WriteByte(static_cast<uint8_t>(i + 1));
  EXPECT_EQ(w.address(), start + 4);  // still in the first slice
  EXPECT_EQ(*pool.At(start + 4), kSliceMarkerBase);
  w.WriteByte(5);  // hits the marker: links to a level-1 slice
  EXPECT_NE(w.address(), start + 5);
  SliceReader r(&pool, start, w.address());
  for (int i = 0; i < 5; ++i) ASSERT_EQ(r.ReadByte(), i + 1);
  EXPECT_TRUE(r.eof());
}

TEST(ByteSlicesTest, InterleavedStreamsReadBackExactly) {
  Random rng(testing::TestSeed(1234));
  RamCounter counter;
  BlockAllocator allocator(&counter);
  ByteBlockPool pool(&allocator);
  std::vector<Stream> streams;
  const int kStreams = 3000;
  for (int i = 0; i < kStreams; ++i) {
    const uint32_t start = NewFirstSlices(pool, 1);
    streams.push_back({start, SliceWriter(&pool, start), {}});
  }
  // Lengths: most streams short, some long enough to reach the last level
  // many times over.
  std::vector<size_t> target(kStreams);
  for (size_t& t : target) {
    const uint64_t kind = rng.Uniform(10);
    t = kind < 5 ? rng.Uniform(6) : kind < 9 ? rng.Uniform(700) : rng.Uniform(20000);
  }
  std::vector<int> open;
  for (int i = 0; i < kStreams; ++i) open.push_back(i);
  while (!open.empty()) {
    const size_t k = rng.Uniform(open.size());
    Stream& s = streams[open[k]];
    if (rng.Bernoulli(0.3)) {
      const uint32_t v = static_cast<uint32_t>(rng.Next() >> rng.Uniform(33));
      s.writer.WriteVInt(v);
      uint8_t buf[kMaxVInt32Bytes];
      s.expected.insert(s.expected.end(), buf, buf + EncodeVInt(v, buf));
    } else {
      uint8_t byte = static_cast<uint8_t>(rng.Next());
      s.writer.WriteByte(byte);
      s.expected.push_back(byte);
    }
    if (s.expected.size() >= target[open[k]]) {
      open[k] = open.back();
      open.pop_back();
    }
  }
  EXPECT_GT(pool.block_count(), 20u);
  size_t reached_last_level = 0;
  for (const Stream& s : streams) {
    if (s.expected.size() > PayloadThroughLevel(kSliceLevelCount - 1)) ++reached_last_level;
    // Byte by byte.
    SliceReader r(&pool, s.start, s.writer.address());
    for (size_t i = 0; i < s.expected.size(); ++i) {
      ASSERT_FALSE(r.eof());
      ASSERT_EQ(r.ReadByte(), s.expected[i]) << "stream at " << s.start << " byte " << i;
    }
    ASSERT_TRUE(r.eof());
    // By chunks.
    SliceReader c(&pool, s.start, s.writer.address());
    std::vector<uint8_t> chunks;
    const uint8_t* data;
    while (size_t n = c.NextChunk(&data)) chunks.insert(chunks.end(), data, data + n);
    ASSERT_EQ(chunks, s.expected);
    // Bulk, then one byte too many.
    SliceReader b(&pool, s.start, s.writer.address());
    std::vector<uint8_t> bulk(s.expected.size());
    ASSERT_TRUE(b.ReadBytes(bulk.data(), bulk.size()));
    ASSERT_EQ(bulk, s.expected);
    uint8_t extra;
    EXPECT_FALSE(b.ReadBytes(&extra, 1));
  }
  EXPECT_GT(reached_last_level, 100u);
}

TEST(ByteSlicesTest, VIntEdgeValuesInStreams) {
  RamCounter counter;
  BlockAllocator allocator(&counter);
  ByteBlockPool pool(&allocator);
  const std::vector<uint32_t> values = {
      0,        1,          127, 128, 16383, 16384, (1u << 21) - 1, 1u << 21, (1u << 28) - 1,
      1u << 28, 0xFFFFFFFFu};
  const uint32_t start = NewFirstSlices(pool, 1);
  SliceWriter w(&pool, start);
  for (int round = 0; round < 50; ++round) {
    for (uint32_t v : values) w.WriteVInt(v);
  }
  SliceReader r(&pool, start, w.address());
  for (int round = 0; round < 50; ++round) {
    for (uint32_t v : values) {
      uint32_t back = 0;
      ASSERT_TRUE(r.ReadVInt(&back));
      ASSERT_EQ(back, v);
    }
  }
  EXPECT_TRUE(r.eof());
  uint32_t none;
  EXPECT_FALSE(r.ReadVInt(&none));
}

TEST(ByteSlicesTest, EmptyStreamIsEof) {
  RamCounter counter;
  BlockAllocator allocator(&counter);
  ByteBlockPool pool(&allocator);
  const uint32_t start = NewFirstSlices(pool, 3);
  for (uint32_t s = 0; s < 3; ++s) {
    SliceReader r(&pool, start + s * kFirstSliceSize, start + s * kFirstSliceSize);
    EXPECT_TRUE(r.eof());
  }
}

}  // namespace
}  // namespace invert

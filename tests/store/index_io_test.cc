// Tests of IndexOutput and IndexInput: random sequences of every write
// primitive against a std::vector<uint8_t> model (exact bytes, values read
// back, running checksum), reads past the end at every truncation point,
// sticky errors on both sides, malformed VInts, Slice bounds and Seek.
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "invert/directory.h"
#include "store/index_input.h"
#include "store/index_output.h"
#include "test_seed.h"
#include "testing/fault_injecting_directory.h"
#include "util/random.h"
#include "xxhash.h"

namespace invert {
namespace {

using ::testing::HasSubstr;

class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = ::testing::TempDir() + "invert_io_XXXXXX";
    EXPECT_NE(::mkdtemp(pattern.data()), nullptr);
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// One write primitive and its argument.
enum class Kind { kByte, kBytes, kVInt32, kVInt64, kFixed32, kFixed64, kString };
struct Op {
  Kind kind;
  uint64_t value = 0;
  std::string bytes;
};

// The reference encoder: written from the format description, independent of
// util/varint.h and IndexOutput.
void ModelVInt(uint64_t v, std::vector<uint8_t>& out) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    if (v != 0) b |= 0x80;
    out.push_back(b);
  } while (v != 0);
}
void ModelFixed(uint64_t v, int width, std::vector<uint8_t>& out) {
  for (int i = 0; i < width; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void ModelWrite(const Op& op, std::vector<uint8_t>& out) {
  switch (op.kind) {
    case Kind::kByte:
      out.push_back(static_cast<uint8_t>(op.value));
      break;
    case Kind::kBytes:
      out.insert(out.end(), op.bytes.begin(), op.bytes.end());
      break;
    case Kind::kVInt32:
    case Kind::kVInt64:
      ModelVInt(op.value, out);
      break;
    case Kind::kFixed32:
      ModelFixed(op.value, 4, out);
      break;
    case Kind::kFixed64:
      ModelFixed(op.value, 8, out);
      break;
    case Kind::kString:
      ModelVInt(op.bytes.size(), out);
      out.insert(out.end(), op.bytes.begin(), op.bytes.end());
      break;
  }
}

void Apply(const Op& op, IndexOutput& out) {
  switch (op.kind) {
    case Kind::kByte:
      out.WriteByte(static_cast<uint8_t>(op.value));
      break;
    case Kind::kBytes:
      out.WriteBytes(op.bytes.data(), op.bytes.size());
      break;
    case Kind::kVInt32:
      out.WriteVInt32(static_cast<uint32_t>(op.value));
      break;
    case Kind::kVInt64:
      out.WriteVInt64(op.value);
      break;
    case Kind::kFixed32:
      out.WriteFixed32(static_cast<uint32_t>(op.value));
      break;
    case Kind::kFixed64:
      out.WriteFixed64(op.value);
      break;
    case Kind::kString:
      out.WriteString(op.bytes);
      break;
  }
}

// Values of every magnitude: small ones are common, the extremes present.
uint64_t RandomValue(Random& rng, int bits) {
  const int width = static_cast<int>(rng.Range(0, bits));
  uint64_t v = width == 0 ? 0 : rng.Next() >> (64 - width);
  if (rng.Uniform(16) == 0) v = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  return v;
}

Op RandomOp(Random& rng) {
  Op op{static_cast<Kind>(rng.Uniform(7))};
  switch (op.kind) {
    case Kind::kByte:
      op.value = rng.Uniform(256);
      break;
    case Kind::kVInt32:
    case Kind::kFixed32:
      op.value = RandomValue(rng, 32);
      break;
    case Kind::kVInt64:
    case Kind::kFixed64:
      op.value = RandomValue(rng, 64);
      break;
    case Kind::kBytes:
    case Kind::kString: {
      // Mostly short, sometimes longer than the output buffer.
      const size_t length = rng.Uniform(10) == 0 ? rng.Uniform(3000) : rng.Uniform(20);
      op.bytes.resize(length);
      for (char& c : op.bytes) c = static_cast<char>(rng.Uniform(256));
      break;
    }
  }
  return op;
}

// Reads `op` back; returns true iff the value matches.
bool ReadAndCompare(const Op& op, IndexInput& in) {
  switch (op.kind) {
    case Kind::kByte: {
      uint8_t v;
      return in.ReadByte(&v) && v == op.value;
    }
    case Kind::kBytes: {
      std::string v(op.bytes.size(), '\0');
      return in.ReadBytes(v.data(), v.size()) && v == op.bytes;
    }
    case Kind::kVInt32: {
      uint32_t v;
      return in.ReadVInt32(&v) && v == op.value;
    }
    case Kind::kVInt64: {
      uint64_t v;
      return in.ReadVInt64(&v) && v == op.value;
    }
    case Kind::kFixed32: {
      uint32_t v;
      return in.ReadFixed32(&v) && v == op.value;
    }
    case Kind::kFixed64: {
      uint64_t v;
      return in.ReadFixed64(&v) && v == op.value;
    }
    case Kind::kString: {
      std::string v;
      return in.ReadString(&v) && v == op.bytes;
    }
  }
  return false;
}

class IndexOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = FSDirectory::Open(scratch_.path(), /*create=*/false);
    ASSERT_TRUE(dir.ok()) << dir.status();
    dir_ = *std::move(dir);
  }
  std::unique_ptr<IndexOutput> Create(Directory& dir, const std::string& name, size_t buffer_size) {
    auto file = dir.CreateFile(name);
    EXPECT_TRUE(file.ok()) << file.status();
    return std::make_unique<IndexOutput>(name, *std::move(file), buffer_size);
  }

  ScratchDir scratch_;
  std::unique_ptr<FSDirectory> dir_;
};

using IndexInputTest = IndexOutputTest;

TEST_F(IndexOutputTest, RandomPrimitivesRoundTripThroughMappedInput) {
  Random rng(testing::TestSeed(20240517));
  // Buffer sizes from the smallest allowed up: flushes land everywhere.
  for (size_t buffer_size :
       {size_t{10}, size_t{17}, size_t{64}, size_t{1000}, IndexOutput::kDefaultBufferSize}) {
    for (int file = 0; file < 8; ++file) {
      const std::string name = absl::StrCat("f", buffer_size, "_", file);
      SCOPED_TRACE(name);
      std::vector<Op> ops(rng.Uniform(400));
      for (Op& op : ops) op = RandomOp(rng);
      std::vector<uint8_t> model;
      auto out = Create(*dir_, name, buffer_size);
      for (const Op& op : ops) {
        Apply(op, *out);
        ModelWrite(op, model);
        ASSERT_EQ(out->file_pointer(), model.size());
        if (rng.Uniform(50) == 0) {
          ASSERT_EQ(out->checksum(), XXH64(model.data(), model.size(), 0));
        }
      }
      EXPECT_EQ(out->checksum(), XXH64(model.data(), model.size(), 0));
      ASSERT_TRUE(out->Close().ok());
      EXPECT_EQ(out->checksum(), XXH64(model.data(), model.size(), 0));

      auto in = OpenInput(dir_.get(), name);
      ASSERT_TRUE(in.ok()) << in.status();
      ASSERT_EQ(in->length(), model.size());
      ASSERT_TRUE(std::equal(model.begin(), model.end(), in->bytes().begin()));
      for (size_t i = 0; i < ops.size(); ++i) {
        ASSERT_TRUE(ReadAndCompare(ops[i], *in)) << "op " << i << ": " << in->status();
      }
      EXPECT_EQ(in->position(), in->length());
      EXPECT_TRUE(in->ok());
      uint8_t extra;
      EXPECT_FALSE(in->ReadByte(&extra));
    }
  }
}

TEST_F(IndexOutputTest, VIntBoundaries) {
  const std::vector<uint64_t> values = {
      0, 0x7f, 0x80, 0x3fff, 0x4000, 0xffffffff, 0x100000000, 0x7fffffffffffffff, ~uint64_t{0}};
  auto out = Create(*dir_, "v", IndexOutput::kDefaultBufferSize);
  for (uint64_t v : values) out->WriteVInt64(v);
  out->WriteVInt32(0xffffffff);
  ASSERT_TRUE(out->Close().ok());
  auto in = OpenInput(dir_.get(), "v");
  ASSERT_TRUE(in.ok());
  for (uint64_t v : values) {
    uint64_t read;
    ASSERT_TRUE(in->ReadVInt64(&read));
    EXPECT_EQ(read, v);
  }
  uint32_t read32;
  ASSERT_TRUE(in->ReadVInt32(&read32));
  EXPECT_EQ(read32, 0xffffffffu);
  EXPECT_EQ(in->remaining_length(), 0u);
}

TEST_F(IndexOutputTest, FixedWidthIsLittleEndian) {
  auto out = Create(*dir_, "le", IndexOutput::kDefaultBufferSize);
  out->WriteFixed32(0x04030201);
  out->WriteFixed64(0x0c0b0a0908070605);
  out->WriteString("hi");
  ASSERT_TRUE(out->Close().ok());
  auto in = OpenInput(dir_.get(), "le");
  ASSERT_TRUE(in.ok());
  EXPECT_THAT(std::vector<uint8_t>(in->bytes().begin(), in->bytes().end()),
              ::testing::ElementsAre(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 2, 'h', 'i'));
}

TEST_F(IndexOutputTest, DiskFullIsStickyAndReportedByClose) {
  FaultInjectingDirectory faulty(dir_.get());
  faulty.SetDiskLimit(100);
  auto out = Create(faulty, "full", 16);
  for (int i = 0; i < 20; ++i) out->WriteFixed64(i);  // 160 bytes
  EXPECT_FALSE(out->ok());
  EXPECT_EQ(out->status().code(), absl::StatusCode::kResourceExhausted);
  const uint64_t frozen = out->file_pointer();
  EXPECT_LE(frozen, 160u);
  out->WriteBytes("more", 4);
  out->WriteVInt64(1);
  EXPECT_EQ(out->file_pointer(), frozen);  // later writes are dropped
  absl::Status closed = out->Close();
  EXPECT_EQ(closed.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(closed.message()), HasSubstr("ENOSPC"));
  EXPECT_THAT(std::string(closed.message()), HasSubstr("full"));
  EXPECT_EQ(out->Close(), closed);             // again: same status
  EXPECT_EQ(*dir_->FileLength("full"), 100u);  // the short write went through
}

TEST_F(IndexOutputTest, WriteAfterCloseFails) {
  auto out = Create(*dir_, "closed", IndexOutput::kDefaultBufferSize);
  out->WriteByte(1);
  ASSERT_TRUE(out->Close().ok());
  out->WriteByte(2);
  EXPECT_EQ(out->status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(*dir_->FileLength("closed"), 1u);
}

TEST_F(IndexOutputTest, DestroyWithoutCloseAbandons) {
  {
    auto out = Create(*dir_, "abandoned", IndexOutput::kDefaultBufferSize);
    out->WriteBytes("buffered, never flushed", 23);
  }
  EXPECT_EQ(*dir_->FileLength("abandoned"), 0u);
  EXPECT_TRUE(dir_->DeleteFile("abandoned").ok());
}

TEST_F(IndexInputTest, EveryReadFailsCleanlyAtEveryTruncationPoint) {
  Random rng(testing::TestSeed(7));
  std::vector<Op> ops;
  for (int i = 0; i < 40; ++i) ops.push_back(RandomOp(rng));
  auto out = Create(*dir_, "full", IndexOutput::kDefaultBufferSize);
  std::vector<uint8_t> model;
  for (const Op& op : ops) {
    Apply(op, *out);
    ModelWrite(op, model);
  }
  ASSERT_TRUE(out->Close().ok());
  auto whole = OpenInput(dir_.get(), "full");
  ASSERT_TRUE(whole.ok());
  for (uint64_t cut = 0; cut <= model.size(); ++cut) {
    // A slice is a file truncated at `cut`: the bytes after it exist (ASan
    // would not notice reading them), so a read past the slice must be
    // caught by the bounds checks themselves.
    auto in = whole->Slice(0, cut);
    ASSERT_TRUE(in.ok());
    size_t i = 0;
    while (i < ops.size() && ReadAndCompare(ops[i], *in)) ++i;
    if (in->ok()) {
      ASSERT_EQ(i, ops.size());
      ASSERT_EQ(cut, model.size());
      continue;
    }
    EXPECT_EQ(in->status().code(), absl::StatusCode::kOutOfRange) << in->status();
    EXPECT_THAT(std::string(in->status().message()), HasSubstr("read past end of full"));
    // Sticky: everything fails afterwards, and the cursor sits at the end.
    EXPECT_EQ(in->position(), in->length());
    uint8_t b = 1;
    uint32_t v32 = 1;
    uint64_t v64 = 1;
    std::string s = "x";
    std::span<const uint8_t> view;
    EXPECT_FALSE(in->ReadByte(&b));
    EXPECT_FALSE(in->ReadVInt32(&v32));
    EXPECT_FALSE(in->ReadVInt64(&v64));
    EXPECT_FALSE(in->ReadFixed64(&v64));
    EXPECT_FALSE(in->ReadString(&s));
    EXPECT_FALSE(in->ReadView(1, &view));
    EXPECT_EQ(b, 0);
    EXPECT_EQ(v32, 0u);
    EXPECT_EQ(v64, 0u);
    EXPECT_TRUE(s.empty());
    EXPECT_FALSE(in->Seek(0).ok());
    EXPECT_FALSE(in->Slice(0, 0).ok());
  }
}

TEST_F(IndexInputTest, MalformedVIntIsDataLoss) {
  auto out = Create(*dir_, "bad", IndexOutput::kDefaultBufferSize);
  const uint8_t too_long32[] = {0xff, 0xff, 0xff, 0xff, 0x1f};  // > 32 bits
  const uint8_t too_long64[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  out->WriteBytes(too_long32, sizeof(too_long32));
  out->WriteBytes(too_long64, sizeof(too_long64));
  ASSERT_TRUE(out->Close().ok());
  auto in = OpenInput(dir_.get(), "bad");
  ASSERT_TRUE(in.ok());
  uint32_t v32;
  EXPECT_FALSE(in->ReadVInt32(&v32));
  EXPECT_EQ(in->status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(in->status().message()), HasSubstr("malformed VInt32"));
  auto in64 = in->Slice(0, 0);  // sticky: a failed input cannot be sliced
  EXPECT_FALSE(in64.ok());
  auto fresh = OpenInput(dir_.get(), "bad");
  ASSERT_TRUE(fresh->Seek(sizeof(too_long32)).ok());
  uint64_t v64;
  EXPECT_FALSE(fresh->ReadVInt64(&v64));
  EXPECT_EQ(fresh->status().code(), absl::StatusCode::kDataLoss);
}

TEST_F(IndexInputTest, HugeStringLengthFailsWithoutAllocating) {
  auto out = Create(*dir_, "s", IndexOutput::kDefaultBufferSize);
  out->WriteVInt32(0xfffffff0u);  // claims ~4 GiB
  out->WriteBytes("abc", 3);
  ASSERT_TRUE(out->Close().ok());
  auto in = OpenInput(dir_.get(), "s");
  std::string s;
  EXPECT_FALSE(in->ReadString(&s));
  EXPECT_EQ(in->status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_LT(s.capacity(), 1000u);
}

TEST_F(IndexInputTest, SliceBoundsAndIndependence) {
  auto out = Create(*dir_, "sl", IndexOutput::kDefaultBufferSize);
  for (int i = 0; i < 100; ++i) out->WriteByte(static_cast<uint8_t>(i));
  ASSERT_TRUE(out->Close().ok());
  auto in = OpenInput(dir_.get(), "sl");
  ASSERT_TRUE(in.ok());
  EXPECT_TRUE(in->Slice(0, 100).ok());
  EXPECT_TRUE(in->Slice(100, 0).ok());
  EXPECT_TRUE(in->Slice(37, 63).ok());
  for (auto [offset, length] : std::vector<std::pair<uint64_t, uint64_t>>{
           {0, 101}, {101, 0}, {50, 51}, {~uint64_t{0}, 2}, {2, ~uint64_t{0}}, {1, ~uint64_t{0}}}) {
    auto bad = in->Slice(offset, length);
    ASSERT_FALSE(bad.ok()) << offset << "+" << length;
    EXPECT_EQ(bad.status().code(), absl::StatusCode::kOutOfRange);
  }
  EXPECT_TRUE(in->ok());  // a refused slice is not a read error

  auto slice = in->Slice(10, 20);
  ASSERT_TRUE(slice.ok());
  EXPECT_EQ(slice->length(), 20u);
  EXPECT_EQ(slice->file_offset(), 10u);
  uint8_t b;
  ASSERT_TRUE(slice->ReadByte(&b));
  EXPECT_EQ(b, 10);
  auto nested = slice->Slice(5, 10);
  ASSERT_TRUE(nested.ok());
  EXPECT_EQ(nested->file_offset(), 15u);
  ASSERT_TRUE(nested->Seek(9).ok());
  ASSERT_TRUE(nested->ReadByte(&b));
  EXPECT_EQ(b, 24);
  EXPECT_FALSE(nested->ReadByte(&b));  // byte 25 exists in the file, not in the slice
  EXPECT_FALSE(slice->Slice(15, 6).ok());
  // The parent's cursor did not move.
  EXPECT_EQ(in->position(), 0u);
  EXPECT_EQ(slice->position(), 1u);
}

TEST_F(IndexInputTest, SeekAndCopies) {
  auto out = Create(*dir_, "seek", IndexOutput::kDefaultBufferSize);
  for (int i = 0; i < 10; ++i) out->WriteByte(static_cast<uint8_t>(i));
  ASSERT_TRUE(out->Close().ok());
  auto in = OpenInput(dir_.get(), "seek");
  ASSERT_TRUE(in->Seek(10).ok());
  EXPECT_EQ(in->remaining_length(), 0u);
  ASSERT_TRUE(in->Seek(3).ok());
  IndexInput copy = *in;
  uint8_t a, b;
  ASSERT_TRUE(copy.ReadByte(&a));
  ASSERT_TRUE(copy.ReadByte(&b));
  EXPECT_EQ(a, 3);
  EXPECT_EQ(b, 4);
  EXPECT_EQ(in->position(), 3u);
  absl::Status past = in->Seek(11);
  EXPECT_EQ(past.code(), absl::StatusCode::kOutOfRange);
  EXPECT_FALSE(in->ok());
  EXPECT_TRUE(copy.ok());
  std::span<const uint8_t> view;
  ASSERT_TRUE(copy.ReadView(5, &view));
  EXPECT_EQ(view[0], 5);
  EXPECT_EQ(copy.remaining_length(), 0u);
  EXPECT_TRUE(copy.SkipBytes(0));
  EXPECT_FALSE(copy.SkipBytes(1));
}

}  // namespace
}  // namespace invert

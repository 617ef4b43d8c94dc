// Tests of the codec header and footer: the exact bytes (the persistent
// format of docs/store.md), every mismatch CheckHeader reports, and that
// VerifyChecksum catches every truncation and every flipped byte of a small
// checksummed file.
#include "store/codec_util.h"

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "invert/directory.h"
#include "test_seed.h"
#include "util/random.h"
#include "xxhash.h"

namespace invert {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

// An in-memory MappedFile, so a test can hand the checks any bytes.
class BytesFile final : public MappedFile {
 public:
  static std::shared_ptr<const MappedFile> Make(std::vector<uint8_t> bytes) {
    auto owned = std::make_unique<std::vector<uint8_t>>(std::move(bytes));
    const std::span<const uint8_t> span(owned->data(), owned->size());
    return std::shared_ptr<const MappedFile>(new BytesFile(span, std::move(owned)));
  }

 private:
  BytesFile(std::span<const uint8_t> span, std::unique_ptr<std::vector<uint8_t>> owned)
      : MappedFile(span), owned_(std::move(owned)) {}
  std::unique_ptr<std::vector<uint8_t>> owned_;
};

IndexInput InputOf(std::vector<uint8_t> bytes, std::string name = "test") {
  return IndexInput(std::move(name), BytesFile::Make(std::move(bytes)));
}

std::string Message(const absl::Status& s) { return std::string(s.message()); }

SegmentId MakeId(uint8_t first) {
  SegmentId id;
  for (size_t i = 0; i < id.size(); ++i) id[i] = static_cast<uint8_t>(first + i);
  return id;
}

class CodecUtilTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "invert_codec_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    path_ = pattern;
    auto dir = FSDirectory::Open(path_, false);
    ASSERT_TRUE(dir.ok());
    dir_ = *std::move(dir);
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

  // Writes header, `payload`, footer to `name`; returns the file's bytes.
  std::vector<uint8_t> WriteChecksummed(const std::string& name, std::string_view payload,
                                        const SegmentId& id) {
    auto out = CreateOutput(dir_.get(), name);
    EXPECT_TRUE(out.ok());
    EXPECT_TRUE(WriteHeader(**out, "TestCodec", 3, id).ok());
    (*out)->WriteBytes(payload.data(), payload.size());
    EXPECT_TRUE(WriteFooter(**out).ok());
    EXPECT_TRUE((*out)->Close().ok());
    auto in = OpenInput(dir_.get(), name);
    EXPECT_TRUE(in.ok());
    return std::vector<uint8_t>(in->bytes().begin(), in->bytes().end());
  }

  std::string path_;
  std::unique_ptr<FSDirectory> dir_;
};

TEST_F(CodecUtilTest, HeaderAndFooterBytesAreTheDocumentedLayout) {
  const SegmentId id = MakeId(0xa0);
  const std::vector<uint8_t> file = WriteChecksummed("_0.doc", "xy", id);
  std::vector<uint8_t> expected = {'I', 'N', 'V', 'H',  // header magic
                                   9,   'T', 'e', 's', 't', 'C', 'o', 'd', 'e', 'c',  // name
                                   3,   0,   0,   0};                                 // version
  expected.insert(expected.end(), id.begin(), id.end());                              // segment id
  ASSERT_EQ(expected.size(), HeaderLength("TestCodec"));
  expected.push_back('x');
  expected.push_back('y');
  for (uint8_t b : {'I', 'N', 'V', 'F', '\1', '\0', '\0', '\0'})
    expected.push_back(b);  // magic, algorithm
  const uint64_t checksum = XXH64(expected.data(), expected.size(), 0);
  for (int i = 0; i < 8; ++i) expected.push_back(static_cast<uint8_t>(checksum >> (8 * i)));
  EXPECT_THAT(file, ElementsAreArray(expected));
  EXPECT_EQ(file.size(), HeaderLength("TestCodec") + 2 + kFooterLength);

  auto in = OpenInput(dir_.get(), "_0.doc");
  auto version = CheckHeader(*in, "TestCodec", 1, 3, id);
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_EQ(*version, 3u);
  EXPECT_EQ(in->position(), HeaderLength("TestCodec"));
  ASSERT_TRUE(in->SkipBytes(2));
  auto verified = CheckFooter(*in);
  ASSERT_TRUE(verified.ok()) << verified.status();
  EXPECT_EQ(*verified, checksum);
  EXPECT_EQ(in->position(), in->length());
  EXPECT_EQ(*ReadFooterChecksum(*in), checksum);
  EXPECT_EQ(*VerifyChecksum(*in), checksum);
}

TEST_F(CodecUtilTest, CheckHeaderReportsEachMismatch) {
  const SegmentId id = MakeId(1);
  WriteChecksummed("h", "", id);
  auto check = [&](std::string_view codec, uint32_t min, uint32_t max, const SegmentId& want) {
    auto in = OpenInput(dir_.get(), "h");
    return CheckHeader(*in, codec, min, max, want).status();
  };
  EXPECT_TRUE(check("TestCodec", 3, 3, id).ok());

  absl::Status s = check("OtherCodec", 1, 3, id);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(Message(s),
              HasSubstr("codec mismatch in h: expected \"OtherCodec\", found \"TestCodec\""));

  s = check("TestCodec", 4, 9, id);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Message(s), HasSubstr("format version 3 of"));
  EXPECT_THAT(Message(s), HasSubstr("4 to 9"));
  EXPECT_EQ(check("TestCodec", 0, 2, id).code(), absl::StatusCode::kFailedPrecondition);

  s = check("TestCodec", 1, 3, MakeId(2));
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(Message(s), HasSubstr("segment id mismatch in h: expected 02030405"));
  EXPECT_THAT(Message(s), HasSubstr("found 01020304"));

  IndexInput not_ours = InputOf({'P', 'K', 3, 4, 0, 0, 0, 0});
  s = CheckHeader(not_ours, "TestCodec", 1, 3, id).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(Message(s), HasSubstr("codec header magic mismatch"));
}

TEST_F(CodecUtilTest, CheckHeaderOnEveryTruncatedHeaderIsDataLoss) {
  const SegmentId id = MakeId(9);
  const std::vector<uint8_t> file = WriteChecksummed("t", "", id);
  for (size_t cut = 0; cut < HeaderLength("TestCodec"); ++cut) {
    IndexInput in = InputOf(std::vector<uint8_t>(file.begin(), file.begin() + cut));
    absl::Status s = CheckHeader(in, "TestCodec", 1, 3, id).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << cut << ": " << s;
  }
}

TEST_F(CodecUtilTest, WriteHeaderRejectsBadCodecNames) {
  auto out = CreateOutput(dir_.get(), "names");
  ASSERT_TRUE(out.ok());
  for (std::string bad : {std::string(), std::string(128, 'a'), std::string("has space"),
                          std::string("tab\t"), std::string("\xc3\xa9")}) {
    EXPECT_EQ(WriteHeader(**out, bad, 1, MakeId(0)).code(), absl::StatusCode::kInvalidArgument)
        << bad;
  }
  EXPECT_EQ((*out)->file_pointer(), 0u);  // nothing written
  EXPECT_TRUE(WriteHeader(**out, std::string(127, 'a'), 1, MakeId(0)).ok());
  EXPECT_EQ((*out)->file_pointer(), HeaderLength(std::string(127, 'a')));
  EXPECT_TRUE((*out)->Close().ok());
}

TEST_F(CodecUtilTest, VerifyChecksumDetectsEveryTruncation) {
  const std::vector<uint8_t> file = WriteChecksummed("trunc", "some payload bytes", MakeId(3));
  ASSERT_TRUE(VerifyChecksum(InputOf(file)).ok());
  for (size_t cut = 0; cut < file.size(); ++cut) {
    absl::Status s = VerifyChecksum(InputOf({file.begin(), file.begin() + cut})).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << "cut at " << cut << ": " << s;
  }
  // Also from the front (a slice that lost its start).
  for (size_t drop = 1; drop < file.size(); ++drop) {
    absl::Status s = VerifyChecksum(InputOf({file.begin() + drop, file.end()})).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << "dropped " << drop;
  }
}

TEST_F(CodecUtilTest, VerifyChecksumDetectsEveryFlippedByte) {
  Random rng(testing::TestSeed(99));
  const std::vector<uint8_t> file = WriteChecksummed("flip", "payload", MakeId(4));
  for (size_t i = 0; i < file.size(); ++i) {
    // Every single-bit flip and one random non-zero xor of each byte.
    std::vector<uint8_t> masks = {
        1, 2, 4, 8, 16, 32, 64, 128, static_cast<uint8_t>(rng.Range(1, 255))};
    for (uint8_t mask : masks) {
      std::vector<uint8_t> corrupt = file;
      corrupt[i] ^= mask;
      absl::Status s = VerifyChecksum(InputOf(corrupt, "flip")).status();
      ASSERT_EQ(s.code(), absl::StatusCode::kDataLoss)
          << "byte " << i << " ^ " << int{mask} << ": " << s;
      ASSERT_THAT(Message(s), HasSubstr("flip"));
    }
  }
}

TEST_F(CodecUtilTest, FooterErrorsSayWhatIsWrong) {
  std::vector<uint8_t> file = WriteChecksummed("f", "abc", MakeId(5));
  const size_t n = file.size();

  std::vector<uint8_t> bad_magic = file;
  bad_magic[n - 16] = 'X';
  EXPECT_THAT(Message(VerifyChecksum(InputOf(bad_magic)).status()),
              HasSubstr("footer magic mismatch"));

  std::vector<uint8_t> bad_algorithm = file;
  bad_algorithm[n - 12] = 2;
  EXPECT_THAT(Message(VerifyChecksum(InputOf(bad_algorithm)).status()),
              HasSubstr("unknown checksum algorithm 2"));

  std::vector<uint8_t> bad_sum = file;
  bad_sum[n - 1] ^= 0x80;
  absl::Status s = VerifyChecksum(InputOf(bad_sum)).status();
  EXPECT_THAT(Message(s), HasSubstr("checksum mismatch"));
  // ReadFooterChecksum checks structure only.
  EXPECT_TRUE(ReadFooterChecksum(InputOf(bad_sum)).ok());

  EXPECT_THAT(Message(VerifyChecksum(InputOf({1, 2, 3})).status()), HasSubstr("truncated"));
  EXPECT_EQ(VerifyChecksum(InputOf({})).status().code(), absl::StatusCode::kDataLoss);
}

TEST_F(CodecUtilTest, CheckFooterRequiresTheCursorAtTheFooter) {
  const std::vector<uint8_t> file = WriteChecksummed("pos", "abcdef", MakeId(6));
  const size_t payload_end = HeaderLength("TestCodec") + 6;
  for (size_t pos : {payload_end - 1, payload_end + 1, size_t{0}}) {
    IndexInput in = InputOf(file);
    ASSERT_TRUE(in.Seek(pos).ok());
    absl::Status s = CheckFooter(in).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
    EXPECT_THAT(Message(s), HasSubstr("expected at offset"));
  }
  IndexInput in = InputOf(file);
  ASSERT_TRUE(in.Seek(payload_end).ok());
  EXPECT_TRUE(CheckFooter(in).ok());
}

TEST_F(CodecUtilTest, ChecksummedSliceVerifiesOnItsOwn) {
  // A checksummed file embedded in a bigger one (a compound file).
  const std::vector<uint8_t> inner = WriteChecksummed("inner", "payload", MakeId(7));
  std::vector<uint8_t> outer = {9, 9, 9};
  outer.insert(outer.end(), inner.begin(), inner.end());
  outer.push_back(9);
  IndexInput whole = InputOf(outer);
  auto slice = whole.Slice(3, inner.size());
  ASSERT_TRUE(slice.ok());
  EXPECT_TRUE(VerifyChecksum(*slice).ok());
  EXPECT_TRUE(CheckHeader(*slice, "TestCodec", 3, 3, MakeId(7)).ok());
  EXPECT_FALSE(VerifyChecksum(whole).ok());
}

}  // namespace
}  // namespace invert

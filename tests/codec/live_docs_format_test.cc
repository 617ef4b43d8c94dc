// Tests of the live-docs files (_N_G.liv, codec/live_docs_format.h) and
// their names: the bitset against a std::vector<bool> model, randomized
// write/read round trips, every disagreement with what the commit says
// (id, generation, doc count, del count), every flipped byte and every
// truncation of a file detected, writer errors leaving nothing behind, and
// the file-name scheme (ParseSegmentFileName) accepting exactly the
// documented .liv names.
#include "codec/live_docs_format.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "codec/segment_files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "scratch_dir.h"
#include "store/index_input.h"
#include "test_seed.h"
#include "testing/fault_injecting_directory.h"
#include "util/random.h"

namespace invert {
namespace {

using ::testing::HasSubstr;

SegmentId MakeId(uint8_t first) {
  SegmentId id;
  for (size_t i = 0; i < id.size(); ++i) id[i] = static_cast<uint8_t>(first + i);
  return id;
}

std::string Message(const absl::Status& s) { return std::string(s.message()); }

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::filesystem::remove(path);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Deletes each doc with probability p in both the bitset and the model.
void DeleteRandom(Random& rng, double p, LiveDocs* live, std::vector<bool>* model) {
  for (uint32_t d = 0; d < live->doc_count(); ++d) {
    if (!rng.Bernoulli(p)) continue;
    EXPECT_EQ(live->Delete(d), (*model)[d]) << "doc " << d;
    (*model)[d] = false;
  }
}

void ExpectMatches(const LiveDocs& live, const std::vector<bool>& model) {
  ASSERT_EQ(live.doc_count(), model.size());
  uint32_t deleted = 0;
  for (uint32_t d = 0; d < model.size(); ++d) {
    ASSERT_EQ(live.IsLive(d), model[d]) << "doc " << d;
    deleted += !model[d];
  }
  EXPECT_EQ(live.del_count(), deleted);
}

// Sizes around the word boundaries, and a few large ones.
const uint32_t kSizes[] = {0, 1, 2, 63, 64, 65, 127, 128, 129, 1000, 4096, 100003};

TEST(LiveDocsTest, BitsetMatchesAVectorOfBool) {
  Random rng(testing::TestSeed(12001));
  for (uint32_t n : kSizes) {
    LiveDocs live(n);
    std::vector<bool> model(n, true);
    ExpectMatches(live, model);
    for (double p : {0.01, 0.3, 1.0}) {
      DeleteRandom(rng, p, &live, &model);
      ExpectMatches(live, model);
    }
    // Deleting a deleted doc changes nothing.
    if (n > 0) {
      EXPECT_FALSE(live.Delete(n - 1));
      ExpectMatches(live, model);
    }
  }
}

TEST(LiveDocsTest, FromWordsChecksCountAndTailBits) {
  LiveDocs live(70);
  live.Delete(3);
  live.Delete(69);
  absl::StatusOr<LiveDocs> copy = LiveDocs::FromWords(70, live.words());
  ASSERT_TRUE(copy.ok()) << copy.status();
  EXPECT_EQ(*copy, live);
  EXPECT_EQ(copy->del_count(), 2u);

  std::vector<uint64_t> tail = live.words();
  tail[1] |= uint64_t{1} << 6;  // doc 70: past the end
  EXPECT_EQ(LiveDocs::FromWords(70, tail).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(LiveDocs::FromWords(70, {~uint64_t{0}}).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(LiveDocs::FromWords(64, {~uint64_t{0}, 0}).status().code(),
            absl::StatusCode::kDataLoss);
  absl::StatusOr<LiveDocs> empty = LiveDocs::FromWords(0, {});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->del_count(), 0u);
}

TEST(LiveDocsFileNameTest, NamesAndParsing) {
  EXPECT_EQ(LiveDocsFileName("_3", 1), "_3_1.liv");
  EXPECT_EQ(LiveDocsFileName("_a", 35), "_a_z.liv");
  EXPECT_EQ(LiveDocsFileName("_10", 36), "_10_10.liv");
  for (uint64_t number : {uint64_t{0}, uint64_t{5}, uint64_t{36}, uint64_t{123456789}}) {
    for (uint64_t gen : {uint64_t{1}, uint64_t{35}, uint64_t{36}, uint64_t{99999999999}}) {
      const std::string name = LiveDocsFileName(SegmentName(number), gen);
      std::optional<SegmentFileNameParts> parts = ParseSegmentFileName(name);
      ASSERT_TRUE(parts.has_value()) << name;
      EXPECT_EQ(parts->segment, SegmentName(number)) << name;
      EXPECT_EQ(parts->number, number) << name;
      EXPECT_EQ(parts->extension, "liv") << name;
      EXPECT_EQ(parts->del_gen, gen) << name;
    }
  }
  // Other segment files have del_gen 0.
  std::optional<SegmentFileNameParts> doc = ParseSegmentFileName("_3.doc");
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(doc->del_gen, 0u);
  EXPECT_EQ(doc->segment, "_3");
  for (const char* bad : {"_3_0.liv", "_3_01.liv", "_3.liv", "_3_.liv", "__1.liv", "_03_1.liv",
                          "_3_A.liv", "_3_1_2.liv", "_3__1.liv", "_3_1.doc", "_3_1.liv.tmp",
                          "_3_1.LIV", "_3_1liv", "_3_1234567890abc.liv", "3_1.liv", "_3_-1.liv"}) {
    EXPECT_FALSE(ParseSegmentFileName(bad).has_value()) << bad;
  }
  EXPECT_TRUE(ParseSegmentFileName("_3_123456789abc.liv").has_value());  // 12 digits
}

class LiveDocsFileTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = scratch_.Open(); }
  std::string PathOf(const std::string& name) const { return scratch_.path() + "/" + name; }

  testing::ScratchDir scratch_;
  std::unique_ptr<FSDirectory> dir_;
  const SegmentId id_ = MakeId(0x40);
};

TEST_F(LiveDocsFileTest, RandomizedRoundTrips) {
  Random rng(testing::TestSeed(12002));
  uint64_t gen = 0;
  for (int round = 0; round < 40; ++round) {
    const uint32_t n = round < 12 ? kSizes[round] : static_cast<uint32_t>(rng.Range(1, 20000));
    LiveDocs live(n);
    std::vector<bool> model(n, true);
    DeleteRandom(rng, rng.NextDouble(), &live, &model);
    ++gen;
    uint64_t checksum = 0;
    absl::StatusOr<std::string> name = WriteLiveDocs(dir_.get(), "_7", id_, gen, live, &checksum);
    ASSERT_TRUE(name.ok()) << name.status();
    EXPECT_EQ(*name, LiveDocsFileName("_7", gen));
    // The checksum given is the one in the footer.
    absl::StatusOr<IndexInput> in = OpenInput(dir_.get(), *name);
    ASSERT_TRUE(in.ok());
    EXPECT_EQ(*ReadFooterChecksum(*in), checksum);
    // Exact size: header, VLong + 2 VInts, the words, footer.
    const uint64_t expected_min = HeaderLength(kLiveDocsCodec) + 3 + 8 * ((n + 63) / 64) + 16;
    EXPECT_GE(in->length(), expected_min);
    EXPECT_LE(in->length(), expected_min + 2 + 4 + 4);

    absl::StatusOr<LiveDocs> read = ReadLiveDocs(dir_.get(), "_7", id_, gen, n, live.del_count());
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(*read, live);
    ExpectMatches(*read, model);
  }
}

TEST_F(LiveDocsFileTest, DisagreementsWithTheCommitAreDataLoss) {
  LiveDocs live(100);
  live.Delete(5);
  live.Delete(50);
  ASSERT_TRUE(WriteLiveDocs(dir_.get(), "_2", id_, 3, live).ok());
  ASSERT_TRUE(ReadLiveDocs(dir_.get(), "_2", id_, 3, 100, 2).ok());

  auto expect_loss = [&](absl::StatusOr<LiveDocs> r, const std::string& what) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss) << r.status();
    EXPECT_THAT(Message(r.status()), HasSubstr("_2_3.liv"));
    EXPECT_THAT(Message(r.status()), HasSubstr(what));
  };
  expect_loss(ReadLiveDocs(dir_.get(), "_2", MakeId(0x41), 3, 100, 2), "segment id mismatch");
  expect_loss(ReadLiveDocs(dir_.get(), "_2", id_, 3, 101, 2), "documents");
  expect_loss(ReadLiveDocs(dir_.get(), "_2", id_, 3, 100, 1), "the commit says 1");

  // A file of generation 3 under generation 4's name.
  std::filesystem::copy_file(PathOf("_2_3.liv"), PathOf("_2_4.liv"));
  absl::StatusOr<LiveDocs> renamed = ReadLiveDocs(dir_.get(), "_2", id_, 4, 100, 2);
  ASSERT_FALSE(renamed.ok());
  EXPECT_EQ(renamed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(Message(renamed.status()), HasSubstr("generation 3"));

  absl::StatusOr<LiveDocs> missing = ReadLiveDocs(dir_.get(), "_2", id_, 9, 100, 2);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Message(missing.status()), HasSubstr("_2_9.liv"));
}

TEST_F(LiveDocsFileTest, EveryFlippedByteAndTruncationIsDetected) {
  Random rng(testing::TestSeed(12003));
  for (uint32_t n : {uint32_t{0}, uint32_t{1}, uint32_t{64}, uint32_t{200}}) {
    LiveDocs live(n);
    std::vector<bool> model(n, true);
    DeleteRandom(rng, 0.3, &live, &model);
    const uint64_t gen = n + 1;
    absl::StatusOr<std::string> name = WriteLiveDocs(dir_.get(), "_5", id_, gen, live);
    ASSERT_TRUE(name.ok()) << name.status();
    const std::string path = PathOf(*name);
    const std::string original = ReadBytes(path);
    auto read = [&] { return ReadLiveDocs(dir_.get(), "_5", id_, gen, n, live.del_count()); };
    ASSERT_TRUE(read().ok());
    for (size_t i = 0; i < original.size(); ++i) {
      for (uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xff}}) {
        std::string damaged = original;
        damaged[i] = static_cast<char>(damaged[i] ^ mask);
        WriteBytes(path, damaged);
        absl::StatusOr<LiveDocs> r = read();
        EXPECT_FALSE(r.ok()) << "n " << n << ": byte " << i << " ^ " << int{mask} << " undetected";
        if (!r.ok()) {
          EXPECT_THAT(Message(r.status()), HasSubstr(*name));
        }
      }
    }
    for (size_t length = 0; length < original.size(); ++length) {
      WriteBytes(path, original.substr(0, length));
      absl::StatusOr<LiveDocs> r = read();
      EXPECT_FALSE(r.ok()) << "n " << n << ": truncation to " << length << " undetected";
      if (!r.ok()) {
        EXPECT_EQ(r.status().code(), absl::StatusCode::kDataLoss) << r.status();
        EXPECT_THAT(Message(r.status()), HasSubstr(*name));
      }
    }
    WriteBytes(path, original + "x");  // a trailing byte
    EXPECT_FALSE(read().ok());
    WriteBytes(path, original);
    ASSERT_TRUE(read().ok());
  }
}

TEST_F(LiveDocsFileTest, WriterErrors) {
  LiveDocs live(10);
  live.Delete(1);
  absl::StatusOr<std::string> zero = WriteLiveDocs(dir_.get(), "_1", id_, 0, live);
  EXPECT_EQ(zero.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(PathOf("_1_0.liv")));

  // An existing file is refused and left as it is.
  WriteBytes(PathOf("_1_1.liv"), "someone else's");
  absl::StatusOr<std::string> exists = WriteLiveDocs(dir_.get(), "_1", id_, 1, live);
  EXPECT_EQ(exists.status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(ReadBytes(PathOf("_1_1.liv")), "someone else's");

  // A failed write or close leaves nothing behind.
  FaultInjectingDirectory counting(dir_.get());
  ASSERT_TRUE(WriteLiveDocs(&counting, "_1", id_, 2, live).ok());
  const uint64_t ops = counting.op_count();
  ASSERT_GT(ops, 1u);
  for (uint64_t n = 1; n <= ops; ++n) {
    FaultInjectingDirectory faulty(dir_.get());
    faulty.FailAt(n);
    absl::StatusOr<std::string> failed = WriteLiveDocs(&faulty, "_1", id_, 3, live);
    EXPECT_FALSE(failed.ok()) << "op " << n;
    EXPECT_THAT(Message(failed.status()), HasSubstr("injected fault"));
    EXPECT_FALSE(std::filesystem::exists(PathOf("_1_3.liv"))) << "op " << n;
  }
}

}  // namespace
}  // namespace invert

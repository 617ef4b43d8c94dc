// Tests of IndexInput::Prefetch: the three policies' system-call counts
// against a scripted MappedFile (exact backoff schedule, reset on a miss, the
// misses backoff skips when hits and misses mix), range errors, slices, and
// on real mapped files that prefetching never changes what is read and that
// mincore/madvise see evicted pages.
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "invert/directory.h"
#include "store/index_input.h"
#include "store/index_output.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

// A MappedFile whose residency the test decides, counting the calls.
class ScriptedFile final : public MappedFile {
 public:
  explicit ScriptedFile(size_t size)
      : ScriptedFile(std::make_unique<std::vector<uint8_t>>(size, 0x5a)) {}

  absl::Status WillNeed(uint64_t offset, uint64_t length) const override {
    ++will_need;
    last_offset = offset;
    last_length = length;
    return will_need_status;
  }
  absl::StatusOr<bool> IsResident(uint64_t offset, uint64_t length) const override {
    ++is_resident;
    last_offset = offset;
    last_length = length;
    return resident(offset, length);
  }

  absl::Status Advise(uint64_t offset, uint64_t length, ReadAdvice advice) const override {
    last_offset = offset;
    last_length = length;
    last_advice = advice;
    return absl::OkStatus();
  }

  mutable ReadAdvice last_advice = ReadAdvice::kNormal;
  mutable uint64_t will_need = 0;
  mutable uint64_t is_resident = 0;
  mutable uint64_t last_offset = 0;
  mutable uint64_t last_length = 0;
  std::function<bool(uint64_t, uint64_t)> resident = [](uint64_t, uint64_t) { return true; };
  absl::Status will_need_status;

 private:
  explicit ScriptedFile(std::unique_ptr<std::vector<uint8_t>> bytes)
      : MappedFile(std::span<const uint8_t>(bytes->data(), bytes->size())),
        bytes_(std::move(bytes)) {}
  std::unique_ptr<std::vector<uint8_t>> bytes_;
};

class PrefetchTest : public ::testing::Test {
 protected:
  PrefetchTest() : file_(std::make_shared<ScriptedFile>(1 << 20)), in_("scripted", file_) {}

  std::shared_ptr<ScriptedFile> file_;
  IndexInput in_;
};

TEST_F(PrefetchTest, OffMakesNoCalls) {
  in_.set_prefetch_policy(PrefetchPolicy::kOff);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(in_.Prefetch(i * 4096, 16).ok());
  EXPECT_EQ(in_.prefetch_stats().calls, 100u);
  EXPECT_EQ(in_.prefetch_stats().madvise, 0u);
  EXPECT_EQ(in_.prefetch_stats().mincore, 0u);
  EXPECT_EQ(file_->will_need + file_->is_resident, 0u);
}

TEST_F(PrefetchTest, AlwaysAdvisesEveryCall) {
  in_.set_prefetch_policy(PrefetchPolicy::kAlways);
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(in_.Prefetch(i * 4096, 16).ok());
  EXPECT_EQ(in_.prefetch_stats().madvise, 100u);
  EXPECT_EQ(in_.prefetch_stats().mincore, 0u);
  EXPECT_EQ(file_->will_need, 100u);
  EXPECT_EQ(file_->is_resident, 0u);
}

TEST_F(PrefetchTest, BackoffChecksAtPowersOfTwoWhileEverythingIsCached) {
  in_.set_prefetch_policy(PrefetchPolicy::kBackoff);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(in_.Prefetch(i * 512, 16).ok());
  // Counters 0, 1, 2, 4, ..., 512: 11 checks, no madvise.
  EXPECT_EQ(in_.prefetch_stats().mincore, 11u);
  EXPECT_EQ(in_.prefetch_stats().madvise, 0u);
  EXPECT_EQ(file_->is_resident, 11u);
  EXPECT_EQ(file_->will_need, 0u);
}

TEST_F(PrefetchTest, BackoffAdvisesEveryMissAndResetsOnIt) {
  in_.set_prefetch_policy(PrefetchPolicy::kBackoff);
  auto step = [&](uint64_t want_mincore, uint64_t want_madvise) {
    ASSERT_TRUE(in_.Prefetch(0, 1).ok());
    EXPECT_EQ(in_.prefetch_stats().mincore, want_mincore);
    EXPECT_EQ(in_.prefetch_stats().madvise, want_madvise);
  };
  // Five hits: checks at counters 0, 1, 2, 4.
  step(1, 0);
  step(2, 0);
  step(3, 0);
  step(3, 0);
  step(4, 0);
  // The data leaves the cache: counters 5-7 are skipped, 8 checks and misses.
  file_->resident = [](uint64_t, uint64_t) { return false; };
  step(4, 0);
  step(4, 0);
  step(4, 0);
  step(5, 1);
  // Reset: every call checks while it keeps missing.
  step(6, 2);
  step(7, 3);
  // Cached again: 0 was the last miss, so checks at 0 (done), 1, 2, 4...
  file_->resident = [](uint64_t, uint64_t) { return true; };
  step(8, 3);
  step(9, 3);
  step(10, 3);
  step(10, 3);
  step(11, 3);
}

TEST_F(PrefetchTest, BackoffSkipsMissesWhenHitsAndMissesMix) {
  // Seed 000's re-ranking pattern: most reads cached, some not. Always
  // advises every miss; backoff misses the misses that fall between checks.
  Random rng(testing::TestSeed(1234));
  std::vector<bool> pattern(10000);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = rng.Bernoulli(0.9);
  size_t call = 0;
  file_->resident = [&](uint64_t, uint64_t) { return pattern[call]; };

  uint64_t misses = 0;
  for (PrefetchPolicy policy : {PrefetchPolicy::kAlways, PrefetchPolicy::kBackoff}) {
    IndexInput in = in_;
    in.set_prefetch_policy(policy);
    uint64_t advised_misses = 0;
    misses = 0;
    for (call = 0; call < pattern.size(); ++call) {
      const uint64_t before = in.prefetch_stats().madvise;
      ASSERT_TRUE(in.Prefetch(call * 64, 64).ok());
      misses += !pattern[call];
      advised_misses += !pattern[call] && in.prefetch_stats().madvise > before;
    }
    if (policy == PrefetchPolicy::kAlways) {
      EXPECT_EQ(advised_misses, misses);
    } else {
      // Fewer system calls, but most misses go unprefetched.
      EXPECT_LT(in.prefetch_stats().mincore + in.prefetch_stats().madvise, pattern.size());
      EXPECT_LT(advised_misses, misses / 2);
      EXPECT_EQ(advised_misses, in.prefetch_stats().madvise);
    }
  }
  EXPECT_GT(misses, 800u);
}

TEST_F(PrefetchTest, RangeErrorsAreStatusesNotStickyAndNotCounted) {
  for (PrefetchPolicy policy :
       {PrefetchPolicy::kOff, PrefetchPolicy::kAlways, PrefetchPolicy::kBackoff}) {
    in_.set_prefetch_policy(policy);
    const uint64_t n = in_.length();
    EXPECT_EQ(in_.Prefetch(0, 0).code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(in_.Prefetch(n, 0).code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(in_.Prefetch(n, 1).code(), absl::StatusCode::kOutOfRange);
    EXPECT_EQ(in_.Prefetch(n - 1, 2).code(), absl::StatusCode::kOutOfRange);
    EXPECT_EQ(in_.Prefetch(~uint64_t{0}, 2).code(), absl::StatusCode::kOutOfRange);
    EXPECT_EQ(in_.Prefetch(2, ~uint64_t{0}).code(), absl::StatusCode::kOutOfRange);
    EXPECT_TRUE(in_.Prefetch(n - 1, 1).ok());
    EXPECT_TRUE(in_.Prefetch(0, n).ok());
  }
  EXPECT_TRUE(in_.ok());
  EXPECT_EQ(in_.position(), 0u);
  EXPECT_EQ(in_.prefetch_stats().calls, 6u);
}

TEST_F(PrefetchTest, SlicesPrefetchAtFileOffsetsWithTheirOwnCounters) {
  in_.set_prefetch_policy(PrefetchPolicy::kAlways);
  ASSERT_TRUE(in_.Prefetch(0, 1).ok());
  auto slice = in_.Slice(10000, 5000);
  ASSERT_TRUE(slice.ok());
  EXPECT_EQ(slice->prefetch_policy(), PrefetchPolicy::kAlways);
  EXPECT_EQ(slice->prefetch_stats().madvise, 0u);
  ASSERT_TRUE(slice->Prefetch(100, 50).ok());
  EXPECT_EQ(file_->last_offset, 10100u);
  EXPECT_EQ(file_->last_length, 50u);
  EXPECT_EQ(slice->Prefetch(4990, 11).code(), absl::StatusCode::kOutOfRange);
  IndexInput copy = *slice;  // a copy carries its counters
  EXPECT_EQ(copy.prefetch_stats().madvise, 1u);
}

TEST_F(PrefetchTest, ReadAdviceCoversTheInputsRange) {
  auto slice = in_.Slice(4096, 8192);
  ASSERT_TRUE(slice.ok());
  ASSERT_TRUE(slice->SetReadAdvice(ReadAdvice::kRandom).ok());
  EXPECT_EQ(file_->last_advice, ReadAdvice::kRandom);
  EXPECT_EQ(file_->last_offset, 4096u);
  EXPECT_EQ(file_->last_length, 8192u);
  EXPECT_TRUE(in_.Slice(0, 0)->SetReadAdvice(ReadAdvice::kSequential).ok());
  EXPECT_EQ(file_->last_advice, ReadAdvice::kRandom);  // empty: nothing to advise
}

TEST_F(PrefetchTest, FileErrorsReachTheCaller) {
  in_.set_prefetch_policy(PrefetchPolicy::kAlways);
  file_->will_need_status = absl::InternalError("madvise broke");
  EXPECT_EQ(in_.Prefetch(0, 1).message(), "madvise broke");
  EXPECT_TRUE(in_.ok());  // reads are unaffected
}

class PrefetchMappedFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "invert_prefetch_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    path_ = pattern;
    auto dir = FSDirectory::Open(path_, false);
    ASSERT_TRUE(dir.ok());
    dir_ = *std::move(dir);
    Random rng(testing::TestSeed(77));
    model_.resize(3 * 1024 * 1024 + 123);
    for (uint8_t& b : model_) b = static_cast<uint8_t>(rng.Next());
    auto out = CreateOutput(dir_.get(), "data");
    ASSERT_TRUE(out.ok());
    (*out)->WriteBytes(model_.data(), model_.size());
    ASSERT_TRUE((*out)->Close().ok());
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

  std::string path_;
  std::unique_ptr<FSDirectory> dir_;
  std::vector<uint8_t> model_;
};

TEST_F(PrefetchMappedFileTest, PrefetchNeverChangesWhatIsRead) {
  Random rng(testing::TestSeed(5));
  for (PrefetchPolicy policy :
       {PrefetchPolicy::kOff, PrefetchPolicy::kAlways, PrefetchPolicy::kBackoff}) {
    auto in = OpenInput(dir_.get(), "data");
    ASSERT_TRUE(in.ok());
    in->set_prefetch_policy(policy);
    ASSERT_TRUE(in->SetReadAdvice(policy == PrefetchPolicy::kOff ? ReadAdvice::kSequential
                                                                 : ReadAdvice::kRandom)
                    .ok());
    for (int i = 0; i < 2000; ++i) {
      const uint64_t offset = rng.Uniform(model_.size());
      const uint64_t length = rng.Range(1, std::min<uint64_t>(model_.size() - offset, 70000));
      ASSERT_TRUE(in->Prefetch(offset, length).ok());
      ASSERT_TRUE(in->Seek(offset).ok());
      std::vector<uint8_t> got(std::min<uint64_t>(length, 64));
      ASSERT_TRUE(in->ReadBytes(got.data(), got.size()));
      ASSERT_TRUE(std::equal(got.begin(), got.end(), model_.begin() + offset));
    }
    // The last byte's page and the page-rounded end of the mapping are fine.
    EXPECT_TRUE(in->Prefetch(model_.size() - 1, 1).ok());
    EXPECT_TRUE(in->Prefetch(0, model_.size()).ok());
    EXPECT_EQ(in->prefetch_stats().calls, 2002u);
    if (policy == PrefetchPolicy::kAlways) {
      EXPECT_EQ(in->prefetch_stats().madvise, 2002u);
    }
    if (policy == PrefetchPolicy::kBackoff) {
      // Just written, so cached: no madvise, and about log2(2002) checks.
      EXPECT_EQ(in->prefetch_stats().madvise, 0u);
      EXPECT_EQ(in->prefetch_stats().mincore, 12u);
    }
  }
}

TEST_F(PrefetchMappedFileTest, MincoreSeesEvictedPages) {
  const std::string file = path_ + "/data";
  const int fd = ::open(file.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::fdatasync(fd), 0);  // clean pages can be dropped
  ASSERT_EQ(::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
  ::close(fd);
  auto mapped = dir_->OpenFile("data");
  ASSERT_TRUE(mapped.ok());
  auto resident = (*mapped)->IsResident(0, model_.size());
  ASSERT_TRUE(resident.ok()) << resident.status();
  if (*resident) {
    GTEST_SKIP() << "posix_fadvise(POSIX_FADV_DONTNEED) did not evict on this file system "
                    "(e.g. tmpfs); the miss path is covered by PrefetchTest";
  }
  IndexInput in("data", *mapped);
  in.set_prefetch_policy(PrefetchPolicy::kBackoff);
  ASSERT_TRUE(in.Prefetch(1 << 20, 16).ok());
  EXPECT_EQ(in.prefetch_stats().mincore, 1u);
  EXPECT_EQ(in.prefetch_stats().madvise, 1u);
  uint8_t b;
  ASSERT_TRUE(in.Seek(1 << 20).ok());
  ASSERT_TRUE(in.ReadByte(&b));
  EXPECT_EQ(b, model_[1 << 20]);
  EXPECT_TRUE(*(*mapped)->IsResident(1 << 20, 1));  // read in now
}

}  // namespace
}  // namespace invert

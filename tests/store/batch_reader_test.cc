// Tests of BatchReader: both backends (io_uring where the kernel allows it,
// the pread thread pool everywhere) read random batches exactly like the
// file's bytes, batches larger than the queue, and out-of-range requests.
#include "store/batch_reader.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

class StoreBatchReaderTest : public ::testing::TestWithParam<BatchReader::Backend> {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "invert_batch_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    Random rng(testing::TestSeed(31));
    model_.resize(1 << 20);
    for (uint8_t& b : model_) b = static_cast<uint8_t>(rng.Next());
    std::ofstream(dir_ + "/data", std::ios::binary)
        .write(reinterpret_cast<const char*>(model_.data()), model_.size());
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  std::unique_ptr<BatchReader> Open(unsigned queue_depth = 8) {
    BatchReader::Options options;
    options.backend = GetParam();
    options.queue_depth = queue_depth;
    options.pool_threads = 2;
    auto reader = BatchReader::Open(dir_ + "/data", options);
    EXPECT_TRUE(reader.ok()) << reader.status();
    if (!reader.ok()) return nullptr;
    if (GetParam() == BatchReader::Backend::kIoUring) {
      std::printf("[   NOTE   ] io_uring %s; backend in use: %s\n",
                  IoUringAvailable() ? "available" : "unavailable (pread pool fallback)",
                  BatchBackendName((*reader)->backend()));
      EXPECT_EQ((*reader)->backend() == BatchReader::Backend::kIoUring, IoUringAvailable());
    } else {
      EXPECT_EQ((*reader)->backend(), BatchReader::Backend::kThreadPool);
    }
    return *std::move(reader);
  }

  std::string dir_;
  std::vector<uint8_t> model_;
};

TEST_P(StoreBatchReaderTest, RandomBatchesMatchTheFile) {
  auto reader = Open();
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->length(), model_.size());
  Random rng(testing::TestSeed(32));
  for (int round = 0; round < 200; ++round) {
    const size_t n = rng.Range(0, 20);  // beyond the queue depth of 8 at times
    std::vector<std::vector<uint8_t>> buffers(n);
    std::vector<ReadRequest> requests(n);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t offset = rng.Uniform(model_.size());
      buffers[i].resize(rng.Range(0, std::min<uint64_t>(model_.size() - offset, 10000)));
      requests[i] = {offset, buffers[i]};
    }
    ASSERT_TRUE(reader->Read(requests).ok());
    for (size_t i = 0; i < n; ++i) {
      ASSERT_TRUE(
          std::equal(buffers[i].begin(), buffers[i].end(), model_.begin() + requests[i].offset));
    }
  }
  EXPECT_GT(reader->syscalls(), 0u);
}

TEST_P(StoreBatchReaderTest, OutOfRangeRequestsFailBeforeReading) {
  auto reader = Open();
  ASSERT_NE(reader, nullptr);
  std::vector<uint8_t> a(4), b(4);
  const uint64_t before = reader->syscalls();
  std::vector<ReadRequest> requests = {{0, a}, {model_.size() - 3, b}};
  EXPECT_EQ(reader->Read(requests).code(), absl::StatusCode::kOutOfRange);
  requests = {{~uint64_t{0}, a}};
  EXPECT_EQ(reader->Read(requests).code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(reader->syscalls(), before);
  requests = {{model_.size() - 4, b}};
  ASSERT_TRUE(reader->Read(requests).ok());
  EXPECT_TRUE(std::equal(b.begin(), b.end(), model_.end() - 4));
}

TEST_P(StoreBatchReaderTest, MissingFile) {
  BatchReader::Options options;
  options.backend = GetParam();
  auto reader = BatchReader::Open(dir_ + "/missing", options);
  EXPECT_EQ(reader.status().code(), absl::StatusCode::kNotFound);
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreBatchReaderTest,
                         ::testing::Values(BatchReader::Backend::kIoUring,
                                           BatchReader::Backend::kThreadPool),
                         [](const auto& param_info) {
                           return std::string(BatchBackendName(param_info.param));
                         });

}  // namespace
}  // namespace invert

// ScratchDir: a fresh directory under the test temp dir, removed (made
// writable first) when the test ends; plus an FSDirectory over it.
#ifndef INVERT_TESTS_SCRATCH_DIR_H_
#define INVERT_TESTS_SCRATCH_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "invert/directory.h"

namespace invert::testing {

class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = ::testing::TempDir() + "invert_test_XXXXXX";
    char* made = ::mkdtemp(pattern.data());
    EXPECT_NE(made, nullptr);
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ignored);
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }

  std::unique_ptr<FSDirectory> Open() const {
    auto dir = FSDirectory::Open(path_, /*create=*/false);
    EXPECT_TRUE(dir.ok()) << dir.status();
    return dir.ok() ? std::move(*dir) : nullptr;
  }

 private:
  std::string path_;
};

}  // namespace invert::testing

#endif  // INVERT_TESTS_SCRATCH_DIR_H_

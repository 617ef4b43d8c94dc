// TempFile: a file under the test temp directory with given contents, removed
// when the object goes out of scope. For the document-source tests, which
// never read standard input.
#ifndef INVERT_TESTS_CORPUS_TEMP_FILE_H_
#define INVERT_TESTS_CORPUS_TEMP_FILE_H_

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "gtest/gtest.h"

namespace invert::testing {

class TempFile {
 public:
  explicit TempFile(std::string_view contents) {
    std::string pattern = ::testing::TempDir() + "invert_corpus_XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    EXPECT_GE(fd, 0) << pattern;
    path_ = pattern;
    size_t done = 0;
    while (fd >= 0 && done < contents.size()) {
      const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    EXPECT_EQ(done, contents.size());
    if (fd >= 0) ::close(fd);
  }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace invert::testing

#endif  // INVERT_TESTS_CORPUS_TEMP_FILE_H_

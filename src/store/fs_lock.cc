// FSDirectory::ObtainLock: an exclusive open-file-description lock.
//
// fcntl(F_OFD_SETLK) locks belong to the open file description, not to the
// process (as POSIX record locks do): two opens of the lock file in one
// process conflict exactly as two processes do, and the kernel drops the lock
// when the last descriptor of that description closes, which includes the
// death of the process (kill -9 too). NFS and other network file systems may
// not honour them; an index directory should be local.
//
// The holder writes "<pid>\n" into the file after locking, so that a refused
// writer can name it. The lock file is never deleted (deleting it would let a
// second writer lock a fresh file while the first still holds the old one);
// EnsureValid() detects that someone else did.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "invert/directory.h"
#include "store/io_error.h"
#include "util/absl_compat.h"

namespace invert {
namespace {

using internal::IoError;

class FSLock final : public DirectoryLock {
 public:
  FSLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~FSLock() override { ::close(fd_); }  // releases the lock

  absl::Status EnsureValid() const override {
    struct stat held, now;
    if (::fstat(fd_, &held) != 0) return IoError("fstat", path_, errno);
    if (::stat(path_.c_str(), &now) != 0) {
      return absl::FailedPreconditionError(
          absl::StrCat("the lock file ", path_,
                       " was deleted while this writer held it: another writer may have taken "
                       "the index; stop and check the directory"));
    }
    if (held.st_dev != now.st_dev || held.st_ino != now.st_ino) {
      return absl::FailedPreconditionError(
          absl::StrCat("the lock file ", path_,
                       " was replaced while this writer held it: another writer may have taken "
                       "the index; stop and check the directory"));
    }
    return absl::OkStatus();
  }

 private:
  int fd_;
  std::string path_;
};

// The pid recorded in the lock file, or "" if it holds none.
std::string HolderPid(int fd) {
  char buffer[32];
  const ssize_t n = ::pread(fd, buffer, sizeof(buffer) - 1, 0);
  if (n <= 0) return "";
  const auto text =
      absl::StripAsciiWhitespace(Sv(std::string_view(buffer, static_cast<size_t>(n))));
  uint64_t pid = 0;
  if (!absl::SimpleAtoi(text, &pid) || pid == 0) return "";
  return std::to_string(pid);
}

}  // namespace

absl::StatusOr<std::unique_ptr<DirectoryLock>> FSDirectory::ObtainLock(std::string_view name) {
  if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  const std::string path = FilePath(name);
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return IoError("open lock file", path, errno);
  struct flock lock = {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;  // l_start = l_len = 0: the whole file
  int rc;
  do {
    rc = ::fcntl(fd, F_OFD_SETLK, &lock);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    const int error = errno;
    if (error == EAGAIN || error == EACCES) {
      const std::string pid = HolderPid(fd);
      ::close(fd);
      return absl::FailedPreconditionError(absl::StrCat(
          "the index in ", path_, " is locked by another writer",
          pid.empty() ? std::string() : absl::StrCat(" (process ", pid, ")"), " holding ", path,
          ": only one writer may open an index at a time; close the other writer first"));
    }
    ::close(fd);
    return IoError("lock", path, error);
  }
  const std::string pid = absl::StrCat(::getpid(), "\n");
  // Best effort: the pid only improves a refusal's message.
  if (::ftruncate(fd, 0) == 0) (void)!::pwrite(fd, pid.data(), pid.size(), 0);
  return std::unique_ptr<DirectoryLock>(new FSLock(fd, path));
}

}  // namespace invert

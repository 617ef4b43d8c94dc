// FSDirectory: POSIX files. Writes go through write(2) (retrying EINTR and
// short writes), reads through read-only MAP_SHARED maps, durability through
// fsync of files and of the folder.
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "invert/directory.h"
#include "store/io_error.h"
#include "util/absl_compat.h"

namespace invert {
namespace {

using internal::IoError;

// Retries a system call that failed with EINTR.
template <typename F>
auto RetryOnEintr(F f) {
  decltype(f()) result;
  do {
    result = f();
  } while (result < 0 && errno == EINTR);
  return result;
}

uint64_t PageSize() {
  static const uint64_t page_size = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return page_size;
}

class FSWritableFile final : public WritableFile {
 public:
  FSWritableFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~FSWritableFile() override {
    if (fd_ >= 0) ::close(fd_);
  }

  absl::Status Append(std::span<const uint8_t> data) override {
    if (fd_ < 0) return absl::FailedPreconditionError(absl::StrCat("append to closed ", path_));
    const uint8_t* p = data.data();
    size_t left = data.size();
    while (left > 0) {
      // One write(2) moves at most ~2 GiB on Linux; ask for no more than 1 GiB.
      const size_t chunk = std::min<size_t>(left, size_t{1} << 30);
      const ssize_t n = ::write(fd_, p, chunk);
      if (n < 0) {
        if (errno == EINTR) continue;
        return IoError("write", path_, errno);
      }
      if (n == 0) return IoError("write", path_, EIO);  // no progress: never loop forever
      p += n;
      left -= static_cast<size_t>(n);
    }
    return absl::OkStatus();
  }

  absl::Status Close() override {
    if (fd_ < 0) return absl::OkStatus();
    const int fd = std::exchange(fd_, -1);
    // On Linux the descriptor is released even when close() fails (also on
    // EINTR), so it is never retried.
    if (::close(fd) < 0 && errno != EINTR) return IoError("close", path_, errno);
    return absl::OkStatus();
  }

 private:
  int fd_;
  std::string path_;
};

class FSMappedFile final : public MappedFile {
 public:
  // `address` is the start of a mapping of `size` bytes, or null when size is 0.
  FSMappedFile(const uint8_t* address, uint64_t size, std::string path)
      : MappedFile(std::span<const uint8_t>(address == nullptr ? kEmpty : address, size)),
        address_(address),
        size_(size),
        path_(std::move(path)) {}
  ~FSMappedFile() override {
    if (address_ != nullptr) ::munmap(const_cast<uint8_t*>(address_), size_);
  }

  absl::Status WillNeed(uint64_t offset, uint64_t length) const override {
    auto [start, bytes] = PageRange(offset, length);
    if (::madvise(const_cast<uint8_t*>(address_) + start, bytes, MADV_WILLNEED) < 0) {
      return IoError("madvise(MADV_WILLNEED)", path_, errno);
    }
    return absl::OkStatus();
  }

  absl::Status Advise(uint64_t offset, uint64_t length, ReadAdvice advice) const override {
    auto [start, bytes] = PageRange(offset, length);
    const int flag = advice == ReadAdvice::kRandom       ? MADV_RANDOM
                     : advice == ReadAdvice::kSequential ? MADV_SEQUENTIAL
                                                         : MADV_NORMAL;
    if (::madvise(const_cast<uint8_t*>(address_) + start, bytes, flag) < 0) {
      return IoError("madvise", path_, errno);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<bool> IsResident(uint64_t offset, uint64_t length) const override {
    auto [start, bytes] = PageRange(offset, length);
    constexpr uint64_t kChunkPages = 256;
    unsigned char vec[kChunkPages];
    const uint64_t page = PageSize();
    for (uint64_t done = 0; done < bytes;) {
      const uint64_t chunk = std::min(bytes - done, kChunkPages * page);
      if (::mincore(const_cast<uint8_t*>(address_) + start + done, chunk, vec) < 0) {
        return IoError("mincore", path_, errno);
      }
      for (uint64_t i = 0; i < chunk / page; ++i) {
        if ((vec[i] & 1) == 0) return false;
      }
      done += chunk;
    }
    return true;
  }

 private:
  static constexpr uint8_t kEmpty[1] = {0};

  // The page-aligned range covering [offset, offset + length), as (start
  // offset, byte count). Stays inside the mapping, whose length the kernel
  // rounds up to whole pages.
  std::pair<uint64_t, uint64_t> PageRange(uint64_t offset, uint64_t length) const {
    const uint64_t page = PageSize();
    const uint64_t start = offset & ~(page - 1);
    const uint64_t end = (offset + length + page - 1) & ~(page - 1);
    return {start, end - start};
  }

  const uint8_t* address_;
  uint64_t size_;
  std::string path_;
};

std::atomic<uint64_t> probe_counter{0};

}  // namespace

absl::StatusOr<std::unique_ptr<FSDirectory>> FSDirectory::Open(std::string path, bool create) {
  if (path.empty()) return absl::InvalidArgumentError("index directory path is empty");
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (create) {
    std::error_code error;
    std::filesystem::create_directories(path, error);
    if (error) return IoError("create index directory", path, error.value());
  }
  struct stat st;
  if (::stat(path.c_str(), &st) < 0) {
    const int error = errno;
    if (error == ENOENT) {
      return absl::NotFoundError(absl::StrCat("index directory does not exist: ", path));
    }
    if (error == ENOTDIR) {
      return absl::FailedPreconditionError(
          absl::StrCat("index directory path has a non-directory component: ", path));
    }
    return IoError("open index directory", path, error);
  }
  if (!S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("index directory is not a directory: ", path));
  }
  // Writability: create and remove a probe file. access(W_OK) would not see
  // read-only mounts or ACLs the same way a real create does.
  const std::string probe =
      absl::StrCat(path, "/.invert-write-probe-", ::getpid(), "-", probe_counter.fetch_add(1));
  const int fd = RetryOnEintr(
      [&] { return ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600); });
  if (fd < 0) return IoError("index directory is not writable:", path, errno);
  ::close(fd);
  if (::unlink(probe.c_str()) < 0) return IoError("remove write probe", probe, errno);
  return std::unique_ptr<FSDirectory>(new FSDirectory(std::move(path)));
}

std::string FSDirectory::FilePath(std::string_view name) const {
  return path_ == "/" ? absl::StrCat("/", Sv(name)) : absl::StrCat(path_, "/", Sv(name));
}

std::string FSDirectory::DebugString() const { return absl::StrCat("FSDirectory(", path_, ")"); }

absl::StatusOr<std::unique_ptr<WritableFile>> FSDirectory::CreateFile(std::string_view name) {
  if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  std::string path = FilePath(name);
  const int fd = RetryOnEintr(
      [&] { return ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644); });
  if (fd < 0) return IoError("create", path, errno);
  return std::make_unique<FSWritableFile>(fd, std::move(path));
}

absl::StatusOr<std::shared_ptr<const MappedFile>> FSDirectory::OpenFile(std::string_view name) {
  if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  std::string path = FilePath(name);
  const int fd = RetryOnEintr([&] { return ::open(path.c_str(), O_RDONLY | O_CLOEXEC); });
  if (fd < 0) return IoError("open", path, errno);
  struct stat st;
  if (::fstat(fd, &st) < 0) {
    const int error = errno;
    ::close(fd);
    return IoError("stat", path, error);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::FailedPreconditionError(absl::StrCat("not a regular file: ", path));
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  const uint8_t* address = nullptr;
  if (size > 0) {
    void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED) {
      const int error = errno;
      ::close(fd);
      return IoError("mmap", path, error);
    }
    address = static_cast<const uint8_t*>(mapped);
  }
  ::close(fd);  // the mapping keeps the file alive
  return std::make_shared<FSMappedFile>(address, size, std::move(path));
}

absl::StatusOr<std::vector<std::string>> FSDirectory::ListAll() const {
  DIR* dir = ::opendir(path_.c_str());
  if (dir == nullptr) return IoError("list", path_, errno);
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
    errno = 0;
  }
  const int error = errno;
  ::closedir(dir);
  if (error != 0) return IoError("list", path_, error);
  std::sort(names.begin(), names.end());
  return names;
}

absl::StatusOr<uint64_t> FSDirectory::FileLength(std::string_view name) const {
  if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  const std::string path = FilePath(name);
  struct stat st;
  if (::stat(path.c_str(), &st) < 0) return IoError("stat", path, errno);
  return static_cast<uint64_t>(st.st_size);
}

absl::Status FSDirectory::DeleteFile(std::string_view name) {
  if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  const std::string path = FilePath(name);
  if (::unlink(path.c_str()) < 0) return IoError("delete", path, errno);
  return absl::OkStatus();
}

absl::Status FSDirectory::Rename(std::string_view from, std::string_view to) {
  if (absl::Status s = ValidateFileName(from); !s.ok()) return s;
  if (absl::Status s = ValidateFileName(to); !s.ok()) return s;
  const std::string from_path = FilePath(from);
  const std::string to_path = FilePath(to);
  if (::rename(from_path.c_str(), to_path.c_str()) < 0) {
    return IoError("rename", absl::StrCat(from_path, " to ", to_path), errno);
  }
  return absl::OkStatus();
}

absl::Status FSDirectory::Sync(const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  }
  for (const std::string& name : names) {
    const std::string path = FilePath(name);
    const int fd = RetryOnEintr([&] { return ::open(path.c_str(), O_RDONLY | O_CLOEXEC); });
    if (fd < 0) return IoError("open for fsync", path, errno);
    const int result = RetryOnEintr([&] { return ::fsync(fd); });
    const int error = errno;
    ::close(fd);
    if (result < 0) return IoError("fsync", path, error);
  }
  return absl::OkStatus();
}

absl::Status FSDirectory::SyncMetaData() {
  const int fd =
      RetryOnEintr([&] { return ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); });
  if (fd < 0) return IoError("open for fsync", path_, errno);
  const int result = RetryOnEintr([&] { return ::fsync(fd); });
  const int error = errno;
  ::close(fd);
  if (result < 0) return IoError("fsync directory", path_, error);
  return absl::OkStatus();
}

}  // namespace invert

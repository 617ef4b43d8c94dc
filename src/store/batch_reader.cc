// BatchReader: the io_uring backend (when built with liburing) and the
// pread thread-pool backend.
#include "store/batch_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "store/io_error.h"

#ifdef INVERT_HAVE_LIBURING
#include <liburing.h>
#endif

namespace invert {
namespace {

using internal::IoError;

#ifdef INVERT_HAVE_LIBURING
class IoUringReader final : public BatchReader {
 public:
  // `ring` is initialized with `depth` entries; the reader tears it down.
  IoUringReader(int fd, uint64_t length, std::string path, std::unique_ptr<io_uring> ring,
                unsigned depth)
      : BatchReader(fd, length, std::move(path), Backend::kIoUring),
        ring_(std::move(ring)),
        depth_(depth) {}
  ~IoUringReader() override { io_uring_queue_exit(ring_.get()); }

 private:
  absl::Status ReadChecked(std::span<const ReadRequest> requests) override {
    if (!broken_.ok()) return broken_;
    absl::Status first;
    while (!requests.empty()) {
      const size_t round = std::min<size_t>(requests.size(), depth_);
      for (size_t i = 0; i < round; ++i) {
        io_uring_sqe* sqe = io_uring_get_sqe(ring_.get());  // never null: round <= depth_
        io_uring_prep_read(sqe, fd_, requests[i].out.data(),
                           static_cast<unsigned>(requests[i].out.size()), requests[i].offset);
        io_uring_sqe_set_data64(sqe, i);
      }
      int submitted;
      do {
        submitted = io_uring_submit_and_wait(ring_.get(), static_cast<unsigned>(round));
        ++syscalls_;
      } while (submitted == -EINTR);
      if (submitted < 0) return Break(IoError("io_uring_submit_and_wait", path_, -submitted));
      for (size_t done = 0; done < round;) {
        io_uring_cqe* cqe;
        const int r = io_uring_wait_cqe(ring_.get(), &cqe);
        if (r == -EINTR) continue;
        if (r < 0) return Break(IoError("io_uring_wait_cqe", path_, -r));
        const ReadRequest& request = requests[io_uring_cqe_get_data64(cqe)];
        const int res = cqe->res;
        io_uring_cqe_seen(ring_.get(), cqe);
        ++done;
        if (res < 0) {
          if (first.ok()) first = IoError("io_uring read", path_, -res);
        } else if (static_cast<size_t>(res) < request.out.size() && first.ok()) {
          // Short read: finish it synchronously.
          first = PreadFully(request.offset + res, request.out.subspan(res), &syscalls_);
        }
      }
      requests = requests.subspan(round);
    }
    return first;
  }

  // A ring whose submissions or completions were lost cannot be trusted
  // with the next batch: every later Read() returns this error.
  absl::Status Break(absl::Status error) {
    broken_ = error;
    return error;
  }

  std::unique_ptr<io_uring> ring_;  // at a fixed address: liburing keeps pointers into it
  absl::Status broken_;
  const unsigned depth_;
};
#endif  // INVERT_HAVE_LIBURING

class ThreadPoolReader final : public BatchReader {
 public:
  ThreadPoolReader(int fd, uint64_t length, std::string path, int threads)
      : BatchReader(fd, length, std::move(path), Backend::kThreadPool) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { WorkerLoop(); });
  }
  ~ThreadPoolReader() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    work_cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

 private:
  absl::Status ReadChecked(std::span<const ReadRequest> requests) override {
    // A single read is not worth waking the pool for.
    const bool use_pool = requests.size() > 1 && !threads_.empty();
    {
      std::lock_guard<std::mutex> lock(mu_);
      batch_ = requests;
      next_.store(0, std::memory_order_relaxed);
      error_ = absl::OkStatus();
      busy_ = use_pool ? threads_.size() : 0;
      if (use_pool) ++generation_;
    }
    if (use_pool) work_cv_.notify_all();
    Work();
    std::unique_lock<std::mutex> lock(mu_);
    done_cv_.wait(lock, [&] { return busy_ == 0; });
    syscalls_ += pool_syscalls_.exchange(0, std::memory_order_relaxed);
    return error_;
  }

  void Work() {
    uint64_t syscalls = 0;
    for (size_t i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < batch_.size();) {
      absl::Status s = PreadFully(batch_[i].offset, batch_[i].out, &syscalls);
      if (!s.ok()) {
        std::lock_guard<std::mutex> lock(mu_);
        if (error_.ok()) error_ = std::move(s);
      }
    }
    pool_syscalls_.fetch_add(syscalls, std::memory_order_relaxed);
  }

  void WorkerLoop() {
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      work_cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      lock.unlock();
      Work();
      lock.lock();
      if (--busy_ == 0) done_cv_.notify_one();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::span<const ReadRequest> batch_;  // guarded by mu_ while set
  std::atomic<size_t> next_{0};
  std::atomic<uint64_t> pool_syscalls_{0};
  absl::Status error_;
  size_t busy_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
};

}  // namespace

const char* BatchBackendName(BatchReader::Backend backend) {
  return backend == BatchReader::Backend::kIoUring ? "io_uring" : "thread_pool";
}

bool IoUringAvailable() {
#ifdef INVERT_HAVE_LIBURING
  static const bool available = [] {
    io_uring ring;
    if (io_uring_queue_init(2, &ring, 0) < 0) return false;
    io_uring_queue_exit(&ring);
    return true;
  }();
  return available;
#else
  return false;
#endif
}

BatchReader::~BatchReader() { ::close(fd_); }

absl::StatusOr<std::unique_ptr<BatchReader>> BatchReader::Open(const std::string& path,
                                                               const Options& options) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return IoError("open", path, errno);
  struct stat st;
  if (::fstat(fd, &st) < 0) {
    const int error = errno;
    ::close(fd);
    return IoError("stat", path, error);
  }
  const uint64_t length = static_cast<uint64_t>(st.st_size);
#ifdef INVERT_HAVE_LIBURING
  if (options.backend == Backend::kIoUring && options.queue_depth > 0) {
    auto ring = std::make_unique<io_uring>();
    if (io_uring_queue_init(options.queue_depth, ring.get(), 0) == 0) {
      return std::unique_ptr<BatchReader>(
          new IoUringReader(fd, length, path, std::move(ring), options.queue_depth));
    }
  }
#endif
  return std::unique_ptr<BatchReader>(
      new ThreadPoolReader(fd, length, path, std::max(0, options.pool_threads)));
}

absl::Status BatchReader::Read(std::span<const ReadRequest> requests) {
  for (const ReadRequest& r : requests) {
    if (r.offset > length_ || r.out.size() > length_ - r.offset) {
      return absl::OutOfRangeError(absl::StrCat("batched read [", r.offset, ", +", r.out.size(),
                                                ") past end of ", path_, " (length ", length_,
                                                ")"));
    }
  }
  if (requests.empty()) return absl::OkStatus();
  return ReadChecked(requests);
}

absl::Status BatchReader::PreadFully(uint64_t offset, std::span<uint8_t> out,
                                     uint64_t* syscalls) const {
  while (!out.empty()) {
    const ssize_t n = ::pread(fd_, out.data(), out.size(), static_cast<off_t>(offset));
    ++*syscalls;
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError("pread", path_, errno);
    }
    if (n == 0) {
      return absl::OutOfRangeError(absl::StrCat("pread past end of ", path_, " at ", offset));
    }
    out = out.subspan(static_cast<size_t>(n));
    offset += static_cast<uint64_t>(n);
  }
  return absl::OkStatus();
}

}  // namespace invert

// BatchReader: reads a batch of (offset, length) ranges of one file with
// several I/Os in flight, the comparison point for mmap + Prefetch() in
// benchmarks/prefetch_benchmark.cc. Two backends:
//
//   kIoUring     one io_uring (liburing) per reader: a batch is one
//                io_uring_enter that submits every read and waits for all
//                of them. Needs liburing at build time and a kernel that
//                allows io_uring at run time (sandboxes and
//                kernel.io_uring_disabled may not); IoUringAvailable() probes.
//   kThreadPool  pread(2) from a small pool of threads (the caller helps);
//                works everywhere.
//
// Open() falls back from kIoUring to kThreadPool when io_uring is not
// available; backend() says which one is in use.
//
// Reads bypass the mapping but not the page cache: both paths read the same
// cached pages.
//
// Thread safety: none. A reader (its ring, its pool) serves one thread;
// open one per thread.
#ifndef INVERT_STORE_BATCH_READER_H_
#define INVERT_STORE_BATCH_READER_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace invert {

struct ReadRequest {
  uint64_t offset = 0;
  std::span<uint8_t> out;  // filled with the bytes at [offset, offset + out.size())
};

class BatchReader {
 public:
  enum class Backend : uint8_t { kIoUring, kThreadPool };

  struct Options {
    // Preferred backend; kIoUring falls back to kThreadPool when unavailable.
    Backend backend = Backend::kIoUring;
    // Submission queue entries (kIoUring); larger batches go in rounds.
    unsigned queue_depth = 64;
    // Worker threads besides the caller (kThreadPool).
    int pool_threads = 3;
  };

  // Opens the file at `path` for batched reads.
  static absl::StatusOr<std::unique_ptr<BatchReader>> Open(const std::string& path,
                                                           const Options& options);
  static absl::StatusOr<std::unique_ptr<BatchReader>> Open(const std::string& path) {
    return Open(path, Options());
  }

  virtual ~BatchReader();
  BatchReader(const BatchReader&) = delete;
  BatchReader& operator=(const BatchReader&) = delete;

  // Fills every request's `out`. kOutOfRange (nothing read) if a range passes
  // the end of the file; otherwise OK iff every read succeeded.
  absl::Status Read(std::span<const ReadRequest> requests);

  Backend backend() const { return backend_; }
  uint64_t length() const { return length_; }
  // System calls issued by Read() so far: io_uring_enter or pread.
  uint64_t syscalls() const { return syscalls_; }

 protected:
  BatchReader(int fd, uint64_t length, std::string path, Backend backend)
      : fd_(fd), length_(length), path_(std::move(path)), backend_(backend) {}

  // Reads the checked requests.
  virtual absl::Status ReadChecked(std::span<const ReadRequest> requests) = 0;
  // pread until `out` is full; for short reads and the pool.
  absl::Status PreadFully(uint64_t offset, std::span<uint8_t> out, uint64_t* syscalls) const;

  const int fd_;
  const uint64_t length_;
  const std::string path_;
  const Backend backend_;
  uint64_t syscalls_ = 0;
};

const char* BatchBackendName(BatchReader::Backend backend);

// Returns true iff this build has liburing and the kernel lets this process
// set up an io_uring (probed once).
bool IoUringAvailable();

}  // namespace invert

#endif  // INVERT_STORE_BATCH_READER_H_

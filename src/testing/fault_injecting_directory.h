// FaultInjectingDirectory: wraps any Directory and makes chosen operations
// fail, so tests can walk a whole write-and-commit sequence and fail it at
// every step in turn:
//
//   FaultInjectingDirectory dir(base.get());
//   RunCommit(dir);                        // count the ops of a clean run
//   const uint64_t total = dir.op_count();
//   for (uint64_t n = 1; n <= total; ++n) {
//     ... fresh base ...; dir.FailAt(n); RunCommit(dir) must fail cleanly
//   }
//
// Counted operations (FaultOp, a bit mask; set_counted_ops): file create,
// write (one per WritableFile::Append, after splitting into max_write_size
// pieces), fsync (one per file in Sync), rename, directory sync, delete.
// Every counted op gets the next number n = 1, 2, ...; FailAt(n) fails op n
// (and, with set_sticky(true), every counted op after it, as a dying disk
// would). Reads (OpenFile, ListAll, FileLength) are never failed.
//
// Disk full: SetDiskLimit(b) lets the first b bytes of writes through; the
// write that would pass the limit writes what still fits (a short write, as
// a real disk does) and then fails with kResourceExhausted (ENOSPC), as does
// every later write until ClearDiskLimit().
//
// Fast mode: set_skip_syncs(true) still counts (and may fail) Sync and
// SyncMetaData but does not pass them to the base (a Sync only checks that
// the files exist), for tests that run a commit hundreds of times and test
// the failure handling, not the disk.
//
// Failures are absl::Status errors whose message starts with
// "injected fault:", names the op, its number and the file, e.g.
// "injected fault: write #17 to _0.doc". A failed op does nothing to the
// base directory (except the short write of a disk-full write).
//
// Thread safety: all methods may be called concurrently; one mutex guards
// the counters. The base must outlive this directory and the files it
// creates.
#ifndef INVERT_TESTING_FAULT_INJECTING_DIRECTORY_H_
#define INVERT_TESTING_FAULT_INJECTING_DIRECTORY_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "invert/directory.h"

namespace invert {

enum FaultOp : uint32_t {
  kFaultCreate = 1u << 0,
  kFaultWrite = 1u << 1,
  kFaultSync = 1u << 2,
  kFaultRename = 1u << 3,
  kFaultSyncMetaData = 1u << 4,
  kFaultDelete = 1u << 5,
  kFaultAllOps = (1u << 6) - 1,
};

// "create", "write", "fsync", "rename", "directory sync", "delete".
const char* FaultOpName(FaultOp op);

class FaultInjectingDirectory final : public Directory {
 public:
  // Counts (and may fail) all ops but deletes by default, so that cleanup
  // after an injected fault succeeds unless a test asks otherwise.
  static constexpr uint32_t kDefaultCountedOps = kFaultAllOps & ~kFaultDelete;

  explicit FaultInjectingDirectory(Directory* base) : base_(base) {}

  // Which ops get numbers (and can fail). A mask of FaultOp.
  void set_counted_ops(uint32_t mask);
  // Fails counted op number `n` (1-based, counted since construction or the
  // last ResetCounters()); 0 turns it off.
  void FailAt(uint64_t n);
  // Whether every counted op after the failed one fails too.
  void set_sticky(bool sticky);
  // Splits each Append into writes of at most `bytes` (0: no splitting), so
  // that a small file takes several numbered writes.
  void set_max_write_size(uint64_t bytes);
  // Whether Sync/SyncMetaData skip the base directory (see the top).
  void set_skip_syncs(bool skip);
  void SetDiskLimit(uint64_t bytes);
  void ClearDiskLimit();
  // Zeroes every counter (not the settings).
  void ResetCounters();

  // Counted ops so far (the number the last one got).
  uint64_t op_count() const;
  // Calls of one kind so far, counted or not.
  uint64_t calls(FaultOp op) const;
  // Bytes that reached the base directory.
  uint64_t bytes_written() const;
  uint64_t faults_injected() const;

  absl::StatusOr<std::unique_ptr<WritableFile>> CreateFile(std::string_view name) override;
  absl::StatusOr<std::shared_ptr<const MappedFile>> OpenFile(std::string_view name) override;
  absl::StatusOr<std::vector<std::string>> ListAll() const override;
  absl::StatusOr<uint64_t> FileLength(std::string_view name) const override;
  absl::Status DeleteFile(std::string_view name) override;
  absl::Status Rename(std::string_view from, std::string_view to) override;
  absl::Status Sync(const std::vector<std::string>& names) override;
  absl::Status SyncMetaData() override;
  // The base directory's lock (never fails by injection).
  absl::StatusOr<std::unique_ptr<DirectoryLock>> ObtainLock(std::string_view name) override {
    return base_->ObtainLock(name);
  }
  std::string DebugString() const override;

 private:
  class File;

  // Counts a call of `op` on `what`; returns the injected error if it fails.
  absl::Status Check(FaultOp op, std::string_view what);
  // For a write of `size` bytes: how many may reach the base (size unless the
  // disk is full) and the error to return after writing them.
  absl::Status CheckWrite(std::string_view name, uint64_t size, uint64_t* allowed);

  Directory* base_;
  mutable std::mutex mu_;
  uint32_t counted_ops_ = kDefaultCountedOps;
  uint64_t fail_at_ = 0;
  bool sticky_ = false;
  bool failed_ = false;  // sticky mode: the fault has fired
  uint64_t max_write_size_ = 0;
  bool skip_syncs_ = false;
  bool has_disk_limit_ = false;
  uint64_t disk_limit_ = 0;
  uint64_t op_count_ = 0;
  uint64_t calls_[32] = {};  // by bit index of the FaultOp
  uint64_t bytes_written_ = 0;
  uint64_t faults_injected_ = 0;
};

}  // namespace invert

#endif  // INVERT_TESTING_FAULT_INJECTING_DIRECTORY_H_

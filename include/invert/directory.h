// Directory: the flat set of files that holds one index, and FSDirectory, the
// one that keeps them in a folder of the file system. An embedding pipeline
// opens a Directory and hands it to the writer; the codec layer writes and
// reads the files through it (CreateFile and OpenFile, wrapped in the
// library's own buffered, checksumming streams).
//
// Files are write-once: a file is created, appended to, closed, and from then
// on only read, renamed or deleted. That is what lets readers map a file and
// read it in place without locks.
//
// Readers rely on one more promise (FSDirectory keeps it; every other
// implementation must): the bytes of a MappedFile that OpenFile returned stay
// valid and unchanged for the life of that MappedFile, even after the file is
// deleted or replaced by a Rename over its name. POSIX mmap gives this for
// free: the pages of an unlinked file stay mapped until the last mapping
// goes. So a reader that opened a segment's files keeps reading them while a
// writer commits, merges or deletes, with no lock and no reference counting
// in the directory.
//
// Durability follows POSIX: bytes reach stable storage after Sync() of the
// file, a create/rename/delete after SyncMetaData() of the directory. A
// commit (src/store/atomic_file.h) is "write files, Sync them, write the
// commit point under a temporary name, Sync it, Rename it over the old one,
// SyncMetaData".
//
// File names: 1 to 255 bytes, no '/', no NUL, not ".", no "..". Every
// operation checks them (ValidateFileName) before touching the file system.
//
// Errors: every operation returns absl::Status / absl::StatusOr; the message
// names the operation and the file. errno maps to codes the usual way
// (ENOENT → kNotFound, EEXIST → kAlreadyExists, EACCES/EPERM/EROFS →
// kPermissionDenied, ENOSPC → kResourceExhausted, other I/O errors →
// kInternal or the code absl::ErrnoToStatusCode gives).
//
// Thread safety: a Directory's operations may be called from several threads
// at once (FSDirectory holds no mutable state; the operating system orders
// them). A WritableFile belongs to one thread; a MappedFile is immutable and
// may be read from any thread.
#ifndef INVERT_DIRECTORY_H_
#define INVERT_DIRECTORY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "invert/export.h"

namespace invert {

// How a mapped range will be read; the kernel sizes its read-around on page
// faults by it (madvise MADV_NORMAL / MADV_RANDOM / MADV_SEQUENTIAL).
enum class ReadAdvice : uint8_t {
  kNormal,      // the kernel's default read-around (typically 128 KiB)
  kRandom,      // fault in single pages: for random access to data larger than memory
  kSequential,  // aggressive read-ahead
};

// An append-only file being written. Not thread-safe.
class INVERT_EXPORT WritableFile {
 public:
  virtual ~WritableFile() = default;

  // Appends all of `data`. Short writes and EINTR are retried, so OK means
  // every byte was handed to the operating system (not that it is durable).
  virtual absl::Status Append(std::span<const uint8_t> data) = 0;

  // Releases the file. Returns the first error seen, including one the close
  // itself reports. Destroying a WritableFile without Close() releases it too,
  // ignoring errors (the file keeps whatever was appended).
  virtual absl::Status Close() = 0;
};

// The bytes of a closed file, readable in place (FSDirectory maps the file
// read-only). Immutable, so safe to share across threads. The bytes outlive
// the file's name: see the top of this file.
class INVERT_EXPORT MappedFile {
 public:
  virtual ~MappedFile() = default;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  // Every byte of the file; valid and unchanged while this object lives,
  // whatever happens to the file afterwards.
  std::span<const uint8_t> bytes() const { return bytes_; }
  uint64_t size() const { return bytes_.size(); }

  // Asks the operating system to start reading the pages that overlap
  // [offset, offset + length) (madvise(MADV_WILLNEED)). Only a hint: what is
  // read never changes. REQUIRES: length > 0, offset + length <= size() (the
  // caller checks).
  virtual absl::Status WillNeed(uint64_t offset, uint64_t length) const;

  // Returns true iff every page that overlaps [offset, offset + length) is
  // resident in memory (mincore). Same REQUIRES as WillNeed.
  virtual absl::StatusOr<bool> IsResident(uint64_t offset, uint64_t length) const;

  // Tells the operating system how the pages overlapping [offset, offset +
  // length) will be read. Applies to the whole mapping (every reader of this
  // file). Same REQUIRES as WillNeed.
  virtual absl::Status Advise(uint64_t offset, uint64_t length, ReadAdvice advice) const;

 protected:
  explicit MappedFile(std::span<const uint8_t> bytes) : bytes_(bytes) {}

 private:
  std::span<const uint8_t> bytes_;
};

// Returns OK iff `name` is a valid file name (see the top of this file);
// otherwise kInvalidArgument saying why.
INVERT_EXPORT absl::Status ValidateFileName(std::string_view name);

// An exclusive lock on a directory, taken by Directory::ObtainLock and held
// until this object is destroyed (or its process dies).
class INVERT_EXPORT DirectoryLock {
 public:
  virtual ~DirectoryLock() = default;
  // OK iff the lock is still held: its file was not deleted or replaced
  // behind the holder's back (which would let a second writer lock a new
  // file). kFailedPrecondition saying what happened otherwise.
  virtual absl::Status EnsureValid() const = 0;
};

class INVERT_EXPORT Directory {
 public:
  virtual ~Directory() = default;

  // Creates `name`, empty, for appending. kAlreadyExists if it exists.
  virtual absl::StatusOr<std::unique_ptr<WritableFile>> CreateFile(std::string_view name) = 0;

  // Returns the bytes of `name`, a closed file. Empty files are fine. The
  // bytes stay valid and unchanged while the MappedFile lives, even if the
  // file is deleted or renamed over (see the top of this file).
  virtual absl::StatusOr<std::shared_ptr<const MappedFile>> OpenFile(std::string_view name) = 0;

  // The names of all files, sorted bytewise.
  virtual absl::StatusOr<std::vector<std::string>> ListAll() const = 0;

  virtual absl::StatusOr<uint64_t> FileLength(std::string_view name) const = 0;

  virtual absl::Status DeleteFile(std::string_view name) = 0;

  // Renames `from` to `to`, atomically replacing `to` if it exists: a reader
  // sees the old `to` or the new one, never neither.
  virtual absl::Status Rename(std::string_view from, std::string_view to) = 0;

  // Makes the contents of each named (closed) file durable (fsync), in
  // order; stops at and returns the first error.
  virtual absl::Status Sync(const std::vector<std::string>& names) = 0;

  // Makes the directory's entries durable (fsync of the directory): the
  // creates, renames and deletes done so far.
  virtual absl::Status SyncMetaData() = 0;

  // Takes the exclusive lock called `name` (the writer's "write.lock"),
  // creating its file if needed. Exclusive between processes and within one:
  // a second ObtainLock of the same lock fails with kFailedPrecondition
  // naming the directory and, when known, the holder's process id. The lock
  // file itself is never deleted.
  virtual absl::StatusOr<std::unique_ptr<DirectoryLock>> ObtainLock(std::string_view name) = 0;

  // For messages, e.g. "FSDirectory(/path/to/index)".
  virtual std::string DebugString() const = 0;
};

// A Directory over one folder of the file system. Files are written with
// write(2) and read through read-only shared memory maps, which keep a file's
// pages after the file is deleted or renamed over (the promise at the top of
// this file).
class INVERT_EXPORT FSDirectory final : public Directory {
 public:
  // Opens the folder at `path`; with `create`, creates it (and missing
  // parents) first. Fails with a clear status when the folder is missing
  // (kNotFound), is not a folder (kFailedPrecondition), or is not writable
  // (kPermissionDenied; checked by creating and removing a probe file).
  static absl::StatusOr<std::unique_ptr<FSDirectory>> Open(std::string path, bool create);

  const std::string& path() const { return path_; }

  absl::StatusOr<std::unique_ptr<WritableFile>> CreateFile(std::string_view name) override;
  absl::StatusOr<std::shared_ptr<const MappedFile>> OpenFile(std::string_view name) override;
  absl::StatusOr<std::vector<std::string>> ListAll() const override;
  absl::StatusOr<uint64_t> FileLength(std::string_view name) const override;
  absl::Status DeleteFile(std::string_view name) override;
  absl::Status Rename(std::string_view from, std::string_view to) override;
  absl::Status Sync(const std::vector<std::string>& names) override;
  absl::Status SyncMetaData() override;
  // An OFD lock (fcntl F_OFD_SETLK) on the file: released by the kernel when
  // the process dies, exclusive between two opens within one process too.
  // The holder writes its pid into the file for the message of a refusal.
  absl::StatusOr<std::unique_ptr<DirectoryLock>> ObtainLock(std::string_view name) override;
  std::string DebugString() const override;

 private:
  explicit FSDirectory(std::string path) : path_(std::move(path)) {}
  std::string FilePath(std::string_view name) const;

  std::string path_;  // no trailing '/' (except for "/")
};

}  // namespace invert

#endif  // INVERT_DIRECTORY_H_

// IndexOutput: the buffered, checksumming sequential writer that segment
// files are written with. It encodes the primitives of the file formats
// (docs/store.md): bytes, VInts, little-endian fixed-width integers and
// length-prefixed strings, and keeps a running xxHash64 (seed 0) of every byte
// written, which WriteFooter (codec_util.h) stores at the end of the file.
//
// Layout:
//
//   file (WritableFile)                       buffer_
//   +---------------------------+            +-----------------+--------+
//   | flushed_ bytes, hashed    |            | cur_ - buffer_  | free   |
//   +---------------------------+            +-----------------+--------+
//   file_pointer() = flushed_ + (cur_ - buffer_)               ^ limit_
//
// Invariants:
//   1. hash_ is the XXH64 state of exactly the flushed_ bytes; checksum()
//      adds the buffered ones to a copy, so it never forces a flush.
//   2. Sticky errors: the first failure (a failed Append, e.g. ENOSPC, or a
//      write after Close) is kept in status_, limit_ is pulled down to cur_
//      so every later write takes the slow path, and the slow path drops the
//      bytes. file_pointer() stops where the failure happened; Close()
//      returns the first error.
//   3. Close() flushes, closes the file and reports the first error. The
//      destructor without Close() abandons the file: buffered bytes are
//      dropped, the file is released, and deleting it is the caller's job.
//
// Writers check status() once at the end (or just Close()), not after every
// call.
//
// Thread safety: none; one output belongs to one thread.
#ifndef INVERT_STORE_INDEX_OUTPUT_H_
#define INVERT_STORE_INDEX_OUTPUT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "invert/directory.h"
#include "util/varint.h"

namespace invert {

class IndexOutput {
 public:
  static constexpr size_t kDefaultBufferSize = size_t{64} << 10;

  // Writes to `file`, which is called `name` in messages.
  // REQUIRES: buffer_size >= kMaxVInt64Bytes.
  IndexOutput(std::string name, std::unique_ptr<WritableFile> file,
              size_t buffer_size = kDefaultBufferSize);
  ~IndexOutput();
  IndexOutput(const IndexOutput&) = delete;
  IndexOutput& operator=(const IndexOutput&) = delete;

  void WriteByte(uint8_t value) {
    if (cur_ == limit_ && !MakeRoom()) return;
    *cur_++ = value;
  }
  void WriteBytes(const void* data, size_t length) {
    if (static_cast<size_t>(limit_ - cur_) >= length) {
      if (length > 0) std::memcpy(cur_, data, length);
      cur_ += length;
    } else {
      WriteBytesSlow(static_cast<const uint8_t*>(data), length);
    }
  }
  void WriteBytes(std::span<const uint8_t> bytes) { WriteBytes(bytes.data(), bytes.size()); }

  // VInt (util/varint.h): 1-5 bytes for a uint32_t, 1-10 for a uint64_t.
  void WriteVInt32(uint32_t value) { WriteVInt64(value); }
  void WriteVInt64(uint64_t value) {
    if (static_cast<size_t>(limit_ - cur_) >= kMaxVInt64Bytes) {
      cur_ += EncodeVInt(value, cur_);
    } else {
      uint8_t scratch[kMaxVInt64Bytes];
      WriteBytes(scratch, EncodeVInt(value, scratch));
    }
  }

  // Little-endian, 4 and 8 bytes.
  void WriteFixed32(uint32_t value) {
    uint8_t bytes[4];
    for (int i = 0; i < 4; ++i) bytes[i] = static_cast<uint8_t>(value >> (8 * i));
    WriteBytes(bytes, 4);
  }
  void WriteFixed64(uint64_t value) {
    uint8_t bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(value >> (8 * i));
    WriteBytes(bytes, 8);
  }

  // VInt32 byte length, then the bytes. REQUIRES: value.size() < 2^32.
  void WriteString(std::string_view value) {
    WriteVInt32(static_cast<uint32_t>(value.size()));
    WriteBytes(value.data(), value.size());
  }

  // Bytes written so far (the offset the next byte lands at).
  uint64_t file_pointer() const { return flushed_ + static_cast<uint64_t>(cur_ - buffer_.get()); }

  // XXH64 (seed 0) of the file_pointer() bytes written so far.
  uint64_t checksum() const;

  // The first error, or OK.
  const absl::Status& status() const { return status_; }
  bool ok() const { return status_.ok(); }
  const std::string& name() const { return name_; }

  // Hands the buffered bytes to the file (no fsync). WriteHeader calls it so
  // that a file left by a crash carries its header, the writer's proof that
  // the file is its own. Returns status().
  absl::Status Flush() {
    MakeRoom();
    return status_;
  }

  // Flushes, closes the file and returns the first error. Calling it again
  // only returns status().
  absl::Status Close();

 private:
  struct HashState;

  // Flushes the buffer; returns true iff there is room to write.
  bool MakeRoom();
  void WriteBytesSlow(const uint8_t* data, size_t length);
  // Appends `data` to the file and the hash; on error records it.
  bool AppendToFile(const uint8_t* data, size_t length);
  void Fail(absl::Status status);

  std::string name_;
  std::unique_ptr<WritableFile> file_;
  std::unique_ptr<HashState> hash_;
  std::unique_ptr<uint8_t[]> buffer_;
  size_t buffer_size_;
  uint8_t* cur_;
  uint8_t* limit_;
  uint64_t flushed_ = 0;
  bool closed_ = false;
  absl::Status status_;
};

// Creates `name` in `dir` for writing through a buffered, checksumming
// IndexOutput (the codec's way to write a file; Directory::CreateFile
// underneath). kAlreadyExists if the file exists.
absl::StatusOr<std::unique_ptr<IndexOutput>> CreateOutput(Directory* dir, std::string_view name);

}  // namespace invert

#endif  // INVERT_STORE_INDEX_OUTPUT_H_

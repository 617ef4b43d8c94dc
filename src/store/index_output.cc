// IndexOutput: buffer flushing, hashing and the sticky error path.
#include "store/index_output.h"

#include <cassert>
#include <utility>

#include "absl/strings/str_cat.h"

#define XXH_STATIC_LINKING_ONLY
#include "xxhash.h"

namespace invert {

struct IndexOutput::HashState {
  XXH64_state_t state;
};

IndexOutput::IndexOutput(std::string name, std::unique_ptr<WritableFile> file, size_t buffer_size)
    : name_(std::move(name)),
      file_(std::move(file)),
      hash_(std::make_unique<HashState>()),
      buffer_(new uint8_t[buffer_size]),
      buffer_size_(buffer_size),
      cur_(buffer_.get()),
      limit_(buffer_.get() + buffer_size) {
  assert(buffer_size >= kMaxVInt64Bytes);
  XXH64_reset(&hash_->state, 0);
}

// Abandons: buffered bytes are dropped; the WritableFile's destructor
// releases the file.
IndexOutput::~IndexOutput() = default;

uint64_t IndexOutput::checksum() const {
  XXH64_state_t copy;
  XXH64_copyState(&copy, &hash_->state);
  const size_t buffered = static_cast<size_t>(cur_ - buffer_.get());
  if (buffered > 0) XXH64_update(&copy, buffer_.get(), buffered);
  return XXH64_digest(&copy);
}

void IndexOutput::Fail(absl::Status status) {
  if (status_.ok()) status_ = std::move(status);
  limit_ = cur_;  // every later write takes the slow path and is dropped
}

bool IndexOutput::AppendToFile(const uint8_t* data, size_t length) {
  if (length == 0) return true;
  absl::Status status = file_->Append(std::span<const uint8_t>(data, length));
  if (!status.ok()) {
    Fail(std::move(status));
    return false;
  }
  XXH64_update(&hash_->state, data, length);
  flushed_ += length;
  return true;
}

bool IndexOutput::MakeRoom() {
  if (!status_.ok()) return false;
  if (closed_) {
    Fail(absl::FailedPreconditionError(absl::StrCat("write to closed output ", name_)));
    return false;
  }
  const size_t buffered = static_cast<size_t>(cur_ - buffer_.get());
  if (!AppendToFile(buffer_.get(), buffered)) return false;
  cur_ = buffer_.get();
  limit_ = cur_ + buffer_size_;
  return true;
}

void IndexOutput::WriteBytesSlow(const uint8_t* data, size_t length) {
  if (!status_.ok() || closed_) {
    MakeRoom();  // records "write to closed output" when closed and still OK
    return;
  }
  // Fill the buffer, flush, and write large remainders straight through.
  const size_t room = static_cast<size_t>(limit_ - cur_);
  std::memcpy(cur_, data, room);
  cur_ += room;
  data += room;
  length -= room;
  if (!MakeRoom()) return;
  if (length >= buffer_size_) {
    const size_t direct = length - length % buffer_size_;
    if (!AppendToFile(data, direct)) return;
    data += direct;
    length -= direct;
  }
  if (length > 0) std::memcpy(cur_, data, length);
  cur_ += length;
}

absl::Status IndexOutput::Close() {
  if (closed_) return status_;
  if (status_.ok()) MakeRoom();
  closed_ = true;
  absl::Status close_status = file_->Close();
  if (!close_status.ok()) Fail(std::move(close_status));
  limit_ = cur_;
  return status_;
}

absl::StatusOr<std::unique_ptr<IndexOutput>> CreateOutput(Directory* dir, std::string_view name) {
  absl::StatusOr<std::unique_ptr<WritableFile>> file = dir->CreateFile(name);
  if (!file.ok()) return file.status();
  return std::make_unique<IndexOutput>(std::string(name), *std::move(file));
}

}  // namespace invert

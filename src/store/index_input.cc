// IndexInput: slow paths (multi-byte VInts, strings, errors), slicing and the
// prefetch policies.
#include "store/index_input.h"

#include <bit>
#include <utility>

#include "absl/strings/str_cat.h"

namespace invert {

const char* PrefetchPolicyName(PrefetchPolicy policy) {
  switch (policy) {
    case PrefetchPolicy::kOff:
      return "off";
    case PrefetchPolicy::kAlways:
      return "always";
    case PrefetchPolicy::kBackoff:
      return "backoff";
  }
  return "unknown";
}

IndexInput::IndexInput(std::string name, std::shared_ptr<const MappedFile> file)
    : name_(std::move(name)), file_(std::move(file)) {
  const std::span<const uint8_t> bytes = file_->bytes();
  begin_ = cur_ = bytes.data();
  end_ = bytes.data() + bytes.size();
}

IndexInput::IndexInput(const IndexInput& parent, uint64_t offset, uint64_t length)
    : name_(parent.name_),
      file_(parent.file_),
      begin_(parent.begin_ + offset),
      cur_(begin_),
      end_(begin_ + length),
      base_(parent.base_ + offset),
      policy_(parent.policy_) {}

void IndexInput::Fail(absl::Status status) {
  if (status_.ok()) status_ = std::move(status);
  cur_ = end_;
}

bool IndexInput::FailPastEnd(uint64_t wanted) {
  if (status_.ok()) {
    Fail(absl::OutOfRangeError(absl::StrCat("read past end of ", name_, ": ", wanted,
                                            " bytes wanted at file offset ", base_ + position(),
                                            ", ", remaining_length(), " left (input of ", length(),
                                            " bytes at file offset ", base_, ")")));
  } else {
    cur_ = end_;
  }
  return false;
}

absl::Status IndexInput::Seek(uint64_t position) {
  if (!status_.ok()) return status_;
  if (position > length()) {
    Fail(absl::OutOfRangeError(
        absl::StrCat("seek past end of ", name_, ": position ", position, " > length ", length())));
    return status_;
  }
  cur_ = begin_ + position;
  return absl::OkStatus();
}

absl::StatusOr<IndexInput> IndexInput::Slice(uint64_t offset, uint64_t length) const {
  if (!status_.ok()) return status_;
  if (offset > this->length() || length > this->length() - offset) {
    return absl::OutOfRangeError(absl::StrCat("slice [", offset, ", +", length,
                                              ") out of bounds of ", name_, " (length ",
                                              this->length(), ")"));
  }
  return IndexInput(*this, offset, length);
}

bool IndexInput::ReadVInt64Slow(uint64_t* value) {
  const uint8_t* p = cur_;
  if (DecodeVInt64(&p, end_, value)) {
    cur_ = p;
    return true;
  }
  *value = 0;
  // Either the bytes ran out before a terminating byte, or the encoding is
  // longer than a uint64_t allows.
  const uint64_t left = remaining_length();
  bool truncated = left < kMaxVInt64Bytes;
  for (uint64_t i = 0; truncated && i < left; ++i) truncated = (cur_[i] & 0x80) != 0;
  if (truncated) return FailPastEnd(left + 1);
  Fail(absl::DataLossError(
      absl::StrCat("malformed VInt64 in ", name_, " at file offset ", base_ + position())));
  return false;
}

bool IndexInput::ReadVInt32Slow(uint32_t* value) {
  const uint8_t* p = cur_;
  if (DecodeVInt32(&p, end_, value)) {
    cur_ = p;
    return true;
  }
  *value = 0;
  const uint64_t left = remaining_length();
  bool truncated = left < kMaxVInt32Bytes;
  for (uint64_t i = 0; truncated && i < left; ++i) truncated = (cur_[i] & 0x80) != 0;
  if (truncated) return FailPastEnd(left + 1);
  Fail(absl::DataLossError(
      absl::StrCat("malformed VInt32 in ", name_, " at file offset ", base_ + position())));
  return false;
}

bool IndexInput::ReadString(std::string* value) {
  value->clear();
  uint32_t length = 0;
  if (!ReadVInt32(&length)) return false;
  if (remaining_length() < length) return FailPastEnd(length);
  value->assign(reinterpret_cast<const char*>(cur_), length);
  cur_ += length;
  return true;
}

absl::Status IndexInput::SetReadAdvice(ReadAdvice advice) const {
  if (length() == 0) return absl::OkStatus();
  return file_->Advise(base_, length(), advice);
}

absl::Status IndexInput::Prefetch(uint64_t offset, uint64_t length) {
  if (length == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("prefetch of 0 bytes at offset ", offset, " of ", name_));
  }
  if (offset > this->length() || length > this->length() - offset) {
    return absl::OutOfRangeError(absl::StrCat("prefetch [", offset, ", +", length,
                                              ") out of bounds of ", name_, " (length ",
                                              this->length(), ")"));
  }
  ++stats_.calls;
  const uint64_t file_offset = base_ + offset;
  switch (policy_) {
    case PrefetchPolicy::kOff:
      return absl::OkStatus();
    case PrefetchPolicy::kAlways:
      ++stats_.madvise;
      return file_->WillNeed(file_offset, length);
    case PrefetchPolicy::kBackoff: {
      // Check at counters 0, 1, 2, 4, 8, ...; skip the calls in between.
      const uint64_t count = consecutive_hits_++;
      if (count != 0 && !std::has_single_bit(count)) return absl::OkStatus();
      ++stats_.mincore;
      absl::StatusOr<bool> resident = file_->IsResident(file_offset, length);
      if (!resident.ok()) return resident.status();
      if (*resident) return absl::OkStatus();
      consecutive_hits_ = 0;
      ++stats_.madvise;
      return file_->WillNeed(file_offset, length);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<IndexInput> OpenInput(Directory* dir, std::string_view name) {
  absl::StatusOr<std::shared_ptr<const MappedFile>> file = dir->OpenFile(name);
  if (!file.ok()) return file.status();
  return IndexInput(std::string(name), *std::move(file));
}

}  // namespace invert

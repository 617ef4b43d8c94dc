// FaultInjectingDirectory: op numbering, the injected errors, and the
// WritableFile wrapper that splits writes and enforces the disk limit.
#include "testing/fault_injecting_directory.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <utility>

#include "absl/strings/str_cat.h"
#include "store/io_error.h"
#include "util/absl_compat.h"

namespace invert {
namespace {

// Index of an op's bit in calls_ (in [0, 32) for any value).
int OpIndex(FaultOp op) { return std::countr_zero(static_cast<uint32_t>(op) | (1u << 31)); }

}  // namespace

const char* FaultOpName(FaultOp op) {
  switch (op) {
    case kFaultCreate:
      return "create";
    case kFaultWrite:
      return "write";
    case kFaultSync:
      return "fsync";
    case kFaultRename:
      return "rename";
    case kFaultSyncMetaData:
      return "directory sync";
    case kFaultDelete:
      return "delete";
    default:
      return "unknown op";
  }
}

class FaultInjectingDirectory::File final : public WritableFile {
 public:
  File(FaultInjectingDirectory* dir, std::string name, std::unique_ptr<WritableFile> base)
      : dir_(dir), name_(std::move(name)), base_(std::move(base)) {}

  absl::Status Append(std::span<const uint8_t> data) override {
    uint64_t piece_size;
    {
      std::lock_guard<std::mutex> lock(dir_->mu_);
      piece_size = dir_->max_write_size_ == 0 ? data.size() : dir_->max_write_size_;
    }
    while (!data.empty()) {
      const std::span<const uint8_t> piece =
          data.first(std::min<uint64_t>(piece_size, data.size()));
      uint64_t allowed = 0;
      absl::Status fault = dir_->CheckWrite(name_, piece.size(), &allowed);
      if (allowed > 0) {
        if (absl::Status s = base_->Append(piece.first(allowed)); !s.ok()) return s;
      }
      if (!fault.ok()) return fault;
      data = data.subspan(piece.size());
    }
    return absl::OkStatus();
  }

  absl::Status Close() override { return base_->Close(); }

 private:
  FaultInjectingDirectory* dir_;
  std::string name_;
  std::unique_ptr<WritableFile> base_;
};

void FaultInjectingDirectory::set_counted_ops(uint32_t mask) {
  std::lock_guard<std::mutex> lock(mu_);
  counted_ops_ = mask & kFaultAllOps;
}

void FaultInjectingDirectory::FailAt(uint64_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  fail_at_ = n;
  failed_ = false;
}

void FaultInjectingDirectory::set_sticky(bool sticky) {
  std::lock_guard<std::mutex> lock(mu_);
  sticky_ = sticky;
}

void FaultInjectingDirectory::set_max_write_size(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  max_write_size_ = bytes;
}

void FaultInjectingDirectory::set_skip_syncs(bool skip) {
  std::lock_guard<std::mutex> lock(mu_);
  skip_syncs_ = skip;
}

void FaultInjectingDirectory::SetDiskLimit(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  has_disk_limit_ = true;
  disk_limit_ = bytes;
}

void FaultInjectingDirectory::ClearDiskLimit() {
  std::lock_guard<std::mutex> lock(mu_);
  has_disk_limit_ = false;
}

void FaultInjectingDirectory::ResetCounters() {
  std::lock_guard<std::mutex> lock(mu_);
  op_count_ = 0;
  std::fill(std::begin(calls_), std::end(calls_), 0);
  bytes_written_ = 0;
  faults_injected_ = 0;
  failed_ = false;
}

uint64_t FaultInjectingDirectory::op_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return op_count_;
}

uint64_t FaultInjectingDirectory::calls(FaultOp op) const {
  std::lock_guard<std::mutex> lock(mu_);
  return calls_[OpIndex(op)];
}

uint64_t FaultInjectingDirectory::bytes_written() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_written_;
}

uint64_t FaultInjectingDirectory::faults_injected() const {
  std::lock_guard<std::mutex> lock(mu_);
  return faults_injected_;
}

absl::Status FaultInjectingDirectory::Check(FaultOp op, std::string_view what) {
  std::lock_guard<std::mutex> lock(mu_);
  ++calls_[OpIndex(op)];
  if ((counted_ops_ & op) == 0) return absl::OkStatus();
  const uint64_t n = ++op_count_;
  if (n != fail_at_ && !(sticky_ && failed_)) return absl::OkStatus();
  failed_ = true;
  ++faults_injected_;
  return absl::Status(internal::ErrnoCode(EIO),
                      absl::StrCat("injected fault: ", FaultOpName(op), " #", n, " ", Sv(what),
                                   " (Input/output error)"));
}

absl::Status FaultInjectingDirectory::CheckWrite(std::string_view name, uint64_t size,
                                                 uint64_t* allowed) {
  *allowed = 0;
  if (absl::Status s = Check(kFaultWrite, absl::StrCat("to ", Sv(name))); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(mu_);
  if (has_disk_limit_ && bytes_written_ + size > disk_limit_) {
    *allowed = disk_limit_ > bytes_written_ ? disk_limit_ - bytes_written_ : 0;
    bytes_written_ += *allowed;
    ++faults_injected_;
    return absl::ResourceExhaustedError(
        absl::StrCat("injected fault: no space left on device (ENOSPC) writing ", Sv(name),
                     ": the disk limit of ", disk_limit_, " bytes is reached"));
  }
  *allowed = size;
  bytes_written_ += size;
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<WritableFile>> FaultInjectingDirectory::CreateFile(
    std::string_view name) {
  if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  if (absl::Status s = Check(kFaultCreate, absl::StrCat("of ", Sv(name))); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<WritableFile>> file = base_->CreateFile(name);
  if (!file.ok()) return file.status();
  return std::make_unique<File>(this, std::string(name), *std::move(file));
}

absl::StatusOr<std::shared_ptr<const MappedFile>> FaultInjectingDirectory::OpenFile(
    std::string_view name) {
  return base_->OpenFile(name);
}

absl::StatusOr<std::vector<std::string>> FaultInjectingDirectory::ListAll() const {
  return base_->ListAll();
}

absl::StatusOr<uint64_t> FaultInjectingDirectory::FileLength(std::string_view name) const {
  return base_->FileLength(name);
}

absl::Status FaultInjectingDirectory::DeleteFile(std::string_view name) {
  if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  if (absl::Status s = Check(kFaultDelete, absl::StrCat("of ", Sv(name))); !s.ok()) return s;
  return base_->DeleteFile(name);
}

absl::Status FaultInjectingDirectory::Rename(std::string_view from, std::string_view to) {
  if (absl::Status s = ValidateFileName(from); !s.ok()) return s;
  if (absl::Status s = ValidateFileName(to); !s.ok()) return s;
  if (absl::Status s = Check(kFaultRename, absl::StrCat("of ", Sv(from), " to ", Sv(to)));
      !s.ok()) {
    return s;
  }
  return base_->Rename(from, to);
}

absl::Status FaultInjectingDirectory::Sync(const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  }
  for (const std::string& name : names) {
    if (absl::Status s = Check(kFaultSync, absl::StrCat("of ", Sv(name))); !s.ok()) return s;
    bool skip;
    {
      std::lock_guard<std::mutex> lock(mu_);
      skip = skip_syncs_;
    }
    absl::Status s = skip ? base_->FileLength(name).status() : base_->Sync({name});
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status FaultInjectingDirectory::SyncMetaData() {
  if (absl::Status s = Check(kFaultSyncMetaData, absl::StrCat("of ", base_->DebugString()));
      !s.ok()) {
    return s;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (skip_syncs_) return absl::OkStatus();
  }
  return base_->SyncMetaData();
}

std::string FaultInjectingDirectory::DebugString() const {
  return absl::StrCat("FaultInjectingDirectory(", base_->DebugString(), ")");
}

}  // namespace invert

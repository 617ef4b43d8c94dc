// WriteFileAtomically and the temporary-file cleanup pass.
#include "store/atomic_file.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "store/io_error.h"
#include "util/absl_compat.h"

namespace invert {
namespace {

// Removes `temp` after a failed step and returns `error`; a failed removal is
// left to RemoveTempFiles and noted in the message.
absl::Status Abort(Directory& dir, const std::string& temp, absl::Status error) {
  absl::Status removed = dir.DeleteFile(temp);
  if (removed.ok() || absl::IsNotFound(removed)) return error;
  return absl::Status(error.code(), absl::StrCat(error.message(), " (and removing ", temp,
                                                 " failed: ", removed.message(), ")"));
}

}  // namespace

std::string TempFileName(std::string_view name) {
  return absl::StrCat(Sv(kTempFilePrefix), Sv(name));
}

absl::Status WriteFileAtomically(Directory& dir, std::string_view name,
                                 std::span<const uint8_t> bytes) {
  return WriteFileAtomically(dir, name, [&](IndexOutput& out) {
    out.WriteBytes(bytes);
    return out.status();
  });
}

absl::Status WriteFileAtomically(Directory& dir, std::string_view name,
                                 absl::FunctionRef<absl::Status(IndexOutput&)> write) {
  if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  if (name.starts_with(kTempFilePrefix)) {
    return absl::InvalidArgumentError(absl::StrCat("cannot commit \"", Sv(name),
                                                   "\": names starting with ", Sv(kTempFilePrefix),
                                                   " are reserved for temporary files"));
  }
  const std::string temp = TempFileName(name);
  if (absl::Status s = ValidateFileName(temp); !s.ok()) return s;

  // 1. A stale temporary file from a crash would make the create fail.
  if (absl::Status s = dir.DeleteFile(temp); !s.ok() && !absl::IsNotFound(s)) return s;
  // 2. Write.
  absl::StatusOr<std::unique_ptr<IndexOutput>> out = CreateOutput(&dir, temp);
  if (!out.ok()) return Abort(dir, temp, out.status());
  absl::Status written = write(**out);
  absl::Status closed = (*out)->Close();
  out->reset();
  if (!written.ok()) return Abort(dir, temp, written);
  if (!closed.ok()) return Abort(dir, temp, closed);
  // 3. Durable contents before they become visible under `name`.
  if (absl::Status s = dir.Sync({temp}); !s.ok()) return Abort(dir, temp, s);
  // 4. The commit point.
  if (absl::Status s = dir.Rename(temp, name); !s.ok()) return Abort(dir, temp, s);
  // 5. Durable rename.
  if (absl::Status s = dir.SyncMetaData(); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(s.message(), " (", Sv(name),
                                               " was replaced but the rename may not be durable)"));
  }
  return absl::OkStatus();
}

absl::Status RemoveTempFile(Directory& dir, std::string_view name) {
  absl::Status s = dir.DeleteFile(TempFileName(name));
  return absl::IsNotFound(s) ? absl::OkStatus() : s;
}

}  // namespace invert

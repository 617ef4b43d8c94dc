// IoError: turns an errno into an absl::Status whose message names the
// operation and the file, e.g. "open /idx/_0.doc: No such file or directory".
#ifndef INVERT_STORE_IO_ERROR_H_
#define INVERT_STORE_IO_ERROR_H_

#include <cerrno>
#include <cstring>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "util/absl_compat.h"

namespace invert::internal {

// The code for `error_number`: absl's mapping, except that a read-only file
// system counts as kPermissionDenied like EACCES (the cure is the same).
inline absl::StatusCode ErrnoCode(int error_number) {
  if (error_number == EROFS) return absl::StatusCode::kPermissionDenied;
  return absl::ErrnoToStatusCode(error_number);
}

// Returns "<op> <what>: <strerror(error_number)>" with ErrnoCode's code.
// REQUIRES: error_number != 0.
inline absl::Status IoError(std::string_view op, std::string_view what, int error_number) {
  char buffer[128];
  // GNU strerror_r returns the message (not necessarily in `buffer`).
  const char* text = strerror_r(error_number, buffer, sizeof(buffer));
  return absl::Status(ErrnoCode(error_number), absl::StrCat(Sv(op), " ", Sv(what), ": ", text));
}

}  // namespace invert::internal

#endif  // INVERT_STORE_IO_ERROR_H_

// Directory: what every implementation shares: file-name validation and
// MappedFile's defaults for memory that is not a file mapping.
#include "invert/directory.h"

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "store/io_error.h"
#include "util/absl_compat.h"

namespace invert {

absl::Status MappedFile::WillNeed(uint64_t, uint64_t) const { return absl::OkStatus(); }

absl::StatusOr<bool> MappedFile::IsResident(uint64_t, uint64_t) const { return true; }

absl::Status MappedFile::Advise(uint64_t, uint64_t, ReadAdvice) const { return absl::OkStatus(); }

absl::Status ValidateFileName(std::string_view name) {
  auto invalid = [&](std::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid file name \"", absl::CHexEscape(Sv(name)), "\": ", Sv(why)));
  };
  if (name.empty()) return invalid("empty");
  if (name.size() > 255) return invalid("longer than 255 bytes");
  if (name == ".") return invalid("\".\" is not a file");
  if (name.find('/') != std::string_view::npos) return invalid("contains '/'");
  if (name.find('\0') != std::string_view::npos) return invalid("contains NUL");
  if (name.find("..") != std::string_view::npos) return invalid("contains \"..\"");
  return absl::OkStatus();
}

}  // namespace invert

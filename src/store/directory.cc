// Directory: what every implementation shares: file-name validation, the
// codec entry points (CreateOutput, OpenInput) and MappedFile's defaults for
// memory that is not a file mapping.
#include "invert/directory.h"

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "store/index_input.h"
#include "store/index_output.h"
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

absl::StatusOr<std::unique_ptr<IndexOutput>> Directory::CreateOutput(std::string_view name) {
  absl::StatusOr<std::unique_ptr<WritableFile>> file = CreateFile(name);
  if (!file.ok()) return file.status();
  return std::make_unique<IndexOutput>(std::string(name), *std::move(file));
}

absl::StatusOr<IndexInput> Directory::OpenInput(std::string_view name) {
  absl::StatusOr<std::shared_ptr<const MappedFile>> file = OpenFile(name);
  if (!file.ok()) return file.status();
  return IndexInput(std::string(name), *std::move(file));
}

}  // namespace invert

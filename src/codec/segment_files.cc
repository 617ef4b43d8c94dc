// Segment names: base-36 numbers, and the exact file-name scheme (live-docs
// files included).
#include "codec/segment_files.h"

#include <algorithm>

namespace invert {

namespace {
constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";

// 1 to 12 lower-case base-36 digits without a leading zero ("0" itself is
// fine); nullopt otherwise. 36^12 < 2^64, so it cannot overflow.
std::optional<uint64_t> ParseBase36(std::string_view digits) {
  if (digits.empty() || digits.size() > 12 || (digits.size() > 1 && digits[0] == '0')) {
    return std::nullopt;
  }
  uint64_t number = 0;
  for (char c : digits) {
    uint64_t d;
    if (c >= '0' && c <= '9') {
      d = static_cast<uint64_t>(c - '0');
    } else if (c >= 'a' && c <= 'z') {
      d = static_cast<uint64_t>(c - 'a') + 10;
    } else {
      return std::nullopt;
    }
    number = number * 36 + d;
  }
  return number;
}

}  // namespace

std::string SegmentName(uint64_t number) {
  std::string out;
  do {
    out.insert(out.begin(), kDigits[number % 36]);
    number /= 36;
  } while (number > 0);
  return "_" + out;
}

std::optional<SegmentFileNameParts> ParseSegmentFileName(std::string_view file) {
  if (file.size() < 4 || file[0] != '_') return std::nullopt;
  const size_t dot = file.find('.');
  if (dot == std::string_view::npos || dot < 2) return std::nullopt;
  std::string_view digits = file.substr(1, dot - 1);
  const std::string_view extension = file.substr(dot + 1);
  std::optional<uint64_t> del_gen;
  if (extension == "liv") {
    const size_t underscore = digits.find('_');
    if (underscore == std::string_view::npos) return std::nullopt;
    del_gen = ParseBase36(digits.substr(underscore + 1));
    if (!del_gen.has_value() || *del_gen == 0) return std::nullopt;
    digits = digits.substr(0, underscore);
  } else if (std::find(std::begin(kSegmentExtensions), std::end(kSegmentExtensions), extension) ==
             std::end(kSegmentExtensions)) {
    return std::nullopt;
  }
  const std::optional<uint64_t> number = ParseBase36(digits);
  if (!number.has_value()) return std::nullopt;
  return SegmentFileNameParts{file.substr(0, 1 + digits.size()), *number, extension,
                              del_gen.value_or(0)};
}

}  // namespace invert

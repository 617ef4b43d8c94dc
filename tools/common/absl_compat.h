// StdSv: an absl::string_view as a std::string_view. Debian's Abseil is
// built with its own string_view type (ABSL_USES_STD_STRING_VIEW is 0), so
// absl::Status::message() does not convert to std::string_view implicitly.
// The library has the same helper internally; the tools, which use only the
// public headers, keep their own.
#ifndef INVERT_TOOLS_COMMON_ABSL_COMPAT_H_
#define INVERT_TOOLS_COMMON_ABSL_COMPAT_H_

#include <string_view>

#include "absl/strings/string_view.h"

namespace invert::tools {

inline std::string_view StdSv(absl::string_view s) { return std::string_view(s.data(), s.size()); }

}  // namespace invert::tools

#endif  // INVERT_TOOLS_COMMON_ABSL_COMPAT_H_

// Bridges std::string_view to absl::string_view. Debian's Abseil is built
// with its own string_view type (ABSL_USES_STD_STRING_VIEW is 0), so
// std::string_view does not convert implicitly: absl::StrCat arguments and
// heterogeneous flat_hash_map lookups go through Sv().
#ifndef INVERT_UTIL_ABSL_COMPAT_H_
#define INVERT_UTIL_ABSL_COMPAT_H_

#include <string_view>

#include "absl/strings/string_view.h"

namespace invert {

inline absl::string_view Sv(std::string_view s) { return absl::string_view(s.data(), s.size()); }
inline std::string_view StdSv(absl::string_view s) { return std::string_view(s.data(), s.size()); }

}  // namespace invert

#endif  // INVERT_UTIL_ABSL_COMPAT_H_

// Names of the term-byte layouts, for command lines and reports.
#include "invert/term_bytes_layout.h"

namespace invert {

std::string_view TermBytesLayoutName(TermBytesLayout layout) {
  switch (layout) {
    case TermBytesLayout::kShared:
      return "shared";
    case TermBytesLayout::kSeparate:
      return "separate";
  }
  return "unknown";
}

std::optional<TermBytesLayout> ParseTermBytesLayout(std::string_view name) {
  if (name == "shared") return TermBytesLayout::kShared;
  if (name == "separate") return TermBytesLayout::kSeparate;
  return std::nullopt;
}

}  // namespace invert

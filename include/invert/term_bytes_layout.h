// TermBytesLayout: where a TermsHash keeps its term bytes. Selectable at run
// time because neither layout wins every workload; docs/benchmarks.md has the
// measurements.
#ifndef INVERT_TERM_BYTES_LAYOUT_H_
#define INVERT_TERM_BYTES_LAYOUT_H_

#include <optional>
#include <string_view>

#include "invert/export.h"

namespace invert {

enum class TermBytesLayout {
  // Term bytes and postings slices share one byte-block pool: a new term's
  // bytes and its first slices are written next to each other (one cache
  // line for a rare term), at the cost of sparser term bytes for lookups and
  // the flush sort.
  kShared,
  // Term bytes get a pool of their own (blocks from the same allocator): dense
  // term bytes for lookups and the sort, but a new term touches two pools.
  kSeparate,
};

// "shared" / "separate".
INVERT_EXPORT std::string_view TermBytesLayoutName(TermBytesLayout layout);
// Inverse of TermBytesLayoutName; nullopt for an unknown name.
INVERT_EXPORT std::optional<TermBytesLayout> ParseTermBytesLayout(std::string_view name);

}  // namespace invert

#endif  // INVERT_TERM_BYTES_LAYOUT_H_

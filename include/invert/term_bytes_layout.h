// TermBytesLayout: where a TermsHash keeps its term bytes. Both stay
// selectable: neither wins every workload (docs/benchmarks.md has the
// measurements), but the default, kShared, is the one never measured slower
// on the paths the library runs at the light size.
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

// The layout every options struct starts with (IndexWriterOptions,
// InMemorySegmentOptions, invert-index --layout). Shared, from the same-machine
// runs in docs/benchmarks.md ("The default layout"): in the batched add path,
// the whole chain and the flush (the only paths the library runs) separate
// was slower beyond noise in several cells and shared in none at the light
// size; at the scaled size neither wins every cell. What the
// separate layout wins is one-token-at-a-time lookups into a large
// vocabulary (dense term bytes), which no library code does.
inline constexpr TermBytesLayout kDefaultTermBytesLayout = TermBytesLayout::kShared;

// "shared" / "separate".
INVERT_EXPORT std::string_view TermBytesLayoutName(TermBytesLayout layout);
// Inverse of TermBytesLayoutName; nullopt for an unknown name.
INVERT_EXPORT std::optional<TermBytesLayout> ParseTermBytesLayout(std::string_view name);

}  // namespace invert

#endif  // INVERT_TERM_BYTES_LAYOUT_H_

// MergePolicy's out-of-line members and NoMergePolicy
// (include/invert/merge_policy.h). TieredMergePolicy is in
// tiered_merge_policy.cc.
#include "invert/merge_policy.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"

namespace invert {

MergePolicy::~MergePolicy() = default;

absl::Status MergePolicy::Validate() const { return absl::OkStatus(); }

namespace {

uint64_t LiveBytes(const MergeCandidate& s) {
  const uint32_t del = std::min(s.del_count, s.max_doc);
  if (del == 0) return s.size_bytes;
  return static_cast<uint64_t>(static_cast<double>(s.size_bytes) *
                               (1.0 - static_cast<double>(del) / s.max_doc));
}

// Groups of adjacent sizes (each a [begin, end) range) of at most `limit`
// bytes each, filled greedily from the front. REQUIRES: limit >= every size.
std::vector<std::pair<size_t, size_t>> PackAdjacent(const std::vector<uint64_t>& sizes,
                                                    uint64_t limit) {
  std::vector<std::pair<size_t, size_t>> groups;
  size_t begin = 0;
  uint64_t total = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i > begin && total + sizes[i] > limit) {
      groups.emplace_back(begin, i);
      begin = i;
      total = 0;
    }
    total += sizes[i];
  }
  if (begin < sizes.size()) groups.emplace_back(begin, sizes.size());
  return groups;
}

}  // namespace

// The smallest possible largest group (binary search over it: the greedy
// packing with a limit gives the fewest groups for that limit), then groups
// split until there are exactly max_segments, so no more is merged than
// needed. Splitting a group never makes the largest one larger.
std::vector<OneMerge> NoMergePolicy::FindForcedMerges(const std::vector<MergeCandidate>& segments,
                                                      int max_segments) const {
  if (max_segments < 1) return {};
  for (const MergeCandidate& s : segments) {
    if (s.merging) return {};  // wait: adjacency is judged on the whole index
  }
  const size_t target = static_cast<size_t>(max_segments);
  if (segments.size() <= target) {
    if (target == 1 && segments.size() == 1 && segments[0].del_count > 0) {
      return {OneMerge{.segments = {segments[0].name}}};
    }
    return {};
  }
  std::vector<uint64_t> sizes;
  uint64_t lo = 0, hi = 0;
  for (const MergeCandidate& s : segments) {
    sizes.push_back(LiveBytes(s));
    lo = std::max(lo, sizes.back());
    hi += sizes.back();  // sums of uint64 file sizes: no overflow in practice
  }
  while (lo < hi) {  // the smallest limit that packs into `target` groups
    const uint64_t mid = lo + (hi - lo) / 2;
    if (PackAdjacent(sizes, mid).size() <= target) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  std::vector<std::pair<size_t, size_t>> groups = PackAdjacent(sizes, lo);
  for (size_t g = groups.size(); groups.size() < target && g-- > 0;) {
    while (groups.size() < target && groups[g].second - groups[g].first >= 2) {
      const size_t last = groups[g].second - 1;
      groups[g].second = last;
      groups.insert(groups.begin() + static_cast<std::ptrdiff_t>(g) + 1, {last, last + 1});
    }
  }
  std::vector<OneMerge> merges;
  for (const auto& [begin, end] : groups) {
    if (end - begin < 2) continue;
    OneMerge merge;
    for (size_t i = begin; i < end; ++i) merge.segments.push_back(segments[i].name);
    merges.push_back(std::move(merge));
  }
  return merges;
}

std::vector<OneMerge> NoMergePolicy::FindForcedDeletesMerges(
    const std::vector<MergeCandidate>& segments) const {
  std::vector<OneMerge> merges;
  for (const MergeCandidate& s : segments) {
    if (!s.merging && s.del_count > 0) merges.push_back(OneMerge{.segments = {s.name}});
  }
  return merges;
}

}  // namespace invert

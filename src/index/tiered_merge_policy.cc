// TieredMergePolicy: Lucene 8.8's tiered merge selection over plain
// MergeCandidate values (include/invert/merge_policy.h; the options and their
// reasoning in docs/merges.md).
//
// Natural merges (FindMerges), in four steps:
//   1. Sort the segments by live bytes, largest first (ties by name).
//      Merging ones leave the list but still count in the index's size.
//   2. Drop the segments over max_merged/2 ("too big") unless both the
//      index and the segment are over deletes_pct_allowed deleted.
//   3. Budget: tier 0 holds segments of max(smallest, floor) bytes, each
//      next tier merge_factor times larger (capped at max_merged), and each
//      tier segments_per_tier segments; the allowed count is the number of
//      segments the remaining bytes fill that way (at least
//      segments_per_tier).
//   4. While the eligible segments are over budget (or hold more deletions
//      than deletes_pct_allowed of the index allows), score every run of up
//      to merge_factor consecutive size-sorted segments whose live total
//      fits max_merged (smaller later segments may be packed in past one
//      that does not fit), keep the best, and take its segments out.
//
// A merge's score (lower is better) is skew * total^0.05 * (live/raw)^2:
// skew = largest / total (floored sizes), or 1/merge_factor for a merge that
// hit the size cap (it cannot cascade); small merges are gently favoured and
// merges reclaiming deletions strongly so.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "invert/merge_policy.h"

namespace invert {
namespace {

constexpr double kBytesPerMb = 1024.0 * 1024.0;

// A segment as the policy weighs it.
struct Sized {
  size_t index;   // position in the caller's vector (index order)
  uint64_t raw;   // size_bytes
  uint64_t live;  // raw * (1 - del_count / max_doc)
  uint32_t max_doc;
  uint32_t del_count;  // clamped to max_doc
  bool merging;
  const std::string* name;

  double DeletedPct() const {
    return max_doc == 0 ? 0.0 : 100.0 * static_cast<double>(del_count) / max_doc;
  }
};

uint64_t MbToBytes(double mb) {
  const double bytes = mb * kBytesPerMb;
  if (!(bytes < static_cast<double>(std::numeric_limits<uint64_t>::max()))) {
    return std::numeric_limits<uint64_t>::max();
  }
  return std::max<uint64_t>(1, static_cast<uint64_t>(bytes));
}

std::vector<Sized> Weigh(const std::vector<MergeCandidate>& segments) {
  std::vector<Sized> out;
  out.reserve(segments.size());
  for (size_t i = 0; i < segments.size(); ++i) {
    const MergeCandidate& s = segments[i];
    const uint32_t del = std::min(s.del_count, s.max_doc);
    uint64_t live = s.size_bytes;
    if (del > 0) {
      const double ratio = 1.0 - static_cast<double>(del) / s.max_doc;
      live = static_cast<uint64_t>(static_cast<double>(s.size_bytes) * ratio);
    }
    out.push_back({i, s.size_bytes, live, s.max_doc, del, s.merging, &s.name});
  }
  return out;
}

// Largest live size first; ties by name, then index order (deterministic).
void SortLargestFirst(std::vector<Sized>& v) {
  std::sort(v.begin(), v.end(), [](const Sized& a, const Sized& b) {
    if (a.live != b.live) return a.live > b.live;
    if (*a.name != *b.name) return *a.name < *b.name;
    return a.index < b.index;
  });
}

// The merge of `picked`, its segments in index order.
OneMerge MakeMerge(std::vector<const Sized*> picked) {
  std::sort(picked.begin(), picked.end(),
            [](const Sized* a, const Sized* b) { return a->index < b->index; });
  OneMerge merge;
  merge.segments.reserve(picked.size());
  for (const Sized* s : picked) merge.segments.push_back(*s->name);
  return merge;
}

enum class MergeKind { kNatural, kForcedDeletes };

struct SelectParams {
  uint64_t max_bytes;  // cap on a merge's live total
  uint64_t floor_bytes;
  int merge_factor;          // most segments in one merge
  int score_merge_factor;    // for the skew of a merge that hit the cap
  int64_t allowed_segments;  // natural: stop once at or under it ...
  int64_t allowed_deletes;   // ... and the deletions at or under this
  MergeKind kind;
  bool max_merge_running;  // a merge of max_bytes or more is running
};

double Score(const std::vector<const Sized*>& merge, bool hit_too_large, const SelectParams& p) {
  double raw = 0, live = 0, live_floored = 0;
  for (const Sized* s : merge) {
    raw += static_cast<double>(s->raw);
    live += static_cast<double>(s->live);
    live_floored += static_cast<double>(std::max(s->live, p.floor_bytes));
  }
  // merge[0] is the largest: runs are taken from the size-sorted list.
  const double skew =
      hit_too_large ? 1.0 / p.score_merge_factor
                    : static_cast<double>(std::max(merge[0]->live, p.floor_bytes)) / live_floored;
  const double non_deleted = raw > 0 ? live / raw : 1.0;
  return skew * std::pow(live, 0.05) * non_deleted * non_deleted;
}

// Step 4 (and ForceMergeDeletes's grouping). `eligible`: largest first.
std::vector<OneMerge> SelectMerges(std::vector<const Sized*> eligible, const SelectParams& p) {
  std::vector<OneMerge> merges;
  // Only one merge that hits the size cap per call in a natural selection:
  // crossing deletes_pct_allowed would otherwise start many large merges at
  // once. The others are found on later calls.
  bool have_large_merge = false;
  while (!eligible.empty()) {
    if (p.kind == MergeKind::kNatural) {
      int64_t deletes = 0;
      for (const Sized* s : eligible) deletes += s->del_count;
      if (static_cast<int64_t>(eligible.size()) <= p.allowed_segments &&
          deletes <= p.allowed_deletes) {
        break;
      }
    }
    std::vector<const Sized*> best;
    double best_score = 0;
    bool best_too_large = false;
    for (size_t start = 0; start < eligible.size(); ++start) {
      std::vector<const Sized*> candidate;
      uint64_t total = 0;  // live bytes of candidate
      bool hit_too_large = false;
      for (size_t i = start;
           i < eligible.size() && static_cast<int>(candidate.size()) < p.merge_factor &&
           total < p.max_bytes;
           ++i) {
        const Sized* s = eligible[i];
        if (total + s->live > p.max_bytes) {
          hit_too_large = true;
          if (candidate.empty()) {
            // Alone over the cap (it has deletions, else it would have been
            // dropped as too big): rewrite it alone, and stop there.
            candidate.push_back(s);
            break;
          }
          continue;  // a smaller one further on may still fit
        }
        candidate.push_back(s);
        total += s->live;
      }
      // Rewriting one segment without deletions gains nothing.
      if (candidate.size() == 1 && candidate[0]->del_count == 0) continue;
      // A short run that did not hit the cap: only smaller ones follow.
      if (!best.empty() && !hit_too_large && static_cast<int>(candidate.size()) < p.merge_factor) {
        break;
      }
      const double score = Score(candidate, hit_too_large, p);
      if ((best.empty() || score < best_score) && (!hit_too_large || !p.max_merge_running)) {
        best = candidate;
        best_score = score;
        best_too_large = hit_too_large;
      }
    }
    if (best.empty()) break;
    if (!have_large_merge || !best_too_large || p.kind == MergeKind::kForcedDeletes) {
      have_large_merge |= best_too_large;
      merges.push_back(MakeMerge(best));
    }
    // Chosen or skipped, these are not considered again in this call.
    std::erase_if(eligible, [&](const Sized* s) {
      return std::find(best.begin(), best.end(), s) != best.end();
    });
  }
  return merges;
}

absl::Status CheckOptions(const TieredMergePolicyOptions& o) {
  auto bad = [](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrCat("TieredMergePolicyOptions: ", what));
  };
  if (o.max_merge_at_once < 2) {
    return bad(absl::StrCat("max_merge_at_once must be >= 2 (got ", o.max_merge_at_once, ")"));
  }
  if (o.max_merge_at_once_explicit < 2) {
    return bad(absl::StrCat("max_merge_at_once_explicit must be >= 2 (got ",
                            o.max_merge_at_once_explicit, ")"));
  }
  // Written so that NaN fails every check.
  if (!(o.segments_per_tier >= 2) || std::isinf(o.segments_per_tier)) {
    return bad(
        absl::StrCat("segments_per_tier must be >= 2 and finite (got ", o.segments_per_tier, ")"));
  }
  if (!(o.max_merged_segment_mb > 0) || std::isinf(o.max_merged_segment_mb)) {
    return bad(absl::StrCat("max_merged_segment_mb must be > 0 and finite (got ",
                            o.max_merged_segment_mb, ")"));
  }
  if (!(o.floor_segment_mb > 0) || !(o.floor_segment_mb <= o.max_merged_segment_mb)) {
    return bad(absl::StrCat("floor_segment_mb must be > 0 and <= max_merged_segment_mb (got ",
                            o.floor_segment_mb, ")"));
  }
  if (!(o.deletes_pct_allowed >= 20 && o.deletes_pct_allowed <= 50)) {
    return bad(
        absl::StrCat("deletes_pct_allowed must be in [20, 50] (got ", o.deletes_pct_allowed, ")"));
  }
  if (!(o.force_merge_deletes_pct_allowed >= 0 && o.force_merge_deletes_pct_allowed <= 100)) {
    return bad(absl::StrCat("force_merge_deletes_pct_allowed must be in [0, 100] (got ",
                            o.force_merge_deletes_pct_allowed, ")"));
  }
  return absl::OkStatus();
}

}  // namespace

TieredMergePolicy::TieredMergePolicy(TieredMergePolicyOptions options)
    : options_(options), valid_(CheckOptions(options).ok()) {}

absl::Status TieredMergePolicy::Validate() const { return CheckOptions(options_); }

std::vector<OneMerge> TieredMergePolicy::FindMerges(
    const std::vector<MergeCandidate>& segments) const {
  if (!valid_ || segments.empty()) return {};
  const uint64_t max_bytes = MbToBytes(options_.max_merged_segment_mb);
  const uint64_t floor_bytes = MbToBytes(options_.floor_segment_mb);
  const double per_tier = options_.segments_per_tier;

  // Step 1.
  std::vector<Sized> sorted = Weigh(segments);
  SortLargestFirst(sorted);
  double index_bytes = 0;  // every segment, merging ones included
  uint64_t min_bytes = std::numeric_limits<uint64_t>::max();
  uint64_t merging_bytes = 0;
  int64_t total_docs = 0, total_deleted = 0;
  std::vector<const Sized*> eligible;
  for (const Sized& s : sorted) {
    if (s.merging) {
      merging_bytes += s.live;
      total_docs += s.max_doc - s.del_count;  // its deletions are being reclaimed
    } else {
      total_docs += s.max_doc;
      total_deleted += s.del_count;
      eligible.push_back(&s);
    }
    min_bytes = std::min(min_bytes, s.live);
    index_bytes += static_cast<double>(s.live);
  }
  const double index_deleted_pct =
      total_docs == 0 ? 0.0 : 100.0 * static_cast<double>(total_deleted) / total_docs;
  int64_t allowed_deletes =
      static_cast<int64_t>(options_.deletes_pct_allowed * static_cast<double>(total_docs) / 100);

  // Step 2.
  std::erase_if(eligible, [&](const Sized* s) {
    const bool too_big =
        s->live > max_bytes / 2 && (index_deleted_pct <= options_.deletes_pct_allowed ||
                                    s->DeletedPct() <= options_.deletes_pct_allowed);
    if (too_big) {
      index_bytes -= static_cast<double>(s->live);
      allowed_deletes -= s->del_count;
    }
    return too_big;
  });
  allowed_deletes = std::max<int64_t>(0, allowed_deletes);

  // Step 3.
  const int merge_factor = static_cast<int>(std::min<double>(options_.max_merge_at_once, per_tier));
  uint64_t level = std::max(min_bytes, floor_bytes);
  double bytes_left = index_bytes;
  double allowed = 0;
  while (true) {
    const double in_level = bytes_left / static_cast<double>(level);
    if (in_level < per_tier || level == max_bytes) {
      allowed += std::ceil(in_level);
      break;
    }
    allowed += per_tier;
    bytes_left -= per_tier * static_cast<double>(level);
    level = level > max_bytes / static_cast<uint64_t>(merge_factor)
                ? max_bytes
                : std::min(max_bytes, level * static_cast<uint64_t>(merge_factor));
  }
  allowed = std::max(allowed, per_tier);

  // Step 4.
  SelectParams params{.max_bytes = max_bytes,
                      .floor_bytes = floor_bytes,
                      .merge_factor = merge_factor,
                      .score_merge_factor = merge_factor,
                      .allowed_segments = static_cast<int64_t>(allowed),
                      .allowed_deletes = allowed_deletes,
                      .kind = MergeKind::kNatural,
                      .max_merge_running = merging_bytes >= max_bytes};
  return SelectMerges(std::move(eligible), params);
}

// Forced merges: smallest segments first, in merges of at most
// max_merge_at_once_explicit segments and (unless max_segments == 1) of at
// most `cap` live bytes, until the segment count would reach max_segments.
// Segments of `cap` or more without deletions are already as merged as they
// should be and are left out; at most 0.8 * max_segments of them can exist
// (cap >= 1.25 * index / max_segments), so whenever the index has more than
// max_segments segments and none is merging, at least two remain and every
// round merges: the rounds reach max_segments.
std::vector<OneMerge> TieredMergePolicy::FindForcedMerges(
    const std::vector<MergeCandidate>& segments, int max_segments) const {
  if (!valid_ || max_segments < 1) return {};
  std::vector<Sized> sorted = Weigh(segments);
  SortLargestFirst(sorted);
  std::reverse(sorted.begin(), sorted.end());  // smallest first
  int64_t merging = 0;
  double eligible_bytes = 0;
  std::vector<const Sized*> eligible;
  for (const Sized& s : sorted) {
    if (s.merging) {
      ++merging;
    } else {
      eligible.push_back(&s);
      eligible_bytes += static_cast<double>(s.live);
    }
  }
  const int64_t count = static_cast<int64_t>(eligible.size()) + merging;
  if (count <= max_segments) {
    if (max_segments == 1 && merging == 0 && eligible.size() == 1 && eligible[0]->del_count > 0) {
      return {MakeMerge({eligible[0]})};
    }
    return {};
  }

  double cap = std::numeric_limits<double>::infinity();
  if (max_segments > 1) {
    cap = 1.25 * std::max(eligible_bytes / max_segments,
                          static_cast<double>(MbToBytes(options_.max_merged_segment_mb)));
  }
  std::erase_if(eligible, [&](const Sized* s) {
    return s->del_count == 0 && static_cast<double>(s->live) >= cap;
  });

  const size_t width = static_cast<size_t>(options_.max_merge_at_once_explicit);
  int64_t excess = count - max_segments;  // segments still to merge away
  std::vector<OneMerge> merges;
  size_t next = 0;
  while (excess > 0 && eligible.size() - next >= 2) {
    std::vector<const Sized*> candidate;
    double total = 0;
    while (next < eligible.size() && candidate.size() < width &&
           static_cast<int64_t>(candidate.size()) <= excess) {
      const Sized* s = eligible[next];
      // Always at least two (the cap cannot stall the rounds); then only
      // what fits: the list is ascending, so nothing after fits either.
      if (candidate.size() >= 2 && total + static_cast<double>(s->live) > cap) break;
      candidate.push_back(s);
      total += static_cast<double>(s->live);
      ++next;
    }
    // While other merges run, start only full-width merges: a narrower one
    // would be the last round's, better done once they have finished (the
    // writer asks again then).
    if (candidate.size() < 2 || (merging > 0 && candidate.size() < width)) break;
    excess -= static_cast<int64_t>(candidate.size()) - 1;
    merges.push_back(MakeMerge(candidate));
  }
  return merges;
}

std::vector<OneMerge> TieredMergePolicy::FindForcedDeletesMerges(
    const std::vector<MergeCandidate>& segments) const {
  if (!valid_) return {};
  std::vector<Sized> sorted = Weigh(segments);
  SortLargestFirst(sorted);
  std::vector<const Sized*> eligible;
  for (const Sized& s : sorted) {
    if (!s.merging && s.DeletedPct() > options_.force_merge_deletes_pct_allowed) {
      eligible.push_back(&s);
    }
  }
  const int merge_factor =
      static_cast<int>(std::min<double>(options_.max_merge_at_once, options_.segments_per_tier));
  SelectParams params{.max_bytes = MbToBytes(options_.max_merged_segment_mb),
                      .floor_bytes = MbToBytes(options_.floor_segment_mb),
                      .merge_factor = options_.max_merge_at_once_explicit,
                      .score_merge_factor = merge_factor,
                      .allowed_segments = 0,
                      .allowed_deletes = 0,
                      .kind = MergeKind::kForcedDeletes,
                      .max_merge_running = false};
  return SelectMerges(std::move(eligible), params);
}

}  // namespace invert

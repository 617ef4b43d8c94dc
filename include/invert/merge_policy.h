// Merge policies: which segments of an index to merge, and when. The writer
// asks its policy after every flush and commit (FindMerges), for
// IndexWriter::ForceMerge (FindForcedMerges) and ForceMergeDeletes
// (FindForcedDeletesMerges), and runs the merges it returns on background
// threads. A policy sees plain values only (names, sizes, counts) and never
// the index itself, so it is cheap to call, easy to test, and may be written
// by a caller (in C++ or, through the bindings, in Python).
//
//   TieredMergePolicy  (the default) merges segments of about equal size,
//                      like Lucene's TieredMergePolicy; see its options.
//   NoMergePolicy      never merges (every flush stays a segment forever);
//                      ForceMerge and ForceMergeDeletes still work with it.
//
// Sizes: a policy weighs a segment by its live bytes, size_bytes *
// (1 - del_count / max_doc), so a segment with many deletions counts as the
// smaller segment a merge would make of it.
//
// Order: a OneMerge lists its segments in index order (the order of the
// `segments` argument), and the merged segment holds their live documents in
// that order, each segment's in doc-id order: documents merged together keep
// their relative order. TieredMergePolicy merges segments that need not be
// adjacent, so documents of different merges do not keep a global order;
// NoMergePolicy merges adjacent segments only.
//
// Thread safety: the writer calls a policy from one thread at a time; its
// methods must not keep references to their arguments. The policies here
// hold no mutable state, so one may serve several writers.
#ifndef INVERT_MERGE_POLICY_H_
#define INVERT_MERGE_POLICY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "invert/export.h"

namespace invert {

// One segment of the index as a merge policy sees it.
struct MergeCandidate {
  std::string name = {};    // "_4"; unique within the index
  uint64_t size_bytes = 0;  // its files, live docs included
  uint32_t max_doc = 0;     // documents, deleted ones included
  uint32_t del_count = 0;   // deleted documents (<= max_doc)
  bool merging = false;     // already part of a running merge: not eligible
};

// One merge: the names of the segments to merge into one, in index order.
struct OneMerge {
  std::vector<std::string> segments = {};
  bool operator==(const OneMerge&) const = default;
};

class INVERT_EXPORT MergePolicy {
 public:
  virtual ~MergePolicy();

  // OK, or kInvalidArgument naming the first bad option. The writer calls it
  // at Open and fails with its status. A policy whose options are invalid
  // finds no merges. The default returns OK.
  virtual absl::Status Validate() const;

  // Merges worth doing now (possibly none), given every segment of the
  // index (in index order) and which are merging already. A segment appears
  // in at most one returned merge, and never one that is merging.
  virtual std::vector<OneMerge> FindMerges(const std::vector<MergeCandidate>& segments) const = 0;

  // Merges that bring the index to at most `max_segments` segments (>= 1;
  // nothing for less), possibly in several rounds: the writer calls again
  // whenever a merge it started finishes, and the forced merge is done when
  // this returns nothing while no segment is merging. Segments already
  // merging count as one each; a policy may wait for them (return nothing)
  // rather than merge around them. With max_segments == 1 a lone segment
  // with deletions is rewritten without them; otherwise an index with at
  // most max_segments segments is left as it is.
  virtual std::vector<OneMerge> FindForcedMerges(const std::vector<MergeCandidate>& segments,
                                                 int max_segments) const = 0;

  // Merges that drop the deleted documents of every segment with at least
  // some (policy-defined share of) deletions; one call covers them all.
  virtual std::vector<OneMerge> FindForcedDeletesMerges(
      const std::vector<MergeCandidate>& segments) const = 0;

  // "tiered", "none", ...: for reports.
  virtual std::string name() const = 0;
};

// Options of TieredMergePolicy. The defaults are Lucene 8.8's;
// docs/merges.md ("Merge policy") gives the reasoning for each and simulated
// segment counts and write amplification.
struct TieredMergePolicyOptions {
  // Segments merged at once by a natural merge (>= 2). The policy uses
  // min(max_merge_at_once, segments_per_tier): merging more than a tier
  // holds would skip tiers.
  int max_merge_at_once = 10;
  // Segments merged at once by ForceMerge and ForceMergeDeletes (>= 2);
  // more are merged in several rounds.
  int max_merge_at_once_explicit = 30;
  // A natural merge never produces a segment over this many MB of live
  // bytes (> 0). Segments over half of it are left alone unless both the
  // index and the segment have more than deletes_pct_allowed percent
  // deleted; a segment over it is then rewritten alone. ForceMerge(1)
  // ignores the cap; ForceMerge(n > 1) allows up to 1.25 x max(this, index
  // size / n), so that n is reached; ForceMergeDeletes keeps to it.
  double max_merged_segment_mb = 5 * 1024;
  // Segments smaller than this count as this size when tiers are computed
  // and merges scored (> 0, <= max_merged_segment_mb), so tiny flushes
  // merge together soon instead of forming many tiers.
  double floor_segment_mb = 2;
  // Allowed segments per tier before a merge is chosen (>= 2). Lower means
  // fewer segments (faster search) and more merging (more write cost).
  double segments_per_tier = 10;
  // Percentage of deleted documents of the whole index above which merges
  // that reclaim deletions are chosen even when the segment count is within
  // budget (20..50, as Lucene allows).
  double deletes_pct_allowed = 33;
  // ForceMergeDeletes merges segments with more than this percentage of
  // their documents deleted (0..100).
  double force_merge_deletes_pct_allowed = 10;
};

// Lucene 8.8's TieredMergePolicy, rewritten: FindMerges computes an allowed
// segment count from the index's size (segments_per_tier segments per tier,
// tiers growing by the merge factor from floor_segment_mb up to
// max_merged_segment_mb), and while the eligible segments are over it (or
// the index has more than deletes_pct_allowed percent deleted), picks the
// best-scoring merge among runs of size-sorted segments: low skew (largest
// over total), small total, and many deletions reclaimed score best.
class INVERT_EXPORT TieredMergePolicy final : public MergePolicy {
 public:
  explicit TieredMergePolicy(TieredMergePolicyOptions options = {});
  const TieredMergePolicyOptions& options() const { return options_; }

  absl::Status Validate() const override;
  std::vector<OneMerge> FindMerges(const std::vector<MergeCandidate>& segments) const override;
  std::vector<OneMerge> FindForcedMerges(const std::vector<MergeCandidate>& segments,
                                         int max_segments) const override;
  // Every non-merging segment with more than force_merge_deletes_pct_allowed
  // percent deleted, grouped into merges of at most
  // max_merge_at_once_explicit segments and max_merged_segment_mb.
  std::vector<OneMerge> FindForcedDeletesMerges(
      const std::vector<MergeCandidate>& segments) const override;
  std::string name() const override { return "tiered"; }

 private:
  TieredMergePolicyOptions options_;
  bool valid_;  // Validate().ok(), computed once
};

class INVERT_EXPORT NoMergePolicy final : public MergePolicy {
 public:
  std::vector<OneMerge> FindMerges(const std::vector<MergeCandidate>&) const override { return {}; }
  // Forced merges still merge (the caller asked for them), in one round:
  // the segments into max_segments groups of adjacent segments, with the
  // largest group (in live bytes) as small as possible. Waits (returns
  // nothing) while any segment is merging.
  std::vector<OneMerge> FindForcedMerges(const std::vector<MergeCandidate>& segments,
                                         int max_segments) const override;
  // Each non-merging segment with deletions, on its own.
  std::vector<OneMerge> FindForcedDeletesMerges(
      const std::vector<MergeCandidate>& segments) const override;
  std::string name() const override { return "none"; }
};

}  // namespace invert

#endif  // INVERT_MERGE_POLICY_H_

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
//                      ForceMerge still works with it.
//
// Thread safety: the writer calls a policy from one thread at a time; its
// methods must not keep references to their arguments.
#ifndef INVERT_MERGE_POLICY_H_
#define INVERT_MERGE_POLICY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "invert/export.h"

namespace invert {

// One segment of the index as a merge policy sees it.
struct MergeCandidate {
  std::string name = {};        // "_4"
  uint64_t size_bytes = 0;      // its files, live docs included
  uint32_t max_doc = 0;         // documents, deleted ones included
  uint32_t del_count = 0;       // deleted documents
  bool merging = false;         // already part of a running merge: not eligible
};

// One merge: the names of the segments to merge into one.
struct OneMerge {
  std::vector<std::string> segments = {};
  bool operator==(const OneMerge&) const = default;
};

class INVERT_EXPORT MergePolicy {
 public:
  virtual ~MergePolicy();

  // Merges worth doing now (possibly none), given every segment of the
  // index (in index order) and which are merging already. A segment appears
  // in at most one returned merge.
  virtual std::vector<OneMerge> FindMerges(const std::vector<MergeCandidate>& segments) const = 0;

  // Merges that bring the index to at most `max_segments` segments (>= 1),
  // possibly in several rounds: the writer calls again after each round
  // until this returns nothing. Segments already merging count as one each.
  virtual std::vector<OneMerge> FindForcedMerges(const std::vector<MergeCandidate>& segments,
                                                 int max_segments) const = 0;

  // Merges that drop the deleted documents of every segment with at least
  // some (policy-defined share of) deletions.
  virtual std::vector<OneMerge> FindForcedDeletesMerges(
      const std::vector<MergeCandidate>& segments) const = 0;

  // "tiered", "none", ...: for reports.
  virtual std::string name() const = 0;
};

struct TieredMergePolicyOptions {
  // Segments merged at once by a natural merge.
  int max_merge_at_once = 10;
  // A merge never produces a segment over this many MB (counting live
  // documents only); segments at or over half of it are left alone unless
  // deletions shrink them.
  double max_merged_segment_mb = 5 * 1024;
  // Segments smaller than this count as this size when tiers are computed,
  // so tiny flushes merge together soon instead of forming many tiers.
  double floor_segment_mb = 2;
  // Allowed segments per tier before a merge is chosen (>= 2). Lower means
  // fewer segments (faster search) and more merging (more write cost).
  double segments_per_tier = 10;
  // Percentage of deleted documents of the whole index above which merges
  // that reclaim deletions are favoured (20..50 as in Lucene).
  double deletes_pct_allowed = 33;
  // ForceMergeDeletes merges segments with more than this percentage deleted.
  double force_merge_deletes_pct_allowed = 10;
};

class INVERT_EXPORT TieredMergePolicy final : public MergePolicy {
 public:
  explicit TieredMergePolicy(TieredMergePolicyOptions options = {});
  const TieredMergePolicyOptions& options() const { return options_; }

  std::vector<OneMerge> FindMerges(const std::vector<MergeCandidate>& segments) const override;
  std::vector<OneMerge> FindForcedMerges(const std::vector<MergeCandidate>& segments,
                                         int max_segments) const override;
  std::vector<OneMerge> FindForcedDeletesMerges(
      const std::vector<MergeCandidate>& segments) const override;
  std::string name() const override { return "tiered"; }

 private:
  TieredMergePolicyOptions options_;
};

class INVERT_EXPORT NoMergePolicy final : public MergePolicy {
 public:
  std::vector<OneMerge> FindMerges(const std::vector<MergeCandidate>&) const override {
    return {};
  }
  // Forced merges still merge (the caller asked for them): everything into
  // max_segments segments, adjacent segments together.
  std::vector<OneMerge> FindForcedMerges(const std::vector<MergeCandidate>& segments,
                                         int max_segments) const override;
  std::vector<OneMerge> FindForcedDeletesMerges(
      const std::vector<MergeCandidate>& segments) const override;
  std::string name() const override { return "none"; }
};

}  // namespace invert

#endif  // INVERT_MERGE_POLICY_H_

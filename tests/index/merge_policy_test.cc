// Tests of the merge policies (include/invert/merge_policy.h):
//   - option validation;
//   - hand-built cases of TieredMergePolicy's rules (budget, merge factor,
//     size cap, too-big segments, deletes, merging segments);
//   - invariants over random indexes (printed seed): no segment in two
//     merges, no merging segment chosen, merge widths and sizes within
//     bounds, forced merges reaching exactly max_segments when their rounds
//     are simulated, forced-deletes merges covering exactly the segments
//     over the threshold; NoMergePolicy's groups adjacent and as balanced as
//     a brute-force partition;
//   - simulated indexing runs (flushes, deletes, merges applied instantly or
//     after a delay) checked against a plain reference: the segment count
//     stays within segments_per_tier per tier (a logarithm of the index
//     size) and the write amplification within the tiers a byte can climb.
//     The numbers are printed (docs/merges.md quotes them).
#include "invert/merge_policy.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

constexpr uint64_t kMb = 1024 * 1024;

MergeCandidate Seg(std::string name, uint64_t bytes, uint32_t max_doc = 1000, uint32_t del = 0,
                   bool merging = false) {
  return MergeCandidate{.name = std::move(name),
                        .size_bytes = bytes,
                        .max_doc = max_doc,
                        .del_count = del,
                        .merging = merging};
}

double LiveBytes(const MergeCandidate& s) {
  if (s.max_doc == 0) return static_cast<double>(s.size_bytes);
  return static_cast<double>(s.size_bytes) *
         (1.0 - static_cast<double>(std::min(s.del_count, s.max_doc)) / s.max_doc);
}

double DeletedPct(const MergeCandidate& s) {
  return s.max_doc == 0 ? 0.0 : 100.0 * s.del_count / s.max_doc;
}

// Checks what every policy promises of a set of merges: names of the index,
// each segment in at most one merge, none merging, each merge non-empty and
// in index order, and a merge of one segment only if it has deletions.
// Returns the merges' segments as indexes into `segments`.
std::vector<std::vector<size_t>> CheckCommon(const std::vector<MergeCandidate>& segments,
                                             const std::vector<OneMerge>& merges) {
  std::map<std::string, size_t> position;
  for (size_t i = 0; i < segments.size(); ++i) position[segments[i].name] = i;
  std::set<std::string> used;
  std::vector<std::vector<size_t>> out;
  for (const OneMerge& merge : merges) {
    EXPECT_FALSE(merge.segments.empty());
    std::vector<size_t> indexes;
    for (const std::string& name : merge.segments) {
      auto it = position.find(name);
      if (it == position.end()) {
        ADD_FAILURE() << "merge names unknown segment " << name;
        continue;
      }
      EXPECT_TRUE(used.insert(name).second) << name << " is in two merges";
      EXPECT_FALSE(segments[it->second].merging) << name << " is already merging";
      if (!indexes.empty()) {
        EXPECT_LT(indexes.back(), it->second) << "not in index order";
      }
      indexes.push_back(it->second);
    }
    if (indexes.size() == 1) {
      EXPECT_GT(segments[indexes[0]].del_count, 0u)
          << "rewrites " << segments[indexes[0]].name << " alone without deletions";
    }
    out.push_back(indexes);
  }
  return out;
}

// Applies merges instantly: each merge's segments become one segment (live
// bytes and docs only) at the place of its first; returns bytes written.
double ApplyMerges(std::vector<MergeCandidate>& segments, const std::vector<OneMerge>& merges,
                   int& next_name) {
  double written = 0;
  for (const OneMerge& merge : merges) {
    std::set<std::string> names(merge.segments.begin(), merge.segments.end());
    double bytes = 0;
    uint64_t docs = 0;
    size_t first = segments.size();
    for (size_t i = 0; i < segments.size(); ++i) {
      if (!names.contains(segments[i].name)) continue;
      bytes += LiveBytes(segments[i]);
      docs += segments[i].max_doc - segments[i].del_count;
      first = std::min(first, i);
    }
    MergeCandidate merged = Seg("_m" + std::to_string(next_name++), static_cast<uint64_t>(bytes),
                                static_cast<uint32_t>(docs));
    std::erase_if(segments, [&](const MergeCandidate& s) { return names.contains(s.name); });
    segments.insert(segments.begin() + static_cast<std::ptrdiff_t>(first), merged);
    written += bytes;
  }
  return written;
}

// ---- Validation ----

TEST(TieredMergePolicyTest, DefaultsAreLucenesAndValid) {
  TieredMergePolicyOptions o;
  EXPECT_EQ(o.max_merge_at_once, 10);
  EXPECT_EQ(o.max_merge_at_once_explicit, 30);
  EXPECT_EQ(o.max_merged_segment_mb, 5 * 1024);
  EXPECT_EQ(o.floor_segment_mb, 2);
  EXPECT_EQ(o.segments_per_tier, 10);
  EXPECT_EQ(o.deletes_pct_allowed, 33);
  EXPECT_EQ(o.force_merge_deletes_pct_allowed, 10);
  EXPECT_TRUE(TieredMergePolicy().Validate().ok());
  EXPECT_TRUE(NoMergePolicy().Validate().ok());
  EXPECT_EQ(TieredMergePolicy().name(), "tiered");
  EXPECT_EQ(NoMergePolicy().name(), "none");
}

TEST(TieredMergePolicyTest, ValidateRejectsBadOptions) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    const char* field;
    std::function<void(TieredMergePolicyOptions&)> set;
  };
  const std::vector<Case> cases = {
      {"max_merge_at_once", [](auto& o) { o.max_merge_at_once = 1; }},
      {"max_merge_at_once", [](auto& o) { o.max_merge_at_once = -3; }},
      {"max_merge_at_once_explicit", [](auto& o) { o.max_merge_at_once_explicit = 1; }},
      {"segments_per_tier", [](auto& o) { o.segments_per_tier = 1.5; }},
      {"segments_per_tier", [=](auto& o) { o.segments_per_tier = nan; }},
      {"segments_per_tier", [=](auto& o) { o.segments_per_tier = inf; }},
      {"max_merged_segment_mb", [](auto& o) { o.max_merged_segment_mb = -1; }},
      {"max_merged_segment_mb", [](auto& o) { o.max_merged_segment_mb = 0; }},
      {"max_merged_segment_mb", [=](auto& o) { o.max_merged_segment_mb = nan; }},
      {"floor_segment_mb", [](auto& o) { o.floor_segment_mb = -2; }},
      {"floor_segment_mb", [](auto& o) { o.floor_segment_mb = 0; }},
      {"floor_segment_mb", [](auto& o) { o.floor_segment_mb = 6 * 1024; }},  // > max merged
      {"deletes_pct_allowed", [](auto& o) { o.deletes_pct_allowed = 19.9; }},
      {"deletes_pct_allowed", [](auto& o) { o.deletes_pct_allowed = 51; }},
      {"deletes_pct_allowed", [=](auto& o) { o.deletes_pct_allowed = nan; }},
      {"force_merge_deletes_pct_allowed",
       [](auto& o) { o.force_merge_deletes_pct_allowed = -0.5; }},
      {"force_merge_deletes_pct_allowed",
       [](auto& o) { o.force_merge_deletes_pct_allowed = 100.5; }},
  };
  // An index any valid policy would merge: 40 small segments, half deleted.
  std::vector<MergeCandidate> index;
  for (int i = 0; i < 40; ++i) index.push_back(Seg("_" + std::to_string(i), kMb, 100, 50));
  for (const Case& c : cases) {
    TieredMergePolicyOptions o;
    c.set(o);
    TieredMergePolicy policy(o);
    const absl::Status status = policy.Validate();
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.field;
    EXPECT_NE(status.message().find(c.field), std::string::npos) << status;
    // An invalid policy finds nothing (and does not loop).
    EXPECT_TRUE(policy.FindMerges(index).empty()) << c.field;
    EXPECT_TRUE(policy.FindForcedMerges(index, 1).empty()) << c.field;
    EXPECT_TRUE(policy.FindForcedDeletesMerges(index).empty()) << c.field;
  }
  // The limits themselves are allowed.
  TieredMergePolicyOptions edge{.max_merge_at_once = 2,
                                .max_merge_at_once_explicit = 2,
                                .max_merged_segment_mb = 2,
                                .floor_segment_mb = 2,
                                .segments_per_tier = 2,
                                .deletes_pct_allowed = 20,
                                .force_merge_deletes_pct_allowed = 0};
  EXPECT_TRUE(TieredMergePolicy(edge).Validate().ok());
  edge.deletes_pct_allowed = 50;
  edge.force_merge_deletes_pct_allowed = 100;
  EXPECT_TRUE(TieredMergePolicy(edge).Validate().ok());
  EXPECT_FALSE(TieredMergePolicy(edge).FindMerges(index).empty());
}

// ---- TieredMergePolicy: the rules, case by case ----

std::vector<MergeCandidate> EqualSegments(int n, uint64_t bytes, const std::string& prefix = "_") {
  std::vector<MergeCandidate> v;
  for (int i = 0; i < n; ++i) v.push_back(Seg(prefix + std::to_string(i), bytes));
  return v;
}

TEST(TieredMergePolicyTest, NothingToDoOnEmptyOrSmallIndex) {
  TieredMergePolicy policy;
  EXPECT_TRUE(policy.FindMerges({}).empty());
  EXPECT_TRUE(policy.FindForcedMerges({}, 1).empty());
  EXPECT_TRUE(policy.FindForcedDeletesMerges({}).empty());
  // Under the budget (at least segments_per_tier = 10 segments allowed).
  EXPECT_TRUE(policy.FindMerges(EqualSegments(9, kMb)).empty());
  EXPECT_TRUE(policy.FindMerges(EqualSegments(10, 100 * kMb)).empty());
}

TEST(TieredMergePolicyTest, MergesATierOfEqualSegmentsAtOnce) {
  TieredMergePolicy policy;
  // 11 floor-sized segments are within budget (10 in tier 0, and the 11th
  // starts tier 1); 12 are over it, and the best merge takes 10.
  EXPECT_TRUE(policy.FindMerges(EqualSegments(11, 2 * kMb)).empty());
  std::vector<MergeCandidate> index = EqualSegments(12, 2 * kMb);
  std::vector<OneMerge> merges = policy.FindMerges(index);
  ASSERT_EQ(merges.size(), 1u);
  EXPECT_EQ(merges[0].segments.size(), 10u);  // max_merge_at_once
  CheckCommon(index, merges);
  // Smaller segments are floored: 12 of 1 KB count the same.
  merges = policy.FindMerges(EqualSegments(12, 1024));
  ASSERT_EQ(merges.size(), 1u);
  EXPECT_EQ(merges[0].segments.size(), 10u);
}

TEST(TieredMergePolicyTest, MergeFactorIsTheSmallerOfAtOnceAndPerTier) {
  TieredMergePolicy policy({.max_merge_at_once = 10, .segments_per_tier = 4});
  std::vector<MergeCandidate> index = EqualSegments(20, 2 * kMb);
  std::vector<OneMerge> merges = policy.FindMerges(index);
  ASSERT_FALSE(merges.empty());
  for (const OneMerge& m : merges) EXPECT_EQ(m.segments.size(), 4u);
}

TEST(TieredMergePolicyTest, PrefersEqualSizedSegments) {
  TieredMergePolicy policy;
  // Ten of 100 MB and twenty of 3 MB: 1060 MB allow 10 + 10 + 3 segments,
  // 30 are present. The best merge is within one size class (low skew), the
  // small ones rather than the large (a gentle preference for small merges);
  // after it 20 are left, within budget.
  std::vector<MergeCandidate> index;
  for (int i = 0; i < 10; ++i) index.push_back(Seg("_big" + std::to_string(i), 100 * kMb));
  for (int i = 0; i < 20; ++i) index.push_back(Seg("_small" + std::to_string(i), 3 * kMb));
  std::vector<OneMerge> merges = policy.FindMerges(index);
  ASSERT_EQ(merges.size(), 1u);
  ASSERT_EQ(merges[0].segments.size(), 10u);
  for (const std::string& name : merges[0].segments) EXPECT_EQ(name.substr(0, 6), "_small");
}

TEST(TieredMergePolicyTest, MergedSizeStaysUnderTheCap) {
  TieredMergePolicy policy({.max_merged_segment_mb = 100});
  // 30 segments of 21 MB (budget 15): at most 4 fit in 100 MB.
  std::vector<MergeCandidate> index = EqualSegments(30, 21 * kMb);
  std::vector<OneMerge> merges = policy.FindMerges(index);
  // Only one merge that hits the cap per call.
  ASSERT_EQ(merges.size(), 1u);
  EXPECT_EQ(merges[0].segments.size(), 4u);
}

TEST(TieredMergePolicyTest, NoSecondMaxSizedMergeWhileOneRuns) {
  TieredMergePolicy policy({.max_merged_segment_mb = 100});
  std::vector<MergeCandidate> index = EqualSegments(30, 21 * kMb);
  index.push_back(Seg("_x", 50 * kMb, 1000, 0, true));
  index.push_back(Seg("_y", 50 * kMb, 1000, 0, true));
  // 100 MB are merging (a max-sized merge): a merge that hits the cap (a
  // run of 4 x 21 MB with more segments behind it) waits. Runs at the tail
  // of the size order (ties by name: _6 _7 _8 _9 last) do not hit it and
  // proceed until the 14 left are within budget (16).
  std::vector<OneMerge> merges = policy.FindMerges(index);
  CheckCommon(index, merges);
  ASSERT_EQ(merges.size(), 4u);
  const std::vector<std::string> tail = {"_6", "_7", "_8", "_9"};
  EXPECT_EQ(merges[0].segments, tail);
  // Once it has finished, the best merge is one that hits the cap (skew
  // counts as perfect), and only one such per call.
  index.resize(30);
  merges = policy.FindMerges(index);
  ASSERT_EQ(merges.size(), 1u);
  const std::vector<std::string> head = {"_0", "_1", "_10", "_11"};
  EXPECT_EQ(merges[0].segments, head);
}

TEST(TieredMergePolicyTest, TooBigSegmentsAreLeftAloneUnlessDeleted) {
  TieredMergePolicy policy({.max_merged_segment_mb = 100});
  // Twenty segments of 60 MB (over half the cap), 10% deleted: untouched.
  std::vector<MergeCandidate> index;
  for (int i = 0; i < 20; ++i) index.push_back(Seg("_" + std::to_string(i), 60 * kMb, 1000, 100));
  EXPECT_TRUE(policy.FindMerges(index).empty());
  // Half deleted (index and segment over 33%): rewritten alone (a merge
  // with any other would pass the cap) one per call, the rest later.
  for (MergeCandidate& s : index) s.del_count = 500;
  std::vector<OneMerge> merges = policy.FindMerges(index);
  CheckCommon(index, merges);
  ASSERT_FALSE(merges.empty());
  for (const OneMerge& m : merges) EXPECT_LE(m.segments.size(), 3u);  // 30 MB live each
  // One segment 50% deleted in an index 5% deleted: still left alone.
  std::vector<MergeCandidate> mostly_live;
  for (int i = 0; i < 20; ++i) mostly_live.push_back(Seg("_" + std::to_string(i), 60 * kMb));
  mostly_live[3].del_count = 500;
  EXPECT_TRUE(policy.FindMerges(mostly_live).empty());
}

TEST(TieredMergePolicyTest, ManyDeletesTriggerMergesUnderBudget) {
  TieredMergePolicy policy;
  // Five segments (under budget), 40% of the index deleted: merges reclaim.
  std::vector<MergeCandidate> index;
  for (int i = 0; i < 5; ++i) index.push_back(Seg("_" + std::to_string(i), 50 * kMb, 1000, 400));
  std::vector<OneMerge> merges = policy.FindMerges(index);
  CheckCommon(index, merges);
  ASSERT_FALSE(merges.empty());
  // At 30% deleted, nothing.
  for (MergeCandidate& s : index) s.del_count = 300;
  EXPECT_TRUE(policy.FindMerges(index).empty());
  // Deletions also steer the choice: of 20 segments of 4 MB live (over the
  // budget of 11), ten are 8 MB with half deleted; merging those reclaims
  // the most, so they are chosen (without the deletions they would tie, and
  // the first run by name, the _a ones, would win).
  std::vector<MergeCandidate> mixed = EqualSegments(10, 4 * kMb, "_a");
  for (int i = 0; i < 10; ++i) mixed.push_back(Seg("_d" + std::to_string(i), 8 * kMb, 1000, 500));
  merges = policy.FindMerges(mixed);
  ASSERT_EQ(merges.size(), 1u);
  ASSERT_EQ(merges[0].segments.size(), 10u);
  for (const std::string& name : merges[0].segments) EXPECT_EQ(name.substr(0, 2), "_d");
}

TEST(TieredMergePolicyTest, MergingSegmentsAreNotChosen) {
  TieredMergePolicy policy;
  // 30 floor-sized segments (budget 12, merging ones counted in the index's
  // size), 13 merging: one merge of 10 of the 17 others.
  std::vector<MergeCandidate> index = EqualSegments(30, 2 * kMb);
  for (size_t i = 0; i < 26; i += 2) index[i].merging = true;
  std::vector<OneMerge> merges = policy.FindMerges(index);
  CheckCommon(index, merges);
  ASSERT_EQ(merges.size(), 1u);
  EXPECT_EQ(merges[0].segments.size(), 10u);
  // All merging: nothing.
  for (MergeCandidate& s : index) s.merging = true;
  EXPECT_TRUE(policy.FindMerges(index).empty());
  EXPECT_TRUE(policy.FindForcedMerges(index, 1).empty());
  EXPECT_TRUE(policy.FindForcedDeletesMerges(index).empty());
}

TEST(TieredMergePolicyTest, ForcedMergeToOneIgnoresTheCap) {
  TieredMergePolicy policy({.max_merged_segment_mb = 10});
  std::vector<MergeCandidate> index = EqualSegments(8, 100 * kMb);
  std::vector<OneMerge> merges = policy.FindForcedMerges(index, 1);
  ASSERT_EQ(merges.size(), 1u);
  EXPECT_EQ(merges[0].segments.size(), 8u);
  // One segment: nothing, unless it has deletions (then it is rewritten).
  std::vector<MergeCandidate> one = {Seg("_0", 100 * kMb)};
  EXPECT_TRUE(policy.FindForcedMerges(one, 1).empty());
  one[0].del_count = 1;
  const std::vector<OneMerge> rewrite = {{.segments = {"_0"}}};
  EXPECT_EQ(policy.FindForcedMerges(one, 1), rewrite);
  // Under max_segments: nothing, deletions or not.
  EXPECT_TRUE(policy.FindForcedMerges(one, 3).empty());
  EXPECT_TRUE(policy.FindForcedMerges(index, 8).empty());
  EXPECT_TRUE(policy.FindForcedMerges(index, 0).empty());  // invalid count
}

TEST(TieredMergePolicyTest, ForcedMergeRoundsAreAtMostExplicitWide) {
  TieredMergePolicy policy;  // max_merge_at_once_explicit 30
  std::vector<MergeCandidate> index = EqualSegments(100, 2 * kMb);
  std::vector<OneMerge> merges = policy.FindForcedMerges(index, 1);
  CheckCommon(index, merges);
  // 99 to merge away: 30 + 30 + 30 + the last 10 this round.
  ASSERT_EQ(merges.size(), 4u);
  EXPECT_EQ(merges[0].segments.size(), 30u);
  EXPECT_EQ(merges[3].segments.size(), 10u);
  int next = 0;
  ApplyMerges(index, merges, next);
  EXPECT_EQ(index.size(), 4u);
  merges = policy.FindForcedMerges(index, 1);
  ASSERT_EQ(merges.size(), 1u);
  EXPECT_EQ(merges[0].segments.size(), 4u);
}

TEST(TieredMergePolicyTest, ForcedMergeWaitsForRunningMergesBeforeTheLastRound) {
  TieredMergePolicy policy;
  std::vector<MergeCandidate> index = EqualSegments(12, 2 * kMb);
  index[0].merging = index[1].merging = true;
  // The final merge cannot include the merging segments: wait.
  EXPECT_TRUE(policy.FindForcedMerges(index, 1).empty());
  // Enough segments for a full-width round: that round only.
  index = EqualSegments(70, 2 * kMb);
  index[0].merging = index[1].merging = true;
  std::vector<OneMerge> merges = policy.FindForcedMerges(index, 1);
  CheckCommon(index, merges);
  ASSERT_EQ(merges.size(), 2u);
  for (const OneMerge& m : merges) EXPECT_EQ(m.segments.size(), 30u);
}

TEST(TieredMergePolicyTest, ForcedMergeToSeveralKeepsLargeSegments) {
  TieredMergePolicy policy({.max_merged_segment_mb = 100});
  // Three segments of 1 GB and 30 of 1 MB, to 5 segments: the cap is
  // 1.25 x max(100 MB, 3.03 GB / 5) = 776 MB, so the large ones are done.
  std::vector<MergeCandidate> index;
  for (int i = 0; i < 3; ++i) index.push_back(Seg("_big" + std::to_string(i), 1024 * kMb));
  for (int i = 0; i < 30; ++i) index.push_back(Seg("_s" + std::to_string(i), kMb));
  std::vector<OneMerge> merges = policy.FindForcedMerges(index, 5);
  CheckCommon(index, merges);
  ASSERT_EQ(merges.size(), 1u);
  EXPECT_EQ(merges[0].segments.size(), 29u);  // 33 - 5 + 1
  for (const std::string& name : merges[0].segments) EXPECT_EQ(name.substr(0, 2), "_s");
}

TEST(TieredMergePolicyTest, ForcedDeletesMergesTakeSegmentsOverThreshold) {
  TieredMergePolicy policy;  // force_merge_deletes_pct_allowed 10
  std::vector<MergeCandidate> index = {
      Seg("_0", 10 * kMb, 1000, 100),        // exactly 10%: stays
      Seg("_1", 10 * kMb, 1000, 101),        // over
      Seg("_2", 10 * kMb, 1000, 0),          // none
      Seg("_3", 10 * kMb, 1000, 900),        // over
      Seg("_4", 10 * kMb, 1000, 500, true),  // over, but merging
  };
  std::vector<OneMerge> merges = policy.FindForcedDeletesMerges(index);
  CheckCommon(index, merges);
  const std::vector<OneMerge> expected = {{.segments = {"_1", "_3"}}};
  EXPECT_EQ(merges, expected);
}

// ---- Random invariants ----

struct RandomIndex {
  std::vector<MergeCandidate> segments;
  TieredMergePolicyOptions options;
};

RandomIndex MakeRandomIndex(Random& rng, int round) {
  RandomIndex r;
  TieredMergePolicyOptions& o = r.options;
  o.max_merge_at_once = static_cast<int>(rng.Range(2, 12));
  o.max_merge_at_once_explicit = static_cast<int>(rng.Range(2, 40));
  o.segments_per_tier = 2 + rng.NextDouble() * 12;
  o.max_merged_segment_mb = std::exp2(rng.NextDouble() * 14);  // 1 MB .. 16 GB
  o.floor_segment_mb = std::min(o.max_merged_segment_mb, std::exp2(rng.NextDouble() * 5) / 4);
  o.deletes_pct_allowed = 20 + rng.NextDouble() * 30;
  o.force_merge_deletes_pct_allowed = rng.NextDouble() * 100;
  const int n = static_cast<int>(rng.Range(0, round % 5 == 0 ? 300 : 60));
  const double delete_share = rng.NextDouble();  // how many segments have deletions
  for (int i = 0; i < n; ++i) {
    // Sizes from 1 KB to 32 GB, log-uniform, some empty.
    const uint64_t bytes =
        rng.Uniform(50) == 0 ? 0 : static_cast<uint64_t>(std::exp2(10 + rng.NextDouble() * 25));
    const uint32_t max_doc = static_cast<uint32_t>(rng.Range(1, 1'000'000));
    const uint32_t del =
        rng.Bernoulli(delete_share) ? static_cast<uint32_t>(rng.Range(0, max_doc)) : 0;
    r.segments.push_back(Seg("_" + std::to_string(i), bytes, max_doc, del, rng.Bernoulli(0.15)));
  }
  return r;
}

TEST(TieredMergePolicyTest, RandomNaturalMergesKeepTheInvariants) {
  Random rng(testing::TestSeed(12001));
  int merges_seen = 0, singletons = 0, capped = 0;
  for (int round = 0; round < 2000; ++round) {
    RandomIndex r = MakeRandomIndex(rng, round);
    TieredMergePolicy policy(r.options);
    ASSERT_TRUE(policy.Validate().ok()) << policy.Validate();
    const std::vector<OneMerge> merges = policy.FindMerges(r.segments);
    const auto picked = CheckCommon(r.segments, merges);
    const double max_bytes = r.options.max_merged_segment_mb * kMb;
    const size_t factor = static_cast<size_t>(
        std::min<double>(r.options.max_merge_at_once, r.options.segments_per_tier));
    // The index's deleted share, merging segments counted without theirs.
    double docs = 0, deleted = 0;
    for (const MergeCandidate& s : r.segments) {
      docs += s.merging ? s.max_doc - s.del_count : s.max_doc;
      deleted += s.merging ? 0 : s.del_count;
    }
    const double index_deleted_pct = docs == 0 ? 0 : 100 * deleted / docs;
    for (const auto& merge : picked) {
      ++merges_seen;
      EXPECT_LE(merge.size(), factor) << "round " << round;
      double total = 0;
      for (size_t i : merge) {
        const MergeCandidate& s = r.segments[i];
        total += LiveBytes(s);
        if (LiveBytes(s) > max_bytes / 2 + 1) {  // too big: only if deleted enough
          EXPECT_GT(index_deleted_pct, r.options.deletes_pct_allowed) << "round " << round;
          EXPECT_GT(DeletedPct(s), r.options.deletes_pct_allowed) << "round " << round;
        }
      }
      if (merge.size() == 1) {
        ++singletons;
      } else {
        EXPECT_LE(total, max_bytes + merge.size()) << "round " << round;
        if (total > max_bytes / 2) ++capped;
      }
    }
  }
  std::printf("random natural: %d merges (%d singletons, %d over half the cap)\n", merges_seen,
              singletons, capped);
  EXPECT_GT(merges_seen, 500);  // the inputs do exercise the policy
  EXPECT_GT(singletons, 0);
}

TEST(TieredMergePolicyTest, RandomForcedMergesReachMaxSegmentsInRounds) {
  Random rng(testing::TestSeed(12002));
  int total_rounds = 0, max_rounds = 0;
  for (int iter = 0; iter < 1000; ++iter) {
    RandomIndex r = MakeRandomIndex(rng, iter);
    TieredMergePolicy policy(r.options);
    const int max_segments = static_cast<int>(rng.Bernoulli(0.3) ? 1 : rng.Range(1, 40));
    std::vector<MergeCandidate> index = r.segments;
    const size_t start_count = index.size();
    int next = 0;
    int rounds = 0;
    bool had_deletes_alone = start_count == 1 && index[0].del_count > 0;
    while (true) {
      const std::vector<OneMerge> merges = policy.FindForcedMerges(index, max_segments);
      const auto picked = CheckCommon(index, merges);
      // Width and size of each merge.
      double eligible = 0;
      for (const MergeCandidate& s : index) eligible += s.merging ? 0 : LiveBytes(s);
      const double cap =
          1.25 * std::max(eligible / max_segments, r.options.max_merged_segment_mb * kMb);
      for (const auto& merge : picked) {
        EXPECT_LE(merge.size(), static_cast<size_t>(r.options.max_merge_at_once_explicit));
        double total = 0;
        for (size_t i : merge) total += LiveBytes(index[i]);
        if (max_segments > 1 && merge.size() > 2) {
          EXPECT_LE(total, cap + static_cast<double>(merge.size()));
        }
        // A segment of the cap or more without deletions is merged enough.
        for (size_t i : merge) {
          if (max_segments > 1 && index[i].del_count == 0) {
            EXPECT_LT(LiveBytes(index[i]), cap) << "iter " << iter;
          }
        }
      }
      if (merges.empty()) {
        // Merging segments finish (each becomes itself) and the writer asks
        // again; done when nothing is merging.
        bool any_merging = false;
        for (MergeCandidate& s : index) {
          any_merging |= s.merging;
          s.merging = false;
        }
        if (!any_merging) break;
        continue;
      }
      ApplyMerges(index, merges, next);
      ASSERT_LT(++rounds, 100) << "forced merge does not converge, iter " << iter;
    }
    total_rounds += rounds;
    max_rounds = std::max(max_rounds, rounds);
    // Exactly max_segments when there were more: no more merging than asked.
    EXPECT_EQ(index.size(), std::min(start_count, static_cast<size_t>(max_segments)))
        << "iter " << iter;
    if (max_segments == 1 && index.size() == 1 && start_count > 0) {
      EXPECT_EQ(index[0].del_count, 0u) << "forceMerge(1) drops the deletions";
    }
    (void)had_deletes_alone;
  }
  std::printf("random forced: %d rounds in all, at most %d for one forced merge\n", total_rounds,
              max_rounds);
}

TEST(TieredMergePolicyTest, RandomForcedDeletesMergesPickExactlyTheSegmentsOverTheThreshold) {
  Random rng(testing::TestSeed(12003));
  int merges_seen = 0;
  for (int iter = 0; iter < 1000; ++iter) {
    RandomIndex r = MakeRandomIndex(rng, iter);
    TieredMergePolicy policy(r.options);
    const std::vector<OneMerge> merges = policy.FindForcedDeletesMerges(r.segments);
    const auto picked = CheckCommon(r.segments, merges);
    std::set<size_t> chosen, expected;
    const double max_bytes = r.options.max_merged_segment_mb * kMb;
    for (const auto& merge : picked) {
      ++merges_seen;
      EXPECT_LE(merge.size(), static_cast<size_t>(r.options.max_merge_at_once_explicit));
      double total = 0;
      for (size_t i : merge) {
        chosen.insert(i);
        total += LiveBytes(r.segments[i]);
      }
      if (merge.size() > 1) {
        EXPECT_LE(total, max_bytes + static_cast<double>(merge.size()));
      }
    }
    for (size_t i = 0; i < r.segments.size(); ++i) {
      const MergeCandidate& s = r.segments[i];
      if (!s.merging && DeletedPct(s) > r.options.force_merge_deletes_pct_allowed) {
        expected.insert(i);
      }
    }
    EXPECT_EQ(chosen, expected) << "iter " << iter;
  }
  EXPECT_GT(merges_seen, 500);
}

// ---- NoMergePolicy ----

// The smallest possible largest group of a partition of `sizes` into at
// most k runs of adjacent elements, by brute force over every partition.
uint64_t BestBottleneck(const std::vector<uint64_t>& sizes, size_t k) {
  const size_t n = sizes.size();
  uint64_t best = std::numeric_limits<uint64_t>::max();
  for (uint32_t cuts = 0; cuts < (1u << (n - 1)); ++cuts) {  // bit i: cut after i
    if (static_cast<size_t>(std::popcount(cuts)) + 1 > k) continue;
    uint64_t largest = 0, run = 0;
    for (size_t i = 0; i < n; ++i) {
      run += sizes[i];
      if (i + 1 == n || (cuts >> i & 1)) {
        largest = std::max(largest, run);
        run = 0;
      }
    }
    best = std::min(best, largest);
  }
  return best;
}

TEST(NoMergePolicyTest, NeverMergesNaturally) {
  NoMergePolicy policy;
  std::vector<MergeCandidate> index = EqualSegments(500, kMb);
  for (MergeCandidate& s : index) s.del_count = 900;
  EXPECT_TRUE(policy.FindMerges(index).empty());
}

TEST(NoMergePolicyTest, ForcedMergesMakeBalancedAdjacentGroups) {
  NoMergePolicy policy;
  Random rng(testing::TestSeed(12004));
  for (int iter = 0; iter < 3000; ++iter) {
    const size_t n = rng.Range(0, 12);
    std::vector<MergeCandidate> index;
    std::vector<uint64_t> live;
    for (size_t i = 0; i < n; ++i) {
      index.push_back(Seg("_" + std::to_string(i), rng.Range(0, 1000), 100,
                          rng.Bernoulli(0.3) ? static_cast<uint32_t>(rng.Range(0, 100)) : 0));
      live.push_back(static_cast<uint64_t>(LiveBytes(index.back())));
    }
    const int max_segments = static_cast<int>(rng.Range(1, 13));
    const std::vector<OneMerge> merges = policy.FindForcedMerges(index, max_segments);
    const auto picked = CheckCommon(index, merges);
    if (n <= static_cast<size_t>(max_segments)) {
      if (max_segments == 1 && n == 1 && index[0].del_count > 0) {
        EXPECT_EQ(merges.size(), 1u);
      } else {
        EXPECT_TRUE(merges.empty());
      }
      continue;
    }
    // Adjacent groups; the segments not merged stay alone.
    size_t merged_away = 0;
    uint64_t largest = 0;
    std::vector<bool> in_merge(n, false);
    for (const auto& merge : picked) {
      for (size_t j = 1; j < merge.size(); ++j) EXPECT_EQ(merge[j], merge[j - 1] + 1);
      merged_away += merge.size() - 1;
      uint64_t total = 0;
      for (size_t i : merge) {
        total += live[i];
        in_merge[i] = true;
      }
      largest = std::max(largest, total);
    }
    for (size_t i = 0; i < n; ++i) {
      if (!in_merge[i]) largest = std::max(largest, live[i]);
    }
    EXPECT_EQ(n - merged_away, static_cast<size_t>(max_segments)) << "iter " << iter;
    EXPECT_EQ(largest, BestBottleneck(live, static_cast<size_t>(max_segments))) << "iter " << iter;
    // One round: afterwards nothing is left to do.
    std::vector<MergeCandidate> after = index;
    int next = 0;
    ApplyMerges(after, merges, next);
    EXPECT_TRUE(policy.FindForcedMerges(after, max_segments).empty());
  }
  // It waits while anything is merging.
  std::vector<MergeCandidate> index = EqualSegments(10, kMb);
  index[4].merging = true;
  EXPECT_TRUE(policy.FindForcedMerges(index, 2).empty());
}

TEST(NoMergePolicyTest, ForcedDeletesMergesRewriteEachSegmentWithDeletions) {
  NoMergePolicy policy;
  std::vector<MergeCandidate> index = {Seg("_0", kMb, 10, 1), Seg("_1", kMb),
                                       Seg("_2", kMb, 10, 10), Seg("_3", kMb, 10, 5, true)};
  const std::vector<OneMerge> expected = {{.segments = {"_0"}}, {.segments = {"_2"}}};
  EXPECT_EQ(policy.FindForcedDeletesMerges(index), expected);
}

// ---- Simulated indexing runs against a plain reference ----

struct SimConfig {
  const char* label;
  TieredMergePolicyOptions options = {};
  int flushes = 1000;
  double flush_mb = 16;       // flushed segment size ...
  bool random_sizes = false;  // ... or log-uniform in [flush_mb / 8, flush_mb * 2]
  double update_share = 0;    // deletes per flushed document (updates of old ones)
  int max_merge_delay = 0;    // merges finish after 0..this many flushes
  bool no_merge_policy = false;

  double SmallestFlushBytes() const { return (random_sizes ? flush_mb / 8 : flush_mb) * kMb; }
};

struct SimResult {
  double flushed_bytes = 0;
  double merged_bytes = 0;
  double final_bytes = 0;
  size_t final_segments = 0;
  size_t max_segments = 0;
  int merges = 0;
  double max_deleted_pct = 0;
  double final_deleted_pct = 0;
  // Bytes merged per byte flushed (what merging adds to indexing's writes).
  double WriteAmplification() const { return merged_bytes / flushed_bytes; }
  // Bytes written (flushed and merged) per byte of the final index.
  double WrittenPerFinalByte() const { return (flushed_bytes + merged_bytes) / final_bytes; }
};

// The plain reference of what tiered merging must achieve: at most
// segments_per_tier segments per tier, tiers growing by the merge factor
// from the floor (or the flush size if larger) to the cap, and the segments
// over half the cap (at most 2 x index / cap) on top. This is O(log(index)).
size_t ReferenceSegmentBound(const TieredMergePolicyOptions& o, double index_bytes,
                             double flush_bytes) {
  const double factor = std::min<double>(o.max_merge_at_once, o.segments_per_tier);
  const double cap = o.max_merged_segment_mb * kMb;
  const double base = std::max(o.floor_segment_mb * kMb, flush_bytes);
  const double tiers =
      1 + std::ceil(std::log(std::max(1.0, index_bytes / base)) / std::log(factor));
  return static_cast<size_t>(o.segments_per_tier * tiers + 2 * std::ceil(index_bytes / cap));
}

// The reference write amplification: a byte is rewritten at most once per
// tier between its flush size (or the floor) and the largest segment, plus
// one (a merge of segments from two tiers). Rewrites that reclaim deletions
// come on top.
double ReferenceWriteAmplificationBound(const TieredMergePolicyOptions& o, double index_bytes,
                                        double flush_bytes) {
  const double factor = std::min<double>(o.max_merge_at_once, o.segments_per_tier);
  const double top = std::min(index_bytes, o.max_merged_segment_mb * kMb);
  const double base = std::max(o.floor_segment_mb * kMb, flush_bytes);
  return 1 + std::ceil(std::log(std::max(1.0, top / base)) / std::log(factor));
}

SimResult Simulate(const SimConfig& c, Random& rng) {
  const TieredMergePolicy tiered(c.options);
  const NoMergePolicy none;
  const MergePolicy& policy = c.no_merge_policy ? static_cast<const MergePolicy&>(none) : tiered;
  SimResult r;
  std::vector<MergeCandidate> index;
  struct Running {
    OneMerge merge;
    int finish_at;
  };
  std::vector<Running> running;
  int next_name = 0;
  constexpr double kBytesPerDoc = 1024;
  auto deleted_pct = [&] {
    double docs = 0, deleted = 0;
    for (const MergeCandidate& s : index) {
      docs += s.max_doc;
      deleted += s.del_count;
    }
    return docs == 0 ? 0 : 100 * deleted / docs;
  };
  auto ask = [&](int now) {
    const std::vector<OneMerge> merges = policy.FindMerges(index);
    CheckCommon(index, merges);
    for (const OneMerge& m : merges) {
      ++r.merges;
      const int delay =
          c.max_merge_delay == 0 ? 0 : static_cast<int>(rng.Range(0, c.max_merge_delay));
      for (MergeCandidate& s : index) {
        if (std::find(m.segments.begin(), m.segments.end(), s.name) != m.segments.end()) {
          s.merging = true;
        }
      }
      running.push_back({m, now + delay});
    }
    return !merges.empty();
  };
  auto finish = [&](int now) {
    bool any = false;
    for (size_t i = 0; i < running.size();) {
      if (running[i].finish_at > now) {
        ++i;
        continue;
      }
      // Deletions that arrived while merging are dropped with the rest (a
      // writer carries them over; for sizes this is close enough).
      r.merged_bytes += ApplyMerges(index, {running[i].merge}, next_name);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      any = true;
    }
    return any;
  };
  for (int f = 0; f < c.flushes; ++f) {
    double mb = c.flush_mb;
    if (c.random_sizes) mb = c.flush_mb / 8 * std::exp2(rng.NextDouble() * 4);
    const double bytes = mb * kMb;
    const uint32_t docs = static_cast<uint32_t>(std::max(1.0, bytes / kBytesPerDoc));
    // Updates: that many earlier documents, uniformly over the index, are
    // deleted (already deleted ones stay deleted).
    if (c.update_share > 0 && !index.empty()) {
      uint64_t total = 0;
      for (const MergeCandidate& s : index) total += s.max_doc;
      const uint64_t updates = static_cast<uint64_t>(docs * c.update_share);
      for (uint64_t u = 0; u < updates; ++u) {
        uint64_t pick = rng.Uniform(total);
        for (MergeCandidate& s : index) {
          if (pick < s.max_doc) {
            if (rng.Uniform(s.max_doc) >= s.del_count) ++s.del_count;
            break;
          }
          pick -= s.max_doc;
        }
      }
    }
    index.push_back(Seg("_f" + std::to_string(f), static_cast<uint64_t>(bytes), docs));
    r.flushed_bytes += bytes;
    // The writer asks after the flush, and again after each finished merge.
    ask(f);
    while (finish(f)) ask(f);
    r.max_segments = std::max(r.max_segments, index.size());
    r.max_deleted_pct = std::max(r.max_deleted_pct, deleted_pct());
    double index_bytes = 0;
    for (const MergeCandidate& s : index) index_bytes += static_cast<double>(s.size_bytes);
    // Between flushes (merges applied), within the reference bound.
    if (running.empty() && !c.no_merge_policy) {
      EXPECT_LE(index.size(), ReferenceSegmentBound(c.options, index_bytes, c.SmallestFlushBytes()))
          << c.label << " flush " << f << ", " << index_bytes / kMb << " MB";
    }
  }
  while (!running.empty()) {
    finish(std::numeric_limits<int>::max());
  }
  for (const MergeCandidate& s : index) r.final_bytes += static_cast<double>(s.size_bytes);
  r.final_segments = index.size();
  r.final_deleted_pct = deleted_pct();
  return r;
}

TEST(TieredMergePolicyTest, SimulatedIndexingStaysWithinTheReference) {
  Random rng(testing::TestSeed(12005));
  const std::vector<SimConfig> configs = {
      {.label = "16 MB flushes x 1000 (16 GB)"},
      {.label = "2-32 MB flushes x 1000 (~11 GB)", .random_sizes = true},
      {.label = "0.25 MB flushes x 8000 (2 GB)", .flushes = 8000, .flush_mb = 0.25},
      {.label = "64 MB flushes x 600 (37.5 GB)", .flushes = 600, .flush_mb = 64},
      {.label = "256 MB flushes x 400 (100 GB)", .flushes = 400, .flush_mb = 256},
      {.label = "16 MB x 1000, merges end 0-4 flushes later", .max_merge_delay = 4},
      {.label = "16 MB x 1000, 30% updates", .update_share = 0.3},
      {.label = "16 MB x 1000, 100% updates", .update_share = 1.0},
      {.label = "16 MB x 1000, 5 per tier, 5 at once",
       .options = {.max_merge_at_once = 5, .segments_per_tier = 5}},
      {.label = "16 MB x 1000, 20 per tier, 20 at once",
       .options = {.max_merge_at_once = 20, .segments_per_tier = 20}},
      {.label = "16 MB x 1000, NoMergePolicy", .no_merge_policy = true},
  };
  std::printf("%-44s %7s %7s %5s %7s %6s %5s %7s %7s %7s\n", "run", "flushGB", "finalGB", "segs",
              "maxSegs", "merges", "WA", "wr/fin", "maxDel%", "WAbound");
  for (const SimConfig& c : configs) {
    const SimResult r = Simulate(c, rng);
    const double wa_bound =
        ReferenceWriteAmplificationBound(c.options, r.flushed_bytes, c.SmallestFlushBytes());
    std::printf("%-44s %7.2f %7.2f %5zu %7zu %6d %5.2f %7.2f %7.1f %7.0f\n", c.label,
                r.flushed_bytes / (1024.0 * kMb), r.final_bytes / (1024.0 * kMb), r.final_segments,
                r.max_segments, r.merges, r.WriteAmplification(), r.WrittenPerFinalByte(),
                r.max_deleted_pct, wa_bound);
    if (c.no_merge_policy) {
      EXPECT_EQ(r.final_segments, static_cast<size_t>(c.flushes));
      EXPECT_EQ(r.merges, 0);
      continue;
    }
    // Merging happens (a thousand flushes never stay a thousand segments)
    // and costs at most one rewrite per tier (updates add reclaim merges).
    EXPECT_GT(r.WriteAmplification(), 1.0) << c.label;
    EXPECT_LE(r.WriteAmplification(), wa_bound + (c.update_share > 0 ? 1 : 0)) << c.label;
    EXPECT_LE(r.final_segments,
              ReferenceSegmentBound(c.options, r.final_bytes, c.SmallestFlushBytes()))
        << c.label;
    if (c.update_share > 0) {
      // Deletions are reclaimed: the index stays near deletes_pct_allowed.
      EXPECT_LE(r.max_deleted_pct, c.options.deletes_pct_allowed + 5) << c.label;
    }
  }
}

}  // namespace
}  // namespace invert

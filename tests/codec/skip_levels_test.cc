// The skip levels above the blocks of .doc versions 3 and 4
// (docs/format.md, "Doc ids and freqs": a level-L header before every run of
// 8^L full blocks, L = 1 in version 3, 1..3 in version 4), tested against a
// plain model of each term (ModelPosting: doc, freq, norm, positions) with a
// printed, overridable seed. Terms of 1 to 73,000 docs, exact multiples of
// 128, 1,024, 8,192 and 65,536 and one either side, for docs-only, freqs and
// positions fields:
//   - NextDoc through every doc, positions read on random docs;
//   - random walks mixing NextDoc, Advance and AdvanceFiltered with a
//     threshold filter (monotone, as a scorer's bound is): the model is the
//     level-0 answer, the first doc >= target in the buffered block, a full
//     block whose bound passes, or the tail; so passing a run by its skip
//     header must never pass a doc that walking its blocks would return;
//     positions read after every kind of skip;
//   - AdvanceShallow to random targets, with and without whole-group
//     ranges, TermImpacts, ReadSkipGroups (every run of every level);
//   - the writer's abandoned terms leave nothing behind;
//   - a version-4 term is its version-3 bytes with level-2 and level-3
//     headers inserted, read the same by a version-3 cursor once they are
//     cut out, and a long skip reads one header per run passed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "codec/impacts.h"
#include "codec/postings_format.h"
#include "gtest/gtest.h"
#include "postings_fixture.h"
#include "test_seed.h"
#include "util/random.h"
#include "util/varint.h"

namespace invert {
namespace {

using testing::ModelFrontier;
using testing::ModelPosting;
using testing::ModelTerm;
using testing::PostingsFixture;

// Doc d's j-th position: ties the position to its doc, so one read from
// another doc (a .pos pointer off after a skip) shows.
uint32_t PositionOf(uint32_t doc, uint32_t j) { return doc % 1009 * 3 + 2 * j; }

ModelTerm RandomTerm(Random& rng, size_t n, bool freqs, bool positions) {
  ModelTerm term;
  uint32_t doc = static_cast<uint32_t>(rng.Uniform(4));
  const uint32_t gap = static_cast<uint32_t>(1 + rng.Uniform(rng.Bernoulli(0.5) ? 3 : 12));
  const uint32_t norms = rng.Bernoulli(0.3) ? 4 : 255;
  for (size_t i = 0; i < n; ++i) {
    ModelPosting p;
    p.doc = doc;
    p.freq = freqs ? static_cast<uint32_t>(1 + rng.Uniform(rng.Bernoulli(0.003) ? 40 : 3)) : 1;
    p.norm = static_cast<uint8_t>(1 + rng.Uniform(norms));
    for (uint32_t j = 0; positions && j < p.freq; ++j) p.positions.push_back(PositionOf(doc, j));
    term.push_back(std::move(p));
    doc += static_cast<uint32_t>(1 + rng.Uniform(gap));
  }
  return term;
}

// The index of the first posting whose doc is >= target (or the size).
size_t FirstAtLeast(const ModelTerm& postings, uint32_t target) {
  return static_cast<size_t>(
      std::lower_bound(postings.begin(), postings.end(), target,
                       [](const ModelPosting& p, uint32_t t) { return p.doc < t; }) -
      postings.begin());
}

// The runs a term of `full_blocks` full blocks has, in file order, with
// `levels` skip levels: (level, first block) for each run of 8^L blocks
// starting at a multiple of 8^L that fits, higher levels first.
std::vector<std::pair<int, uint64_t>> ModelRuns(uint64_t full_blocks, int levels) {
  std::vector<std::pair<int, uint64_t>> out;
  for (uint64_t b = 0; b < full_blocks; ++b) {
    for (int level = levels; level >= 1; --level) {
      const uint64_t run = SkipRunBlocks(level);
      if (b % run == 0 && b + run <= full_blocks) out.emplace_back(level, b);
    }
  }
  return out;
}

std::vector<size_t> DocFreqs(Random& rng) {
  std::vector<size_t> out = {1,    2,    127,  128,  129,   1023,  1024,  1025,  2047,
                             2048, 2049, 3071, 3072, 3073,  5120,  5509,  6000,  896,
                             8191, 8192, 8193, 9300, 17608, 65535, 65536, 65537, 73000};
  for (int i = 0; i < 4; ++i) out.push_back(rng.Range(2, 6000));
  return out;
}

// A bound that grows with freq and shrinks with norm, as BM25's does: a
// frontier is judged by its best pair, kSkip when that is <= threshold.
class ThresholdFilter final : public PostingsCursor::BlockFilter {
 public:
  static uint64_t Bound(uint32_t freq, uint8_t norm) { return uint64_t{freq} * (300 - norm); }
  static uint64_t Bound(const ModelTerm& term, size_t begin, size_t end) {
    uint64_t best = 0;
    for (size_t i = begin; i < end; ++i) best = std::max(best, Bound(term[i].freq, term[i].norm));
    return best;
  }
  Verdict Judge(const uint8_t* impacts, const uint8_t* end) override {
    uint64_t best = 0;
    if (!ForEachImpact(impacts, end, [&best](uint32_t freq, uint8_t norm) {
          best = std::max(best, Bound(freq, norm));
        })) {
      return Verdict::kCorrupt;
    }
    ++judged;
    return best > threshold ? Verdict::kDecode : Verdict::kSkip;
  }
  uint64_t threshold = 0;
  uint64_t judged = 0;
};

struct Totals {
  uint64_t model_judged = 0;    // blocks a level-0 walk judges
  uint64_t cursor_judged = 0;   // frontiers the cursor judged (groups and blocks)
  uint64_t filtered_skips = 0;  // blocks the model's filter rejected
  uint64_t blocks_skipped = 0;
  uint64_t positions_checked = 0;
  uint64_t group_ranges = 0;  // whole-group AdvanceShallow answers
  uint64_t high_runs = 0;     // runs of level 2 and 3 read back
};

class SkipLevelsTest : public ::testing::TestWithParam<IndexOptions> {};

TEST_P(SkipLevelsTest, CursorAgreesWithModel) {
  const IndexOptions options = GetParam();
  const bool freqs = HasFreqs(options);
  const bool positions = HasPositions(options);
  Random rng(testing::TestSeed(13013 + static_cast<uint64_t>(options)));
  std::vector<ModelTerm> terms;
  for (size_t n : DocFreqs(rng)) terms.push_back(RandomTerm(rng, n, freqs, positions));
  FieldType type = FieldType::Text();
  type.index_options = options;
  PostingsFixture fixture;
  ASSERT_NO_FATAL_FAILURE(fixture.Write(type, terms, /*abandoned=*/options == IndexOptions::kDocs));
  Totals totals;
  for (size_t t = 0; t < terms.size(); ++t) {
    const ModelTerm& postings = terms[t];
    const size_t n = postings.size();
    const size_t full_blocks = n / kForBlockSize;
    const size_t full = full_blocks * kForBlockSize;
    SCOPED_TRACE("term " + std::to_string(t) + ", doc_freq " + std::to_string(n));
    ASSERT_EQ(fixture.stats(t).doc_freq, n);

    // NextDoc through everything; positions of random docs.
    {
      PostingsCursor c = fixture.Cursor(t);
      EXPECT_TRUE(c.has_skip_groups());
      for (size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(c.NextDoc()) << c.status();
        ASSERT_EQ(c.doc(), postings[i].doc) << "index " << i;
        ASSERT_EQ(c.freq(), postings[i].freq);
        if (positions && rng.Bernoulli(0.2)) {
          for (uint32_t position : postings[i].positions) {
            ASSERT_TRUE(c.NextPosition()) << c.status();
            ASSERT_EQ(c.position(), position) << "doc " << c.doc();
          }
          ++totals.positions_checked;
        }
      }
      ASSERT_FALSE(c.NextDoc());
      ASSERT_TRUE(c.status().ok()) << c.status();
    }

    // Random walks of NextDoc, Advance and AdvanceFiltered against the
    // level-0 model.
    std::vector<uint64_t> block_bounds;  // sorted: thresholds at quantiles
    for (size_t b = 0; b < full_blocks; ++b) {
      block_bounds.push_back(
          ThresholdFilter::Bound(postings, b * kForBlockSize, (b + 1) * kForBlockSize));
    }
    std::sort(block_bounds.begin(), block_bounds.end());
    for (int walk = 0; walk < 8; ++walk) {
      PostingsCursor c = fixture.Cursor(t);
      ThresholdFilter filter;
      // From "skips nothing" to "skips every block": the bound of a block
      // at a random quantile, mostly high (as a top-k threshold is).
      if (walk % 4 != 0 && !block_bounds.empty()) {
        static constexpr double kQuantiles[] = {0.3, 0.7, 0.9, 0.97, 1.0};
        const double q = kQuantiles[rng.Uniform(std::size(kQuantiles))];
        filter.threshold = block_bounds[static_cast<size_t>(q * (block_bounds.size() - 1))];
      }
      const uint64_t step = walk < 2 ? 60 : walk < 5 ? 900 : 9000;
      int64_t cur = -1;  // index of the cursor's doc; -1 before the first move
      uint32_t target = 0;
      for (;;) {
        const uint64_t move = rng.Uniform(10);
        size_t want = n;  // the model's landing index (n: the end)
        if (move == 0) {
          want = static_cast<size_t>(cur + 1);
          ASSERT_EQ(c.NextDoc(), want < n);
        } else {
          target = std::max<uint32_t>(target, cur < 0 ? 0 : postings[cur].doc) +
                   static_cast<uint32_t>(rng.Uniform(step));
          if (rng.Bernoulli(0.3) && static_cast<size_t>(cur + 1) < n) {
            // Exactly a doc ahead: the last of its group or block, or the
            // first of its block (the edges a skip must not pass).
            size_t j = static_cast<size_t>(cur + 1) + rng.Uniform(n - static_cast<size_t>(cur + 1));
            const uint64_t edge = rng.Uniform(5);
            if (edge == 0 || edge >= 3) {  // the last doc of its run of level 1, 2 or 3
              const uint64_t run = kForBlockSize * SkipRunBlocks(edge == 0 ? 1 : int(edge) - 1);
              j = std::min<size_t>(n - 1, j / run * run + run - 1);
            }
            if (edge == 1)
              j = std::min(n - 1, j / kForBlockSize * kForBlockSize + kForBlockSize - 1);
            if (edge == 2) j = j / kForBlockSize * kForBlockSize;
            target = std::max(target, postings[j].doc);
          }
          const bool filtered = move > 3;
          if (filtered && rng.Bernoulli(0.1)) filter.threshold += rng.Uniform(100);  // rises
          const uint64_t judged_before = filter.judged;
          const bool ok = filtered ? c.AdvanceFiltered(target, &filter) : c.Advance(target);
          totals.cursor_judged += filter.judged - judged_before;
          if (cur >= 0 && postings[cur].doc >= target) {
            want = static_cast<size_t>(cur);
          } else {
            const size_t block = cur < 0 ? 0 : static_cast<size_t>(cur) / kForBlockSize;
            const size_t buffered_end = cur < 0 ? 0 : std::min(n, (block + 1) * kForBlockSize);
            size_t i = static_cast<size_t>(cur + 1);
            while (i < buffered_end && postings[i].doc < target) ++i;
            if (i < buffered_end) {
              want = i;
            } else {
              for (size_t b = cur < 0 ? 0 : block + 1;; ++b) {
                if (b >= full_blocks) {  // the tail: never judged
                  i = std::max(i, full);
                  while (i < n && postings[i].doc < target) ++i;
                  want = i;
                  break;
                }
                const size_t begin = b * kForBlockSize;
                const size_t end = begin + kForBlockSize;
                if (postings[end - 1].doc < target) continue;
                if (filtered && freqs) {
                  ++totals.model_judged;
                  if (ThresholdFilter::Bound(postings, begin, end) <= filter.threshold) {
                    ++totals.filtered_skips;
                    continue;
                  }
                }
                i = begin;
                while (postings[i].doc < target) ++i;
                want = i;
                break;
              }
            }
          }
          ASSERT_EQ(ok, want < n) << "target " << target << (filtered ? " filtered" : "");
        }
        if (want >= n) break;
        const bool moved = static_cast<int64_t>(want) != cur;
        cur = static_cast<int64_t>(want);
        ASSERT_EQ(c.doc(), postings[cur].doc) << "target " << target;
        ASSERT_EQ(c.freq(), postings[cur].freq);
        if (positions && moved && rng.Bernoulli(0.5)) {
          const size_t read = rng.Bernoulli(0.2) ? 1 : postings[cur].positions.size();
          for (size_t j = 0; j < read; ++j) {
            ASSERT_TRUE(c.NextPosition()) << c.status();
            ASSERT_EQ(c.position(), postings[cur].positions[j]) << "doc " << c.doc();
          }
          ++totals.positions_checked;
        }
      }
      ASSERT_TRUE(c.status().ok()) << c.status();
      totals.blocks_skipped += c.blocks_skipped();
    }

    // AdvanceShallow to random increasing targets, the iterator moving now
    // and then: the block holding the first doc >= target.
    for (int walk = 0; walk < 3; ++walk) {
      PostingsCursor c = fixture.Cursor(t);
      uint32_t target = 0;
      size_t it = 0;  // index of the iterator's next doc
      while (it < n && target <= postings.back().doc) {
        target += static_cast<uint32_t>(rng.Uniform(walk == 0 ? 100 : 3000));
        if (it > 0) target = std::max(target, postings[it - 1].doc + 1);
        const size_t i = FirstAtLeast(postings, target);
        const uint32_t got = c.AdvanceShallow(target);
        if (!freqs || i >= full) {
          ASSERT_EQ(got, PostingsCursor::kNoMoreDocs) << "target " << target;
        } else {
          const size_t begin = i / kForBlockSize * kForBlockSize;
          ASSERT_EQ(got, postings[begin + kForBlockSize - 1].doc) << "target " << target;
          ASSERT_EQ(std::vector<Impact>(c.impacts().begin(), c.impacts().end()),
                    ModelFrontier(postings, begin, begin + kForBlockSize));
        }
        if (rng.Bernoulli(0.3)) {
          ASSERT_TRUE(c.NextDoc());
          ASSERT_EQ(c.doc(), postings[it++].doc);
        } else if (rng.Bernoulli(0.3)) {
          while (it < n && postings[it].doc < target) ++it;
          ASSERT_EQ(c.Advance(target), it < n);
          if (it < n) {
            ASSERT_EQ(c.doc(), postings[it++].doc);
          }
        }
      }
      ASSERT_TRUE(c.status().ok()) << c.status();
    }

    // AdvanceShallow with whole groups: the range holding the first doc >=
    // target is that doc's block or, where the walk met its group's level-1
    // header, the whole group; its impacts are that range's frontier.
    // Mixed with block-sized calls and iterator moves.
    for (int walk = 0; walk < 3; ++walk) {
      PostingsCursor c = fixture.Cursor(t);
      uint32_t target = 0;
      uint32_t last_got = 0;
      size_t it = 0;  // index of the iterator's next doc
      while (it < n && target <= postings.back().doc) {
        target += static_cast<uint32_t>(rng.Uniform(walk == 0 ? 300 : 6000));
        if (it > 0) target = std::max(target, postings[it - 1].doc + 1);
        const size_t i = FirstAtLeast(postings, target);
        const bool whole_groups = rng.Bernoulli(0.8);
        const uint32_t got = c.AdvanceShallow(target, whole_groups);
        if (!freqs || i >= full) {
          ASSERT_EQ(got, PostingsCursor::kNoMoreDocs) << "target " << target;
        } else {
          const size_t block = i / kForBlockSize * kForBlockSize;
          const size_t group = i / kSkipGroupDocs * kSkipGroupDocs;
          const bool in_group = group + kSkipGroupDocs <= n;
          const uint32_t block_last = postings[block + kForBlockSize - 1].doc;
          const uint32_t group_last = in_group ? postings[group + kSkipGroupDocs - 1].doc : 0;
          ASSERT_TRUE(got == block_last || (in_group && got == group_last)) << "target " << target;
          // The group's last block ends where the group does: its range is
          // either, told apart by the impacts.
          const std::vector<Impact> impacts(c.impacts().begin(), c.impacts().end());
          const bool is_group =
              in_group && got == group_last &&
              (got != block_last ||
               (impacts != ModelFrontier(postings, block, block + kForBlockSize) &&
                block != group));
          // A group only when asked for, or as the answer cached from a
          // call that asked (the same range).
          if (is_group && !whole_groups) {
            ASSERT_EQ(got, last_got) << "target " << target;
          }
          const size_t begin = is_group ? group : block;
          const size_t end = is_group ? group + kSkipGroupDocs : block + kForBlockSize;
          ASSERT_EQ(impacts, ModelFrontier(postings, begin, end)) << "target " << target;
          if (is_group) ++totals.group_ranges;
        }
        last_got = got;
        if (rng.Bernoulli(0.3)) {
          ASSERT_TRUE(c.NextDoc());
          ASSERT_EQ(c.doc(), postings[it++].doc);
        } else if (rng.Bernoulli(0.3)) {
          while (it < n && postings[it].doc < target) ++it;
          ASSERT_EQ(c.Advance(target), it < n);
          if (it < n) {
            ASSERT_EQ(c.doc(), postings[it++].doc);
          }
        }
      }
      ASSERT_TRUE(c.status().ok()) << c.status();
    }

    // TermImpacts: the blocks' pairs and (freq, norm 0) for the tail's.
    {
      PostingsCursor c = fixture.Cursor(t);
      std::vector<Impact> got;
      ASSERT_TRUE(c.TermImpacts(&got)) << c.status();
      if (!freqs || n < kForBlockSize) {
        EXPECT_EQ(got, std::vector<Impact>{c.TermImpactBound()});
      } else {
        ModelTerm pairs = postings;
        for (size_t i = full; i < n; ++i) pairs[i].norm = 0;
        EXPECT_EQ(got, ModelFrontier(pairs, 0, n));
      }
    }

    // The runs' headers as stored, against the model and their blocks.
    {
      PostingsCursor c = fixture.Cursor(t);
      std::vector<PostingsCursor::SkipGroup> groups;
      ASSERT_TRUE(c.ReadSkipGroups(&groups)) << c.status();
      const std::vector<std::pair<int, uint64_t>> runs = ModelRuns(full_blocks, kMaxSkipLevels);
      ASSERT_EQ(groups.size(), runs.size());
      for (size_t g = 0; g < groups.size(); ++g) {
        const PostingsCursor::SkipGroup& s = groups[g];
        SCOPED_TRACE("run " + std::to_string(g) + ", level " + std::to_string(s.level));
        ASSERT_EQ(s.level, runs[g].first);
        ASSERT_EQ(s.first_block, runs[g].second);
        if (s.level > 1) ++totals.high_runs;
        const size_t begin = s.first_block * kForBlockSize;
        const size_t end = begin + SkipRunBlocks(s.level) * kForBlockSize;
        EXPECT_EQ(s.last_doc, postings[end - 1].doc);
        EXPECT_EQ(s.blocks_last_doc, postings[end - 1].doc);
        EXPECT_EQ(s.bytes, s.blocks_bytes);
        uint64_t freq_sum = 0;
        for (size_t i = begin; i < end; ++i) freq_sum += postings[i].freq;
        EXPECT_EQ(s.freq_sum, positions ? freq_sum : 0);
        EXPECT_EQ(s.blocks_freq_sum, positions ? freq_sum : 0);
        EXPECT_EQ(s.pos_fp_delta, s.blocks_pos_fp);
        if (positions) {
          EXPECT_GT(s.pos_fp_delta, 0u);
        }
        EXPECT_EQ(s.impacts, freqs ? ModelFrontier(postings, begin, end) : std::vector<Impact>{});
      }
    }
  }
  // The walks exercised what they test.
  if (positions) {
    EXPECT_GT(totals.positions_checked, 500u);
  }
  EXPECT_GT(totals.blocks_skipped, 1000u);
  EXPECT_GT(totals.high_runs, 20u);
  if (freqs) {
    EXPECT_GT(totals.filtered_skips, 200u);
    // Groups judged in one go: fewer frontiers than a level-0 walk judges.
    EXPECT_LT(totals.cursor_judged, totals.model_judged);
    EXPECT_GT(totals.group_ranges, 20u);
  }
  std::printf(
      "[ COVERAGE ] blocks skipped %llu, judged %llu (level-0 walk: %llu, rejected %llu), "
      "whole-group ranges %llu, level-2/3 runs %llu\n",
      static_cast<unsigned long long>(totals.blocks_skipped),
      static_cast<unsigned long long>(totals.cursor_judged),
      static_cast<unsigned long long>(totals.model_judged),
      static_cast<unsigned long long>(totals.filtered_skips),
      static_cast<unsigned long long>(totals.group_ranges),
      static_cast<unsigned long long>(totals.high_runs));
}

INSTANTIATE_TEST_SUITE_P(Options, SkipLevelsTest,
                         ::testing::Values(IndexOptions::kDocs, IndexOptions::kDocsAndFreqs,
                                           IndexOptions::kDocsAndFreqsAndPositions));

// The bytes of a term written with kMaxSkipLevels levels, with the skip
// headers of the levels above `keep` cut out: what a writer of `keep` levels
// (version 3: 1, version 2: 0) would have written, if the levels only insert
// headers before unchanged blocks. Walks the term as the format says (every
// header: VInt, VInt, [VLong, VLong], [VInt impact_bytes, impacts]); the
// term must be the file's last (the rest, its tail and the footer, is kept).
std::vector<uint8_t> CutSkipLevels(std::span<const uint8_t> file, const TermStats& stats,
                                   bool positions, bool freqs, int keep) {
  const uint8_t* p = file.data() + stats.doc_offset;
  const uint8_t* end = file.data() + file.size();
  std::vector<uint8_t> out(file.data(), p);
  auto header = [&](bool copy, uint32_t* bytes) {
    const uint8_t* from = p;
    uint32_t v32 = 0;
    uint64_t v64 = 0;
    EXPECT_TRUE(DecodeVInt32(&p, end, &v32) && DecodeVInt32(&p, end, bytes));
    if (positions) {
      EXPECT_TRUE(DecodeVInt64(&p, end, &v64) && DecodeVInt64(&p, end, &v64));
    }
    if (freqs) {
      EXPECT_TRUE(DecodeVInt32(&p, end, &v32));
      p += v32;
    }
    if (copy) out.insert(out.end(), from, p);
  };
  const uint64_t full_blocks = stats.doc_freq / kForBlockSize;
  std::vector<std::pair<int, uint64_t>> runs = ModelRuns(full_blocks, kMaxSkipLevels);
  size_t r = 0;
  for (uint64_t b = 0; b < full_blocks; ++b) {
    for (; r < runs.size() && runs[r].second == b; ++r) {
      uint32_t bytes = 0;
      header(runs[r].first <= keep, &bytes);
    }
    uint32_t bytes = 0;
    header(true, &bytes);
    out.insert(out.end(), p, p + bytes);
    p += bytes;
  }
  out.insert(out.end(), p, end);
  return out;
}

// A filter that rejects every block and run, counting what it judged.
class RejectAll final : public PostingsCursor::BlockFilter {
 public:
  Verdict Judge(const uint8_t*, const uint8_t*) override {
    ++judged;
    return Verdict::kSkip;
  }
  uint64_t judged = 0;
};

// Levels only insert headers: a 73,000-doc term's version-4 bytes with the
// level-2 and level-3 headers cut out read as version 3, and with the
// level-1 ones cut too as version 2, with the same postings. And a skip
// over the whole term reads one header per run passed: 570 full blocks are
// a level-3 run (512), 7 groups and 2 blocks, 10 judged (version 3: 71 groups
// and 2 blocks; version 2: 570 blocks).
TEST(SkipLevelsFormatTest, LevelsAreHeadersBeforeUnchangedBlocks) {
  Random rng(testing::TestSeed(13131));
  FieldType type = FieldType::Text();
  type.index_options = IndexOptions::kDocsAndFreqsAndPositions;
  const std::vector<ModelTerm> terms = {RandomTerm(rng, 73000, true, true)};
  PostingsFixture fixture;
  ASSERT_NO_FATAL_FAILURE(fixture.Write(type, terms));
  const TermStats& stats = fixture.stats(0);
  struct Version {
    uint32_t version;
    int levels;
    uint64_t judged;
  };
  uint64_t last_size = 0;
  for (const Version& v :
       {Version{kDocFormatVersion, 3, 10}, Version{kDocVersionOneSkipLevel, 1, 73},
        Version{kDocVersionImpacts, 0, 570}}) {
    SCOPED_TRACE("version " + std::to_string(v.version));
    const std::vector<uint8_t> bytes =
        v.levels == kMaxSkipLevels
            ? std::vector<uint8_t>(fixture.doc_file().begin(), fixture.doc_file().end())
            : CutSkipLevels(fixture.doc_file(), stats, true, true, v.levels);
    if (last_size != 0) {
      EXPECT_LT(bytes.size(), last_size);
    }
    last_size = bytes.size();
    PostingsCursor all(bytes, fixture.pos_file(), stats, type, v.version);
    EXPECT_EQ(all.skip_levels(), v.levels);
    for (const ModelPosting& p : terms[0]) {
      ASSERT_TRUE(all.NextDoc()) << all.status();
      ASSERT_EQ(all.doc(), p.doc);
      ASSERT_EQ(all.freq(), p.freq);
    }
    EXPECT_FALSE(all.NextDoc());
    EXPECT_TRUE(all.status().ok()) << all.status();
    // Past every full block at once: the tail's first doc, its positions.
    PostingsCursor skip(bytes, fixture.pos_file(), stats, type, v.version);
    RejectAll filter;
    const size_t tail = stats.doc_freq / kForBlockSize * kForBlockSize;
    ASSERT_TRUE(skip.AdvanceFiltered(0, &filter)) << skip.status();
    EXPECT_EQ(filter.judged, v.judged);
    ASSERT_EQ(skip.doc(), terms[0][tail].doc);
    for (uint32_t position : terms[0][tail].positions) {
      ASSERT_TRUE(skip.NextPosition()) << skip.status();
      ASSERT_EQ(skip.position(), position);
    }
    // Random Advance targets land where the model says, positions agree.
    PostingsCursor walk(bytes, fixture.pos_file(), stats, type, v.version);
    uint32_t target = 0;
    for (;;) {
      target += static_cast<uint32_t>(1 + rng.Uniform(40000));
      const size_t i = FirstAtLeast(terms[0], target);
      ASSERT_EQ(walk.Advance(target), i < terms[0].size());
      if (i == terms[0].size()) break;
      ASSERT_EQ(walk.doc(), terms[0][i].doc);
      for (uint32_t position : terms[0][i].positions) {
        ASSERT_TRUE(walk.NextPosition()) << walk.status();
        ASSERT_EQ(walk.position(), position);
      }
    }
    EXPECT_TRUE(walk.status().ok()) << walk.status();
  }
}

}  // namespace
}  // namespace invert

namespace invert {
namespace {

// Full blocks whose doc gaps or freqs are near 2^24: the cursor's block
// checks take their one-pass 32-bit path only while every value is in
// [1, 2^24] (the OR of the values minus 1 tells), so values of 2^24 - 1 and
// 2^24 stay on it and 2^24 + 1 and more (up to 2^25 + 2^24 here) take the
// exact 64-bit checks. Read back against the model, with NextDoc and
// Advance.
TEST(PostingsBlockSumsTest, GapsAndFreqsAroundTwoTo24) {
  Random rng(testing::TestSeed(25025));
  // 2^24 - 1, 2^24, 2^24 + 1 or, one time in four, up to 2^25 + 2^24.
  auto big_value = [&rng]() {
    if (rng.Bernoulli(0.25))
      return (uint32_t{1} << 25) + static_cast<uint32_t>(rng.Uniform(1 << 24));
    return (uint32_t{1} << 24) - 1 + static_cast<uint32_t>(rng.Uniform(3));
  };
  std::vector<ModelTerm> terms;
  for (int t = 0; t < 6; ++t) {
    ModelTerm term;
    uint32_t doc = static_cast<uint32_t>(rng.Uniform(3));
    const size_t n = 128 * static_cast<size_t>(1 + rng.Uniform(3)) + rng.Uniform(5);
    for (size_t i = 0; i < n; ++i) {
      ModelPosting p;
      p.doc = doc;
      p.freq = rng.Bernoulli(0.02) ? big_value() : static_cast<uint32_t>(1 + rng.Uniform(4));
      p.norm = static_cast<uint8_t>(1 + rng.Uniform(200));
      term.push_back(p);
      // A few big gaps; 128 docs still fit under 2^32.
      const bool big = rng.Bernoulli(0.03) && doc < (uint32_t{1} << 31);
      doc += big ? big_value() : static_cast<uint32_t>(1 + rng.Uniform(5));
    }
    terms.push_back(std::move(term));
  }
  FieldType type = FieldType::Text();
  type.index_options = IndexOptions::kDocsAndFreqs;
  PostingsFixture fixture;
  ASSERT_NO_FATAL_FAILURE(fixture.Write(type, terms));
  size_t big_values = 0;
  for (size_t t = 0; t < terms.size(); ++t) {
    SCOPED_TRACE("term " + std::to_string(t));
    const ModelTerm& postings = terms[t];
    PostingsCursor c = fixture.Cursor(t);
    for (size_t i = 0; i < postings.size(); ++i) {
      ASSERT_TRUE(c.NextDoc()) << c.status();
      ASSERT_EQ(c.doc(), postings[i].doc) << "index " << i;
      ASSERT_EQ(c.freq(), postings[i].freq) << "index " << i;
      const bool big_gap =
          i > 0 && postings[i].doc - postings[i - 1].doc >= (uint32_t{1} << 24) - 1;
      if (i < postings.size() / 128 * 128 && (big_gap || postings[i].freq >= (1u << 24) - 1)) {
        ++big_values;
      }
    }
    EXPECT_FALSE(c.NextDoc());
    ASSERT_TRUE(c.status().ok()) << c.status();
    PostingsCursor a = fixture.Cursor(t);
    for (size_t i = 0; i < postings.size(); i += 1 + rng.Uniform(150)) {
      ASSERT_TRUE(a.Advance(postings[i].doc)) << a.status();
      ASSERT_EQ(a.doc(), postings[i].doc);
      ASSERT_EQ(a.freq(), postings[i].freq);
    }
    ASSERT_TRUE(a.status().ok()) << a.status();
  }
  // Full blocks held such values (the tails are VInts, not checked so).
  EXPECT_GT(big_values, 10u);
}

}  // namespace
}  // namespace invert

// PostingsCursor::Advance / AdvanceFiltered's inline fast path (a target
// within the buffered block) against a plain model, differentially: dense
// random terms (a singleton, a tail, full blocks, groups of 8), walked with
// a random mix of NextDoc, short advances (mostly within the block), advances
// to exactly the buffered block's last doc and one past it, targets at or
// below the current doc, and filtered advances that skip every block they
// judge; after each move doc(), freq() and, for some docs, the positions
// (ReadPositions or NextPosition), then NextDoc from there.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "codec/postings_format.h"
#include "gtest/gtest.h"
#include "postings_fixture.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using testing::ModelPosting;
using testing::ModelTerm;
using testing::PostingsFixture;

// Skips every block and group it is asked about.
class SkipAll final : public PostingsCursor::BlockFilter {
 public:
  Verdict Judge(const uint8_t*, const uint8_t*) override { return Verdict::kSkip; }
};

FieldType TypeFor(IndexOptions options) {
  FieldType type;
  type.index_options = options;
  return type;
}

ModelTerm RandomTerm(Random& rng, bool positions) {
  const uint64_t kind = rng.Uniform(4);
  const size_t n = kind == 0   ? 1
                   : kind == 1 ? rng.Range(2, 127)
                   : kind == 2 ? rng.Range(128, 700)
                               : rng.Range(1024, 2600);
  ModelTerm term;
  uint32_t doc = static_cast<uint32_t>(rng.Uniform(3));
  for (size_t i = 0; i < n; ++i) {
    ModelPosting p;
    p.doc = doc;
    p.freq = static_cast<uint32_t>(rng.Bernoulli(0.5) ? 1 : rng.Range(2, 6));
    if (positions) {
      uint32_t position = static_cast<uint32_t>(rng.Uniform(3));
      for (uint32_t k = 0; k < p.freq; ++k) {
        p.positions.push_back(position);
        position += static_cast<uint32_t>(rng.Range(1, 5));
      }
    }
    term.push_back(std::move(p));
    doc += static_cast<uint32_t>(rng.Range(1, 4));
  }
  return term;
}

// The index of the first doc >= target from `from` on, or term.size().
size_t FirstFrom(const ModelTerm& term, size_t from, uint32_t target) {
  while (from < term.size() && term[from].doc < target) ++from;
  return from;
}

TEST(PostingsAdvanceInBlockTest, MatchesTheModel) {
  Random rng(testing::TestSeed(13013));
  uint64_t in_block = 0;  // advances whose target was within the buffered block
  for (IndexOptions options : {IndexOptions::kDocs, IndexOptions::kDocsAndFreqs,
                               IndexOptions::kDocsAndFreqsAndPositions}) {
    const FieldType type = TypeFor(options);
    const bool freqs = options != IndexOptions::kDocs;
    const bool positions = HasPositions(options);
    std::vector<ModelTerm> terms;
    for (int t = 0; t < 24; ++t) terms.push_back(RandomTerm(rng, positions));
    if (!freqs) {
      for (ModelTerm& term : terms) {
        for (ModelPosting& p : term) p.freq = 1;
      }
    }
    PostingsFixture fixture;
    ASSERT_NO_FATAL_FAILURE(fixture.Write(type, terms));
    std::vector<uint32_t> read;
    for (size_t t = 0; t < terms.size(); ++t) {
      const ModelTerm& term = terms[t];
      const size_t full = term.size() >= 2 ? term.size() / kForBlockSize * kForBlockSize : 0;
      PostingsCursor c = fixture.Cursor(t);
      size_t at = 0;
      bool on = false;         // the cursor is on term[at]
      bool read_here = false;  // term[at]'s positions were read
      for (int step = 0; step < 4000; ++step) {
        // The buffered block's last index (a full block's, or the tail's).
        const size_t block_last = !on         ? 0
                                  : at < full ? at / kForBlockSize * kForBlockSize + 127
                                              : term.size() - 1;
        const uint32_t doc = on ? term[at].doc : 0;
        size_t expect = 0;
        bool moved = false;
        switch (on ? (rng.Bernoulli(0.03) ? 5 : rng.Uniform(5)) : 0) {
          case 0:
            moved = c.NextDoc();
            expect = on ? at + 1 : 0;
            break;
          case 1:
          case 2: {
            const uint32_t target = doc + static_cast<uint32_t>(rng.Range(1, 9));
            in_block += target <= term[block_last].doc ? 1 : 0;
            moved = c.Advance(target);
            expect = FirstFrom(term, at + 1, target);
            break;
          }
          case 3: {
            const uint32_t target = term[block_last].doc + (rng.Bernoulli(0.5) ? 0 : 1);
            in_block += target <= term[block_last].doc && target > doc ? 1 : 0;
            moved = c.Advance(target);
            expect = target <= doc ? at : FirstFrom(term, at + 1, target);
            break;
          }
          case 4: {
            const uint32_t target = doc - static_cast<uint32_t>(rng.Uniform(std::min(doc, 3u) + 1));
            moved = c.Advance(target);
            expect = at;
            break;
          }
          default: {
            // Filtered: the buffered block is never judged, every later full
            // block and group is skipped (with impacts: a field with freqs);
            // the tail is never judged.
            const uint32_t target = doc + static_cast<uint32_t>(rng.Range(1, 300));
            SkipAll skip;
            moved = c.AdvanceFiltered(target, &skip);
            expect = FirstFrom(term, at + 1, target);
            if (freqs && expect < term.size() && expect > block_last && expect < full) {
              expect = FirstFrom(term, std::max(full, expect), target);
            }
            break;
          }
        }
        ASSERT_EQ(moved, expect < term.size()) << "term " << t << " step " << step;
        ASSERT_TRUE(c.status().ok()) << c.status();
        if (!moved) break;
        read_here = read_here && at == expect;
        at = expect;
        on = true;
        ASSERT_EQ(c.doc(), term[at].doc) << "term " << t << " step " << step;
        ASSERT_EQ(c.freq(), term[at].freq) << "term " << t << " step " << step;
        if (positions && !read_here && rng.Bernoulli(0.3)) {
          read_here = true;
          if (rng.Bernoulli(0.5)) {
            ASSERT_TRUE(c.ReadPositions(&read)) << c.status();
            for (uint32_t k = 0; k < term[at].freq; ++k) {
              ASSERT_EQ(read[k], term[at].positions[k]) << "term " << t << " doc " << c.doc();
            }
          } else {
            for (uint32_t k = 0; k < term[at].freq; ++k) {
              ASSERT_TRUE(c.NextPosition()) << c.status();
              ASSERT_EQ(c.position(), term[at].positions[k]) << "term " << t << " doc " << c.doc();
            }
          }
        }
      }
    }
  }
  EXPECT_GT(in_block, 1000u) << "the in-block fast path was hardly exercised";
}

// FirstAtLeast, the fast path's search, against std::lower_bound: random
// ascending blocks (dense runs, wide gaps, values near 2^32), every start i
// and end n drawn at random, targets at, just below and just above the
// block's values and outside them.
TEST(PostingsAdvanceInBlockTest, FirstAtLeastIsLowerBound) {
  const uint64_t seed = testing::TestSeed(6262);
  Random rng(seed);
  std::array<uint32_t, kForBlockSize> a{};
  for (int round = 0; round < 3000; ++round) {
    uint32_t v =
        rng.Bernoulli(0.1) ? UINT32_MAX - 100000 : static_cast<uint32_t>(rng.Uniform(1000));
    const uint32_t max_gap = rng.Bernoulli(0.5) ? 3 : 700;
    for (uint32_t& x : a) {
      x = v;
      v += static_cast<uint32_t>(1 + rng.Uniform(max_gap));
    }
    for (int probe = 0; probe < 50; ++probe) {
      const size_t n = rng.Uniform(kForBlockSize + 1);
      const size_t i = rng.Uniform(n + 1);
      uint32_t target;
      switch (rng.Uniform(4)) {
        case 0:
          target = static_cast<uint32_t>(rng.Next());
          break;
        default: {
          const uint32_t at = a[rng.Uniform(kForBlockSize)];
          target = at + static_cast<uint32_t>(rng.Uniform(3)) - 1;
        }
      }
      const size_t want =
          static_cast<size_t>(std::lower_bound(a.begin() + i, a.begin() + n, target) - a.begin());
      ASSERT_EQ(postings_internal::FirstAtLeast(a, i, n, target), want)
          << "seed " << seed << " round " << round << " i " << i << " n " << n << " target "
          << target;
    }
  }
}

}  // namespace
}  // namespace invert

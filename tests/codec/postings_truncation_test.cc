// A .doc file cut short at every byte of its last term: the cursor either
// reads the whole term (the cut is at or after its end) or fails with
// DataLoss, and every doc it returned before failing is the model's. Each
// cut is an exact-size heap copy, so a read past the cut is an ASan report:
// this covers the skip headers parsed near the end of the data, where
// ParseSkipHeader leaves its unchecked fast path (fewer than 35 bytes
// left), the group (level-1) header, the full blocks and the tail. The
// fields: docs only, freqs, positions; the walks: NextDoc through every
// doc, and Advance by random jumps (printed, overridable seed).
#include <algorithm>
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

ModelTerm MakeTerm(Random& rng, size_t n, bool freqs, bool positions) {
  ModelTerm term;
  uint32_t doc = static_cast<uint32_t>(rng.Uniform(3));
  for (size_t i = 0; i < n; ++i) {
    ModelPosting p;
    p.doc = doc;
    p.freq = freqs ? static_cast<uint32_t>(1 + rng.Uniform(rng.Bernoulli(0.01) ? 300 : 3)) : 1;
    p.norm = static_cast<uint8_t>(1 + rng.Uniform(200));
    for (uint32_t j = 0; positions && j < p.freq; ++j) p.positions.push_back(2 * j + 1);
    term.push_back(std::move(p));
    // Mostly small gaps, some long ones: one- to three-byte header VInts.
    doc += static_cast<uint32_t>(1 + rng.Uniform(rng.Bernoulli(0.02) ? 40000 : 6));
  }
  return term;
}

class PostingsTruncationTest : public ::testing::TestWithParam<IndexOptions> {};

TEST_P(PostingsTruncationTest, EveryCutOfTheLastTermFailsOrReadsItAll) {
  const IndexOptions options = GetParam();
  const bool freqs = options != IndexOptions::kDocs;
  const bool positions = options == IndexOptions::kDocsAndFreqsAndPositions;
  Random rng(testing::TestSeed(34034 + static_cast<uint64_t>(options)));
  FieldType type = FieldType::Text();
  type.index_options = options;
  // A group of 8 full blocks and a tail of 6 docs; a term before it.
  const std::vector<ModelTerm> terms = {MakeTerm(rng, 300, freqs, positions),
                                        MakeTerm(rng, 8 * kForBlockSize + 6, freqs, positions)};
  PostingsFixture fixture;
  ASSERT_NO_FATAL_FAILURE(fixture.Write(type, terms));
  const ModelTerm& model = terms.back();
  const TermStats& stats = fixture.stats(1);
  const std::span<const uint8_t> doc_file = fixture.doc_file();
  ASSERT_LT(stats.doc_offset, doc_file.size());
  const uint64_t term_end = doc_file.size();  // the last term's bytes end the data

  uint64_t failed = 0;
  for (uint64_t cut = stats.doc_offset; cut <= term_end; ++cut) {
    const std::vector<uint8_t> bytes(doc_file.begin(), doc_file.begin() + cut);
    const std::span<const uint8_t> truncated(bytes.data(), bytes.size());
    // NextDoc through the term.
    PostingsCursor cursor(truncated, fixture.pos_file(), stats, type);
    size_t i = 0;
    while (cursor.NextDoc()) {
      ASSERT_LT(i, model.size()) << "cut " << cut;
      ASSERT_EQ(cursor.doc(), model[i].doc) << "cut " << cut << ", doc " << i;
      ASSERT_EQ(cursor.freq(), model[i].freq) << "cut " << cut << ", doc " << i;
      ++i;
    }
    if (cut < term_end) {
      ASSERT_EQ(cursor.status().code(), absl::StatusCode::kDataLoss) << "cut " << cut;
      ++failed;
    } else {
      ASSERT_TRUE(cursor.status().ok()) << cursor.status();
      ASSERT_EQ(i, model.size());
    }
    // Advance by random jumps (some within a block, some across blocks and
    // the group), then past the last doc: the walk reads every header.
    PostingsCursor walker(truncated, fixture.pos_file(), stats, type);
    uint32_t target = 0;
    for (;;) {
      const bool found = walker.Advance(target);
      const size_t want = static_cast<size_t>(
          std::lower_bound(model.begin(), model.end(), target,
                           [](const ModelPosting& p, uint32_t t) { return p.doc < t; }) -
          model.begin());
      if (!found) {
        if (walker.status().ok()) {
          ASSERT_EQ(want, model.size()) << "cut " << cut << ", target " << target;
          ASSERT_EQ(cut, term_end) << "cut " << cut << ": a truncated term read without error";
        } else {
          ASSERT_EQ(walker.status().code(), absl::StatusCode::kDataLoss) << "cut " << cut;
          ASSERT_LT(cut, term_end);
        }
        break;
      }
      ASSERT_LT(want, model.size()) << "cut " << cut << ", target " << target;
      ASSERT_EQ(walker.doc(), model[want].doc) << "cut " << cut << ", target " << target;
      ASSERT_EQ(walker.freq(), model[want].freq) << "cut " << cut << ", target " << target;
      const uint32_t jump = static_cast<uint32_t>(1 + rng.Uniform(rng.Bernoulli(0.2) ? 5000 : 40));
      target = walker.doc() + jump;
    }
  }
  EXPECT_EQ(failed, term_end - stats.doc_offset);
}

INSTANTIATE_TEST_SUITE_P(AllOptions, PostingsTruncationTest,
                         ::testing::Values(IndexOptions::kDocs, IndexOptions::kDocsAndFreqs,
                                           IndexOptions::kDocsAndFreqsAndPositions));

}  // namespace
}  // namespace invert

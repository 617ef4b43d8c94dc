// TermLookup (batched term lookups with prefetch) and PostingsCursor's skip
// prefetch: every policy gives exactly what plain SeekExact calls and plain
// postings iteration give, on random batches that mix present terms, absent
// terms, the dictionary's first and last terms (the ends of the .tim data)
// and the last postings of .doc/.pos (the ends of those files); the byte
// ranges prefetched are the blocks the seeks load and stay inside the files;
// the counters show which system calls each policy made.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/segment_reader.h"
#include "codec/term_lookup.h"
#include "gtest/gtest.h"
#include "index/commit_reader.h"
#include "invert/analysis.h"
#include "invert/index_writer.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

constexpr PrefetchPolicy kPolicies[] = {PrefetchPolicy::kOff, PrefetchPolicy::kAlways,
                                        PrefetchPolicy::kBackoff};

// A one-segment index: "body" (text with positions, offsets in term
// vectors, stored), "tag" (keyword, docs only), "count" (docs and freqs).
// Body words follow a skewed law over a vocabulary of 3,000, so the head
// terms span many 128-doc blocks and the tail has many singletons.
class TermLookupPrefetchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const uint64_t seed = testing::TestSeed(4242);
    Random rng(seed);
    IndexWriterOptions options;
    options.analyzer = [] { return NewWhitespaceAnalyzer(); };
    auto writer = IndexWriter::Open(scratch_.path(), options);
    ASSERT_TRUE(writer.ok()) << writer.status();
    FieldType body = FieldType::Text(/*stored=*/true);
    body.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
    body.term_vectors = body.term_vector_positions = body.term_vector_offsets = true;
    FieldType tag = FieldType::Keyword();
    tag.index_options = IndexOptions::kDocs;
    FieldType count = FieldType::Text();
    count.index_options = IndexOptions::kDocsAndFreqs;
    for (int d = 0; d < 3000; ++d) {
      std::string text, counts;
      const int words = static_cast<int>(rng.Range(1, 30));
      for (int w = 0; w < words; ++w) {
        // Rank ~ u^3 * 3000: rank 0 in ~50% of docs' words, long tail.
        const double u = static_cast<double>(rng.Uniform(1'000'000)) / 1e6;
        text += Word(static_cast<uint64_t>(u * u * u * 3000)) + " ";
        if (w % 3 == 0) counts += Word(rng.Uniform(40)) + " ";
      }
      const std::string tag_value = absl::StrCat("t", rng.Uniform(500));
      Document doc;
      doc.Add(Field::Text("body", text, body));
      doc.Add(Field::Keyword("tag", tag_value, tag));
      doc.Add(Field::Text("count", counts, count));
      ASSERT_TRUE((*writer)->AddDocument(doc).ok());
    }
    ASSERT_TRUE((*writer)->Close().ok());
    auto reader = CommitReader::Open(scratch_.path());
    ASSERT_TRUE(reader.ok()) << reader.status();
    reader_ = std::move(*reader);
    ASSERT_EQ(reader_->segment_count(), 1u);
  }

  static std::string Word(uint64_t rank) {
    std::string w;
    do {
      w += static_cast<char>('a' + rank % 26);
      rank /= 26;
    } while (rank > 0);
    return w + "x";
  }

  // Non-const: SetPrefetchPolicy is setup.
  SegmentReader& segment() { return const_cast<SegmentReader&>(reader_->segment(0)); }

  uint32_t FieldNumber(std::string_view name) { return segment().FieldByName(name)->number; }

  std::vector<std::string> AllTerms(uint32_t field) {
    std::vector<std::string> terms;
    TermDictCursor cursor = segment().Terms(field)->NewCursor();
    for (;;) {
      absl::StatusOr<bool> next = cursor.Next();
      EXPECT_TRUE(next.ok());
      if (!next.ok() || !*next) break;
      terms.emplace_back(cursor.term());
    }
    return terms;
  }

  // What plain seeks find: one fresh cursor per term.
  std::vector<std::optional<TermStats>> Expected(uint32_t field,
                                                 const std::vector<std::string_view>& terms) {
    std::vector<std::optional<TermStats>> expected(terms.size());
    for (size_t i = 0; i < terms.size(); ++i) {
      TermDictCursor cursor = segment().Terms(field)->NewCursor();
      absl::StatusOr<bool> found = cursor.SeekExact(terms[i]);
      EXPECT_TRUE(found.ok());
      if (found.ok() && *found) expected[i] = cursor.stats();
    }
    return expected;
  }

  // Every doc, freq and position (with offsets) of a postings list.
  static std::vector<uint64_t> Drain(PostingsCursor postings, bool positions) {
    std::vector<uint64_t> out;
    while (postings.NextDoc()) {
      out.push_back(postings.doc());
      out.push_back(postings.freq());
      for (uint32_t i = 0; positions && i < postings.freq(); ++i) {
        EXPECT_TRUE(postings.NextPosition());
        out.push_back(postings.position());
        out.push_back(postings.start_offset());
        out.push_back(postings.end_offset());
      }
    }
    EXPECT_TRUE(postings.status().ok()) << postings.status();
    return out;
  }

  testing::ScratchDir scratch_;
  std::unique_ptr<CommitReader> reader_;
};

TEST_F(TermLookupPrefetchTest, BlockBytesIsTheBlockOfTheTermsOrdinal) {
  const uint32_t field = FieldNumber("body");
  const TermDictReader& dict = *segment().Terms(field);
  ASSERT_GT(dict.block_count(), 20u);
  const std::vector<std::string> terms = AllTerms(field);
  ASSERT_EQ(terms.size(), dict.term_count());
  std::span<const uint8_t> previous;
  for (size_t ordinal = 0; ordinal < terms.size(); ++ordinal) {
    const std::span<const uint8_t> block = dict.BlockBytes(terms[ordinal]);
    ASSERT_FALSE(block.empty());
    if (ordinal % dict.block_terms() == 0) {
      // A new block: right after the previous one (the first at the start).
      const uint8_t* expected_start =
          ordinal == 0 ? dict.data().data() : previous.data() + previous.size();
      ASSERT_EQ(block.data(), expected_start) << "ordinal " << ordinal;
    } else {
      ASSERT_EQ(block.data(), previous.data());
      ASSERT_EQ(block.size(), previous.size());
    }
    // A term just above this one (absent) falls in the same block.
    const std::span<const uint8_t> above = dict.BlockBytes(terms[ordinal] + '\0');
    ASSERT_EQ(above.data(), block.data());
    previous = block;
  }
  // Before the first term: no block. Past the last: the last block.
  EXPECT_TRUE(dict.BlockBytes("").empty() || terms[0].empty());
  EXPECT_EQ(dict.BlockBytes("\xff\xff\xff").data(), previous.data());
  // The blocks end where the dictionary's index begins: inside the data.
  EXPECT_LE(previous.data() + previous.size(), dict.data().data() + dict.data().size());
}

TEST_F(TermLookupPrefetchTest, SeekExactWithAnyBlockHintEqualsSeekExact) {
  Random rng(testing::TestSeed(76));
  const uint32_t field = FieldNumber("body");
  const TermDictReader& dict = *segment().Terms(field);
  const int64_t blocks = dict.block_count();
  const std::vector<std::string> all = AllTerms(field);
  std::vector<std::string> targets = {"", "\xff", all.front(), all.back(), all.back() + "z"};
  for (int i = 0; i < 300; ++i) {
    const std::string& t = all[rng.Uniform(all.size())];
    targets.push_back(rng.Bernoulli(0.5) ? t : t + "q");
  }
  for (const std::string& target : targets) {
    TermDictCursor plain = dict.NewCursor();
    absl::StatusOr<bool> want = plain.SeekExact(target);
    ASSERT_TRUE(want.ok());
    const int64_t block = dict.BlockFor(target);
    EXPECT_EQ(dict.BlockBytes(target).empty(), block < 0);
    for (int64_t hint : {block, block - 1, block + 1, int64_t{-1}, int64_t{-2}, blocks, blocks - 1,
                         int64_t{0}, static_cast<int64_t>(rng.Uniform(blocks))}) {
      TermDictCursor hinted = dict.NewCursor();
      absl::StatusOr<bool> got = hinted.SeekExact(target, hint);
      ASSERT_TRUE(got.ok());
      ASSERT_EQ(*got, *want) << target << " hint " << hint << " block " << block;
      if (*got) {
        ASSERT_EQ(hinted.stats(), plain.stats());
      }
    }
  }
}

TEST_F(TermLookupPrefetchTest, EveryPolicyFindsWhatSeekExactFinds) {
  Random rng(testing::TestSeed(77));
  for (std::string_view name : {"body", "tag", "count"}) {
    const uint32_t field = FieldNumber(name);
    const std::vector<std::string> all = AllTerms(field);
    ASSERT_FALSE(all.empty());
    // Candidate terms: present ones, the two ends, and absent ones around
    // them (before the first, after the last, between neighbours, prefixes).
    std::vector<std::string> candidates = {all.front(), all.back(), "", "\xff", all.back() + "z"};
    for (int i = 0; i < 200; ++i) {
      const std::string& t = all[rng.Uniform(all.size())];
      candidates.push_back(t);
      candidates.push_back(t + "q");
      candidates.push_back(t.substr(0, t.size() - 1));
    }
    for (PrefetchPolicy policy : kPolicies) {
      segment().SetPrefetchPolicy(policy);
      TermLookup lookup(&segment());
      ASSERT_EQ(lookup.prefetch_policy(), policy);
      for (int round = 0; round < 60; ++round) {
        const size_t k = std::vector<size_t>{1, 2, 16, 64}[rng.Uniform(4)];
        std::vector<std::string_view> terms;
        for (size_t i = 0; i < k; ++i) terms.push_back(candidates[rng.Uniform(candidates.size())]);
        absl::StatusOr<std::vector<std::optional<TermStats>>> found = lookup.Lookup(field, terms);
        ASSERT_TRUE(found.ok()) << found.status();
        ASSERT_EQ(*found, Expected(field, terms))
            << name << " policy " << PrefetchPolicyName(policy) << " round " << round;
      }
      const PrefetchStats stats = lookup.prefetch_stats();
      EXPECT_EQ(lookup.prefetch_failures(), 0u);
      switch (policy) {
        case PrefetchPolicy::kOff:  // passes 1 and 3 skipped: plain seeks
          EXPECT_EQ(stats.calls, 0u);
          EXPECT_EQ(stats.madvise + stats.mincore, 0u);
          break;
        case PrefetchPolicy::kAlways:
          EXPECT_GT(stats.calls, 0u);
          EXPECT_EQ(stats.madvise, stats.calls);
          EXPECT_EQ(stats.mincore, 0u);
          EXPECT_GT(lookup.terms_prefetch_stats().calls, 0u);
          EXPECT_GT(lookup.pos_prefetch_stats().calls + lookup.doc_prefetch_stats().calls, 0u);
          break;
        case PrefetchPolicy::kBackoff:
          // The index was just written: everything is cached, so backoff
          // checks O(log calls) times and never needs madvise.
          EXPECT_GT(stats.calls, 0u);
          EXPECT_GT(stats.mincore, 0u);
          EXPECT_LT(stats.mincore, stats.calls);
          EXPECT_LE(stats.madvise, stats.mincore);
          break;
      }
    }
  }
}

TEST_F(TermLookupPrefetchTest, PostingsReadTheSameWithSkipPrefetch) {
  Random rng(testing::TestSeed(78));
  for (std::string_view name : {"body", "tag", "count"}) {
    const uint32_t field = FieldNumber(name);
    const bool positions = name == "body";
    std::vector<std::string> all = AllTerms(field);
    // The dictionary's last term has the last postings of .doc and .pos.
    std::vector<std::string_view> terms = {all.back(), all.front()};
    for (int i = 0; i < 40; ++i) terms.push_back(all[rng.Uniform(all.size())]);
    for (PrefetchPolicy policy : kPolicies) {
      segment().SetPrefetchPolicy(policy);
      TermLookup lookup(&segment());
      auto found = lookup.Lookup(field, terms);
      ASSERT_TRUE(found.ok()) << found.status();
      for (size_t i = 0; i < terms.size(); ++i) {
        ASSERT_TRUE((*found)[i].has_value()) << terms[i];
        const TermStats& stats = *(*found)[i];
        ASSERT_EQ(Drain(lookup.Postings(field, stats), positions),
                  Drain(segment().Postings(field, stats), positions))
            << name << " " << terms[i];
        // Advance to random increasing targets, against NextDoc.
        PostingsCursor fast = lookup.Postings(field, stats);
        PostingsCursor slow = segment().Postings(field, stats);
        bool slow_on = slow.NextDoc();
        for (bool first = true;; first = false) {
          // Always past the current doc, whose first position was read.
          const uint32_t target =
              (first ? 0 : fast.doc() + 1) +
              static_cast<uint32_t>(rng.Uniform(rng.Bernoulli(0.3) ? 2000 : 50));
          const bool got = fast.Advance(target);
          while (slow_on && slow.doc() < target) slow_on = slow.NextDoc();
          ASSERT_EQ(got, slow_on);
          if (!got) break;
          ASSERT_EQ(fast.doc(), slow.doc());
          ASSERT_EQ(fast.freq(), slow.freq());
          if (positions) {
            ASSERT_TRUE(fast.NextPosition());
            ASSERT_TRUE(slow.NextPosition());
            ASSERT_EQ(fast.position(), slow.position());
          }
        }
        ASSERT_TRUE(fast.status().ok()) << fast.status();
      }
      EXPECT_EQ(lookup.prefetch_failures(), 0u);
    }
  }
}

TEST_F(TermLookupPrefetchTest, LongAdvancesPrefetchAheadOfTheHeaderWalk) {
  const uint32_t field = FieldNumber("body");
  const std::string head = Word(0);  // in about half the documents
  const std::vector<std::string_view> terms = {head};
  for (PrefetchPolicy policy : kPolicies) {
    segment().SetPrefetchPolicy(policy);
    TermLookup lookup(&segment());
    auto found = lookup.Lookup(field, terms);
    ASSERT_TRUE(found.ok() && (*found)[0].has_value());
    const TermStats stats = *(*found)[0];
    ASSERT_GT(stats.doc_freq, 128u * (PostingsCursor::kSkipPrefetchAfter + 2));
    const uint64_t before = lookup.doc_prefetch_stats().calls;
    PostingsCursor postings = lookup.Postings(field, stats);
    ASSERT_TRUE(postings.Advance(2990));  // walks past more than 8 blocks
    EXPECT_GE(postings.blocks_skipped(), PostingsCursor::kSkipPrefetchAfter);
    const uint64_t skip_calls = lookup.doc_prefetch_stats().calls - before;
    if (policy == PrefetchPolicy::kOff) {
      EXPECT_EQ(skip_calls, 0u);
    } else {
      EXPECT_GE(skip_calls, 1u);
    }
    // A short advance (within a few blocks) never prefetches.
    PostingsCursor short_walk = lookup.Postings(field, stats);
    const uint64_t before_short = lookup.doc_prefetch_stats().calls;
    ASSERT_TRUE(short_walk.Advance(300));
    EXPECT_EQ(lookup.doc_prefetch_stats().calls, before_short);
    // Without skip prefetch, never.
    PostingsCursor plain = lookup.Postings(field, stats, /*skip_prefetch=*/false);
    const uint64_t before_plain = lookup.doc_prefetch_stats().calls;
    ASSERT_TRUE(plain.Advance(2990));
    EXPECT_EQ(lookup.doc_prefetch_stats().calls, before_plain);
    EXPECT_EQ(plain.doc(), postings.doc());
  }
}

TEST_F(TermLookupPrefetchTest, PrefetchedRangesAreInsideTheFiles) {
  for (std::string_view name : {"body", "tag", "count"}) {
    const uint32_t field = FieldNumber(name);
    const std::vector<std::string> all = AllTerms(field);
    std::vector<std::string_view> terms(all.begin(), all.end());
    terms.push_back("");
    terms.push_back("\xff\xff");
    TermLookup lookup(&segment());
    const std::vector<FileRange> blocks = lookup.BlockRanges(field, terms);
    ASSERT_FALSE(blocks.empty());
    const uint64_t tim_length = segment().terms_input().length();
    for (size_t i = 0; i < blocks.size(); ++i) {
      EXPECT_GT(blocks[i].length, 0u);
      EXPECT_LE(blocks[i].offset + blocks[i].length, tim_length);
      if (i > 0) {
        EXPECT_GT(blocks[i].offset, blocks[i - 1].offset + blocks[i - 1].length);
      }
    }
    // Every block of every term, merged by page: the dictionary's blocks are
    // contiguous, so they are one range.
    EXPECT_EQ(blocks.size(), 1u);
    for (const std::string& t : all) {
      TermDictCursor cursor = segment().Terms(field)->NewCursor();
      ASSERT_TRUE(*cursor.SeekExact(t));
      std::optional<FileRange> doc, pos;
      lookup.PostingsRanges(field, cursor.stats(), &doc, &pos);
      EXPECT_EQ(doc.has_value(), cursor.stats().doc_freq >= 2);
      EXPECT_EQ(pos.has_value(), name == "body");
      if (doc) {
        EXPECT_GT(doc->length, 0u);
        EXPECT_LE(doc->length, TermLookup::kPostingsPrefetchBytes);
        EXPECT_LE(doc->offset + doc->length, segment().doc_input().length());
      }
      if (pos) {
        EXPECT_GT(pos->length, 0u);
        EXPECT_LE(pos->offset + pos->length, segment().pos_input().length());
      }
    }
  }
}

TEST_F(TermLookupPrefetchTest, SegmentPolicyReachesEveryInput) {
  const std::vector<uint32_t> docs = {0, 2999, 1500, 7, 2998, 1500};
  for (PrefetchPolicy policy : kPolicies) {
    segment().SetPrefetchPolicy(policy);
    EXPECT_EQ(segment().prefetch_policy(), policy);
    EXPECT_EQ(segment().doc_input().prefetch_policy(), policy);
    EXPECT_EQ(segment().pos_input().prefetch_policy(), policy);
    EXPECT_EQ(TermLookup(&segment()).prefetch_policy(), policy);
    const SegmentReader::DocFilesPrefetchStats before = segment().doc_files_prefetch_stats();
    auto stored = segment().StoredDocuments(docs);
    ASSERT_TRUE(stored.ok()) << stored.status();
    auto vectors = segment().TermVectorDocuments(docs);
    ASSERT_TRUE(vectors.ok()) << vectors.status();
    for (size_t i = 0; i < docs.size(); ++i) {
      EXPECT_EQ((*stored)[i], *segment().stored_fields().Document(docs[i]));
      EXPECT_EQ((*vectors)[i], *segment().term_vectors().Get(docs[i]));
    }
    const SegmentReader::DocFilesPrefetchStats after = segment().doc_files_prefetch_stats();
    const uint64_t calls = after.stored.calls - before.stored.calls;
    const uint64_t madvise = after.stored.madvise - before.stored.madvise;
    EXPECT_GT(calls, 0u);  // blocks far apart: several to decode
    EXPECT_GT(after.vectors.calls, before.vectors.calls);
    if (policy == PrefetchPolicy::kOff) {
      EXPECT_EQ(madvise, 0u);
    }
    if (policy == PrefetchPolicy::kAlways) {
      EXPECT_EQ(madvise, calls);
    }
  }
  EXPECT_TRUE(segment().SetReadAdvice(ReadAdvice::kRandom).ok());
  EXPECT_TRUE(segment().SetReadAdvice(ReadAdvice::kNormal).ok());
}

}  // namespace
}  // namespace invert

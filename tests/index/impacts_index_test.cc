// Impacts written by a flush and by a merge (docs/format.md, .doc version 2):
// random documents with random field lengths (so random norms), flushed;
// for every term and full block the stored impacts equal the brute-force
// Pareto frontier of (freq, norm) over the block's documents, and shallow
// advances to random targets land on the block holding the target. Then the
// segments merged with random deletions: the merged impacts equal the
// frontier over the live documents, remapped, with the norms their inputs
// had. Fields: text with norms and positions, text without norms (norm 1),
// docs-only keywords (no impacts). Fixed printed seed.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codec/impacts.h"
#include "codec/live_docs_format.h"
#include "codec/segment_reader.h"
#include "gtest/gtest.h"
#include "index/indexing_chain.h"
#include "index/segment_flush.h"
#include "index/segment_merger.h"
#include "invert/analysis.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

struct Posting {
  uint32_t doc;
  uint32_t freq;
  uint8_t norm;
};

std::vector<Impact> BruteFrontier(const std::vector<Posting>& docs, size_t from, size_t to) {
  std::vector<Impact> out;
  for (size_t i = from; i < to; ++i) {
    const Impact a{docs[i].freq, docs[i].norm};
    bool dominated = false;
    for (size_t j = from; j < to; ++j) {
      const Impact b{docs[j].freq, docs[j].norm};
      if (b.freq >= a.freq && b.norm <= a.norm && !(b == a)) dominated = true;
    }
    if (!dominated && std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  }
  std::sort(out.begin(), out.end(), [](Impact x, Impact y) { return x.freq < y.freq; });
  return out;
}

std::string Show(std::span<const Impact> pairs) {
  std::string out;
  for (const Impact& i : pairs) {
    out += std::to_string(i.freq) + "/" + std::to_string(i.norm) + " ";
  }
  return out;
}

// field name -> term -> postings (doc, freq, norm).
using Postings = std::map<std::string, std::map<std::string, std::vector<Posting>>>;

// Every posting of `seg`, with each doc's norm (1 without norms), mapped
// through `map` (kDeletedDoc drops the doc) when given.
void Collect(const SegmentReader& seg, const std::vector<uint32_t>* map, Postings* out) {
  for (const FieldInfo& f : seg.fields()) {
    const TermDictReader* dict = seg.Terms(f.number);
    if (dict == nullptr) continue;
    TermDictCursor cursor = dict->NewCursor();
    while (true) {
      absl::StatusOr<bool> next = cursor.Next();
      ASSERT_TRUE(next.ok()) << next.status();
      if (!*next) break;
      std::vector<Posting>& list = (*out)[f.name][std::string(cursor.term())];
      PostingsCursor it = seg.Postings(f.number, cursor.stats());
      while (it.NextDoc()) {
        const uint32_t doc = map == nullptr ? it.doc() : (*map)[it.doc()];
        if (doc == kDeletedDoc) continue;
        const uint8_t norm = seg.HasNorms(f.number) ? seg.Norm(f.number, it.doc()) : 1;
        list.push_back({doc, it.freq(), norm});
      }
      ASSERT_TRUE(it.status().ok()) << it.status();
    }
  }
}

// Checks the impacts `seg` stores against `want` (every term of `seg`, in
// `seg`'s doc ids), block by block and at random targets.
void ExpectImpacts(const SegmentReader& seg, const Postings& want, Random& rng,
                   uint64_t* blocks_checked) {
  for (const FieldInfo& f : seg.fields()) {
    const TermDictReader* dict = seg.Terms(f.number);
    if (dict == nullptr) continue;
    TermDictCursor cursor = dict->NewCursor();
    while (true) {
      absl::StatusOr<bool> next = cursor.Next();
      ASSERT_TRUE(next.ok()) << next.status();
      if (!*next) break;
      const std::string term(cursor.term());
      SCOPED_TRACE(f.name + ":" + term);
      const std::vector<Posting>& docs = want.at(f.name).at(term);
      ASSERT_EQ(docs.size(), cursor.stats().doc_freq);
      const size_t full = docs.size() / kForBlockSize * kForBlockSize;
      PostingsCursor c = seg.Postings(f.number, cursor.stats());
      ASSERT_EQ(c.has_impacts(), HasFreqs(f.type.index_options));
      for (size_t first = 0; c.has_impacts() && first < full; first += kForBlockSize) {
        ASSERT_EQ(c.AdvanceShallow(docs[first].doc), docs[first + kForBlockSize - 1].doc);
        const std::vector<Impact> frontier = BruteFrontier(docs, first, first + kForBlockSize);
        ASSERT_EQ(Show(c.impacts()), Show(frontier)) << "block " << first / kForBlockSize;
        ++*blocks_checked;
      }
      // The whole term: the blocks' frontier and (tail's highest freq, 0).
      std::vector<Impact> term_impacts;
      ASSERT_TRUE(c.TermImpacts(&term_impacts));
      if (c.has_impacts() && full > 0) {
        std::vector<Posting> all = docs;
        for (size_t i = full; i < all.size(); ++i) all[i].norm = 0;
        ASSERT_EQ(Show(term_impacts), Show(BruteFrontier(all, 0, all.size())));
      } else {
        ASSERT_EQ(term_impacts.size(), 1u);
        for (const Posting& p : docs) ASSERT_LE(p.freq, term_impacts[0].freq);
      }
      // Random targets: the block holding the first doc >= target.
      PostingsCursor r = seg.Postings(f.number, cursor.stats());
      uint32_t target = 0;
      while (target <= docs.back().doc) {
        target += static_cast<uint32_t>(1 + rng.Uniform(300));
        size_t i = 0;
        while (i < docs.size() && docs[i].doc < target) ++i;
        const uint32_t got = r.AdvanceShallow(target);
        if (!r.has_impacts() || i >= full) {
          ASSERT_EQ(got, PostingsCursor::kNoMoreDocs) << "target " << target;
          ASSERT_EQ(r.impacts().size(), 1u);
          for (size_t j = i; j < docs.size(); ++j) {  // the term's bound holds
            ASSERT_LE(docs[j].freq, r.impacts()[0].freq);
          }
        } else {
          const size_t first = i / kForBlockSize * kForBlockSize;
          ASSERT_EQ(got, docs[first + kForBlockSize - 1].doc) << "target " << target;
          ASSERT_GE(got, target);
          ASSERT_EQ(Show(r.impacts()), Show(BruteFrontier(docs, first, first + kForBlockSize)));
        }
      }
      ASSERT_TRUE(r.status().ok()) << r.status();
    }
  }
}

// A document of random length: words from a skewed vocabulary of 40, so
// that the common ones are in hundreds of documents.
std::string RandomText(Random& rng, size_t max_words) {
  const size_t n = 1 + rng.Uniform(rng.Bernoulli(0.2) ? max_words : 12);
  std::string text;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t w = rng.Uniform(1 + rng.Uniform(40));
    text += "w" + std::to_string(w) + " ";
  }
  return text;
}

TEST(ImpactsIndexTest, FlushAndMergeWithDeletionsEqualBruteForce) {
  const uint64_t seed = testing::TestSeed(1357);
  Random rng(seed);
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  FieldType no_norms = FieldType::Text();
  no_norms.norms = false;
  no_norms.index_options = IndexOptions::kDocsAndFreqs;
  const FieldType keyword = FieldType::Keyword();
  std::vector<std::unique_ptr<SegmentReader>> segments;
  uint64_t blocks = 0;
  for (int s = 0; s < 3; ++s) {
    IndexingChainOptions options;
    options.analyzer = [] { return NewWhitespaceAnalyzer(); };
    IndexingChain chain(options);
    const size_t docs = rng.Range(300, 900);
    std::vector<std::string> keep;  // the values the documents point at
    keep.reserve(3 * docs);
    for (size_t d = 0; d < docs; ++d) {
      keep.push_back(RandomText(rng, 600));
      keep.push_back(RandomText(rng, 40));
      keep.push_back("k" + std::to_string(rng.Uniform(3)));
      Document doc;
      doc.Add(Field::Text("body", keep[keep.size() - 3]))
          .Add(Field::Text("plain", keep[keep.size() - 2], no_norms))
          .Add(Field::Keyword("kw", keep.back(), keyword));
      ASSERT_TRUE(chain.AddDocument(doc).ok());
    }
    const std::string name = "_" + std::to_string(s);
    absl::StatusOr<SegmentInfo> info = FlushSegment(chain, dir.get(), name);
    ASSERT_TRUE(info.ok()) << info.status();
    absl::StatusOr<std::unique_ptr<SegmentReader>> reader =
        SegmentReader::Open(dir.get(), name, info->id);
    ASSERT_TRUE(reader.ok()) << reader.status();
    EXPECT_EQ((*reader)->doc_version(), kDocFormatVersion);
    Postings want;
    Collect(**reader, nullptr, &want);
    ExpectImpacts(**reader, want, rng, &blocks);
    segments.push_back(std::move(*reader));
  }
  EXPECT_GT(blocks, 50u);  // the test does test blocks

  // Merge with deletions.
  std::vector<LiveDocs> live;
  for (const auto& seg : segments) {
    live.emplace_back(seg->doc_count());
    const double p = rng.NextDouble() * 0.6;
    for (uint32_t d = 0; d < seg->doc_count(); ++d) {
      if (rng.Bernoulli(p)) live.back().Delete(d);
    }
  }
  std::vector<MergeInput> inputs;
  for (size_t i = 0; i < segments.size(); ++i) inputs.push_back({segments[i].get(), &live[i]});
  MergeOptions options;
  options.fields = segments[0]->fields();
  absl::StatusOr<MergeResult> merged = MergeSegments(inputs, dir.get(), "_m", {}, options);
  ASSERT_TRUE(merged.ok()) << merged.status();
  absl::StatusOr<std::unique_ptr<SegmentReader>> m =
      SegmentReader::Open(dir.get(), "_m", merged->info.id);
  ASSERT_TRUE(m.ok()) << m.status();
  // The live documents of the inputs, remapped, with their inputs' norms.
  Postings want;
  for (size_t i = 0; i < segments.size(); ++i) {
    Collect(*segments[i], &merged->doc_maps[i], &want);
  }
  blocks = 0;
  ExpectImpacts(**m, want, rng, &blocks);
  EXPECT_GT(blocks, 20u);
}

}  // namespace
}  // namespace invert

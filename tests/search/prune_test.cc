// Dynamic pruning (SearchOptions::prune) against exhaustive search: random
// queries over a generated Wikipedia-like corpus (src/corpus, Zipfian
// words, so many terms have postings of several 128-doc blocks with
// impacts) in several segments with deletions, both term-bytes layouts.
// The top k must be identical, doc ids and scores bit for bit; total_hits
// exact when it says so, else a lower bound above the threshold; and
// pruning must actually skip documents (TopDocs::docs_scored). Phrases
// (exact and sloppy, alone and as boolean clauses) are pruned from their
// terms' impacts: compared the same way. Plus the bounds themselves: every
// document's score (a term's, a phrase's) is within its range's bound, a
// segment whose norms file is version 1 uses no block impacts, and the
// phrase frequencies stay within what the phrase bounds assume.
#include "search/prune.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "codec/norm_encoding.h"
#include "codec/norms_format.h"
#include "codec/segment_files.h"
#include "codec/segment_info_format.h"
#include "codec/segment_reader.h"
#include "corpus/wiki_gen.h"
#include "gtest/gtest.h"
#include "index/indexing_chain.h"
#include "index/leaf_reader_impl.h"
#include "index/segment_flush.h"
#include "invert/analysis.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "invert/merge_policy.h"
#include "invert/search.h"
#include "scratch_dir.h"
#include "search/phrase_freq.h"
#include "search/weight.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using testing::ScratchDir;
using testing::TestSeed;

constexpr size_t kDocs = 6000;
constexpr size_t kDocsPerSegment = 1500;

// The corpus index of one layout, built once per process.
class CorpusIndex {
 public:
  explicit CorpusIndex(TermBytesLayout layout) {
    IndexWriterOptions o;
    o.analyzer = [] { return NewWhitespaceAnalyzer(); };
    o.layout = layout;
    o.merge_policy = std::make_shared<NoMergePolicy>();
    auto writer = IndexWriter::Open(dir_.path(), o);
    EXPECT_TRUE(writer.ok()) << writer.status();
    GenOptions gen;
    gen.seed = 42;
    gen.body_median_bytes = 260;
    WikiGenerator generator(gen);
    Random rng(7);
    Random phrase_rng(13);
    std::map<std::string, uint64_t> df;
    GenDoc g;
    for (size_t i = 0; i < kDocs; ++i) {
      generator.Next(&g);
      std::string body = g.body;
      for (char& c : body) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::vector<std::string> words;
      for (size_t p = 0; p < body.size();) {
        const size_t e = std::min(body.find(' ', p), body.size());
        if (e > p) words.push_back(body.substr(p, e - p));
        p = e + 1;
      }
      // Every 10th document gives a phrase: 2-3 consecutive words.
      if (i % 10 == 0 && words.size() >= 3) {
        const size_t len = phrase_rng.Range(2, 3);
        const size_t start = phrase_rng.Uniform(words.size() - len + 1);
        phrases_.emplace_back(words.begin() + start, words.begin() + start + len);
      }
      std::sort(words.begin(), words.end());
      words.erase(std::unique(words.begin(), words.end()), words.end());
      for (const std::string& w : words) ++df[w];
      const std::string id = "d" + std::to_string(i);
      Document doc;
      doc.Add(Field::Keyword("id", id, FieldType::Keyword(/*stored=*/false)))
          .Add(Field::Text("body", body));
      EXPECT_TRUE((*writer)->AddDocument(doc).ok());
      if ((i + 1) % kDocsPerSegment == 0) {
        EXPECT_TRUE((*writer)->Commit().ok());
      }
      if (i > 100 && rng.Bernoulli(0.05)) {
        const std::string victim = "d" + std::to_string(rng.Uniform(i));
        EXPECT_TRUE((*writer)->DeleteDocuments("id", victim).ok());
      }
    }
    EXPECT_TRUE((*writer)->Close().ok());
    auto reader = IndexReader::Open(dir_.path());
    EXPECT_TRUE(reader.ok()) << reader.status();
    reader_ = std::move(*reader);
    // Terms by document frequency, most frequent first.
    std::vector<std::pair<uint64_t, std::string>> by_df;
    for (const auto& [term, n] : df) by_df.emplace_back(n, term);
    std::sort(by_df.rbegin(), by_df.rend());
    for (const auto& [n, term] : by_df) {
      terms_.push_back(term);
      if (n >= 4 * 128) ++block_terms_;
    }
  }

  const IndexReader& reader() const { return *reader_; }
  // Body terms, most frequent first.
  const std::vector<std::string>& terms() const { return terms_; }
  // Terms in >= 512 documents: several full blocks per segment on average.
  size_t block_terms() const { return block_terms_; }
  // Runs of 2-3 consecutive body words (mostly frequent words: Zipfian).
  const std::vector<std::vector<std::string>>& phrases() const { return phrases_; }

 private:
  ScratchDir dir_;
  std::unique_ptr<IndexReader> reader_;
  std::vector<std::string> terms_;
  size_t block_terms_ = 0;
  std::vector<std::vector<std::string>> phrases_;
};

// The corpus indexes, built on first use and removed (directory included)
// when PruneTest's suite ends; a static that is never destroyed would leave
// its index behind in the temp dir.
std::unique_ptr<CorpusIndex> corpora[2];

const CorpusIndex& Corpus(TermBytesLayout layout) {
  std::unique_ptr<CorpusIndex>& corpus = corpora[layout == TermBytesLayout::kShared ? 0 : 1];
  if (corpus == nullptr) corpus = std::make_unique<CorpusIndex>(layout);
  return *corpus;
}

// A term drawn with a Zipf-like skew over the frequency ranks: mostly the
// frequent terms with long postings, sometimes a rare one.
std::string RandomTerm(Random& rng, const CorpusIndex& corpus) {
  const std::vector<std::string>& terms = corpus.terms();
  const double u = rng.NextDouble();
  const size_t rank = std::min(terms.size() - 1, static_cast<size_t>(u * u * u * 400));
  return terms[rng.Bernoulli(0.1) ? rng.Uniform(terms.size()) : rank];
}

Query TermQ(Random& rng, const CorpusIndex& corpus) {
  Query q = Query::Term("body", RandomTerm(rng, corpus));
  if (rng.Bernoulli(0.2)) q.boost = static_cast<float>(rng.Range(1, 40)) / 8.0f;
  return q;
}

std::vector<Query> Terms(Random& rng, const CorpusIndex& corpus, size_t min, size_t max) {
  std::vector<Query> out(rng.Range(min, max));
  for (Query& q : out) q = TermQ(rng, corpus);
  return out;
}

// A phrase: half the time one of the corpus (rare: a few matches), else
// 2-3 of the 12 most frequent words (hundreds of matches, where pruning
// has something to skip); some of its words reversed or replaced at times.
// Exact, or sloppy with slop 1-3 when `sloppy`.
Query PhraseQ(Random& rng, const CorpusIndex& corpus, bool sloppy) {
  std::vector<std::string> words;
  if (rng.Bernoulli(0.5)) {
    words = corpus.phrases()[rng.Uniform(corpus.phrases().size())];
  } else {
    words.resize(rng.Range(2, 3));
    for (std::string& w : words) w = corpus.terms()[rng.Uniform(12)];
  }
  if (rng.Bernoulli(0.15)) std::reverse(words.begin(), words.end());
  if (rng.Bernoulli(0.1)) words[rng.Uniform(words.size())] = RandomTerm(rng, corpus);
  const uint32_t slop = sloppy ? static_cast<uint32_t>(rng.Range(1, 3)) : 0;
  Query q = Query::Phrase("body", std::move(words), slop);
  if (rng.Bernoulli(0.2)) q.boost = static_cast<float>(rng.Range(1, 40)) / 8.0f;
  return q;
}

// Phrase queries: alone, a should clause beside terms, a must clause with
// should terms. `kind` (0-2) picks one of these.
Query PhraseQuery(Random& rng, const CorpusIndex& corpus, int kind) {
  Query phrase = PhraseQ(rng, corpus, rng.Bernoulli(0.5));
  switch (kind) {
    case 0:
      return phrase;
    case 1: {
      std::vector<Query> should = Terms(rng, corpus, 1, 2);
      should.push_back(std::move(phrase));
      if (rng.Bernoulli(0.3)) should.push_back(PhraseQ(rng, corpus, rng.Bernoulli(0.5)));
      return Query::Boolean({}, std::move(should));
    }
    default:
      return Query::Boolean({std::move(phrase)}, Terms(rng, corpus, 1, 2));
  }
}

// Queries of the classes pruning serves, plus clauses it cannot bound.
Query RandomQuery(Random& rng, const CorpusIndex& corpus) {
  switch (rng.Uniform(8)) {
    case 0:
      return TermQ(rng, corpus);
    case 1:
    case 2: {  // 1-5 term OR
      Query q = Query::Boolean({}, Terms(rng, corpus, 1, 5));
      if (rng.Bernoulli(0.2)) q.boost = 0.5f;
      return q;
    }
    case 3: {  // OR with minimum_should_match
      std::vector<Query> should = Terms(rng, corpus, 2, 5);
      const uint32_t msm = static_cast<uint32_t>(rng.Range(1, should.size()));
      return Query::Boolean({}, std::move(should), {}, {}, msm);
    }
    case 4:  // AND
      return Query::Boolean(Terms(rng, corpus, 2, 3));
    case 5: {  // must + should, maybe must_not and filter
      std::vector<Query> must_not;
      std::vector<Query> filter;
      if (rng.Bernoulli(0.5)) must_not = Terms(rng, corpus, 1, 1);
      if (rng.Bernoulli(0.3)) filter = Terms(rng, corpus, 1, 1);
      return Query::Boolean(Terms(rng, corpus, 1, 2), Terms(rng, corpus, 1, 3), std::move(must_not),
                            std::move(filter), static_cast<uint32_t>(rng.Uniform(2)));
    }
    case 6: {  // OR with must_not
      return Query::Boolean({}, Terms(rng, corpus, 2, 4), Terms(rng, corpus, 1, 2));
    }
    default: {  // nested: an AND, a phrase or a prefix (unbounded) among should clauses
      std::vector<Query> should = Terms(rng, corpus, 1, 3);
      switch (rng.Uniform(3)) {
        case 0:
          should.push_back(Query::Boolean(Terms(rng, corpus, 2, 2)));
          break;
        case 1:
          should.push_back(Query::Phrase("body", {RandomTerm(rng, corpus), RandomTerm(rng, corpus)},
                                         rng.Bernoulli(0.3) ? 2 : 0));
          break;
        default:
          should.push_back(Query::Prefix("body", RandomTerm(rng, corpus).substr(0, 2), 0.7f));
      }
      return Query::Boolean({}, std::move(should));
    }
  }
}

void ExpectSameHits(const TopDocs& want, const TopDocs& got, const std::string& what) {
  ASSERT_EQ(want.hits.size(), got.hits.size()) << what;
  for (size_t i = 0; i < want.hits.size(); ++i) {
    ASSERT_EQ(want.hits[i].doc, got.hits[i].doc) << what << " rank " << i;
    ASSERT_EQ(std::bit_cast<uint32_t>(want.hits[i].score),
              std::bit_cast<uint32_t>(got.hits[i].score))
        << what << " rank " << i << ": " << want.hits[i].score << " vs " << got.hits[i].score;
  }
}

class PruneTest : public ::testing::TestWithParam<TermBytesLayout> {
 protected:
  static void TearDownTestSuite() {
    for (std::unique_ptr<CorpusIndex>& corpus : corpora) corpus.reset();
  }
};

TEST_P(PruneTest, RandomQueriesMatchExhaustive) {
  const CorpusIndex& corpus = Corpus(GetParam());
  ASSERT_GE(corpus.reader().leaves().size(), 4u);
  ASSERT_TRUE(corpus.reader().leaves()[0]->has_deletions() ||
              corpus.reader().leaves()[1]->has_deletions());
  ASSERT_GE(corpus.block_terms(), 30u) << "too few terms with block impacts";
  Random rng(TestSeed(20261203));
  IndexSearcher exhaustive(corpus.reader(), {.prune = false});
  uint64_t scored_pruned = 0;
  uint64_t scored_exhaustive = 0;
  int inexact = 0;
  for (int iter = 0; iter < 150; ++iter) {
    const Query q = RandomQuery(rng, corpus);
    const uint64_t thresholds[] = {0, 0, 10, 1000};
    const uint64_t threshold = thresholds[rng.Uniform(4)];
    const int threads = rng.Bernoulli(0.25) ? 2 : 1;
    IndexSearcher pruned(corpus.reader(),
                         {.prune = true, .total_hits_threshold = threshold, .threads = threads});
    absl::StatusOr<uint64_t> count = exhaustive.Count(q);
    ASSERT_TRUE(count.ok()) << count.status();
    for (size_t k : {1, 10, 100}) {
      const std::string what =
          q.ToString() + " k=" + std::to_string(k) + " threshold=" + std::to_string(threshold);
      absl::StatusOr<TopDocs> want = exhaustive.Search(q, k);
      absl::StatusOr<TopDocs> got = pruned.Search(q, k);
      ASSERT_TRUE(want.ok()) << want.status();
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectSameHits(*want, *got, what);
      EXPECT_TRUE(want->total_hits_exact) << what;
      EXPECT_EQ(want->total_hits, *count) << what;
      EXPECT_EQ(want->docs_scored, *count) << what;
      EXPECT_LE(got->docs_scored, want->docs_scored) << what;
      if (got->total_hits_exact) {
        EXPECT_EQ(got->total_hits, *count) << what;
      } else {
        ++inexact;
        EXPECT_LE(got->total_hits, *count) << what;
        EXPECT_GT(got->total_hits, threshold) << what;
      }
      // At most the threshold matches: never pruned, so exact.
      if (*count <= threshold) {
        EXPECT_TRUE(got->total_hits_exact) << what;
      }
      scored_pruned += got->docs_scored;
      scored_exhaustive += want->docs_scored;
    }
  }
  std::printf("[   INFO   ] docs scored: pruned %llu, exhaustive %llu; %d inexact counts\n",
              static_cast<unsigned long long>(scored_pruned),
              static_cast<unsigned long long>(scored_exhaustive), inexact);
  EXPECT_GT(inexact, 0);
  EXPECT_LT(scored_pruned * 2, scored_exhaustive);
}

// Pruning skips most of the documents on the query classes it is for.
TEST_P(PruneTest, SkipsDocuments) {
  const CorpusIndex& corpus = Corpus(GetParam());
  const std::vector<std::string>& t = corpus.terms();
  IndexSearcher exhaustive(corpus.reader(), {.prune = false});
  IndexSearcher pruned(corpus.reader(), {.prune = true, .total_hits_threshold = 0});
  const std::pair<const char*, Query> cases[] = {
      {"term", Query::Term("body", t[3])},
      {"or2", Query::Boolean({}, {Query::Term("body", t[2]), Query::Term("body", t[40])})},
      {"or3", Query::Boolean({}, {Query::Term("body", t[5]), Query::Term("body", t[30]),
                                  Query::Term("body", t[60])})},
      {"and2", Query::Boolean({Query::Term("body", t[1]), Query::Term("body", t[20])})},
  };
  for (const auto& [name, q] : cases) {
    absl::StatusOr<TopDocs> want = exhaustive.Search(q, 10);
    absl::StatusOr<TopDocs> got = pruned.Search(q, 10);
    ASSERT_TRUE(want.ok() && got.ok());
    ExpectSameHits(*want, *got, name);
    std::printf("[   INFO   ] %s %s: docs scored %llu of %llu\n", name, q.ToString().c_str(),
                static_cast<unsigned long long>(got->docs_scored),
                static_cast<unsigned long long>(want->docs_scored));
    EXPECT_FALSE(got->total_hits_exact) << name;
    // A term's blocks here all hold some short document with the term, so
    // its block bounds differ little: it may skip little.
    if (std::string(name) == "term") {
      EXPECT_LE(got->docs_scored, want->docs_scored) << name;
    } else {
      EXPECT_LT(got->docs_scored * 2, want->docs_scored) << name;
    }
  }
}

// A conjunction whose rarest clause is too sparse for one 128-doc window to
// hold several candidates is walked without block windows (they would cost
// more than they skip): it scores every match, as exhaustive search does,
// with the same hits. Here: the most frequent term AND a term in 60-200 of
// the 6,000 documents (< 94 per 1,500-doc segment), with more than k
// matches, so the collector does set a threshold.
// A conjunction too sparse for block-max windows (BooleanScorer::
// SparseConjunction) is still pruned by its lead: the rare term's docs
// whose score cannot compete with the frequent term's bound added are
// passed over before the frequent term is advanced to them. Same top 10,
// fewer docs scored over the queries tried, never more.
TEST_P(PruneTest, SparseConjunctionsPassOverLeadDocsBelowTheFloor) {
  const CorpusIndex& corpus = Corpus(GetParam());
  const std::vector<std::string>& t = corpus.terms();
  IndexSearcher exhaustive(corpus.reader(), {.prune = false});
  IndexSearcher pruned(corpus.reader(), {.prune = true, .total_hits_threshold = 0});
  size_t tried = 0;
  uint64_t scored_pruned = 0;
  uint64_t scored_exhaustive = 0;
  // The 3 most frequent terms, each with every 4th rarer term of 60-200
  // docs (up to 40 of them), k of 1, 3 and 10 (the smaller the k, the
  // closer the floor to the top docs).
  for (size_t frequent = 0; frequent < 3; ++frequent) {
    size_t eligible = 0;
    for (size_t j = corpus.block_terms(); j < t.size() && eligible < 4 * 40; ++j) {
      absl::StatusOr<uint64_t> df = exhaustive.Count(Query::Term("body", t[j]));
      ASSERT_TRUE(df.ok());
      if (*df < 60 || *df > 200 || eligible++ % 4 != 0) continue;
      const Query q = Query::Boolean({Query::Term("body", t[frequent]), Query::Term("body", t[j])});
      for (size_t k : {1, 3, 10}) {
        absl::StatusOr<TopDocs> want = exhaustive.Search(q, k);
        absl::StatusOr<TopDocs> got = pruned.Search(q, k);
        ASSERT_TRUE(want.ok() && got.ok());
        if (want->total_hits < 30) break;
        ++tried;
        ExpectSameHits(*want, *got, q.ToString() + " k=" + std::to_string(k));
        EXPECT_LE(got->docs_scored, want->docs_scored) << q.ToString();
        EXPECT_LE(got->total_hits, want->total_hits) << q.ToString();
        scored_pruned += got->docs_scored;
        scored_exhaustive += want->docs_scored;
      }
    }
  }
  EXPECT_GE(tried, 30u) << "too few sparse conjunctions in the corpus";
  EXPECT_LT(scored_pruned, scored_exhaustive);
  std::printf("sparse conjunctions: %llu of %llu docs scored\n",
              static_cast<unsigned long long>(scored_pruned),
              static_cast<unsigned long long>(scored_exhaustive));
}

// Phrases, exact and sloppy, alone and in boolean queries: the same top k
// as exhaustive search. (Here a phrase's range bounds rarely drop below
// its k-th score: every 128-doc block of two frequent words holds a short
// document with both, which bounds the phrase as if it matched there;
// PrunePhraseSkipTest shows the skipping.)
TEST_P(PruneTest, PhrasesMatchExhaustive) {
  const CorpusIndex& corpus = Corpus(GetParam());
  ASSERT_GE(corpus.phrases().size(), 100u);
  Random rng(TestSeed(20261204));
  IndexSearcher exhaustive(corpus.reader(), {.prune = false});
  // Per kind (alone, should, must): searches, searches that scored fewer
  // documents than exhaustive, docs scored pruned and exhaustive.
  struct Tally {
    int searches = 0;
    int fewer = 0;
    uint64_t pruned = 0;
    uint64_t all = 0;
  };
  Tally tally[3][2];  // [kind][sloppy]
  for (int iter = 0; iter < 240; ++iter) {
    const int kind = static_cast<int>(rng.Uniform(3));
    const Query q = PhraseQuery(rng, corpus, kind);
    const Query& phrase = kind == 0 ? q : (kind == 1 ? q.should.back() : q.must[0]);
    const uint64_t threshold = rng.Bernoulli(0.75) ? 0 : 10;
    const int threads = rng.Bernoulli(0.25) ? 2 : 1;
    IndexSearcher pruned(corpus.reader(),
                         {.prune = true, .total_hits_threshold = threshold, .threads = threads});
    absl::StatusOr<uint64_t> count = exhaustive.Count(q);
    ASSERT_TRUE(count.ok()) << count.status();
    for (size_t k : {1, 10, 100}) {
      const std::string what =
          q.ToString() + " k=" + std::to_string(k) + " threshold=" + std::to_string(threshold);
      absl::StatusOr<TopDocs> want = exhaustive.Search(q, k);
      absl::StatusOr<TopDocs> got = pruned.Search(q, k);
      ASSERT_TRUE(want.ok()) << want.status();
      ASSERT_TRUE(got.ok()) << got.status();
      ExpectSameHits(*want, *got, what);
      EXPECT_EQ(want->total_hits, *count) << what;
      EXPECT_LE(got->docs_scored, want->docs_scored) << what;
      if (got->total_hits_exact) {
        EXPECT_EQ(got->total_hits, *count) << what;
      } else {
        EXPECT_LE(got->total_hits, *count) << what;
        EXPECT_GT(got->total_hits, threshold) << what;
      }
      Tally& t = tally[kind][phrase.slop > 0];
      ++t.searches;
      t.fewer += got->docs_scored < want->docs_scored;
      t.pruned += got->docs_scored;
      t.all += want->docs_scored;
    }
  }
  const char* kinds[] = {"alone", "should", "must"};
  for (int kind = 0; kind < 3; ++kind) {
    for (int sloppy = 0; sloppy < 2; ++sloppy) {
      const Tally& t = tally[kind][sloppy];
      std::printf(
          "[   INFO   ] %s phrase %s: %d searches, %d scored fewer docs; docs scored "
          "pruned %llu, exhaustive %llu\n",
          sloppy ? "sloppy" : "exact", kinds[kind], t.searches, t.fewer,
          static_cast<unsigned long long>(t.pruned), static_cast<unsigned long long>(t.all));
    }
  }
  // Phrase clauses with real bounds: the boolean queries around them skip.
  EXPECT_GT(tally[1][0].fewer, 0);
  EXPECT_GT(tally[1][1].fewer, 0);
}

// Checks that every match of phrase `q` in `reader` scores within
// MaxScore and within the bound of the range AdvanceShallow puts it in,
// asked of a separate unpositioned scorer and of the matching scorer
// itself. Counts the matches and those in ranges bounded below MaxScore.
void CheckPhraseBounds(const IndexReader& reader, const Query& q, uint64_t* matches,
                       uint64_t* tighter) {
  absl::StatusOr<std::unique_ptr<search_internal::Weight>> weight =
      search_internal::CreateWeight(reader, q, Bm25Params{});
  ASSERT_TRUE(weight.ok()) << weight.status();
  for (const LeafReader* leaf : reader.leaves()) {
    auto scorer = (*weight)->MakeScorer(*leaf);
    auto bounds = (*weight)->MakeScorer(*leaf);
    ASSERT_TRUE(scorer.ok() && bounds.ok());
    if (*scorer == nullptr) continue;
    const float max_score = (*bounds)->MaxScore();
    for (uint32_t d = (*scorer)->NextDoc(); d != search_internal::kNoMoreDocs;
         d = (*scorer)->NextDoc()) {
      ++*matches;
      const float score = (*scorer)->Score();
      const std::string what = q.ToString() + " doc " + std::to_string(d);
      ASSERT_LE(score, max_score) << what;
      const uint32_t upto = (*bounds)->AdvanceShallow(d);
      ASSERT_GE(upto, d) << what;
      ASSERT_LE(score, (*bounds)->BlockMaxScore()) << what << " in a range up to " << upto;
      if ((*bounds)->BlockMaxScore() < max_score) ++*tighter;
      const uint32_t own_upto = (*scorer)->AdvanceShallow(d);
      ASSERT_GE(own_upto, d) << what;
      ASSERT_LE(score, (*scorer)->BlockMaxScore()) << what << " (own) up to " << own_upto;
      ASSERT_EQ((*scorer)->doc(), d) << what;
    }
    ASSERT_TRUE((*scorer)->status().ok()) << (*scorer)->status();
  }
}

// Every phrase match scores within its range's bound (CheckPhraseBounds);
// some ranges are bounded tighter than the whole phrase (block impacts in
// use).
TEST_P(PruneTest, PhraseScoresWithinTheirRangesBounds) {
  const CorpusIndex& corpus = Corpus(GetParam());
  Random rng(TestSeed(20261205));
  uint64_t tighter[2] = {0, 0};
  uint64_t matches[2] = {0, 0};
  for (int iter = 0; iter < 60; ++iter) {
    const bool sloppy = iter % 2 == 1;
    CheckPhraseBounds(corpus.reader(), PhraseQ(rng, corpus, sloppy), &matches[sloppy],
                      &tighter[sloppy]);
    if (HasFatalFailure()) return;
  }
  std::printf(
      "[   INFO   ] matches exact %llu, sloppy %llu; in ranges bounded below MaxScore "
      "%llu, %llu\n",
      static_cast<unsigned long long>(matches[0]), static_cast<unsigned long long>(matches[1]),
      static_cast<unsigned long long>(tighter[0]), static_cast<unsigned long long>(tighter[1]));
  EXPECT_GT(tighter[0], 0u);
  EXPECT_GT(tighter[1], 0u);
}

// A sloppy phrase's frequency can exceed its rarest term's: "a b"~3 in
// "b a b b" is 1 + 1/2 with one "a" (PrunePhraseFreqTest). Its bound must
// cover that (a bound from the smallest term freq, as for exact phrases,
// fails here), in full blocks of impacts and in the tail.
TEST(PrunePhraseSkipTest, SloppyBoundsCoverMoreMatchesThanTheRarestTerm) {
  ScratchDir dir;
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  auto writer = IndexWriter::Open(dir.path(), o);
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (int i = 0; i < 600; ++i) {
    Document doc;
    doc.Add(Field::Text("body", i % 3 == 0 ? "b a b b" : (i % 3 == 1 ? "b b a b c c" : "a c")));
    ASSERT_TRUE((*writer)->AddDocument(doc).ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
  auto reader = IndexReader::Open(dir.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  uint64_t matches = 0;
  uint64_t tighter = 0;
  CheckPhraseBounds(**reader, Query::Phrase("body", {"a", "b"}, 3), &matches, &tighter);
  EXPECT_EQ(matches, 400u);
}

// A phrase whose best matches (short documents, the phrase twice) come
// first, then thousands of long documents with the phrase once: their
// ranges are bounded below the k-th score and skipped, exact and sloppy,
// alone and as a boolean clause; the top k is the exhaustive one. Two
// segments with deletions; the seed shuffles the filler.
TEST(PrunePhraseSkipTest, PhrasesSkipRangesThatCannotCompete) {
  ScratchDir dir;
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  o.merge_policy = std::make_shared<NoMergePolicy>();
  auto writer = IndexWriter::Open(dir.path(), o);
  ASSERT_TRUE(writer.ok()) << writer.status();
  Random rng(TestSeed(20261207));
  const char* filler[] = {"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"};
  for (int segment = 0; segment < 2; ++segment) {
    for (int i = 0; i < 3000; ++i) {
      std::string body;
      if (i < 40) {
        body = "x y q x y";
      } else {
        // 40-120 filler words, the phrase (or its words apart) once.
        const uint64_t length = rng.Range(40, 120);
        const uint64_t at = rng.Uniform(length);
        const bool apart = rng.Bernoulli(0.3);
        for (uint64_t t = 0; t < length; ++t) {
          if (t == at) body += apart ? "x f1 f2 f3 f4 y " : "x y ";
          body += filler[rng.Uniform(8)];
          body += ' ';
        }
      }
      const std::string id = std::to_string(segment) + "-" + std::to_string(i);  // viewed by doc
      Document doc;
      doc.Add(Field::Keyword("id", id, FieldType::Keyword(/*stored=*/false)))
          .Add(Field::Text("body", body));
      ASSERT_TRUE((*writer)->AddDocument(doc).ok());
    }
    for (int d = 0; d < 30; ++d) {
      const std::string victim = std::to_string(segment) + "-" + std::to_string(rng.Uniform(3000));
      ASSERT_TRUE((*writer)->DeleteDocuments("id", victim).ok());
    }
    ASSERT_TRUE((*writer)->Commit().ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
  auto reader = IndexReader::Open(dir.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  IndexSearcher exhaustive(**reader, {.prune = false});
  IndexSearcher pruned(**reader, {.prune = true, .total_hits_threshold = 0});
  const std::pair<const char*, Query> cases[] = {
      {"exact", Query::Phrase("body", {"x", "y"})},
      {"sloppy", Query::Phrase("body", {"x", "y"}, 1)},
      {"should", Query::Boolean({}, {Query::Phrase("body", {"x", "y"}), Query::Term("body", "q")})},
      {"must", Query::Boolean({Query::Phrase("body", {"x", "y"}, 2)}, {Query::Term("body", "q")})},
  };
  for (const auto& [name, q] : cases) {
    for (size_t k : {1, 10, 30}) {
      const std::string what = std::string(name) + " " + q.ToString() + " k=" + std::to_string(k);
      absl::StatusOr<TopDocs> want = exhaustive.Search(q, k);
      absl::StatusOr<TopDocs> got = pruned.Search(q, k);
      ASSERT_TRUE(want.ok() && got.ok()) << what;
      ExpectSameHits(*want, *got, what);
      std::printf("[   INFO   ] %s: docs scored %llu of %llu\n", what.c_str(),
                  static_cast<unsigned long long>(got->docs_scored),
                  static_cast<unsigned long long>(want->docs_scored));
      EXPECT_GT(want->docs_scored, 4000u) << what;
      EXPECT_LT(got->docs_scored * 4, want->docs_scored) << what;
    }
  }
}

// The default threshold (1000) keeps small counts exact.
TEST_P(PruneTest, DefaultThresholdCountsExactly) {
  const CorpusIndex& corpus = Corpus(GetParam());
  IndexSearcher searcher(corpus.reader());
  EXPECT_TRUE(searcher.options().prune);
  EXPECT_EQ(searcher.options().total_hits_threshold, 1000u);
  const Query q = Query::Term("body", corpus.terms()[0]);
  absl::StatusOr<TopDocs> top = searcher.Search(q, 10);
  absl::StatusOr<uint64_t> count = searcher.Count(q);
  ASSERT_TRUE(top.ok() && count.ok());
  ASSERT_GT(*count, 1000u);
  if (top->total_hits_exact) {
    EXPECT_EQ(top->total_hits, *count);
  } else {
    EXPECT_GT(top->total_hits, 1000u);
    EXPECT_LE(top->total_hits, *count);
  }
}

// Equal scores in three segments searched on three threads: the top k are
// the smallest doc ids, as without pruning. A term's blocks of equal
// documents have a bound equal to their score (no margin), so this is where
// a wrong tie rule would skip a winner: within a segment a later document
// equal to the k-th is skipped; across segments only scores below the
// shared threshold may be. (Whether another thread's threshold arrives
// before segment 0 has collected its winners depends on scheduling: the
// cross-segment half of this check is only as good as that race.)
// The floors below which a sparse conjunction's lead, or a disjunction's
// one essential clause, passes over docs, where it matters most: every doc
// has 20 tokens (one norm), "common" is in every other doc once (one score,
// equal to its bound), and "rare" (5% of the docs) occurs 6-14 times, so
// its scores lie within a few percent of each other and many docs sit just
// above the floor. A floor a little too high loses top docs here (2% too
// high failed this test for both floors).
TEST(PruneFloorTest, DocsJustAboveTheFloorAreKept) {
  Random rng(TestSeed(2024));
  ScratchDir dir;
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  auto writer = IndexWriter::Open(dir.path(), o);
  ASSERT_TRUE(writer.ok()) << writer.status();
  // "common" in 2048 docs: 16 full blocks and no tail, whose loose bound
  // (the tail's max freq with the shortest norm) would lower the floor.
  constexpr int kFloorDocs = 4096;
  constexpr size_t kTokens = 20;
  for (int i = 0; i < kFloorDocs; ++i) {
    std::vector<std::string> tokens;
    if (i % 2 == 0) tokens.push_back("common");
    if (rng.Bernoulli(0.05)) {
      const uint64_t tf = rng.Range(6, 14);
      for (uint64_t r = 0; r < tf; ++r) tokens.push_back("rare");
    }
    while (tokens.size() < kTokens) tokens.push_back("w" + std::to_string(rng.Uniform(50)));
    std::string body;
    for (const std::string& token : tokens) body += token + " ";
    Document doc;
    doc.Add(Field::Text("body", body));
    ASSERT_TRUE((*writer)->AddDocument(doc).ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
  auto reader = IndexReader::Open(dir.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  IndexSearcher exhaustive(**reader, {.prune = false});
  IndexSearcher pruned(**reader, {.prune = true, .total_hits_threshold = 0});
  const Query rare = Query::Term("body", "rare");
  const Query common = Query::Term("body", "common");
  const Query queries[] = {Query::Boolean({rare, common}), Query::Boolean({}, {rare, common})};
  for (const Query& q : queries) {
    for (size_t k = 1; k <= 40; ++k) {
      absl::StatusOr<TopDocs> want = exhaustive.Search(q, k);
      absl::StatusOr<TopDocs> got = pruned.Search(q, k);
      ASSERT_TRUE(want.ok() && got.ok());
      ExpectSameHits(*want, *got, q.ToString() + " k=" + std::to_string(k));
    }
  }
}

TEST(PruneTiesTest, EqualScoresAcrossSegmentsKeepTheSmallestIds) {
  ScratchDir dir;
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  o.merge_policy = std::make_shared<NoMergePolicy>();
  auto writer = IndexWriter::Open(dir.path(), o);
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (int segment = 0; segment < 3; ++segment) {
    for (int i = 0; i < 400; ++i) {
      Document doc;
      doc.Add(Field::Text("body", "tie breaker"));
      ASSERT_TRUE((*writer)->AddDocument(doc).ok());
    }
    ASSERT_TRUE((*writer)->Commit().ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
  auto reader = IndexReader::Open(dir.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_EQ((*reader)->leaves().size(), 3u);
  IndexSearcher searcher(**reader, {.prune = true, .total_hits_threshold = 0, .threads = 3});
  const Query queries[] = {
      Query::Term("body", "tie"),
      Query::Boolean({}, {Query::Term("body", "tie"), Query::Term("body", "breaker")}),
      Query::Boolean({Query::Term("body", "tie"), Query::Term("body", "breaker")})};
  for (int run = 0; run < 10; ++run) {
    for (const Query& q : queries) {
      for (size_t k : {1, 5, 130}) {
        absl::StatusOr<TopDocs> top = searcher.Search(q, k);
        ASSERT_TRUE(top.ok()) << top.status();
        ASSERT_EQ(top->hits.size(), k);
        for (uint64_t i = 0; i < k; ++i) {
          ASSERT_EQ(top->hits[i].doc, i) << q.ToString() << " k=" << k << " run " << run;
        }
      }
    }
  }
}

// SumBound is the smallest float >= the scaled sum, and keeps infinity.
TEST(PruneSumBoundTest, SmallestFloatAboveTheScaledSum) {
  Random rng(5);
  std::vector<double> sums = {0.0, 1e-45, 1.0, 3.4e38, 1e300};
  for (int i = 0; i < 100000; ++i)
    sums.push_back(rng.NextDouble() * std::pow(10.0, rng.Range(0, 12)) / 1e3);
  for (double sum : sums) {
    const double scaled = sum * (1.0 + 0x1p-20);
    const float bound = search_internal::SumBound(sum);
    ASSERT_GE(static_cast<double>(bound), scaled) << sum;
    if (bound > 0) {
      ASSERT_LT(static_cast<double>(std::nextafter(bound, 0.0f)), scaled) << sum;
    }
  }
  EXPECT_EQ(search_internal::SumBound(std::numeric_limits<double>::infinity()),
            std::numeric_limits<float>::infinity());
}

// What the phrase bounds assume of the frequencies (phrase_scorer.cc):
// exact <= the smallest term freq; sloppy <= sum of term freqs - terms + 1,
// over random positions with repeated terms. Sloppy can exceed the
// smallest term freq: "a b"~3 in "b a b b" is 1 + 1/2 with one "a".
TEST(PrunePhraseFreqTest, FrequenciesWithinTheBoundsArguments) {
  using search_internal::PhraseTermPositions;
  {
    const std::vector<int32_t> a = {1};
    const std::vector<int32_t> b = {0, 2, 3};
    const PhraseTermPositions terms[] = {{0, 0, a}, {1, 1, b}};
    EXPECT_EQ(search_internal::SloppyPhraseFreq(terms, 3), 1.5f);
  }
  Random rng(TestSeed(20261206));
  for (int iter = 0; iter < 20000; ++iter) {
    const size_t n = rng.Range(2, 4);
    const int32_t vocabulary = static_cast<int32_t>(rng.Range(1, 3));
    const int32_t length = static_cast<int32_t>(rng.Range(1, 30));
    std::vector<int32_t> word(n);
    for (int32_t& w : word) w = static_cast<int32_t>(rng.Uniform(vocabulary));
    // A random document over the vocabulary; each phrase term's positions.
    std::vector<int32_t> doc(length);
    for (int32_t& w : doc) w = static_cast<int32_t>(rng.Uniform(vocabulary));
    std::vector<std::vector<int32_t>> positions(n);
    std::vector<PhraseTermPositions> terms(n);
    uint64_t sum = 0;
    uint64_t min = UINT64_MAX;
    bool all = true;
    for (size_t i = 0; i < n; ++i) {
      for (int32_t p = 0; p < length; ++p) {
        if (doc[p] == word[i]) positions[i].push_back(p);
      }
      int32_t term_id = static_cast<int32_t>(i);
      for (size_t j = 0; j < i; ++j) {
        if (word[j] == word[i]) term_id = std::min(term_id, static_cast<int32_t>(j));
      }
      terms[i] = {static_cast<int32_t>(i), term_id, positions[i]};
      sum += positions[i].size();
      min = std::min<uint64_t>(min, positions[i].size());
      all = all && !positions[i].empty();
    }
    if (!all) continue;
    const float exact = search_internal::ExactPhraseFreq(terms);
    ASSERT_LE(exact, static_cast<float>(min)) << "iteration " << iter;
    for (uint32_t slop : {1u, 2u, 5u, 40u}) {
      const float sloppy = search_internal::SloppyPhraseFreq(terms, slop);
      ASSERT_LE(sloppy, static_cast<float>(sum - n + 1))
          << "iteration " << iter << " slop " << slop;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, PruneTest,
                         ::testing::Values(TermBytesLayout::kShared, TermBytesLayout::kSeparate));

// ---- Bounds on one segment, with version-2 and version-1 norms.

class PruneBoundsTest : public ::testing::Test {
 protected:
  static constexpr uint32_t kSegmentDocs = 700;

  // One segment: "a" in every document, 1-12 times, in a body of 1-300
  // tokens; returns its info.
  SegmentInfo Flush() {
    IndexingChainOptions options;
    options.analyzer = [] { return NewWhitespaceAnalyzer(); };
    IndexingChain chain(options);
    Random rng(11);
    for (uint32_t i = 0; i < kSegmentDocs; ++i) {
      const uint64_t freq = rng.Range(1, 12);
      const uint64_t length = freq + rng.Uniform(300);
      lengths_.push_back(length);
      std::string body;
      for (uint64_t t = 0; t < length; ++t) body += t < freq ? "a " : "b ";
      Document doc;
      doc.Add(Field::Text("body", body));
      EXPECT_TRUE(chain.AddDocument(doc).ok());
    }
    absl::StatusOr<SegmentInfo> info = FlushSegment(chain, dir_.get(), "_0");
    EXPECT_TRUE(info.ok()) << info.status();
    return *info;
  }

  // Replaces the .nvd by a version-1 file in which every document's body has
  // length 1 (as if an older build had written it), and the .si to match.
  void RewriteNormsAsVersion1(const SegmentInfo& info, uint32_t field) {
    ASSERT_TRUE(dir_->DeleteFile(SegmentFileName(info.name, "nvd")).ok());
    absl::StatusOr<std::string> nvd = WriteNorms(
        dir_.get(), info.name, info.id, info.doc_count, {field},
        [](uint32_t, uint32_t, std::span<uint8_t> out) {
          std::fill(out.begin(), out.end(), EncodeNormV1(1));
        },
        /*version=*/1);
    ASSERT_TRUE(nvd.ok()) << nvd.status();
    absl::StatusOr<SegmentInfo> si = ReadSegmentInfo(dir_.get(), info.name, info.id);
    ASSERT_TRUE(si.ok()) << si.status();
    ASSERT_TRUE(dir_->DeleteFile(SegmentFileName(info.name, "si")).ok());
    ASSERT_TRUE(WriteSegmentInfo(dir_.get(), &*si).ok());
  }

  // What CheckBounds scores: the term "a", the exact phrase "a a" and the
  // sloppy phrase "a b"~2 (in every document: at the boundary of its a's and
  // b's, when it has b's).
  enum class Scored { kTerm, kExactPhrase, kSloppyPhrase };

  // Checks that MaxScore and every block's bound hold for every document
  // `scored` matches in the segment; returns how many documents lie in
  // blocks whose bound is below the whole query's (block impacts in use).
  int CheckBounds(const SegmentInfo& info, Scored scored = Scored::kTerm) {
    absl::StatusOr<std::unique_ptr<SegmentReader>> opened =
        SegmentReader::Open(dir_.get(), info.name, info.id);
    EXPECT_TRUE(opened.ok()) << opened.status();
    if (!opened.ok()) return -1;
    std::shared_ptr<SegmentReader> segment = std::move(*opened);
    auto schema = std::make_shared<const ReaderSchema>(segment->fields());
    LeafReaderImpl leaf(segment, nullptr, schema, 0);
    const FieldInfo* body = segment->FieldByName("body");
    const FieldTermsStats* stats = segment->TermsStats(body->number);
    const double idf = Bm25Idf(kSegmentDocs, kSegmentDocs);
    auto sim = std::make_unique<search_internal::Bm25Part>(
        1.0f, scored == Scored::kTerm ? idf : 2 * idf,
        Bm25FieldStats{stats->doc_count, stats->sum_total_term_freq}, Bm25Params{},
        /*norms=*/true, Explanation{});
    std::unique_ptr<search_internal::Weight> weight;
    switch (scored) {
      case Scored::kTerm:
        weight = search_internal::NewTermWeight("body", "a", body->type, std::move(sim), "body:a");
        break;
      case Scored::kExactPhrase:
        weight = search_internal::NewPhraseWeight("body", {"a", "a"}, {0, 1}, 0, std::move(sim),
                                                  "body:\"a a\"");
        break;
      case Scored::kSloppyPhrase:
        weight = search_internal::NewPhraseWeight("body", {"a", "b"}, {0, 1}, 2, std::move(sim),
                                                  "body:\"a b\"~2");
        break;
    }
    auto scorer = weight->MakeScorer(leaf);
    auto bounds = weight->MakeScorer(leaf);
    EXPECT_TRUE(scorer.ok() && bounds.ok() && *scorer != nullptr && *bounds != nullptr);
    if (!scorer.ok() || !bounds.ok() || *scorer == nullptr || *bounds == nullptr) return -1;
    const float max_score = (*bounds)->MaxScore();
    int tighter = 0;
    uint32_t docs = 0;
    for (uint32_t d = (*scorer)->NextDoc(); d != search_internal::kNoMoreDocs;
         d = (*scorer)->NextDoc()) {
      ++docs;
      const float score = (*scorer)->Score();
      const uint32_t upto = (*bounds)->AdvanceShallow(d);
      EXPECT_GE(upto, d);
      EXPECT_LE(score, max_score) << "doc " << d;
      EXPECT_LE(score, (*bounds)->BlockMaxScore()) << "doc " << d << " in a block up to " << upto;
      if ((*bounds)->BlockMaxScore() < max_score) ++tighter;
    }
    if (scored == Scored::kTerm) {
      EXPECT_EQ(docs, kSegmentDocs);
    } else {
      EXPECT_GT(docs, kSegmentDocs / 2);
    }
    return tighter;
  }

  ScratchDir scratch_;
  std::unique_ptr<FSDirectory> dir_ = scratch_.Open();
  std::vector<uint64_t> lengths_;
};

TEST_F(PruneBoundsTest, BlockBoundsHoldForEveryDocument) {
  const SegmentInfo info = Flush();
  EXPECT_GT(CheckBounds(info), 0) << "no block bound tighter than the term's";
  EXPECT_GT(CheckBounds(info, Scored::kExactPhrase), 0)
      << "no block bound tighter than the phrase's";
  EXPECT_GT(CheckBounds(info, Scored::kSloppyPhrase), 0)
      << "no block bound tighter than the phrase's";
}

// A version-1 norms file: its bytes are translated, but the .doc impacts of
// the same flush were built from other bytes. Here they claim long bodies
// while the norms say length 1, so trusting them would bound scores far too
// low; the scorer must ignore them.
TEST_F(PruneBoundsTest, Version1NormsUseNoBlockImpacts) {
  const SegmentInfo info = Flush();
  uint32_t body = 0;
  {
    absl::StatusOr<std::unique_ptr<SegmentReader>> seg =
        SegmentReader::Open(dir_.get(), info.name, info.id);
    ASSERT_TRUE(seg.ok()) << seg.status();
    ASSERT_EQ((*seg)->norms_version(), 2u);
    body = (*seg)->FieldByName("body")->number;
  }
  RewriteNormsAsVersion1(info, body);
  {
    absl::StatusOr<std::unique_ptr<SegmentReader>> seg =
        SegmentReader::Open(dir_.get(), info.name, info.id);
    ASSERT_TRUE(seg.ok()) << seg.status();
    ASSERT_EQ((*seg)->norms_version(), 1u);
    ASSERT_TRUE((*seg)->doc_version() >= 2u);
  }
  EXPECT_EQ(CheckBounds(info), 0);
  EXPECT_EQ(CheckBounds(info, Scored::kExactPhrase), 0);
  EXPECT_EQ(CheckBounds(info, Scored::kSloppyPhrase), 0);
}

}  // namespace
}  // namespace invert

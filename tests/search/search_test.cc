// IndexSearcher against a brute-force reference: random documents over a
// small vocabulary (so terms and phrases repeat), several segments, deletes,
// both term-bytes layouts; random queries of every kind scored document by
// document from the tokens the test generated, with the index's statistics
// and norms and the same BM25 arithmetic (search/bm25.h). Plus hand-made
// cases: sloppy phrases, minimum_should_match, must_not, filters, boosts,
// deleted documents, explanations and errors.
#include "invert/search.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "scratch_dir.h"
#include "search/bm25.h"
#include "search/phrase_freq.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using search_internal::ExactPhraseFreq;
using search_internal::PhraseTermPositions;
using search_internal::SloppyPhraseFreq;
using testing::ScratchDir;
using testing::TestSeed;

const std::vector<std::string> kVocabulary = {"a",  "b",  "c",   "d",   "e",  "ab",
                                              "ac", "bd", "abc", "cab", "xy", "z"};

FieldType FreqsOnly() {
  FieldType t;
  t.index_options = IndexOptions::kDocsAndFreqs;
  return t;
}

// The test's own copy of a document: each indexed field's tokens.
struct RefDoc {
  std::string id;
  std::map<std::string, std::vector<std::string>> fields;  // body, title, tag, freqs
  bool deleted = false;
};

std::string RandomWord(Random& rng) {
  // Skewed: the first words are much more frequent.
  const size_t n = kVocabulary.size();
  size_t i = rng.Uniform(n);
  if (rng.Bernoulli(0.6)) i = rng.Uniform(std::max<size_t>(1, i));
  return kVocabulary[i];
}

std::vector<std::string> RandomWords(Random& rng, size_t min, size_t max) {
  std::vector<std::string> words(rng.Range(min, max));
  for (std::string& w : words) w = RandomWord(rng);
  return words;
}

std::string Join(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// A random index on disk and its reference documents (by index-wide doc id).
class RandomIndex {
 public:
  RandomIndex(Random& rng, TermBytesLayout layout, size_t num_docs) {
    IndexWriterOptions o;
    o.analyzer = [] { return NewWhitespaceAnalyzer(); };
    o.layout = layout;
    auto writer = IndexWriter::Open(dir_.path(), o);
    EXPECT_TRUE(writer.ok()) << writer.status();
    std::vector<RefDoc> added;
    for (size_t i = 0; i < num_docs; ++i) {
      RefDoc d;
      d.id = "id" + std::to_string(i);
      if (!rng.Bernoulli(0.1)) d.fields["body"] = RandomWords(rng, 1, 40);
      if (rng.Bernoulli(0.7)) d.fields["title"] = RandomWords(rng, 1, 4);
      if (rng.Bernoulli(0.8))
        d.fields["tag"] = {std::string(1, static_cast<char>('p' + rng.Uniform(4)))};
      if (rng.Bernoulli(0.5)) d.fields["freqs"] = RandomWords(rng, 1, 6);
      std::map<std::string, std::string> text;
      for (const auto& [f, words] : d.fields) text[f] = Join(words);
      Document doc;
      doc.Add(Field::Keyword("id", d.id, FieldType::Keyword(/*stored=*/true)));
      if (text.count("body")) doc.Add(Field::Text("body", text["body"]));
      if (text.count("title")) doc.Add(Field::Text("title", text["title"]));
      if (text.count("tag")) doc.Add(Field::Keyword("tag", text["tag"]));
      if (text.count("freqs")) doc.Add(Field::Text("freqs", text["freqs"], FreqsOnly()));
      EXPECT_TRUE((*writer)->AddDocument(doc).ok());
      added.push_back(d);
      if (rng.Bernoulli(0.08)) {
        EXPECT_TRUE((*writer)->Commit().ok());
      }
      if (rng.Bernoulli(0.12) && !added.empty()) {
        RefDoc& victim = added[rng.Uniform(added.size())];
        EXPECT_TRUE((*writer)->DeleteDocuments("id", victim.id).ok());
        victim.deleted = true;
      }
    }
    EXPECT_TRUE((*writer)->Close().ok());
    auto reader = IndexReader::Open(dir_.path());
    EXPECT_TRUE(reader.ok()) << reader.status();
    reader_ = std::move(*reader);
    // Map index-wide ids to the documents through the stored id.
    std::map<std::string, const RefDoc*> by_id;
    for (const RefDoc& d : added) by_id[d.id] = &d;
    docs_.resize(reader_->max_doc());
    for (uint64_t doc = 0; doc < reader_->max_doc(); ++doc) {
      if (reader_->IsDeleted(doc)) {
        docs_[doc].deleted = true;
        continue;
      }
      auto stored = reader_->Document(doc);
      EXPECT_TRUE(stored.ok()) << stored.status();
      const RefDoc* d = by_id.at(std::string(*stored->Get("id")));
      EXPECT_FALSE(d->deleted) << d->id;
      docs_[doc] = *d;
    }
  }

  const IndexReader& reader() const { return *reader_; }
  const std::vector<RefDoc>& docs() const { return docs_; }

 private:
  ScratchDir dir_;
  std::unique_ptr<IndexReader> reader_;
  std::vector<RefDoc> docs_;
};

// ---- The reference: one document at a time.

struct RefHit {
  bool match = false;
  float score = 0;
};

class Reference {
 public:
  Reference(const RandomIndex& index, const SearchOptions& options)
      : index_(index), params_{options.bm25_k1, options.bm25_b} {}

  RefHit Eval(const Query& q, uint64_t doc, float parent_boost = 1.0f) const {
    const float boost = q.boost * parent_boost;
    const RefDoc& d = index_.docs()[doc];
    auto tokens = [&](const std::string& field) -> const std::vector<std::string>& {
      static const std::vector<std::string> kNone;
      auto it = d.fields.find(field);
      return it == d.fields.end() ? kNone : it->second;
    };
    switch (q.kind) {
      case Query::Kind::kMatchNone:
        return {};
      case Query::Kind::kMatchAll:
        return {true, boost};
      case Query::Kind::kPrefix:
        for (const std::string& t : tokens(q.field)) {
          if (t.starts_with(q.term)) return {true, boost};
        }
        return {};
      case Query::Kind::kTerm: {
        const auto& toks = tokens(q.field);
        const float freq = static_cast<float>(std::count(toks.begin(), toks.end(), q.term));
        if (freq == 0) return {};
        return {true, Scorer(q.field, {q.term}, boost).Score(freq, Norm(q.field, doc))};
      }
      case Query::Kind::kPhrase: {
        if (q.terms.empty()) return {};
        if (q.terms.size() == 1)
          return Eval(Query::Term(q.field, q.terms[0], q.boost), doc, parent_boost);
        const auto& toks = tokens(q.field);
        std::vector<std::vector<int32_t>> positions(q.terms.size());
        std::vector<PhraseTermPositions> terms(q.terms.size());
        for (size_t i = 0; i < q.terms.size(); ++i) {
          for (size_t p = 0; p < toks.size(); ++p) {
            if (toks[p] == q.terms[i]) positions[i].push_back(static_cast<int32_t>(p));
          }
          if (positions[i].empty()) return {};
          terms[i].positions = positions[i];
          terms[i].offset =
              q.positions.empty() ? static_cast<int32_t>(i) : q.positions[i] - q.positions[0];
          terms[i].term_id = static_cast<int32_t>(
              std::find(q.terms.begin(), q.terms.end(), q.terms[i]) - q.terms.begin());
        }
        const float freq = q.slop == 0 ? ExactPhraseFreq(terms) : SloppyPhraseFreq(terms, q.slop);
        if (freq == 0) return {};
        return {true, Scorer(q.field, q.terms, boost).Score(freq, Norm(q.field, doc))};
      }
      case Query::Kind::kBoolean: {
        const bool has_required = !q.must.empty() || !q.filter.empty();
        if (!has_required && q.should.empty()) return {};
        double required = 0;
        for (const Query& c : q.must) {
          RefHit h = Eval(c, doc, boost);
          if (!h.match) return {};
          required += h.score;
        }
        for (const Query& c : q.filter) {
          if (!Eval(c, doc, boost).match) return {};
        }
        for (const Query& c : q.must_not) {
          if (Eval(c, doc, boost).match) return {};
        }
        double optional = 0;
        uint32_t matched = 0;
        for (const Query& c : q.should) {
          RefHit h = Eval(c, doc, boost);
          if (h.match) {
            ++matched;
            optional += h.score;
          }
        }
        const uint32_t needed =
            has_required ? q.minimum_should_match : std::max<uint32_t>(1, q.minimum_should_match);
        if (matched < needed) return {};
        return {true, static_cast<float>(required) + static_cast<float>(optional)};
      }
    }
    return {};
  }

 private:
  Bm25Scorer Scorer(const std::string& field, const std::vector<std::string>& terms,
                    float boost) const {
    auto fstats = index_.reader().FieldStatistics(field);
    EXPECT_TRUE(fstats.ok());
    double idf = 0;
    for (const std::string& t : terms) {
      auto ts = index_.reader().TermStats(field, t);
      EXPECT_TRUE(ts.ok());
      idf += Bm25Idf(ts->doc_freq, fstats->doc_count);
    }
    return Bm25Scorer(boost, idf, {fstats->doc_count, fstats->sum_total_term_freq}, params_);
  }

  uint8_t Norm(const std::string& field, uint64_t doc) const {
    if (field == "tag") return 1;  // no norms
    const IndexReader& r = index_.reader();
    const LeafReader* leaf = r.leaves()[r.LeafIndexOf(doc)];
    auto norm = leaf->Norm(field, static_cast<uint32_t>(doc - leaf->doc_base()));
    EXPECT_TRUE(norm.ok()) << norm.status();
    return norm.ok() ? *norm : 0;
  }

  const RandomIndex& index_;
  Bm25Params params_;
};

// ---- Random queries.

float RandomBoost(Random& rng) {
  static const float kBoosts[] = {1.0f, 1.0f, 1.0f, 0.5f, 2.0f, 3.25f, 0.0f};
  return kBoosts[rng.Uniform(std::size(kBoosts))];
}

// With probability `chance`, explicit positions for a phrase of `terms`
// terms (a random start, then gaps of 1 or 2); otherwise none (the terms
// follow one another).
std::vector<int32_t> MaybeExplicitPositions(Random& rng, double chance, size_t terms) {
  std::vector<int32_t> positions;
  if (!rng.Bernoulli(chance)) return positions;
  int32_t p = static_cast<int32_t>(rng.Uniform(3));
  for (size_t t = 0; t < terms; ++t) {
    positions.push_back(p);
    p += static_cast<int32_t>(rng.Range(1, 2));
  }
  return positions;
}

Query RandomQuery(Random& rng, int depth) {
  const int kind = static_cast<int>(rng.Uniform(depth > 0 ? 9 : 6));
  const std::string text_field = rng.Bernoulli(0.75) ? "body" : "title";
  Query q;
  switch (kind) {
    case 0:
    case 1: {
      static const std::string kFields[] = {"body", "body", "title", "tag", "freqs"};
      std::string field = kFields[rng.Uniform(std::size(kFields))];
      std::string term = field == "tag" ? std::string(1, static_cast<char>('p' + rng.Uniform(5)))
                                        : RandomWord(rng);
      q = Query::Term(field, term);
      break;
    }
    case 2:
    case 3: {
      std::vector<std::string> terms = RandomWords(rng, 1, 3);
      if (rng.Bernoulli(0.2) && terms.size() >= 2) terms.back() = terms.front();  // repeated
      const uint32_t slop = rng.Bernoulli(0.4) ? 0 : static_cast<uint32_t>(rng.Range(1, 4));
      const std::vector<int32_t> positions = MaybeExplicitPositions(rng, 0.2, terms.size());
      q = Query::Phrase(text_field, terms, slop, positions);
      break;
    }
    case 4:
      q = Query::Prefix(text_field, rng.Bernoulli(0.1) ? "" : kVocabulary[rng.Uniform(5)]);
      break;
    case 5:
      q = rng.Bernoulli(0.8) ? Query::MatchAll() : Query::MatchNone();
      break;
    default: {
      q = Query::Boolean({});
      const int clauses = static_cast<int>(rng.Range(1, 5));
      for (int i = 0; i < clauses; ++i) {
        Query c = RandomQuery(rng, depth - 1);
        switch (rng.Uniform(6)) {
          case 0:
          case 1:
            q.should.push_back(c);
            break;
          case 2:
          case 3:
            q.must.push_back(c);
            break;
          case 4:
            q.must_not.push_back(c);
            break;
          default:
            q.filter.push_back(c);
        }
      }
      if (rng.Bernoulli(0.3)) q.minimum_should_match = static_cast<uint32_t>(rng.Range(1, 3));
      break;
    }
  }
  q.boost = RandomBoost(rng);
  return q;
}

bool Near(float a, float b) {
  return std::fabs(a - b) <= 1e-6 * std::max(1.0f, std::max(std::fabs(a), std::fabs(b)));
}

// Search (threads 1 and 3), Count and Explain against the reference.
void CheckQuery(const RandomIndex& index, const Query& q, size_t k) {
  SCOPED_TRACE(q.ToString() + " k=" + std::to_string(k));
  IndexSearcher searcher(index.reader());
  IndexSearcher threaded(index.reader(), {.threads = 3});
  Reference ref(index, searcher.options());

  std::vector<ScoredDoc> expected;
  std::vector<RefHit> by_doc(index.docs().size());
  for (uint64_t doc = 0; doc < index.docs().size(); ++doc) {
    if (index.docs()[doc].deleted) continue;
    by_doc[doc] = ref.Eval(q, doc);
    if (by_doc[doc].match) expected.push_back({doc, by_doc[doc].score});
  }
  std::sort(expected.begin(), expected.end(), [](const ScoredDoc& a, const ScoredDoc& b) {
    return a.score > b.score || (a.score == b.score && a.doc < b.doc);
  });

  absl::StatusOr<TopDocs> top = searcher.Search(q, k);
  ASSERT_TRUE(top.ok()) << top.status();
  EXPECT_EQ(top->total_hits, expected.size());
  EXPECT_TRUE(top->total_hits_exact);
  ASSERT_EQ(top->hits.size(), std::min(k, expected.size()));
  for (size_t i = 0; i < top->hits.size(); ++i) {
    const ScoredDoc& hit = top->hits[i];
    EXPECT_TRUE(Near(hit.score, expected[i].score))
        << "rank " << i << ": " << hit.score << " vs " << expected[i].score;
    ASSERT_LT(hit.doc, by_doc.size());
    ASSERT_TRUE(by_doc[hit.doc].match) << "doc " << hit.doc << " should not match";
    EXPECT_TRUE(Near(hit.score, by_doc[hit.doc].score)) << "doc " << hit.doc;
    if (hit.doc != expected[i].doc) {
      // Only a near-tie may reorder (the rounding of one sum may differ).
      EXPECT_TRUE(Near(by_doc[hit.doc].score, expected[i].score))
          << "rank " << i << ": doc " << hit.doc << " vs " << expected[i].doc;
    }
    if (i > 0) {
      const ScoredDoc& prev = top->hits[i - 1];
      EXPECT_TRUE(prev.score > hit.score || (prev.score == hit.score && prev.doc < hit.doc));
    }
  }
  absl::StatusOr<TopDocs> parallel = threaded.Search(q, k);
  ASSERT_TRUE(parallel.ok()) << parallel.status();
  EXPECT_EQ(parallel->hits, top->hits);
  EXPECT_EQ(parallel->total_hits, top->total_hits);

  absl::StatusOr<uint64_t> count = searcher.Count(q);
  ASSERT_TRUE(count.ok()) << count.status();
  EXPECT_EQ(*count, expected.size());

  for (size_t i = 0; i < std::min<size_t>(2, top->hits.size()); ++i) {
    absl::StatusOr<Explanation> e = searcher.Explain(q, top->hits[i].doc);
    ASSERT_TRUE(e.ok()) << e.status();
    EXPECT_TRUE(e->match);
    EXPECT_EQ(e->value, top->hits[i].score) << e->ToString();
  }
  for (uint64_t doc = 0; doc < by_doc.size(); doc += 7) {
    if (by_doc[doc].match) continue;
    absl::StatusOr<Explanation> e = searcher.Explain(q, doc);
    ASSERT_TRUE(e.ok()) << e.status();
    EXPECT_FALSE(e->match) << "doc " << doc << ": " << e->ToString();
  }
}

class SearchRandomTest : public ::testing::TestWithParam<TermBytesLayout> {};

TEST_P(SearchRandomTest, MatchesBruteForceReference) {
  Random rng(TestSeed(20261203) + static_cast<uint64_t>(GetParam()));
  for (int round = 0; round < 3; ++round) {
    RandomIndex index(rng, GetParam(), rng.Range(20, 250));
    ASSERT_GE(index.reader().leaves().size(), 1u);
    for (int i = 0; i < 120; ++i) {
      static const size_t kK[] = {1, 3, 10, 1000};
      CheckQuery(index, RandomQuery(rng, 2), kK[rng.Uniform(std::size(kK))]);
      if (HasFatalFailure()) return;
    }
  }
}

// Exact phrases of 3-5 terms in the body, where "a" is in nearly every
// document: a phrase holding it moves that term's cursor only to the docs
// where the other terms' positions already hold their part of the phrase
// (PhraseScorer's defer_commonest_). Repeated terms, explicit positions
// with gaps, deletes and several segments, as above.
TEST_P(SearchRandomTest, LongExactPhrasesWithACommonTerm) {
  Random rng(TestSeed(20261207) + static_cast<uint64_t>(GetParam()));
  for (int round = 0; round < 2; ++round) {
    RandomIndex index(rng, GetParam(), rng.Range(60, 300));
    for (int i = 0; i < 150; ++i) {
      std::vector<std::string> terms = RandomWords(rng, 3, 5);
      if (rng.Bernoulli(0.6)) terms[rng.Uniform(terms.size())] = "a";
      if (rng.Bernoulli(0.2)) terms.back() = terms.front();  // repeated
      const std::vector<int32_t> positions = MaybeExplicitPositions(rng, 0.25, terms.size());
      Query q = Query::Phrase("body", terms, 0, positions);
      q.boost = RandomBoost(rng);
      static const size_t kK[] = {1, 3, 10, 1000};
      CheckQuery(index, q, kK[rng.Uniform(std::size(kK))]);
      if (HasFatalFailure()) return;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, SearchRandomTest,
                         ::testing::Values(TermBytesLayout::kShared, TermBytesLayout::kSeparate));

// ---- Phrase frequencies, worked by hand from Lucene 8.8's matcher.

float Sloppy(const std::vector<std::vector<int32_t>>& positions,
             const std::vector<int32_t>& term_ids, uint32_t slop) {
  std::vector<PhraseTermPositions> terms(positions.size());
  for (size_t i = 0; i < terms.size(); ++i) {
    terms[i] = {static_cast<int32_t>(i), term_ids[i], positions[i]};
  }
  return slop == 0 ? ExactPhraseFreq(terms) : SloppyPhraseFreq(terms, slop);
}

TEST(PhraseFreqTest, ExactCountsEveryOccurrence) {
  // "a b" in "a b a b": 2; "a a" in "a a a" (overlapping): 2.
  EXPECT_EQ(Sloppy({{0, 2}, {1, 3}}, {0, 1}, 0), 2.0f);
  EXPECT_EQ(Sloppy({{0, 1, 2}, {0, 1, 2}}, {0, 0}, 0), 2.0f);
  EXPECT_EQ(Sloppy({{1}, {0}}, {0, 1}, 0), 0.0f);
}

TEST(PhraseFreqTest, SloppyTranspositionCostsTwo) {
  // "a b"~2 in "b a": one match of length 2.
  EXPECT_FLOAT_EQ(Sloppy({{1}, {0}}, {0, 1}, 2), 1.0f / 3.0f);
  EXPECT_EQ(Sloppy({{1}, {0}}, {0, 1}, 1), 0.0f);
}

TEST(PhraseFreqTest, SloppyGapAndRepeats) {
  // "a b"~1 in "a x b": length 1.
  EXPECT_FLOAT_EQ(Sloppy({{0}, {2}}, {0, 1}, 1), 0.5f);
  // "a b"~1 in "a b a b": two exact matches.
  EXPECT_FLOAT_EQ(Sloppy({{0, 2}, {1, 3}}, {0, 1}, 1), 2.0f);
  // "a b c"~3 in "a c b": b and c swapped around: length 2.
  EXPECT_FLOAT_EQ(Sloppy({{0}, {2}, {1}}, {0, 1, 2}, 3), 1.0f / 3.0f);
}

TEST(PhraseFreqTest, SloppyRepeatedTermNeverSharesAPosition) {
  // "a a"~2 in "a x a": the two cursors of "a" take positions 0 and 2:
  // length 1. In "a" alone there is no second position: no match.
  EXPECT_FLOAT_EQ(Sloppy({{0, 2}, {0, 2}}, {0, 0}, 2), 0.5f);
  EXPECT_EQ(Sloppy({{0}, {0}}, {0, 0}, 5), 0.0f);
  // "a a"~1 in "a a": exact.
  EXPECT_FLOAT_EQ(Sloppy({{0, 1}, {0, 1}}, {0, 0}, 1), 1.0f);
}

// ---- Hand-made cases over a small fixed index.

class SearchFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    IndexWriterOptions o;
    o.analyzer = [] { return NewWhitespaceAnalyzer(); };
    o.merge_policy = std::make_shared<NoMergePolicy>();
    auto writer = IndexWriter::Open(dir_.path(), o);
    ASSERT_TRUE(writer.ok()) << writer.status();
    const std::vector<std::string> bodies = {
        "the quick brown fox",        // 0
        "the lazy dog",               // 1
        "quick fox quick fox",        // 2
        "brown the quick fox jumps",  // 3
        "dog eat dog",                // 4
        "fox brown quick",            // 5
    };
    ids_.resize(bodies.size());
    for (size_t i = 0; i < bodies.size(); ++i) {
      ids_[i] = std::to_string(i);
      Document doc;
      doc.Add(Field::Keyword("id", ids_[i], FieldType::Keyword(true)))
          .Add(Field::Text("body", bodies[i]))
          .Add(Field::Text("nopos", bodies[i], FreqsOnly()));
      ASSERT_TRUE((*writer)->AddDocument(doc).ok());
      if (i == 2) {
        ASSERT_TRUE((*writer)->Commit().ok());  // two segments
      }
    }
    ASSERT_TRUE((*writer)->DeleteDocuments("id", "4").ok());
    ASSERT_TRUE((*writer)->Close().ok());
    auto reader = IndexReader::Open(dir_.path());
    ASSERT_TRUE(reader.ok()) << reader.status();
    reader_ = std::move(*reader);
    ASSERT_EQ(reader_->leaves().size(), 2u);
  }

  std::vector<uint64_t> Docs(const Query& q) {
    IndexSearcher s(*reader_);
    auto top = s.Search(q, 100);
    EXPECT_TRUE(top.ok()) << top.status();
    std::vector<uint64_t> docs;
    if (top.ok()) {
      for (const ScoredDoc& h : top->hits) docs.push_back(h.doc);
      std::sort(docs.begin(), docs.end());
    }
    return docs;
  }
  float ScoreOf(const Query& q, uint64_t doc) {
    auto e = IndexSearcher(*reader_).Explain(q, doc);
    EXPECT_TRUE(e.ok()) << e.status();
    return e.ok() ? e->value : -1;
  }

  ScratchDir dir_;
  std::vector<std::string> ids_;
  std::unique_ptr<IndexReader> reader_;
};

TEST_F(SearchFixture, PhraseExactAndSloppy) {
  EXPECT_EQ(Docs(Query::Phrase("body", {"quick", "fox"})), (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(Docs(Query::Phrase("body", {"quick", "brown"})), (std::vector<uint64_t>{0}));
  // "quick brown"~2 also matches "brown quick" (5) and "brown the quick" (3).
  EXPECT_EQ(Docs(Query::Phrase("body", {"quick", "brown"}, 2)), (std::vector<uint64_t>{0, 5}));
  EXPECT_EQ(Docs(Query::Phrase("body", {"quick", "brown"}, 3)), (std::vector<uint64_t>{0, 3, 5}));
  // Positions with a gap: "the _ brown" matches "the quick brown".
  EXPECT_EQ(Docs(Query::Phrase("body", {"the", "brown"}, 0, {0, 2})), (std::vector<uint64_t>{0}));
  // Twice in doc 2: a higher phrase frequency, a higher score than doc 3.
  IndexSearcher s(*reader_);
  auto top = s.Search(Query::Phrase("body", {"quick", "fox"}), 1);
  ASSERT_TRUE(top.ok());
  EXPECT_EQ(top->hits[0].doc, 2u);
}

TEST_F(SearchFixture, MinimumShouldMatchMustNotAndFilter) {
  Query q = Query::Boolean(
      {}, {Query::Term("body", "quick"), Query::Term("body", "brown"), Query::Term("body", "dog")});
  EXPECT_EQ(Docs(q), (std::vector<uint64_t>{0, 1, 2, 3, 5}));  // 4 is deleted
  q.minimum_should_match = 2;
  EXPECT_EQ(Docs(q), (std::vector<uint64_t>{0, 3, 5}));
  q.minimum_should_match = 4;  // more than there are
  EXPECT_EQ(Docs(q), (std::vector<uint64_t>{}));
  q.minimum_should_match = 0;
  q.must_not = {Query::Term("body", "the")};
  EXPECT_EQ(Docs(q), (std::vector<uint64_t>{2, 5}));
  // Only must_not: nothing.
  EXPECT_EQ(Docs(Query::Boolean({}, {}, {Query::Term("body", "the")})), (std::vector<uint64_t>{}));
  // Only filters: matches, scores 0.
  Query filter = Query::Boolean({}, {}, {}, {Query::Term("body", "fox")});
  EXPECT_EQ(Docs(filter), (std::vector<uint64_t>{0, 2, 3, 5}));
  EXPECT_EQ(ScoreOf(filter, 0), 0.0f);
  // A filter with an optional should: the should scores where it matches.
  Query mixed =
      Query::Boolean({}, {Query::Term("body", "brown")}, {}, {Query::Term("body", "fox")});
  EXPECT_EQ(Docs(mixed), (std::vector<uint64_t>{0, 2, 3, 5}));
  EXPECT_EQ(ScoreOf(mixed, 2), 0.0f);
  EXPECT_EQ(ScoreOf(mixed, 0), ScoreOf(Query::Term("body", "brown"), 0));
}

TEST_F(SearchFixture, BoostsMultiplyIntoTheWeight) {
  const float plain = ScoreOf(Query::Term("body", "fox"), 0);
  EXPECT_GT(plain, 0);
  EXPECT_FLOAT_EQ(ScoreOf(Query::Term("body", "fox", 2.0f), 0), 2 * plain);
  Query nested = Query::Boolean({Query::Term("body", "fox", 2.0f)}, {}, {}, {}, 0, 1.5f);
  EXPECT_FLOAT_EQ(ScoreOf(nested, 0), 3 * plain);
  EXPECT_EQ(ScoreOf(Query::Prefix("body", "qu", 2.5f), 0), 2.5f);
  EXPECT_EQ(ScoreOf(Query::MatchAll(0.5f), 1), 0.5f);
  EXPECT_EQ(Docs(Query::Prefix("body", "qu")), (std::vector<uint64_t>{0, 2, 3, 5}));
}

TEST_F(SearchFixture, DeletedDocumentsNeverMatch) {
  EXPECT_EQ(Docs(Query::Term("body", "dog")), (std::vector<uint64_t>{1}));
  EXPECT_EQ(Docs(Query::MatchAll()), (std::vector<uint64_t>{0, 1, 2, 3, 5}));
  IndexSearcher s(*reader_);
  EXPECT_EQ(*s.Count(Query::MatchAll()), 5u);
  auto e = s.Explain(Query::Term("body", "dog"), 4);
  ASSERT_TRUE(e.ok());
  EXPECT_FALSE(e->match);
  // Statistics still count the deleted document (doc_freq of "dog" is 2).
  auto stats = reader_->TermStats("body", "dog");
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->doc_freq, 2u);
}

TEST_F(SearchFixture, ExplainTellsHowTheScoreWasComputed) {
  IndexSearcher s(*reader_);
  Query q = Query::Boolean({Query::Term("body", "fox")}, {Query::Phrase("body", {"quick", "fox"})});
  auto top = s.Search(q, 10);
  ASSERT_TRUE(top.ok());
  for (const ScoredDoc& hit : top->hits) {
    auto e = s.Explain(q, hit.doc);
    ASSERT_TRUE(e.ok());
    EXPECT_EQ(e->value, hit.score);
    const std::string text = e->ToString();
    EXPECT_NE(text.find("sum of:"), std::string::npos) << text;
    EXPECT_NE(text.find("idf, computed as"), std::string::npos) << text;
  }
  auto none = s.Explain(q, 1);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->match);
  EXPECT_EQ(s.Explain(q, 99).status().code(), absl::StatusCode::kOutOfRange);
}

// The tf part names Lucene 8.8's dl: the decoded field length, marked
// approximate for norm bytes above 39 (a length of 100 encodes as byte 57,
// which decodes to 96).
TEST(SearchExplainTest, DlIsTheDecodedLengthAsLuceneWritesIt) {
  ScratchDir dir;
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  auto writer = IndexWriter::Open(dir.path(), o);
  ASSERT_TRUE(writer.ok()) << writer.status();
  std::string long_body = "fox";
  for (int i = 1; i < 100; ++i) long_body += " w";
  for (std::string_view body : {std::string_view("fox a b c d"), std::string_view(long_body)}) {
    Document doc;
    doc.Add(Field::Text("body", body));
    ASSERT_TRUE((*writer)->AddDocument(doc).ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
  auto reader = IndexReader::Open(dir.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  IndexSearcher s(**reader);
  const struct {
    uint64_t doc;
    float dl;
    const char* description;
  } cases[] = {{0, 5.0f, "dl, length of field"}, {1, 96.0f, "dl, length of field (approximate)"}};
  for (const auto& c : cases) {
    auto e = s.Explain(Query::Term("body", "fox"), c.doc);
    ASSERT_TRUE(e.ok()) << e.status();
    const Explanation* tf = nullptr;
    std::vector<const Explanation*> todo = {&*e};
    while (!todo.empty()) {
      const Explanation* n = todo.back();
      todo.pop_back();
      if (n->description.starts_with("tf, computed as")) tf = n;
      for (const Explanation& d : n->details) todo.push_back(&d);
    }
    ASSERT_NE(tf, nullptr) << e->ToString();
    ASSERT_EQ(tf->details.size(), 5u) << e->ToString();
    EXPECT_EQ(tf->details[3].description, c.description) << e->ToString();
    EXPECT_EQ(tf->details[3].value, c.dl) << e->ToString();
    EXPECT_EQ(tf->details[4].description, "avgdl, average length of field");
  }
}

TEST_F(SearchFixture, ErrorsNameTheField) {
  IndexSearcher s(*reader_);
  auto unknown = s.Search(Query::Term("bdy", "fox"), 10);
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(unknown.status().ToString().find("bdy"), std::string::npos);
  EXPECT_NE(unknown.status().ToString().find("body"), std::string::npos);  // lists the fields
  auto nopos = s.Search(Query::Phrase("nopos", {"quick", "fox"}), 10);
  EXPECT_EQ(nopos.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(nopos.status().ToString().find("nopos"), std::string::npos);
  EXPECT_EQ(s.Count(Query::Term("body", "fox", -1.0f)).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.Count(Query::Phrase("body", {"a", "b"}, 0, {0})).status().code(),
            absl::StatusCode::kInvalidArgument);
  // Nested clauses are checked too.
  EXPECT_EQ(s.Count(Query::Boolean({}, {Query::Prefix("nofield", "x")})).status().code(),
            absl::StatusCode::kNotFound);
}

TEST_F(SearchFixture, ThreadsGiveTheSameHits) {
  IndexSearcher one(*reader_);
  IndexSearcher four(*reader_, {.threads = 4});
  Query q = Query::Boolean({}, {Query::Term("body", "quick"), Query::Term("body", "dog"),
                                Query::Phrase("body", {"brown", "fox"}, 2)});
  for (size_t k : {1, 2, 10}) {
    auto a = one.Search(q, k);
    auto b = four.Search(q, k);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->hits, b->hits);
    EXPECT_EQ(a->total_hits, b->total_hits);
  }
}

TEST(QueryTest, ToStringReadsLikeLucene) {
  Query q = Query::Boolean({Query::Term("body", "fox")},
                           {Query::Phrase("body", {"quick", "brown"}, 1, {}, 2.0f)},
                           {Query::Term("body", "lazy")}, {Query::Prefix("title", "new")});
  EXPECT_EQ(q.ToString(), "+body:fox body:\"quick brown\"~1^2.0 -body:lazy #title:new*");
  EXPECT_EQ(Query::MatchAll().ToString(), "*:*");
  EXPECT_EQ(
      Query::Boolean({}, {Query::Term("f", "a"), Query::Term("f", "b")}, {}, {}, 1).ToString(),
      "(f:a f:b)~1");
  EXPECT_EQ(q, q);
  EXPECT_NE(q, q.Boosted(2));
}

}  // namespace
}  // namespace invert

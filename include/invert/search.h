// Search: queries over an open index and the searcher that runs them, with
// Lucene 8.8's BM25 scores (docs/search.md; the BM25 formulas in
// docs/scoring.md).
//
//   auto reader = invert::IndexReader::Open("/path/to/index");
//   invert::IndexSearcher searcher(**reader);
//   invert::Query q = invert::Query::Boolean(
//       /*must=*/{invert::Query::Term("body", "fox")},
//       /*should=*/{invert::Query::Phrase("body", {"quick", "brown"}, /*slop=*/1)},
//       /*must_not=*/{invert::Query::Term("body", "lazy")});
//   absl::StatusOr<invert::TopDocs> top = searcher.Search(q, 10);
//   for (const invert::ScoredDoc& hit : top->hits) { ... hit.doc, hit.score ... }
//
// Queries are plain values (a tree of Query nodes held by value): build
// them with the factory functions or by filling the fields, copy them,
// compare them, print them (ToString, Lucene's syntax). Nothing is resolved
// against an index until a searcher runs the query.
//
// Semantics, as Lucene 8.8's (docs/search.md says more):
//   * Statistics are index-wide: a term's doc_freq and total_term_freq and a
//     field's doc_count and sum_total_term_freq are summed over the
//     segments, deleted documents counted until a merge drops them
//     (IndexReader::TermStats, FieldStatistics). Deleted documents never
//     match.
//   * kTerm: BM25 of the term's frequency in the document and the field's
//     length (its norm byte; a field without norms counts as length 1).
//   * kBoolean: a document must match every `must` and `filter` clause, no
//     `must_not` clause and at least minimum_should_match `should` clauses;
//     when there is no must or filter clause, at least one should clause
//     (and at least minimum_should_match). Only must_not clauses: nothing
//     matches. The score is the sum of the matching must clauses' scores
//     (in double, then float) plus the sum of the matching should clauses'
//     (in double, then float); filter and must_not clauses never score, so
//     a query of filter clauses only scores 0.
//   * kPhrase: the terms at their positions (default 0, 1, 2, ...). slop 0:
//     the phrase frequency is the number of places the phrase occurs
//     exactly. slop > 0: Lucene's sloppy frequency, the sum over the
//     matches its SloppyPhraseMatcher finds of 1 / (1 + match length),
//     where a match's length is how far its terms are moved from the
//     phrase's positions (a transposed pair of terms costs 2); a match
//     longer than slop does not count (docs/search.md describes the walk,
//     repeated terms included). The idf is the sum of the terms' idfs. A
//     phrase of one term is a term query. REQUIRES positions in the field.
//   * kPrefix: every document with a term of the field starting with
//     `term` (an empty prefix: every document with the field), each scored
//     the constant `boost`: Lucene's default constant-score rewrite.
//   * kMatchAll: every live document, score `boost`.
//   * kMatchNone: nothing.
//   * Boosts multiply down the tree (a clause's effective boost is its own
//     times its parents'), into each term's BM25 weight (boost * idf).
//
// Thread safety: a Query is a value. An IndexSearcher is immutable: any
// number of threads may call it at once.
#ifndef INVERT_SEARCH_H_
#define INVERT_SEARCH_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "invert/export.h"
#include "invert/index_reader.h"

namespace invert {

// One node of a query tree. Only the fields of its kind are used (the
// others stay empty); ToString() prints it as Lucene's query parser would
// read it.
struct INVERT_EXPORT Query {
  enum class Kind : uint8_t { kTerm, kBoolean, kPhrase, kPrefix, kMatchAll, kMatchNone };

  Kind kind = Kind::kMatchNone;
  // Multiplies the scores of this node (a finite value >= 0).
  float boost = 1.0f;

  // kTerm, kPhrase, kPrefix: the field (an indexed field of the schema).
  std::string field = {};
  // kTerm: the term's bytes as indexed; kPrefix: the prefix.
  std::string term = {};

  // kPhrase: the terms and their positions in the phrase (empty: 0, 1, 2,
  // ...; else one per term, non-decreasing), and the slop: how far the
  // terms may move (0: exact phrase).
  std::vector<std::string> terms = {};
  std::vector<int32_t> positions = {};
  uint32_t slop = 0;

  // kBoolean: the clauses by occurrence, and how many should clauses must
  // match at least.
  std::vector<Query> must = {};
  std::vector<Query> should = {};
  std::vector<Query> must_not = {};
  std::vector<Query> filter = {};
  uint32_t minimum_should_match = 0;

  static Query Term(std::string field, std::string term, float boost = 1.0f);
  static Query Boolean(std::vector<Query> must, std::vector<Query> should = {},
                       std::vector<Query> must_not = {}, std::vector<Query> filter = {},
                       uint32_t minimum_should_match = 0, float boost = 1.0f);
  static Query Phrase(std::string field, std::vector<std::string> terms, uint32_t slop = 0,
                      std::vector<int32_t> positions = {}, float boost = 1.0f);
  static Query Prefix(std::string field, std::string prefix, float boost = 1.0f);
  static Query MatchAll(float boost = 1.0f);
  static Query MatchNone();

  // A copy with boost * `factor`.
  Query Boosted(float factor) const;

  // E.g. +body:fox (body:"quick brown"~1)^2.0 -body:lazy #title:news
  std::string ToString() const;

  bool operator==(const Query&) const = default;
};

// Why a document got its score (Lucene's Explanation): a value, what it is,
// and the values it was computed from. The root's value is the document's
// score exactly as Search() computes it.
struct INVERT_EXPORT Explanation {
  bool match = false;
  float value = 0.0f;
  std::string description = {};
  std::vector<Explanation> details = {};

  // One line per node, "value = description", indented by depth.
  std::string ToString() const;
};

// One hit: an index-wide document id (IndexReader::Document takes it) and
// its score.
struct ScoredDoc {
  uint64_t doc = 0;
  float score = 0.0f;
  bool operator==(const ScoredDoc&) const = default;
};

struct TopDocs {
  // The best k hits: score descending, equal scores by doc id ascending.
  std::vector<ScoredDoc> hits = {};
  // Documents that match the query: exact when total_hits_exact, else a
  // lower bound (> SearchOptions::total_hits_threshold), as pruning skipped
  // documents without knowing whether they match.
  uint64_t total_hits = 0;
  bool total_hits_exact = true;
  // Matching documents whose score was computed and offered to the top k:
  // total_hits without pruning, usually far fewer with it (how much work
  // pruning saved; what benchmarks report as documents scored per query).
  uint64_t docs_scored = 0;
};

struct SearchOptions {
  // ---- Behaviour ----
  // BM25's term-frequency saturation and length normalisation (Lucene's
  // defaults).
  float bm25_k1 = 1.2f;
  float bm25_b = 0.75f;

  // ---- Performance ----
  // Skip documents that cannot make the top k (dynamic pruning with the
  // postings' per-block impacts: block-max MaxScore for should clauses,
  // block-max conjunctions, block skipping for a term; docs/search.md).
  // The hits are identical either way (doc ids and scores, bit for bit);
  // only total_hits may become a lower bound (see total_hits_threshold).
  // Search() with k == 0 and Count() never prune.
  bool prune = true;
  // With prune: each segment counts its matches exactly until it has seen
  // more than this many, and only then starts skipping (Lucene's
  // totalHitsThreshold, per segment here, so the count does not depend on
  // how threads share the segments). A search whose total_hits is at most
  // this is always exact.
  uint64_t total_hits_threshold = 1000;
  // Segments searched in parallel by this many threads (each takes the
  // next segment, keeps its own top k; the tops are merged). 1: the
  // calling thread alone.
  int threads = 1;
};

class INVERT_EXPORT IndexSearcher {
 public:
  // REQUIRES: `reader` outlives the searcher.
  explicit IndexSearcher(const IndexReader& reader, const SearchOptions& options = {});

  // The k best documents for `query` and how many match. Errors: a field
  // not in the schema: kNotFound listing the fields; a field that is not
  // indexed, a phrase on a field without positions, a malformed query
  // (negative or non-finite boost, positions not matching terms):
  // kInvalidArgument naming the field; a damaged index: kDataLoss.
  absl::StatusOr<TopDocs> Search(const Query& query, size_t k) const;
  // Documents that match `query` (errors as Search).
  absl::StatusOr<uint64_t> Count(const Query& query) const;
  // How `query` scores index-wide document `doc` (match false and value 0
  // when it does not match, e.g. deleted); kOutOfRange for doc >=
  // max_doc(); other errors as Search.
  absl::StatusOr<Explanation> Explain(const Query& query, uint64_t doc) const;

  const IndexReader& reader() const { return *reader_; }
  const SearchOptions& options() const { return options_; }

 private:
  const IndexReader* reader_;
  SearchOptions options_;
};

}  // namespace invert

#endif  // INVERT_SEARCH_H_

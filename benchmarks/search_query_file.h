// The query files of the search benchmark and of the Lucene agreement check
// (docs/benchmarks-search.md): one query per line, read by
// benchmarks/search_benchmark.cc, benchmarks/peers/LuceneSearch.java and
// tests/search/lucene_agreement_test.cc. Header-only, public API only.
//
// Format (UTF-8, LF-terminated lines):
//   # ...                 a comment (the generator writes its seed and options)
//   CLASS<TAB>EXPR        a query of class CLASS (e.g. term_high, or2, phrase2)
// EXPR is a prefix expression of tokens separated by single spaces; every
// query is on the field `body`, and a WORD is a token as the whitespace
// analyzer makes it (no whitespace inside):
//   term WORD                     TermQuery
//   prefix WORD                   PrefixQuery (constant score: its boost)
//   phrase SLOP N WORD{N}         PhraseQuery, N >= 2, positions 0..N-1
//   bool MSM N (OCC EXPR){N}      BooleanQuery, OCC one of must, should, not,
//                                 filter; MSM = minimum_should_match
//   boost B EXPR                  BoostQuery: EXPR's scores times B (a float
//                                 written exactly, e.g. 2 or 0.5)
// E.g. "and2\tbool 0 2 must term nuclear must term river" or
// "msm\tbool 2 3 should term a should term b should phrase 1 2 c d".
#ifndef INVERT_BENCHMARKS_SEARCH_QUERY_FILE_H_
#define INVERT_BENCHMARKS_SEARCH_QUERY_FILE_H_

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "invert/search.h"

namespace invert::bench {

inline constexpr std::string_view kQueryField = "body";

struct QueryLine {
  std::string query_class;
  std::string expr;  // as written in the file
  Query query;
};

namespace query_file_internal {

inline std::vector<std::string_view> SplitSpaces(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    const size_t start = i;
    while (i < s.size() && s[i] != ' ') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

inline bool ParseUint(std::string_view s, uint32_t* out) {
  if (s.empty() || s.size() > 9) return false;
  uint32_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint32_t>(c - '0');
  }
  *out = v;
  return true;
}

class Parser {
 public:
  explicit Parser(std::vector<std::string_view> tokens) : tokens_(std::move(tokens)) {}

  absl::StatusOr<Query> ParseAll() {
    absl::StatusOr<Query> q = Parse();
    if (q.ok() && pos_ != tokens_.size()) return Error("trailing tokens");
    return q;
  }

 private:
  absl::Status Error(std::string_view what) const {
    return absl::InvalidArgumentError(std::string(what) + " at token " + std::to_string(pos_));
  }
  bool Take(std::string_view* out) {
    if (pos_ >= tokens_.size()) return false;
    *out = tokens_[pos_++];
    return true;
  }
  bool TakeUint(uint32_t* out) {
    std::string_view t;
    return Take(&t) && ParseUint(t, out);
  }

  absl::StatusOr<Query> Parse() {
    std::string_view op;
    if (!Take(&op)) return Error("missing expression");
    if (op == "term" || op == "prefix") {
      std::string_view word;
      if (!Take(&word)) return Error("missing word");
      return op == "term" ? Query::Term(std::string(kQueryField), std::string(word))
                          : Query::Prefix(std::string(kQueryField), std::string(word));
    }
    if (op == "phrase") {
      uint32_t slop = 0, n = 0;
      if (!TakeUint(&slop) || !TakeUint(&n) || n < 2) return Error("bad phrase header");
      std::vector<std::string> words;
      for (uint32_t i = 0; i < n; ++i) {
        std::string_view word;
        if (!Take(&word)) return Error("missing phrase word");
        words.emplace_back(word);
      }
      return Query::Phrase(std::string(kQueryField), std::move(words), slop);
    }
    if (op == "bool") {
      uint32_t msm = 0, n = 0;
      if (!TakeUint(&msm) || !TakeUint(&n) || n == 0) return Error("bad bool header");
      Query q = Query::Boolean({});
      q.minimum_should_match = msm;
      for (uint32_t i = 0; i < n; ++i) {
        std::string_view occ;
        if (!Take(&occ)) return Error("missing occur");
        absl::StatusOr<Query> clause = Parse();
        if (!clause.ok()) return clause.status();
        if (occ == "must") {
          q.must.push_back(*std::move(clause));
        } else if (occ == "should") {
          q.should.push_back(*std::move(clause));
        } else if (occ == "not") {
          q.must_not.push_back(*std::move(clause));
        } else if (occ == "filter") {
          q.filter.push_back(*std::move(clause));
        } else {
          return Error("unknown occur");
        }
      }
      return q;
    }
    if (op == "boost") {
      std::string_view b;
      if (!Take(&b)) return Error("missing boost");
      const std::string bs(b);
      char* end = nullptr;
      const float boost = std::strtof(bs.c_str(), &end);
      if (end != bs.c_str() + bs.size() || !(boost >= 0)) return Error("bad boost");
      absl::StatusOr<Query> inner = Parse();
      if (!inner.ok()) return inner.status();
      return inner->Boosted(boost);
    }
    --pos_;
    return Error("unknown operator");
  }

  std::vector<std::string_view> tokens_;
  size_t pos_ = 0;
};

}  // namespace query_file_internal

// Parses one EXPR.
inline absl::StatusOr<Query> ParseQueryExpr(std::string_view expr) {
  return query_file_internal::Parser(query_file_internal::SplitSpaces(expr)).ParseAll();
}

// Reads a whole query file; an error names the line.
inline absl::StatusOr<std::vector<QueryLine>> ReadQueryFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError("cannot open query file " + path);
  std::vector<QueryLine> out;
  std::string line;
  for (int line_no = 1; std::getline(in, line); ++line_no) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      return absl::InvalidArgumentError(path + ":" + std::to_string(line_no) + ": no TAB");
    }
    absl::StatusOr<Query> q = ParseQueryExpr(std::string_view(line).substr(tab + 1));
    if (!q.ok()) {
      return absl::InvalidArgumentError(path + ":" + std::to_string(line_no) + ": " +
                                        std::string(q.status().message()));
    }
    out.push_back({line.substr(0, tab), line.substr(tab + 1), *std::move(q)});
  }
  return out;
}

}  // namespace invert::bench

#endif  // INVERT_BENCHMARKS_SEARCH_QUERY_FILE_H_

// Query's factories and its printed form (Lucene's query syntax).
#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "invert/search.h"

namespace invert {
namespace {

// Lucene prints a boost as a Java float ("2.0", "0.5").
std::string BoostSuffix(float boost) {
  if (boost == 1.0f) return "";
  std::string s = absl::StrCat(boost);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return absl::StrCat("^", s);
}

void AppendClauses(const std::vector<Query>& clauses, std::string_view prefix,
                   std::vector<std::string>& out) {
  for (const Query& q : clauses) {
    std::string s = q.ToString();
    if (q.kind == Query::Kind::kBoolean) s = absl::StrCat("(", s, ")");
    out.push_back(std::string(prefix) + s);
  }
}

}  // namespace

Query Query::Term(std::string field, std::string term, float boost) {
  Query q;
  q.kind = Kind::kTerm;
  q.field = std::move(field);
  q.term = std::move(term);
  q.boost = boost;
  return q;
}

Query Query::Boolean(std::vector<Query> must, std::vector<Query> should,
                     std::vector<Query> must_not, std::vector<Query> filter,
                     uint32_t minimum_should_match, float boost) {
  Query q;
  q.kind = Kind::kBoolean;
  q.must = std::move(must);
  q.should = std::move(should);
  q.must_not = std::move(must_not);
  q.filter = std::move(filter);
  q.minimum_should_match = minimum_should_match;
  q.boost = boost;
  return q;
}

Query Query::Phrase(std::string field, std::vector<std::string> terms, uint32_t slop,
                    std::vector<int32_t> positions, float boost) {
  Query q;
  q.kind = Kind::kPhrase;
  q.field = std::move(field);
  q.terms = std::move(terms);
  q.positions = std::move(positions);
  q.slop = slop;
  q.boost = boost;
  return q;
}

Query Query::Prefix(std::string field, std::string prefix, float boost) {
  Query q;
  q.kind = Kind::kPrefix;
  q.field = std::move(field);
  q.term = std::move(prefix);
  q.boost = boost;
  return q;
}

Query Query::MatchAll(float boost) {
  Query q;
  q.kind = Kind::kMatchAll;
  q.boost = boost;
  return q;
}

Query Query::MatchNone() { return Query(); }

Query Query::Boosted(float factor) const {
  Query q = *this;
  q.boost *= factor;
  return q;
}

std::string Query::ToString() const {
  std::string s;
  switch (kind) {
    case Kind::kTerm:
      s = absl::StrCat(field, ":", term);
      break;
    case Kind::kPrefix:
      s = absl::StrCat(field, ":", term, "*");
      break;
    case Kind::kPhrase: {
      s = absl::StrCat(field, ":\"", absl::StrJoin(terms, " "), "\"");
      if (slop > 0) absl::StrAppend(&s, "~", slop);
      break;
    }
    case Kind::kMatchAll:
      s = "*:*";
      break;
    case Kind::kMatchNone:
      s = "MatchNoDocsQuery";
      break;
    case Kind::kBoolean: {
      std::vector<std::string> parts;
      AppendClauses(must, "+", parts);
      AppendClauses(should, "", parts);
      AppendClauses(must_not, "-", parts);
      AppendClauses(filter, "#", parts);
      s = absl::StrJoin(parts, " ");
      if (minimum_should_match > 0 || boost != 1.0f) s = absl::StrCat("(", s, ")");
      if (minimum_should_match > 0) absl::StrAppend(&s, "~", minimum_should_match);
      break;
    }
  }
  return s + BoostSuffix(boost);
}

std::string Explanation::ToString() const {
  std::string out;
  struct Frame {
    const Explanation* e;
    int depth;
  };
  std::vector<Frame> stack = {{this, 0}};
  while (!stack.empty()) {
    Frame f = stack.back();
    stack.pop_back();
    absl::StrAppend(&out, std::string(2 * f.depth, ' '), f.e->value, " = ", f.e->description, "\n");
    for (size_t i = f.e->details.size(); i-- > 0;) stack.push_back({&f.e->details[i], f.depth + 1});
  }
  return out;
}

}  // namespace invert

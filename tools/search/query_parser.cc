// ParseQuery: a hand-written scanner over the clauses of the query text.
#include "query_parser.h"

#include <cctype>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "invert/token_buffer.h"

namespace invert::tools {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Parser {
 public:
  Parser(std::string_view text, const std::string& field, bool and_words, Analyzer& analyzer)
      : text_(text), default_field_(field), and_words_(and_words), analyzer_(analyzer) {}

  ParsedQuery Run() {
    Query q = Query::Boolean({});
    size_t i = 0;
    for (;;) {
      while (i < text_.size() && IsSpace(text_[i])) ++i;
      if (i >= text_.size()) break;
      char occur = ' ';
      if (text_[i] == '+' || text_[i] == '-') occur = text_[i++];
      Query clause;
      if (!Clause(i, clause)) return std::move(out_);
      if (occur == '+' || (occur == ' ' && and_words_)) {
        q.must.push_back(std::move(clause));
      } else if (occur == '-') {
        q.must_not.push_back(std::move(clause));
      } else {
        q.should.push_back(std::move(clause));
      }
    }
    if (q.must.empty() && q.should.empty() && q.must_not.empty()) {
      Fail(0, "empty query");
      return std::move(out_);
    }
    out_.ok = true;
    const size_t clauses = q.must.size() + q.should.size() + q.must_not.size();
    if (clauses == 1 && !q.should.empty()) {
      out_.query = std::move(q.should[0]);  // one word: its own query, as Lucene rewrites it
    } else if (clauses == 1 && !q.must.empty()) {
      out_.query = std::move(q.must[0]);
    } else {
      out_.query = std::move(q);
    }
    return std::move(out_);
  }

 private:
  // Records the error; returns false.
  bool Fail(size_t at, std::string message) {
    out_.ok = false;
    out_.error_offset = at;
    out_.error = std::move(message);
    return false;
  }

  // One clause starting at text_[i] (after its +/-); moves i past it.
  bool Clause(size_t& i, Query& out) {
    std::string field = default_field_;
    const size_t start = i;
    // field: when a run of word characters is followed by ':'.
    size_t j = i;
    while (j < text_.size() && !IsSpace(text_[j]) && text_[j] != ':' && text_[j] != '"') ++j;
    if (j < text_.size() && text_[j] == ':') {
      if (j == i) return Fail(j, "a field name must come before ':'");
      field = std::string(text_.substr(i, j - i));
      i = j + 1;
      if (i >= text_.size() || IsSpace(text_[i])) {
        return Fail(i, absl::StrCat("a word or phrase must follow '", field, ":'"));
      }
    }
    if (i >= text_.size() || IsSpace(text_[i])) {
      return Fail(start - 1, "'+' or '-' must be followed by a word or phrase");
    }
    if (text_[i] == '"') return Phrase(i, field, out);
    size_t end = i;
    while (end < text_.size() && !IsSpace(text_[end])) {
      if (text_[end] == '"' || text_[end] == ':') {
        return Fail(end, absl::StrCat("unexpected '", std::string(1, text_[end]),
                                      "' inside a word (quote the whole phrase)"));
      }
      if (text_[end] == '*' && end + 1 < text_.size() && !IsSpace(text_[end + 1])) {
        return Fail(end, "'*' may only end a word (a prefix)");
      }
      ++end;
    }
    std::string_view word = text_.substr(i, end - i);
    const size_t word_at = i;
    i = end;
    if (word.ends_with('*')) {
      word.remove_suffix(1);
      std::vector<std::string> tokens;
      if (!word.empty() && !Analyze(word, word_at, tokens)) return false;
      if (tokens.size() > 1) return Fail(word_at, "a prefix must be a single word");
      out = Query::Prefix(field, tokens.empty() ? "" : tokens[0]);
      return true;
    }
    std::vector<std::string> tokens;
    if (!Analyze(word, word_at, tokens)) return false;
    out = tokens.size() == 1 ? Query::Term(field, tokens[0]) : Query::Phrase(field, tokens);
    return true;
  }

  bool Phrase(size_t& i, const std::string& field, Query& out) {
    const size_t open = i;
    const size_t close = text_.find('"', open + 1);
    if (close == std::string_view::npos) return Fail(open, "unterminated phrase");
    std::vector<std::string> tokens;
    if (!Analyze(text_.substr(open + 1, close - open - 1), open + 1, tokens)) return false;
    i = close + 1;
    uint32_t slop = 0;
    if (i < text_.size() && text_[i] == '~') {
      ++i;
      if (i >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[i]))) {
        return Fail(i, "'~' must be followed by the slop, a number");
      }
      uint64_t n = 0;
      while (i < text_.size() && std::isdigit(static_cast<unsigned char>(text_[i]))) {
        n = n * 10 + static_cast<uint64_t>(text_[i] - '0');
        if (n > 1000000) return Fail(i, "slop too large");
        ++i;
      }
      slop = static_cast<uint32_t>(n);
    }
    if (i < text_.size() && !IsSpace(text_[i])) {
      return Fail(i, "expected a space after the phrase");
    }
    out = Query::Phrase(field, std::move(tokens), slop);
    return true;
  }

  bool Analyze(std::string_view words, size_t at, std::vector<std::string>& tokens) {
    TokenBuffer buffer;
    if (absl::Status s = analyzer_.Analyze(words, &buffer); !s.ok()) {
      return Fail(at, absl::StrCat("cannot analyze: ", s.message()));
    }
    for (size_t t = 0; t < buffer.size(); ++t) tokens.emplace_back(buffer[t].term);
    if (tokens.empty()) return Fail(at, "no searchable word here");
    return true;
  }

  std::string_view text_;
  const std::string& default_field_;
  bool and_words_;
  Analyzer& analyzer_;
  ParsedQuery out_;
};

}  // namespace

ParsedQuery ParseQuery(std::string_view text, const std::string& default_field, bool and_words,
                       Analyzer& analyzer) {
  return Parser(text, default_field, and_words, analyzer).Run();
}

std::string FormatParseError(std::string_view text, const ParsedQuery& parsed) {
  return absl::StrCat("invert-search: syntax error at character ", parsed.error_offset + 1, ": ",
                      parsed.error, "\n  ", std::string(text), "\n  ",
                      std::string(parsed.error_offset, ' '), "^\n");
}

}  // namespace invert::tools

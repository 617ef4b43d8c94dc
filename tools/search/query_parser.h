// The query syntax of invert-search, parsed into an invert::Query:
//
//   word         a term of the default field (OR with the others, or AND
//                with --and)
//   +word        must match        -word   must not match
//   "a phrase"   the words in a row; "a phrase"~2 with slop 2
//   pre*         any term starting with "pre" (constant score)
//   field:word   the word in another field (also field:"a phrase", field:pre*)
//
// Clauses are separated by whitespace. Each word or phrase goes through the
// analyzer (the one the index was built with): a word that analyzes to
// several tokens becomes a phrase, one that analyzes to none is an error.
// Prefixes are not analyzed beyond lowercasing by the analyzer.
#ifndef INVERT_TOOLS_SEARCH_QUERY_PARSER_H_
#define INVERT_TOOLS_SEARCH_QUERY_PARSER_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "invert/analysis.h"
#include "invert/search.h"

namespace invert::tools {

struct ParsedQuery {
  bool ok = false;
  Query query = {};
  // When !ok: the byte offset of the offending character and what is wrong.
  size_t error_offset = 0;
  std::string error = {};
};

// `and_words`: plain words are required (--and) instead of optional.
ParsedQuery ParseQuery(std::string_view text, const std::string& default_field, bool and_words,
                       Analyzer& analyzer);

// "invert-search: syntax error at character N: MESSAGE", the query, and a
// caret under the character.
std::string FormatParseError(std::string_view text, const ParsedQuery& parsed);

}  // namespace invert::tools

#endif  // INVERT_TOOLS_SEARCH_QUERY_PARSER_H_

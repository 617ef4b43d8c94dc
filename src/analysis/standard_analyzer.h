// Internal entry point of the standard analyzer that lets tests and benchmarks
// choose its path: kAuto (what NewStandardAnalyzer returns) or kIcuOnly (ICU
// for all text, the reference the ASCII fast path is proven against).
//
// kAuto cuts a value into pieces at safe points and sends each piece down one
// path:
//
//   text    He said "café au lait" and left.
//   pieces  ^ASCII  ^ICU  ^ASCII
//
// A piece boundary p satisfies: text[p - 1] is ASCII whitespace (space, \t,
// \n, \v, \f, \r) and text[p] is ASCII. UAX #29 always breaks there (no rule
// joins whitespace to a following ASCII character), and no rule that decides
// a later boundary looks back past a whitespace character, so every word
// segment lies inside one piece and is found the same way in the piece as in
// the whole text. A piece that is all ASCII goes to ForEachAsciiWord; the
// others to ICU, whose pieces therefore run from the whitespace before a
// non-ASCII character to the whitespace after it. (Merging nearby ICU pieces
// to save break-iterator resets measured slower: ICU's per-byte cost is what
// matters.) Within an ICU piece, words that are all ASCII skip ICU case
// folding.
#ifndef INVERT_ANALYSIS_STANDARD_ANALYZER_H_
#define INVERT_ANALYSIS_STANDARD_ANALYZER_H_

#include <memory>

#include "invert/analysis.h"

namespace invert::internal {

enum class StandardPath {
  kAuto,     // ASCII pieces on the fast path, the rest through ICU
  kIcuOnly,  // everything through ICU's break iterator and case folding
};

std::unique_ptr<Analyzer> NewStandardAnalyzer(const StandardAnalyzerOptions& options,
                                              StandardPath path);

}  // namespace invert::internal

#endif  // INVERT_ANALYSIS_STANDARD_ANALYZER_H_

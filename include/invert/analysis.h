// Analysis: turns a field value (UTF-8 text) into the tokens the indexing
// chain inverts. Three analyzers:
//
//   Standard    UAX #29 word segmentation (ICU's root word-break rules), keeps
//               words, numbers and CJK/kana/ideographic segments, drops
//               punctuation, whitespace and symbols (emoji included), case
//               folds (and optionally NFKC-normalizes) each word. An ASCII fast
//               path gives byte-identical output without ICU for ASCII text.
//   Whitespace  splits on Unicode White_Space; no case change.
//   Keyword     the whole value is one token (an empty value too).
//
// Every analyzer first checks that the value is well-formed UTF-8 and at most
// kMaxAnalyzedTextBytes long; see docs/analysis.md for the exact semantics.
//
// Thread safety: an Analyzer is NOT thread-safe (it reuses ICU iterators and
// scratch buffers across calls); use one per indexing thread. Distinct
// analyzers may be used concurrently.
#ifndef INVERT_ANALYSIS_H_
#define INVERT_ANALYSIS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "absl/status/status.h"
#include "invert/export.h"
#include "invert/token_buffer.h"

namespace invert {

// The longest field value an analyzer accepts, in bytes (ICU indexes text with
// int32_t; token offsets are uint32_t).
inline constexpr size_t kMaxAnalyzedTextBytes = INT32_MAX;

// The extension point for custom analysis: derive from Analyzer, append
// tokens with the TokenBuffer methods token_buffer.h marks stable, and hand a
// factory to the writer (IndexWriterOptions::analyzer / field_analyzers).
// docs/analysis.md, "Writing your own analyzer", has an example.
class INVERT_EXPORT Analyzer {
 public:
  virtual ~Analyzer() = default;

  // Appends the tokens of `text` (UTF-8) to *out. Offsets are UTF-8 byte
  // offsets into `text`; the first token's position_increment is 1.
  // Fails with InvalidArgument, naming the byte offset of the first
  // ill-formed sequence, if `text` is not well-formed UTF-8 (overlong forms,
  // surrogates, code points above U+10FFFF, stray continuation bytes and
  // truncated sequences are all rejected), or if it is longer than
  // kMaxAnalyzedTextBytes. On any error *out is exactly as before the call.
  //
  // A custom analyzer: *out may already hold tokens (append only). Which
  // input it accepts is its own business (the three below check what is
  // described above); the indexing chain checks what it gets regardless and
  // rejects the document, naming the field, for an immense term, a first
  // position increment of 0, or (when the field records offsets) offsets
  // that go backwards or end before they start.
  virtual absl::Status Analyze(std::string_view text, TokenBuffer* out) = 0;
};

// Makes a new analyzer; the writer calls it once per indexing thread and
// field (analyzers are not thread-safe).
using AnalyzerFactory = std::function<std::unique_ptr<Analyzer>()>;

struct StandardAnalyzerOptions {
  // Behaviour.

  // false (default): each word is case folded (Unicode full default case
  // folding: "Straße" -> "strasse", "ΣΊΣΥΦΟΣ" -> "σίσυφοσ").
  // true: each word is mapped by NFKC_Casefold instead (NFKC, case folding and
  // removal of default-ignorable code points, to a fixed point): full-width
  // "ＡＢＣ１２３" -> "abc123", "ĳ" -> "ij", a soft hyphen disappears. A word
  // that maps to nothing is dropped and its position increment passes to the
  // next token. Normalization is per word, after segmentation, so offsets
  // always point at the original text.
  bool nfkc = false;

  // A word longer than this many code points is split, as Lucene's
  // StandardTokenizer does, into consecutive tokens of max_token_length code
  // points (the last one shorter), each with position increment 1 and its own
  // offsets. Counted on the input, before folding. Values below 1 act as 1.
  uint32_t max_token_length = 255;
};

// UAX #29 words, case folded (see above).
INVERT_EXPORT std::unique_ptr<Analyzer> NewStandardAnalyzer(
    const StandardAnalyzerOptions& options = {});

// Tokens are the maximal runs of code points without the Unicode White_Space
// property (U+0009..000D, U+0020, U+0085, U+00A0, U+1680, U+2000..200A,
// U+2028, U+2029, U+202F, U+205F, U+3000). No case change, no length limit.
INVERT_EXPORT std::unique_ptr<Analyzer> NewWhitespaceAnalyzer();

// The whole value is one token with offsets [0, text.size()). An empty value
// gives one empty token (as Lucene's KeywordTokenizer does), so every value
// of a keyword field is findable, the empty one included.
INVERT_EXPORT std::unique_ptr<Analyzer> NewKeywordAnalyzer();

}  // namespace invert

#endif  // INVERT_ANALYSIS_H_

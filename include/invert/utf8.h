// UTF-8 validation: the check every analyzer runs on a field value before
// it produces a token (invert/analysis.h), for callers that want to know
// ahead of AddDocument whether a value will pass, or where it goes wrong
// (to report, repair or escape the bytes themselves).
//
// Well-formed means the byte sequences of the Unicode Standard's Table 3-7:
// no stray continuation bytes, overlong forms, surrogates (U+D800..DFFF),
// code points above U+10FFFF, bytes F5..FF or truncated sequences.
// docs/analysis.md has the exact rules.
//
//   invert::Utf8Error error;
//   if (!invert::IsValidUtf8(value, &error)) {
//     std::printf("bad UTF-8 at byte %zu: %s\n", error.offset, error.reason);
//   }
//
// Thread safety: a pure function.
#ifndef INVERT_UTF8_H_
#define INVERT_UTF8_H_

#include <cstddef>
#include <string_view>

#include "invert/export.h"

namespace invert {

// Where and why a byte string is not well-formed UTF-8.
struct Utf8Error {
  // Byte offset of the first byte of the first ill-formed sequence.
  size_t offset = 0;
  // What is wrong there, in words (static storage): "unexpected
  // continuation byte", "overlong encoding", "surrogate code point", "code
  // point above U+10FFFF", "byte that never occurs in UTF-8" or "truncated
  // sequence".
  const char* reason = nullptr;
};

// Returns true iff `text` is well-formed UTF-8: exactly the values an
// analyzer accepts (besides its length limit, kMaxAnalyzedTextBytes).
// Otherwise sets *error, when `error` is not null, to the first ill-formed
// sequence. ASCII is checked eight bytes at a time.
INVERT_EXPORT bool IsValidUtf8(std::string_view text, Utf8Error* error = nullptr);

}  // namespace invert

#endif  // INVERT_UTF8_H_

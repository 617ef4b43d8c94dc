// UTF-8 checks and small decoding helpers shared by the analyzers. The
// public face of ValidateUtf8 is invert::IsValidUtf8 (invert/utf8.h).
//
// ValidateUtf8 accepts exactly the well-formed byte sequences of the Unicode
// Standard (Table 3-7):
//
//   U+0000..U+007F      00..7F
//   U+0080..U+07FF      C2..DF  80..BF
//   U+0800..U+0FFF      E0      A0..BF  80..BF
//   U+1000..U+CFFF      E1..EC  80..BF  80..BF
//   U+D000..U+D7FF      ED      80..9F  80..BF
//   U+E000..U+FFFF      EE..EF  80..BF  80..BF
//   U+10000..U+3FFFF    F0      90..BF  80..BF  80..BF
//   U+40000..U+FFFFF    F1..F3  80..BF  80..BF  80..BF
//   U+100000..U+10FFFF  F4      80..8F  80..BF  80..BF
//
// and classifies the first violation. ASCII is skipped eight bytes at a time.
#ifndef INVERT_ANALYSIS_UTF8_H_
#define INVERT_ANALYSIS_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "absl/status/status.h"
#include "invert/utf8.h"

namespace invert::internal {

// The public type (invert/utf8.h): offset and reason of the first bad
// sequence.
using Utf8Error = ::invert::Utf8Error;

// Returns true iff `text` is well-formed UTF-8. Otherwise sets *error to the
// first ill-formed sequence. On success, *first_non_ascii (if not null) is the
// offset of the first byte >= 0x80, or text.size() if there is none.
bool ValidateUtf8(std::string_view text, Utf8Error* error, size_t* first_non_ascii = nullptr);

// The input check every analyzer runs first: OK iff `text` is well-formed
// UTF-8 and at most kMaxAnalyzedTextBytes long; otherwise InvalidArgument
// naming the byte offset and the kind of error.
absl::Status CheckAnalyzerInput(std::string_view text, size_t* first_non_ascii = nullptr);

// Returns true iff c is ASCII whitespace: space, \t, \n, \v, \f or \r.
inline bool IsAsciiSpace(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// Returns the offset of the first byte >= 0x80 in text[from, size), or size.
inline size_t FindNonAscii(std::string_view text, size_t from) {
  const char* p = text.data();
  const size_t n = text.size();
  size_t i = from;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    if ((word & 0x8080808080808080ull) != 0) break;
  }
  for (; i < n; ++i) {
    if (static_cast<unsigned char>(p[i]) >= 0x80) return i;
  }
  return n;
}

// The length of the UTF-8 sequence that starts with lead byte `c`.
// REQUIRES: c is the lead byte of a well-formed sequence.
inline size_t Utf8SequenceLength(unsigned char c) {
  return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

// Returns the byte length (1..3) of the White_Space code point at text[i], or
// 0 if the code point there is not White_Space. REQUIRES: `text` is
// well-formed UTF-8 and i < text.size() is the start of a code point or a
// continuation byte (continuation bytes are never White_Space).
inline size_t WhiteSpaceLength(std::string_view text, size_t i) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data()) + i;
  const unsigned char c = p[0];
  if (c < 0x80) return (c == ' ' || (c >= 0x09 && c <= 0x0D)) ? 1 : 0;
  switch (c) {
    case 0xC2:  // U+0085, U+00A0
      return (p[1] == 0x85 || p[1] == 0xA0) ? 2 : 0;
    case 0xE1:  // U+1680
      return (p[1] == 0x9A && p[2] == 0x80) ? 3 : 0;
    case 0xE2:  // U+2000..200A, U+2028, U+2029, U+202F; U+205F
      if (p[1] == 0x80) {
        return (p[2] <= 0x8A || p[2] == 0xA8 || p[2] == 0xA9 || p[2] == 0xAF) ? 3 : 0;
      }
      return (p[1] == 0x81 && p[2] == 0x9F) ? 3 : 0;
    case 0xE3:  // U+3000
      return (p[1] == 0x80 && p[2] == 0x80) ? 3 : 0;
    default:
      return 0;
  }
}

}  // namespace invert::internal

#endif  // INVERT_ANALYSIS_UTF8_H_

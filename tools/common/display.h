// Text for people and for JSON from bytes the tools did not write: terms,
// stored values, error messages that quote input.
#ifndef INVERT_TOOLS_COMMON_DISPLAY_H_
#define INVERT_TOOLS_COMMON_DISPLAY_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace invert::tools {

// `bytes` on one line, unambiguously: well-formed UTF-8 is kept as it is
// (so accented and CJK text stays readable), except control bytes (< 0x20
// and 0x7f), which become \t \n \r or \xNN, and the backslash, which becomes
// \\. Every byte of an ill-formed UTF-8 sequence becomes \xNN. A NUL never
// cuts the output. Equal outputs iff equal inputs.
std::string EscapeForDisplay(std::string_view bytes);

// A JSON string literal, quotes included (RFC 8259): control characters,
// quote and backslash escaped; an ill-formed UTF-8 byte becomes U+FFFD.
std::string JsonString(std::string_view bytes);

// 1234567 -> "1,234,567".
std::string FormatCount(uint64_t n);

// (1, "document") -> "1 document"; (1234, "document") -> "1,234 documents".
std::string CountOf(uint64_t n, std::string_view noun);

}  // namespace invert::tools

#endif  // INVERT_TOOLS_COMMON_DISPLAY_H_

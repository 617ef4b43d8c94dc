// Escaping for display and JSON (see display.h).
#include "common/display.h"

#include "absl/strings/str_format.h"
#include "invert/utf8.h"

namespace invert::tools {
namespace {

// Calls valid(run) for each well-formed UTF-8 run of `bytes` and
// invalid(byte) for each byte of an ill-formed sequence, in order.
template <typename Valid, typename Invalid>
void ForEachUtf8Run(std::string_view bytes, Valid&& valid, Invalid&& invalid) {
  while (!bytes.empty()) {
    Utf8Error error;
    if (IsValidUtf8(bytes, &error)) {
      valid(bytes);
      return;
    }
    valid(bytes.substr(0, error.offset));
    invalid(static_cast<unsigned char>(bytes[error.offset]));
    bytes.remove_prefix(error.offset + 1);
  }
}

}  // namespace

std::string EscapeForDisplay(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  auto hex = [&](unsigned char c) { absl::StrAppendFormat(&out, "\\x%02x", c); };
  ForEachUtf8Run(
      bytes,
      [&](std::string_view run) {
        for (char ch : run) {
          const auto c = static_cast<unsigned char>(ch);
          if (c == '\\') {
            out += "\\\\";
          } else if (c == '\t') {
            out += "\\t";
          } else if (c == '\n') {
            out += "\\n";
          } else if (c == '\r') {
            out += "\\r";
          } else if (c < 0x20 || c == 0x7f) {
            hex(c);
          } else {
            out += ch;
          }
        }
      },
      hex);
  return out;
}

std::string JsonString(std::string_view bytes) {
  std::string out = "\"";
  ForEachUtf8Run(
      bytes,
      [&](std::string_view run) {
        for (char ch : run) {
          const auto c = static_cast<unsigned char>(ch);
          if (c == '"' || c == '\\') {
            out += '\\';
            out += ch;
          } else if (c == '\n') {
            out += "\\n";
          } else if (c == '\t') {
            out += "\\t";
          } else if (c < 0x20 || c == 0x7f) {
            absl::StrAppendFormat(&out, "\\u%04x", c);
          } else {
            out += ch;
          }
        }
      },
      [&](unsigned char) { out += "\\ufffd"; });
  out += '"';
  return out;
}

std::string FormatCount(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string CountOf(uint64_t n, std::string_view noun) {
  std::string out = FormatCount(n);
  out += ' ';
  out += noun;
  if (n != 1) out += 's';
  return out;
}

}  // namespace invert::tools

// UTF-8 validation: a byte-at-a-time decoder behind an 8-bytes-at-a-time
// ASCII skip (see utf8.h for the accepted forms), and its public face
// invert::IsValidUtf8 (invert/utf8.h).
#include "analysis/utf8.h"

#include "absl/strings/str_cat.h"
#include "invert/analysis.h"
#include "invert/utf8.h"

namespace invert {

bool IsValidUtf8(std::string_view text, Utf8Error* error) {
  Utf8Error ignored;
  return internal::ValidateUtf8(text, error != nullptr ? error : &ignored);
}

namespace internal {
namespace {

inline bool IsContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

}  // namespace

bool ValidateUtf8(std::string_view text, Utf8Error* error, size_t* first_non_ascii) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = FindNonAscii(text, 0);
  if (first_non_ascii != nullptr) *first_non_ascii = i;
  auto fail = [&](size_t offset, const char* reason) {
    error->offset = offset;
    error->reason = reason;
    return false;
  };
  while (i < n) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      // Back in ASCII: skip a run of it quickly.
      i = FindNonAscii(text, i + 1);
      continue;
    }
    if (c < 0xC0) return fail(i, "unexpected continuation byte");
    if (c < 0xC2) return fail(i, "overlong encoding");
    if (c > 0xF4) {
      return fail(i, c < 0xF8 ? "code point above U+10FFFF" : "byte that never occurs in UTF-8");
    }
    const size_t length = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    // The second byte carries the range checks of Table 3-7.
    if (i + 1 >= n || !IsContinuation(p[i + 1])) return fail(i, "truncated sequence");
    const unsigned char c1 = p[i + 1];
    if (c == 0xE0 && c1 < 0xA0) return fail(i, "overlong encoding");
    if (c == 0xED && c1 > 0x9F) return fail(i, "surrogate code point");
    if (c == 0xF0 && c1 < 0x90) return fail(i, "overlong encoding");
    if (c == 0xF4 && c1 > 0x8F) return fail(i, "code point above U+10FFFF");
    for (size_t k = 2; k < length; ++k) {
      if (i + k >= n || !IsContinuation(p[i + k])) return fail(i, "truncated sequence");
    }
    i += length;
  }
  return true;
}

absl::Status CheckAnalyzerInput(std::string_view text, size_t* first_non_ascii) {
  if (text.size() > kMaxAnalyzedTextBytes) {
    return absl::InvalidArgumentError(absl::StrCat("text of ", text.size(),
                                                   " bytes is longer than the limit of ",
                                                   kMaxAnalyzedTextBytes, " bytes"));
  }
  Utf8Error error;
  if (!ValidateUtf8(text, &error, first_non_ascii)) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid UTF-8 at byte offset ", error.offset, ": ", error.reason));
  }
  return absl::OkStatus();
}

}  // namespace internal
}  // namespace invert

// The whitespace and keyword analyzers: no ICU, no case change.
#include <bit>
#include <cstdint>
#include <memory>

#include "analysis/swar.h"
#include "analysis/utf8.h"
#include "invert/analysis.h"

namespace invert::internal {
namespace {

// Returns the first index >= i of an ASCII whitespace or non-ASCII byte in
// `text`, or text.size().
inline size_t SkipPlainAscii(std::string_view text, size_t i) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  if constexpr (std::endian::native == std::endian::little) {
    // The first selected byte is exact: every byte before it is ASCII (swar.h).
    for (; i + 8 <= n; i += 8) {
      const uint64_t x = Load8(p + i);
      const uint64_t stop = (x & kHighBits) | BytesEqual(x, ' ') | BytesInRange(x, '\t', '\r');
      if (stop != 0) return i + FirstByte(stop);
    }
  }
  while (i < n && p[i] < 0x80 && !IsAsciiSpace(p[i])) ++i;
  return i;
}

class WhitespaceAnalyzer final : public Analyzer {
 public:
  absl::Status Analyze(std::string_view text, TokenBuffer* out) override {
    if (absl::Status s = CheckAnalyzerInput(text); !s.ok()) return s;
    const size_t n = text.size();
    size_t i = 0;
    for (;;) {
      while (i < n) {
        const size_t space = WhiteSpaceLength(text, i);
        if (space == 0) break;
        i += space;
      }
      if (i == n) return absl::OkStatus();
      const size_t begin = i;
      // Continuation bytes are never White_Space, so stepping a byte at a
      // time through a multi-byte code point is safe.
      for (;;) {
        i = SkipPlainAscii(text, i);
        if (i == n || WhiteSpaceLength(text, i) != 0) break;
        ++i;
      }
      out->Add(text.substr(begin, i - begin), 1, static_cast<uint32_t>(begin),
               static_cast<uint32_t>(i));
    }
  }
};

class KeywordAnalyzer final : public Analyzer {
 public:
  absl::Status Analyze(std::string_view text, TokenBuffer* out) override {
    if (absl::Status s = CheckAnalyzerInput(text); !s.ok()) return s;
    out->Add(text, 1, 0, static_cast<uint32_t>(text.size()));
    return absl::OkStatus();
  }
};

}  // namespace
}  // namespace invert::internal

namespace invert {

std::unique_ptr<Analyzer> NewWhitespaceAnalyzer() {
  return std::make_unique<internal::WhitespaceAnalyzer>();
}

std::unique_ptr<Analyzer> NewKeywordAnalyzer() {
  return std::make_unique<internal::KeywordAnalyzer>();
}

}  // namespace invert

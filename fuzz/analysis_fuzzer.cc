// Fuzz target: UTF-8 validation and the analyzers (include/invert/analysis.h,
// src/analysis/utf8.h, src/analysis/standard_analyzer.h).
//
// Input: flags:u8 (bit 0 NFKC, bit 1 max_token_length 3 instead of 255),
// then the text. Checked contracts:
//   * ValidateUtf8 reports an offset inside the text on failure, and on
//     success the first non-ASCII byte FindNonAscii finds; CheckAnalyzerInput
//     agrees with it;
//   * every analyzer (standard with both paths, whitespace, keyword) fails on
//     ill-formed UTF-8 leaving the buffer exactly as it was (a sentinel token
//     stays the only token), and succeeds on well-formed UTF-8 with offsets
//     inside the text;
//   * the standard analyzer's default path (ASCII fast path + ICU) gives the
//     same tokens as the ICU-only path (standard_analyzer.h says the fast
//     path is byte-identical).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "analysis/standard_analyzer.h"
#include "analysis/utf8.h"
#include "fuzz_common.h"
#include "invert/analysis.h"
#include "invert/token_buffer.h"

namespace {

using namespace invert;

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "analysis_fuzzer: %s\n", what);
    std::abort();
  }
}

bool SameToken(const AnalyzedToken& a, const AnalyzedToken& b) {
  return a.term == b.term && a.position_increment == b.position_increment &&
         a.start_offset == b.start_offset && a.end_offset == b.end_offset && a.payload == b.payload;
}

struct Analyzers {
  std::unique_ptr<Analyzer> standard_auto[4];
  std::unique_ptr<Analyzer> standard_icu[4];
  std::unique_ptr<Analyzer> whitespace = NewWhitespaceAnalyzer();
  std::unique_ptr<Analyzer> keyword = NewKeywordAnalyzer();

  Analyzers() {
    for (int i = 0; i < 4; ++i) {
      StandardAnalyzerOptions options;
      options.nfkc = (i & 1) != 0;
      options.max_token_length = (i & 2) != 0 ? 3 : 255;
      standard_auto[i] = internal::NewStandardAnalyzer(options, internal::StandardPath::kAuto);
      standard_icu[i] = internal::NewStandardAnalyzer(options, internal::StandardPath::kIcuOnly);
    }
  }
};

// Runs `analyzer` over `text` into *out (which holds one sentinel token
// first) and checks the error contract and the offsets.
void Analyze(Analyzer& analyzer, std::string_view text, bool valid, TokenBuffer* out) {
  out->Clear();
  out->Add("sentinel", 1, 0, 0, "p");
  const AnalyzedToken sentinel = (*out)[0];
  const std::string sentinel_term(sentinel.term);
  absl::Status s = analyzer.Analyze(text, out);
  if (!valid) {
    Check(absl::IsInvalidArgument(s), "ill-formed UTF-8 accepted");
    Check(out->size() == 1 && (*out)[0].term == sentinel_term && (*out)[0].payload == "p",
          "buffer changed by a failed Analyze");
    return;
  }
  Check(s.ok(), "well-formed UTF-8 rejected");
  for (size_t i = 1; i < out->size(); ++i) {
    const AnalyzedToken t = (*out)[i];
    Check(t.start_offset <= t.end_offset && t.end_offset <= text.size(),
          "token offsets outside the text");
  }
  if (out->size() > 1) Check((*out)[1].position_increment >= 1, "first increment is 0");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Analyzers* analyzers = new Analyzers();
  static TokenBuffer* a = new TokenBuffer();
  static TokenBuffer* b = new TokenBuffer();

  fuzz::FuzzInput in(data, size);
  const uint8_t flags = in.U8();
  const fuzz::ExactBytes bytes(in.Rest());
  const std::string_view text(reinterpret_cast<const char*>(bytes.span().data()),
                              bytes.span().size());

  internal::Utf8Error error;
  size_t first_non_ascii = 0;
  const bool valid = internal::ValidateUtf8(text, &error, &first_non_ascii);
  if (valid) {
    Check(first_non_ascii == internal::FindNonAscii(text, 0), "first_non_ascii disagrees");
  } else {
    Check(error.offset < text.size() && error.reason != nullptr, "bad Utf8Error");
  }
  Check(internal::CheckAnalyzerInput(text).ok() == valid, "CheckAnalyzerInput disagrees");

  const int variant = flags & 3;
  Analyze(*analyzers->standard_auto[variant], text, valid, a);
  Analyze(*analyzers->standard_icu[variant], text, valid, b);
  if (valid) {
    Check(a->size() == b->size(), "fast path and ICU path give different token counts");
    for (size_t i = 0; i < a->size(); ++i) {
      Check(SameToken((*a)[i], (*b)[i]), "fast path and ICU path give different tokens");
    }
  }
  Analyze(*analyzers->whitespace, text, valid, a);
  Analyze(*analyzers->keyword, text, valid, a);
  return 0;
}

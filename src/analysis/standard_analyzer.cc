// The standard analyzer: ICU word segmentation + case folding (or
// NFKC_Casefold), with an ASCII fast path proven identical to ICU for ASCII
// (see ascii_words.h and standard_analyzer.h).
//
// ICU objects (break iterator, UText, case map) are opened once per analyzer
// and reused for every value; nothing is allocated per token once the output
// TokenBuffer has grown to its working size.
#include "analysis/standard_analyzer.h"

#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>
#include <unicode/ubrk.h>
#include <unicode/ucasemap.h>
#include <unicode/utext.h>
#include <unicode/utypes.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "analysis/ascii_words.h"
#include "analysis/utf8.h"

namespace invert::internal {
namespace {

absl::Status IcuError(const char* what, UErrorCode code) {
  return absl::InternalError(absl::StrCat("ICU ", what, " failed: ", u_errorName(code)));
}

// An ICU ByteSink that writes the bytes ICU produces straight into the pending
// term of a TokenBuffer (ReserveTerm keeps what was written so far).
class TermSink final : public icu::ByteSink {
 public:
  explicit TermSink(TokenBuffer* out) : out_(out), term_(out->ReserveTerm(0)) {}

  void Append(const char* bytes, int32_t n) override {
    if (n <= 0) return;
    if (bytes != term_ + length_) {  // not written in place via GetAppendBuffer
      term_ = out_->ReserveTerm(length_ + static_cast<size_t>(n));
      std::memcpy(term_ + length_, bytes, static_cast<size_t>(n));
    }
    length_ += static_cast<size_t>(n);
  }

  char* GetAppendBuffer(int32_t min_capacity, int32_t desired_capacity_hint, char* /*scratch*/,
                        int32_t scratch_capacity, int32_t* result_capacity) override {
    if (min_capacity < 1 || scratch_capacity < min_capacity) {
      *result_capacity = 0;
      return nullptr;
    }
    const int32_t capacity = std::max(min_capacity, desired_capacity_hint);
    term_ = out_->ReserveTerm(length_ + static_cast<size_t>(capacity));
    *result_capacity = capacity;
    return term_ + length_;
  }

  size_t length() const { return length_; }

 private:
  TokenBuffer* out_;
  char* term_;
  size_t length_ = 0;
};

class StandardAnalyzer final : public Analyzer {
 public:
  StandardAnalyzer(const StandardAnalyzerOptions& options, StandardPath path)
      : max_token_length_(std::max<uint32_t>(options.max_token_length, 1)), path_(path) {
    UErrorCode code = U_ZERO_ERROR;
    words_ = ubrk_open(UBRK_WORD, "", nullptr, 0, &code);
    if (U_SUCCESS(code)) case_map_ = ucasemap_open("", U_FOLD_CASE_DEFAULT, &code);
    if (U_SUCCESS(code) && options.nfkc) {
      nfkc_casefold_ = icu::Normalizer2::getNFKCCasefoldInstance(code);
    }
    if (U_FAILURE(code)) init_status_ = IcuError("analyzer setup", code);
  }

  ~StandardAnalyzer() override {
    ubrk_close(words_);
    utext_close(&utext_);
    ucasemap_close(case_map_);
  }

  StandardAnalyzer(const StandardAnalyzer&) = delete;
  StandardAnalyzer& operator=(const StandardAnalyzer&) = delete;

  absl::Status Analyze(std::string_view text, TokenBuffer* out) override {
    if (!init_status_.ok()) return init_status_;
    size_t first_non_ascii = 0;
    if (absl::Status s = CheckAnalyzerInput(text, &first_non_ascii); !s.ok()) return s;
    const size_t tokens_before = out->size();
    increment_ = 1;
    absl::Status status;
    if (path_ == StandardPath::kIcuOnly) {
      status = AnalyzeIcu(text, 0, text.size(), out);
    } else if (first_non_ascii == text.size()) {
      AnalyzeAscii(text, 0, text.size(), out);
    } else {
      status = AnalyzeMixed(text, first_non_ascii, out);
    }
    if (!status.ok()) out->Truncate(tokens_before);
    return status;
  }

 private:
  // Fast path. REQUIRES: text[from, to) is ASCII and a piece (see header).
  void AnalyzeAscii(std::string_view text, size_t from, size_t to, TokenBuffer* out) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const size_t max = max_token_length_;
    ForEachAsciiWord(text.data(), from, to, [&](size_t begin, size_t end) {
      for (size_t start = begin; start < end; start += max) {
        const size_t length = std::min(end - start, max);
        char* term = out->ReserveTerm(length + 7);
        LowerAscii(p + start, length, to - start, term);
        out->CommitTerm(length, TakeIncrement(), static_cast<uint32_t>(start),
                        static_cast<uint32_t>(start + length));
      }
    });
  }

  // Cuts `text` into pieces (see header). `non_ascii` is the first non-ASCII
  // byte.
  absl::Status AnalyzeMixed(std::string_view text, size_t non_ascii, TokenBuffer* out) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const size_t n = text.size();
    size_t pos = 0;  // start of the next piece; a piece boundary
    // Invariant: non_ascii is the first non-ASCII byte at or after pos (or n).
    while (pos < n) {
      if (non_ascii == n) {
        AnalyzeAscii(text, pos, n, out);
        break;
      }
      // The ICU piece starts at the last boundary b in (pos, non_ascii): text[b - 1]
      // is whitespace (and text[b] is ASCII because b < non_ascii).
      size_t begin = pos;
      for (size_t b = non_ascii; b > pos + 1;) {
        --b;  // candidate boundary in (pos, non_ascii)
        if (IsAsciiSpace(p[b - 1])) {
          begin = b;
          break;
        }
      }
      if (begin > pos) AnalyzeAscii(text, pos, begin, out);
      const size_t end = PieceEnd(text, non_ascii);
      non_ascii = FindNonAscii(text, end);
      if (absl::Status s = AnalyzeIcu(text, begin, end, out); !s.ok()) return s;
      pos = end;
    }
    return absl::OkStatus();
  }

  // Returns the first piece boundary after `from` (or text.size()).
  static size_t PieceEnd(std::string_view text, size_t from) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const size_t n = text.size();
    for (size_t j = from; j < n; ++j) {
      if (IsAsciiSpace(p[j]) && (j + 1 == n || p[j + 1] < 0x80)) return j + 1;
    }
    return n;
  }

  // ICU path over the piece text[from, to).
  absl::Status AnalyzeIcu(std::string_view text, size_t from, size_t to, TokenBuffer* out) {
    UErrorCode code = U_ZERO_ERROR;
    utext_openUTF8(&utext_, text.data() + from, static_cast<int64_t>(to - from), &code);
    ubrk_setUText(words_, &utext_, &code);
    if (U_FAILURE(code)) return IcuError("word break iterator", code);
    int32_t previous = ubrk_first(words_);
    for (int32_t current = ubrk_next(words_); current != UBRK_DONE;
         previous = current, current = ubrk_next(words_)) {
      if (ubrk_getRuleStatus(words_) < UBRK_WORD_NONE_LIMIT) continue;  // space, punctuation
      absl::Status s = EmitWord(text, from + static_cast<size_t>(previous),
                                from + static_cast<size_t>(current), out);
      if (!s.ok()) return s;
    }
    return absl::OkStatus();
  }

  // Emits the word text[begin, end), split into max_token_length_ code points.
  absl::Status EmitWord(std::string_view text, size_t begin, size_t end, TokenBuffer* out) {
    const size_t max = max_token_length_;
    if (end - begin <= max) return EmitTerm(text, begin, end, out);  // bytes >= code points
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    size_t chunk = begin;
    size_t count = 0;
    for (size_t i = begin; i < end; i += Utf8SequenceLength(p[i]), ++count) {
      if (count == max) {
        if (absl::Status s = EmitTerm(text, chunk, i, out); !s.ok()) return s;
        chunk = i;
        count = 0;
      }
    }
    return EmitTerm(text, chunk, end, out);
  }

  // Folds (or NFKC_Casefolds) text[begin, end) into a new token.
  absl::Status EmitTerm(std::string_view text, size_t begin, size_t end, TokenBuffer* out) {
    const std::string_view source = text.substr(begin, end - begin);
    const auto start_offset = static_cast<uint32_t>(begin);
    const auto end_offset = static_cast<uint32_t>(end);
    // Both mappings send ASCII to its lower case; kIcuOnly keeps ICU for it so
    // that it stays a full reference.
    if (path_ == StandardPath::kAuto && FindNonAscii(source, 0) == source.size()) {
      char* term = out->ReserveTerm(source.size() + 7);
      LowerAscii(reinterpret_cast<const unsigned char*>(source.data()), source.size(),
                 source.size(), term);
      out->CommitTerm(source.size(), TakeIncrement(), start_offset, end_offset);
      return absl::OkStatus();
    }
    UErrorCode code = U_ZERO_ERROR;
    if (nfkc_casefold_ != nullptr) {
      TermSink sink(out);
      nfkc_casefold_->normalizeUTF8(0, icu::StringPiece(source.data(), source.size()), sink,
                                    nullptr, code);
      if (U_FAILURE(code)) return IcuError("NFKC_Casefold", code);
      if (sink.length() == 0) {  // only default ignorables: drop, keep the position
        ++increment_;
        return absl::OkStatus();
      }
      out->CommitTerm(sink.length(), TakeIncrement(), start_offset, end_offset);
      return absl::OkStatus();
    }
    // Full case folding grows UTF-8 by at most 3x (U+0390 -> 3 code points).
    const auto source_length = static_cast<int32_t>(source.size());
    int32_t capacity =
        static_cast<int32_t>(std::min<int64_t>(int64_t{source_length} * 3, INT32_MAX));
    char* term = out->ReserveTerm(static_cast<size_t>(capacity));
    int32_t length =
        ucasemap_utf8FoldCase(case_map_, term, capacity, source.data(), source_length, &code);
    if (code == U_BUFFER_OVERFLOW_ERROR) {  // not expected; stay correct anyway
      code = U_ZERO_ERROR;
      capacity = length;
      term = out->ReserveTerm(static_cast<size_t>(capacity));
      length =
          ucasemap_utf8FoldCase(case_map_, term, capacity, source.data(), source_length, &code);
    }
    if (U_FAILURE(code)) return IcuError("case folding", code);
    out->CommitTerm(static_cast<size_t>(length), TakeIncrement(), start_offset, end_offset);
    return absl::OkStatus();
  }

  uint32_t TakeIncrement() { return std::exchange(increment_, 1); }

  const size_t max_token_length_;
  const StandardPath path_;
  absl::Status init_status_;
  UBreakIterator* words_ = nullptr;
  UText utext_ = UTEXT_INITIALIZER;
  UCaseMap* case_map_ = nullptr;
  const icu::Normalizer2* nfkc_casefold_ = nullptr;  // not owned; null unless options.nfkc
  uint32_t increment_ = 1;                           // position increment of the next token
};

}  // namespace

std::unique_ptr<Analyzer> NewStandardAnalyzer(const StandardAnalyzerOptions& options,
                                              StandardPath path) {
  return std::make_unique<StandardAnalyzer>(options, path);
}

}  // namespace invert::internal

namespace invert {

std::unique_ptr<Analyzer> NewStandardAnalyzer(const StandardAnalyzerOptions& options) {
  return internal::NewStandardAnalyzer(options, internal::StandardPath::kAuto);
}

}  // namespace invert

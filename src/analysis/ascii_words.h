// The standard analyzer's ASCII fast path: the UAX #29 word segments that
// ICU's root word-break rules keep (rule status >= UBRK_WORD_NONE_LIMIT), for
// text that is all ASCII, without ICU.
//
// For ASCII the Word_Break classes of ICU's root rules (Unicode's property
// with the CLDR tailoring: '@' joins ALetter so that e-mail addresses stay
// whole, and ':' leaves MidLetter, so "a:b" is two words) are:
//
//   ALetter       A-Z a-z @            Numeric      0-9
//   ExtendNumLet  _                    MidNumLet    .
//   MidNum        , ;                  Single_Quote '
//   (the rest: WSegSpace ' ', CR, LF, Newline \v \f, Double_Quote ", Other)
//
// and no ASCII character is Extend, Format or ZWJ, so WB4 never applies. The
// rules that join ASCII characters are then:
//
//   WB5/8/9/10  letters and digits join each other            abc123, a@b, 42nd
//   WB13a/b     '_' joins letters, digits and '_'              foo_bar, _1
//   WB6/7       letter (. or ') letter                         can't, U.S.A
//   WB11/12     digit (, ; . or ') digit                       1,000 3.14 1'2
//
// where the character before the middle one must itself be a letter (WB6/7)
// or a digit (WB11/12), not '_' ("a_.b" is "a_", "b"). Everything else breaks
// (WB999), and WB3/WB3d only join segments that are dropped anyway. Of the
// segments built from letters, digits and '_', ICU tags all but a lone "_"
// (no rule gives it a word status; "__" is tagged by WB13a).
//
// So a kept segment is a maximal run over {letter, digit, _} extended through
// a middle character by the rules above. tests/analysis/ascii_fast_path_test.cc
// checks this against ICU exhaustively for short strings over every ASCII
// class and on random long ones.
#ifndef INVERT_ANALYSIS_ASCII_WORDS_H_
#define INVERT_ANALYSIS_ASCII_WORDS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "analysis/swar.h"

namespace invert::internal {

// Bits of an ASCII character's class.
inline constexpr uint8_t kAsciiLetter = 1;        // ALetter
inline constexpr uint8_t kAsciiDigit = 2;         // Numeric
inline constexpr uint8_t kAsciiUnderscore = 4;    // ExtendNumLet
inline constexpr uint8_t kAsciiJoinsLetters = 8;  // MidNumLet, Single_Quote
inline constexpr uint8_t kAsciiJoinsDigits = 16;  // MidNum, MidNumLet, Single_Quote
inline constexpr uint8_t kAsciiWord = kAsciiLetter | kAsciiDigit | kAsciiUnderscore;

inline constexpr std::array<uint8_t, 256> kAsciiWordClass = [] {
  std::array<uint8_t, 256> table{};
  for (int c = 'a'; c <= 'z'; ++c) table[c] = kAsciiLetter;
  for (int c = 'A'; c <= 'Z'; ++c) table[c] = kAsciiLetter;
  table['@'] = kAsciiLetter;
  for (int c = '0'; c <= '9'; ++c) table[c] = kAsciiDigit;
  table['_'] = kAsciiUnderscore;
  table['.'] = kAsciiJoinsLetters | kAsciiJoinsDigits;
  table['\''] = kAsciiJoinsLetters | kAsciiJoinsDigits;
  table[','] = kAsciiJoinsDigits;
  table[';'] = kAsciiJoinsDigits;
  return table;
}();

// SWAR helpers for the word classes (see swar.h).
// Bytes of class kAsciiWord: letters (x | 0x20 maps only A-Z onto a-z), '@',
// digits, '_'.
constexpr uint64_t WordBytes(uint64_t x) {
  return BytesInRange(x | Broadcast(0x20), 'a', 'z') | BytesEqual(x, '@') |
         BytesInRange(x, '0', '9') | BytesEqual(x, '_');
}
// x with A-Z lower-cased (0x80 >> 2 == 0x20).
constexpr uint64_t LowerAscii8(uint64_t x) { return x | (BytesInRange(x, 'A', 'Z') >> 2); }

// Returns the first index >= i whose byte is a separator (kWant = true: skips
// word bytes) or a word byte (kWant = false: skips separators), or `to`.
// REQUIRES: p[i, to) is ASCII.
template <bool kWant>
inline size_t SkipWhile(const unsigned char* p, size_t i, size_t to) {
  for (; i + 8 <= to; i += 8) {
    const uint64_t word = WordBytes(Load8(p + i));
    const uint64_t stop = kWant ? ~word & kHighBits : word;
    if (stop != 0) return i + FirstByte(stop);
  }
  while (i < to && ((kAsciiWordClass[p[i]] & kAsciiWord) != 0) == kWant) ++i;
  return i;
}

// Writes src[0, length) lower-cased (A-Z only) to dst, eight bytes at a time
// while `readable` allows. REQUIRES: src[0, max(length, readable)) is ASCII;
// dst has room for length + 7 bytes (the last store may spill over).
inline void LowerAscii(const unsigned char* src, size_t length, size_t readable, char* dst) {
  size_t k = 0;
  for (; k < length && k + 8 <= readable; k += 8) {
    const uint64_t lower = LowerAscii8(Load8(src + k));
    std::memcpy(dst + k, &lower, 8);
  }
  for (; k < length; ++k) {
    const unsigned char c = src[k];
    dst[k] = static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
  }
}

// Calls emit(begin, end) for each kept word segment of text[from, to), in
// order. REQUIRES: text[from, to) is ASCII, and `from` and `to` are segment
// boundaries of the whole text (see StandardAnalyzer's piece splitting).
template <typename Emit>
inline void ForEachAsciiWord(const char* text, size_t from, size_t to, Emit&& emit) {
  const auto* p = reinterpret_cast<const unsigned char*>(text);
  size_t i = from;
  for (;;) {
    i = SkipWhile<false>(p, i, to);  // separators
    if (i == to) return;
    const size_t begin = i;
    i = SkipWhile<true>(p, i + 1, to);
    // p[i] ends a run of letters, digits and '_'. A middle character joins
    // the run to the next one if it sits between two letters or two digits.
    while (i + 1 < to) {
      const uint8_t mid = kAsciiWordClass[p[i]];
      if ((mid & (kAsciiJoinsLetters | kAsciiJoinsDigits)) == 0) break;
      const uint8_t joined = kAsciiWordClass[p[i - 1]] & kAsciiWordClass[p[i + 1]];
      if (!((joined & kAsciiLetter) && (mid & kAsciiJoinsLetters)) &&
          !((joined & kAsciiDigit) && (mid & kAsciiJoinsDigits))) {
        break;
      }
      i = SkipWhile<true>(p, i + 2, to);
    }
    if (i - begin > 1 || p[begin] != '_') emit(begin, i);
  }
}

}  // namespace invert::internal

#endif  // INVERT_ANALYSIS_ASCII_WORDS_H_

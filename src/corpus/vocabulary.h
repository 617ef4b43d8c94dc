// Vocabulary: the word of each frequency rank of the generated corpus
// (tools/gen, docs/corpus.md). A fixed function of the rank, the same for
// every seed, so that corpora of different seeds share a vocabulary the way
// two samples of Wikipedia do.
//
// Words are pronounceable lowercase pseudo-words from an unambiguous syllable
// grammar over ASCII letters (vowels a e i o u; every other letter is a
// consonant):
//
//   word = [V0] (Onset Nucleus)* [Coda]      not empty; no syllable => V0
//
// V0 and Nucleus are vowel clusters ("a", "ou", ...), Onset and Coda consonant
// clusters ("str", "nd", ...). Runs of vowels and of consonants alternate, and
// each run is exactly one cluster, so a string has at most one derivation:
// distinct derivations are distinct strings. Derivations of each byte length
// L are counted exactly (128-bit) and numbered; number -> string is
// "unranking" (O(L) steps).
//
// Rank -> word, unique per rank:
//   1. Each length L has W(L) words, visited in the order of a keyed Feistel
//      permutation of [0, W(L)) (cycle-walking), so consecutive slots are
//      unrelated words; slot s of length L is word Perm_L(s).
//   2. Head ranks 1..kHeadRanks draw a preferred length from a rank-dependent
//      distribution (mean rising from ~2.5 bytes at rank 1 to ~9 at 2^18,
//      with a spread like English's) and take the next free slot of that
//      length, or of the nearest longer length when it is full; lengths 1-3
//      are capped (2, 40, 600 words) as in English. These ranks carry > 99% of
//      the occurrences; their words are precomputed once (~0.2 s, ~5 MB).
//   3. Tail ranks take the free slots after the head's in length order,
//      starting at 6 bytes, 10,000 words of 6 bytes and 3.2x more per byte
//      (so rank 10^6 is ~10 bytes and rank 10^9 ~16).
//   Slots are used at most once, so ranks never share a word.
//
// Rank traits (fixed hashes of the rank):
//   foreign: 1.2% of ranks > 500 spell one vowel (never the first letter)
//     accented (é, ö, ñ, ...; a 2-byte UTF-8 sequence). The accent decodes
//     back to its ASCII letter, so accented words stay unique.
//   proper:  25% of ranks > 200 are names, capitalized in running text.
//   acronym: 1.5% of head ranks > 100 of at most 4 letters are written in
//     capitals.
//
// Thread safety: immutable after construction; Default() is safe to call
// from any thread.
#ifndef INVERT_CORPUS_VOCABULARY_H_
#define INVERT_CORPUS_VOCABULARY_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace invert {

__extension__ typedef unsigned __int128 VocabularyCount;

class Vocabulary {
 public:
  static constexpr uint64_t kMaxRank = uint64_t{1} << 48;
  static constexpr uint32_t kHeadRanks = uint32_t{1} << 18;
  static constexpr size_t kMaxLength = 32;  // ASCII letters
  // A word's bytes: kMaxLength letters, one of them possibly 2 bytes.
  static constexpr size_t kMaxWordBytes = kMaxLength + 1;

  struct Traits {
    bool proper = false;
    bool acronym = false;
  };

  // Scratch space for words computed on demand (tail ranks).
  struct WordBuffer {
    char bytes[kMaxWordBytes];
  };

  // The process-wide instance (built on first use).
  static const Vocabulary& Default();

  Vocabulary();

  // The word of `rank`: a view into the head table or into *buffer.
  // REQUIRES: 1 <= rank <= kMaxRank.
  std::string_view Word(uint64_t rank, WordBuffer* buffer) const;

  Traits TraitsOf(uint64_t rank) const;

  // Number of distinct words of `length` bytes the grammar can form, capped
  // at 2^64 - 1. For tests and documentation.
  uint64_t GrammarWords(size_t length) const;

  // The index-th word of `length` bytes in grammar order (no permutation, no
  // accent). For tests. REQUIRES: 1 <= length <= kMaxLength,
  // index < GrammarWords(length).
  std::string GrammarWord(size_t length, uint64_t index) const;

 private:
  using Count = VocabularyCount;

  // Writes the ASCII word of slot `slot` of length `length`; returns length.
  size_t SlotWord(size_t length, Count slot, char* out) const;
  // The index-th derivation of `length` bytes.
  void Unrank(size_t length, Count index, char* out) const;
  Count Permute(size_t length, Count slot) const;
  // Adds the accent of a foreign rank in place; returns the new size.
  static size_t Accent(uint64_t rank, char* word, size_t size);

  // Grammar counts: words_[L] = W(L); bodies_[m] = number of (Onset
  // Nucleus)* sequences of m bytes.
  std::vector<Count> words_;
  std::vector<Count> bodies_;
  std::vector<int> feistel_bits_;  // per length, even

  // Head table: word of rank r is head_bytes_[head_offsets_[r - 1],
  // head_offsets_[r]).
  std::string head_bytes_;
  std::vector<uint32_t> head_offsets_;
  std::vector<uint8_t> head_traits_;  // bit 0 proper, bit 1 acronym

  // Tail: per length, the first free slot after the head, and the tail
  // ranks' cumulative quota (tail index t < tail_end_[L] has length <= L).
  std::vector<Count> head_used_;
  std::vector<uint64_t> tail_end_;
};

}  // namespace invert

#endif  // INVERT_CORPUS_VOCABULARY_H_

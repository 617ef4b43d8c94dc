// Impacts: the (freq, norm) pairs that bound the score of a range of a term's
// documents, for block-max WAND / MaxScore pruning (docs/format.md, "Doc ids
// and freqs", .doc version 2).
//
// A scorer that grows with freq and shrinks with the field length (BM25) can
// score no document of the range higher than its best pair. Of all the
// (freq, norm) pairs of the range's documents only the *competitive* ones are
// kept: the Pareto frontier, where a pair is dropped when another has freq >=
// and norm <= (norms compare as unsigned bytes: a smaller norm is a shorter
// field). Sorted by freq ascending, the frontier's norms ascend too, both
// strictly; it has at most 256 pairs (one per norm byte).
//
// Encoding (part of the persistent format), prev = (0, 0) before the first:
//   per pair: VInt(freq - prev.freq)   >= 1
//             Byte(norm - prev.norm)   >= 1, but the first pair's may be 0
// with the number of bytes stored before the pairs by the container.
//
// Thread safety: ImpactSet is used by one thread; the functions are stateless.
#ifndef INVERT_CODEC_IMPACTS_H_
#define INVERT_CODEC_IMPACTS_H_

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "util/varint.h"

namespace invert {

struct Impact {
  uint32_t freq = 0;
  uint8_t norm = 0;

  bool operator==(const Impact&) const = default;
};

// Most pairs a frontier can have: one per norm byte.
inline constexpr size_t kMaxImpacts = 256;

// Collects (freq, norm) pairs and hands out their frontier. Cost per Add: one
// compare and store; per Take: a scan of 4 words plus one step per distinct
// norm added. Holds 1 KiB, whatever was added.
class ImpactSet {
 public:
  void Add(uint32_t freq, uint8_t norm) {
    if (freq > max_freq_[norm]) {
      max_freq_[norm] = freq;
      used_[norm >> 6] |= uint64_t{1} << (norm & 63);
    }
  }
  void Add(std::span<const Impact> impacts) {
    for (const Impact& i : impacts) Add(i.freq, i.norm);
  }
  bool empty() const { return (used_[0] | used_[1] | used_[2] | used_[3]) == 0; }
  // Replaces *out with the frontier of everything added since the last
  // Take, freq ascending, and empties the set.
  void Take(std::vector<Impact>* out);

 private:
  std::array<uint32_t, 256> max_freq_{};  // 0 = norm not seen
  std::array<uint64_t, 4> used_{};        // bit n: max_freq_[n] != 0
};

// Appends the encoding of `impacts` (a frontier, freq ascending) to *out.
void EncodeImpacts(std::span<const Impact> impacts, std::string* out);

// Calls f(freq, norm) for each pair encoded in exactly [p, end), in order,
// with nothing stored: a scorer folds the pairs into its bound as they are
// read (PostingsCursor::AdvanceFiltered). Returns false, possibly after some
// calls (whose arguments may then be garbage), unless the bytes are a
// well-formed, non-empty frontier (freqs and norms strictly ascending, freq
// within uint32, norm within a byte).
//
// Cost: a scorer judges every skipped block's frontier (tens of pairs for a
// frequent term), so the common pair, a freq delta below 128 (two bytes), is
// read without a branch per check: a zero delta sets the top bit of `bad`,
// and the norm, which only grows, is checked once at the end. Strictly
// ascending norms within a byte also bound the count to kMaxImpacts.
template <typename F>
inline bool ForEachImpact(const uint8_t* p, const uint8_t* end, F&& f) {
  // The first pair, whose norm delta may be 0.
  uint32_t freq_delta = 0;
  if (!DecodeVInt32(&p, end, &freq_delta) || freq_delta == 0 || p == end) return false;
  uint64_t freq = freq_delta;
  uint32_t norm = *p++;
  f(static_cast<uint32_t>(freq), static_cast<uint8_t>(norm));
  uint32_t bad = 0;  // top bit: a delta was 0
  for (;;) {
    while (end - p >= 2 && p[0] < 0x80) {
      const uint32_t freq_delta_1 = p[0];
      const uint32_t norm_delta = p[1];
      p += 2;
      bad |= (freq_delta_1 - 1) | (norm_delta - 1);
      freq += freq_delta_1;
      norm += norm_delta;
      f(static_cast<uint32_t>(freq), static_cast<uint8_t>(norm));
    }
    if (p == end) break;
    if (!DecodeVInt32(&p, end, &freq_delta) || freq_delta == 0 || p == end) return false;
    const uint32_t norm_delta = *p++;
    bad |= norm_delta - 1;
    freq += freq_delta;
    norm += norm_delta;
    if (freq > UINT32_MAX) return false;
    f(static_cast<uint32_t>(freq), static_cast<uint8_t>(norm));
  }
  return (bad >> 31) == 0 && norm <= 255 && freq <= UINT32_MAX;
}

// Decodes exactly [p, end) into *out (ForEachImpact's checks).
bool DecodeImpacts(const uint8_t* p, const uint8_t* end, std::vector<Impact>* out);

}  // namespace invert

#endif  // INVERT_CODEC_IMPACTS_H_

// Impacts: the frontier of (freq, norm) pairs and its encoding.
#include "codec/impacts.h"

#include <bit>

#include "util/varint.h"

namespace invert {

void ImpactSet::Take(std::vector<Impact>* out) {
  out->clear();
  // Norms ascending: a pair is on the frontier iff its freq beats every
  // freq of a smaller (better) norm.
  uint32_t best = 0;
  for (size_t w = 0; w < used_.size(); ++w) {
    for (uint64_t bits = used_[w]; bits != 0; bits &= bits - 1) {
      const size_t norm = w * 64 + static_cast<size_t>(std::countr_zero(bits));
      const uint32_t freq = max_freq_[norm];
      max_freq_[norm] = 0;
      if (freq > best) {
        out->push_back(Impact{freq, static_cast<uint8_t>(norm)});
        best = freq;
      }
    }
    used_[w] = 0;
  }
}

void EncodeImpacts(std::span<const Impact> impacts, std::string* out) {
  uint32_t prev_freq = 0;
  uint8_t prev_norm = 0;
  uint8_t buf[kMaxVInt64Bytes];
  for (const Impact& i : impacts) {
    out->append(reinterpret_cast<const char*>(buf), EncodeVInt(i.freq - prev_freq, buf));
    out->push_back(static_cast<char>(static_cast<uint8_t>(i.norm - prev_norm)));
    prev_freq = i.freq;
    prev_norm = i.norm;
  }
}

bool DecodeImpacts(const uint8_t* p, const uint8_t* end, std::vector<Impact>* out) {
  out->clear();
  return ForEachImpact(p, end, [out](uint32_t freq, uint8_t norm) {
    out->push_back(Impact{freq, norm});
  });
}

}  // namespace invert

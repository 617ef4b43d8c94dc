// The documents of tests/data/postings_v2_index: an index written once with
// .doc version 2 (by make_postings_v2_index.cc, before version 3 existed)
// and read by tests/index/postings_v2_compat_test.cc, which indexes the same
// documents again with the current writer and compares the two. Test
// support, not part of libinvert.
//
// 2,700 documents, deterministic (no random generator whose sequence could
// change): terms of a few hundred to all of the documents, so that the
// postings have version-2 full blocks in runs longer than 8 (what version 3
// groups under a second skip level), runs of exactly 8 and 16 blocks, and
// tails of every kind:
//   body  text, freqs + positions + offsets, norms: "alpha" in every doc
//         (21 full blocks + 12), "beta" in every other (10 + 70), "gamma"
//         in those with d % 5 != 0 (16 + 112), "delta" in docs < 1024
//         (exactly 8), "epsilon" in docs < 2048 (exactly 16), freqs 1-4,
//         and 2-20 filler words of a 97-word vocabulary
//   title text, freqs only (no positions), norms: "t0".."t2" by d % 3,
//         "every" in every doc, repeated up to 3 times
//   tag   keyword, docs only: "k0" or "k1" by d % 2 (10 full blocks + 70)
#ifndef INVERT_TESTS_GOLDEN_POSTINGS_V2_DOCS_H_
#define INVERT_TESTS_GOLDEN_POSTINGS_V2_DOCS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "invert/field_type.h"
#include "invert/index_options.h"

namespace invert::testing {

inline constexpr uint32_t kPostingsV2Docs = 2700;

struct PostingsV2Doc {
  std::string body;
  std::string title;
  std::string tag;
};

inline FieldType PostingsV2BodyType() {
  FieldType t = FieldType::Text(/*stored=*/false);
  t.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
  return t;
}

inline FieldType PostingsV2TitleType() {
  FieldType t = FieldType::Text(/*stored=*/false);
  t.index_options = IndexOptions::kDocsAndFreqs;
  return t;
}

inline FieldType PostingsV2TagType() { return FieldType::Keyword(/*stored=*/false); }

// Document d (0 <= d < kPostingsV2Docs).
inline PostingsV2Doc PostingsV2Document(uint32_t d) {
  // A small multiplicative hash: the same everywhere, forever.
  auto mix = [](uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
  };
  PostingsV2Doc doc;
  auto add = [&doc](const std::string& word, uint32_t times) {
    for (uint32_t i = 0; i < times; ++i) {
      if (!doc.body.empty()) doc.body += ' ';
      doc.body += word;
    }
  };
  const uint32_t h = mix(d + 1);
  add("alpha", 1 + h % 4);
  const uint32_t fillers = 2 + mix(d + 7) % 19;
  for (uint32_t i = 0; i < fillers; ++i) {
    add(std::string(1, 'w') + std::to_string(mix(d * 31 + i) % 97), 1);
    if (i == 0 && d % 2 == 0) add("beta", 1 + (h >> 4) % 3);
    if (i == 1 && d % 5 != 0) add("gamma", 1 + (h >> 8) % 2);
  }
  if (d < 1024) add("delta", 1 + (h >> 12) % 4);
  if (d < 2048) add("epsilon", 1 + (h >> 16) % 2);
  doc.title = std::string(1, 't') + std::to_string(d % 3);
  for (uint32_t i = 0; i <= (h >> 20) % 3; ++i) doc.title += " every";
  doc.tag = d % 2 == 0 ? "k0" : "k1";
  return doc;
}

}  // namespace invert::testing

#endif  // INVERT_TESTS_GOLDEN_POSTINGS_V2_DOCS_H_

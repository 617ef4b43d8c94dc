// IndexOptions: what the postings of an indexed field record. Each level adds
// to the one before it.
#ifndef INVERT_INDEX_OPTIONS_H_
#define INVERT_INDEX_OPTIONS_H_

#include <cstdint>

namespace invert {

// Do not change the values: they are part of the persistent format.
enum class IndexOptions : uint8_t {
  kNone = 0,                                // not indexed
  kDocs = 1,                                // doc ids only
  kDocsAndFreqs = 2,                        // + term frequency per doc
  kDocsAndFreqsAndPositions = 3,            // + positions
  kDocsAndFreqsAndPositionsAndOffsets = 4,  // + start/end offsets per position
};

inline bool HasFreqs(IndexOptions o) { return o >= IndexOptions::kDocsAndFreqs; }
inline bool HasPositions(IndexOptions o) { return o >= IndexOptions::kDocsAndFreqsAndPositions; }
inline bool HasOffsets(IndexOptions o) {
  return o >= IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
}

}  // namespace invert

#endif  // INVERT_INDEX_OPTIONS_H_

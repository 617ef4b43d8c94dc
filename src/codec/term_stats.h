// TermStats: what the term dictionary stores for each term: its statistics
// and where its postings start in the postings files.
#ifndef INVERT_CODEC_TERM_STATS_H_
#define INVERT_CODEC_TERM_STATS_H_

#include <cstdint>
#include <optional>

namespace invert {

struct TermStats {
  // Documents that contain the term.
  uint32_t doc_freq = 0;
  // Occurrences of the term over all documents (== doc_freq when frequencies
  // are not indexed). Stored in one bit when equal to doc_freq.
  uint64_t total_term_freq = 0;
  // Start of the term's postings in the doc, positions and payloads/offsets
  // files. Non-decreasing in term order (the postings writer writes terms in
  // order); pos/pay must stay 0 when the dictionary omits those columns.
  uint64_t doc_offset = 0;
  uint64_t pos_offset = 0;
  uint64_t pay_offset = 0;
  // The only document of a term with doc_freq == 1, inlined so that a lookup
  // needs no read of the doc file. REQUIRES: set only when doc_freq == 1.
  std::optional<uint32_t> singleton_doc;

  bool operator==(const TermStats&) const = default;
};

}  // namespace invert

#endif  // INVERT_CODEC_TERM_STATS_H_

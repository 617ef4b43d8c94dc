// TermsEnum: a cursor over one field's term dictionary in one segment, in
// increasing unsigned-byte order of the terms' UTF-8 bytes.
//
//   absl::StatusOr<std::unique_ptr<invert::TermsEnum>> terms = leaf.Terms("body");
//   while (true) {
//     absl::StatusOr<bool> more = (*terms)->Next();
//     if (!more.ok()) { /* damaged segment */ }
//     if (!*more) break;
//     use((*terms)->term(), (*terms)->doc_freq());
//   }
//
// Positions: a new TermsEnum stands before the first term (Next() moves to
// it). At the end (Next() returned false, or SeekCeil kEnd) Next() keeps
// returning false. After SeekExact returned false the enum is unpositioned:
// Next() fails with kFailedPrecondition until a seek. Off a term, term() is
// empty, the statistics are 0 and Postings() is kFailedPrecondition.
//
// Errors: a damaged dictionary gives kDataLoss naming the segment, never a
// crash or a read out of bounds.
//
// Thread safety: a cursor: one thread at a time. It keeps its segment alive,
// so it may outlive the IndexReader it came from.
#ifndef INVERT_TERMS_ENUM_H_
#define INVERT_TERMS_ENUM_H_

#include <cstdint>
#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "invert/export.h"
#include "invert/postings_enum.h"

namespace invert {

// Statistics of one field's terms in one segment (LeafReader::
// TermsStatistics), or summed over the segments (IndexReader::
// FieldStatistics, where term_count is not defined and stays 0). Every
// statistic here and in TermStatistics counts deleted documents too, until a
// merge drops them (docs/reader.md).
struct TermsStatistics {
  uint64_t term_count = 0;           // distinct terms (per segment)
  uint64_t sum_doc_freq = 0;         // sum of every term's doc_freq
  uint64_t sum_total_term_freq = 0;  // sum of every term's total_term_freq
  uint64_t doc_count = 0;            // documents with at least one term in the field
  bool operator==(const TermsStatistics&) const = default;
};

// One term's statistics (in one segment, or summed over the index).
struct TermStatistics {
  uint64_t doc_freq = 0;         // documents containing the term
  uint64_t total_term_freq = 0;  // its occurrences (== doc_freq without freqs)
  bool operator==(const TermStatistics&) const = default;
};

class INVERT_EXPORT TermsEnum {
 public:
  enum class SeekStatus : uint8_t {
    kFound,     // positioned on the term sought
    kNotFound,  // positioned on the smallest term greater than it
    kEnd,       // every term is smaller: unpositioned
  };

  virtual ~TermsEnum();

  // Moves to the next term (the first, when unpositioned). False at the end.
  virtual absl::StatusOr<bool> Next() = 0;
  // Positions on `term` and returns true if the field has it; false (and
  // unpositioned) otherwise.
  virtual absl::StatusOr<bool> SeekExact(std::string_view term) = 0;
  // Positions on the smallest term >= target.
  virtual absl::StatusOr<SeekStatus> SeekCeil(std::string_view target) = 0;

  // The current term's bytes; valid until the cursor moves. REQUIRES:
  // positioned.
  virtual std::string_view term() const = 0;
  // Its statistics in this segment, deleted documents counted (a term whose
  // documents are all deleted is still enumerated). REQUIRES: positioned.
  virtual uint32_t doc_freq() const = 0;
  virtual uint64_t total_term_freq() const = 0;

  // The current term's postings, reading what `flags` (kPostings*) asks for.
  // kInvalidArgument, naming the field and what it indexes, when a flag asks
  // for more than the field indexes; kFailedPrecondition when unpositioned.
  virtual absl::StatusOr<std::unique_ptr<PostingsEnum>> Postings(
      uint32_t flags = kPostingsFreqs) const = 0;
};

}  // namespace invert

#endif  // INVERT_TERMS_ENUM_H_

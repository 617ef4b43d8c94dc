// PostingsEnum: one term's postings in one segment, document by document:
// the documents that contain the term in increasing order, and per document
// the term's frequency and, when the field indexes them and they were asked
// for, its positions, offsets and payloads.
//
//   std::unique_ptr<invert::PostingsEnum> postings = ...;  // TermsEnum::Postings
//   for (uint32_t doc = postings->NextDoc(); doc != invert::PostingsEnum::kNoMoreDocs;
//        doc = postings->NextDoc()) {
//     for (uint32_t i = 0; i < postings->freq(); ++i) {
//       if (!postings->NextPosition()) break;  // corrupt data: see status()
//       use(doc, postings->position());
//     }
//   }
//   if (!postings->status().ok()) { /* the segment is damaged */ }
//
// Document ids are the segment's (0 .. max_doc - 1); add the leaf's
// doc_base() for the index-wide id. Deleted documents are never returned:
// NextDoc and Advance step over them (LeafReader::IsDeleted is false for
// every doc a PostingsEnum lands on).
//
// Errors: a damaged segment never crashes a reader or makes it read out of
// bounds: NextDoc/Advance return kNoMoreDocs, NextPosition false, and
// status() says what was wrong (kDataLoss). Asking for positions when they
// were not requested sets kFailedPrecondition the same way.
//
// Thread safety: a PostingsEnum is a cursor: one thread at a time. It keeps
// the segment it reads alive, so it may outlive the IndexReader it came from.
#ifndef INVERT_POSTINGS_ENUM_H_
#define INVERT_POSTINGS_ENUM_H_

#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "invert/export.h"

namespace invert {

// What TermsEnum::Postings reads besides the document ids. Each flag may be
// asked for only if the field indexes it (else kInvalidArgument naming the
// field and what it indexes); positions, offsets and payloads include
// kPostingsPositions.
inline constexpr uint32_t kPostingsDocs = 0;
inline constexpr uint32_t kPostingsFreqs = 1;
inline constexpr uint32_t kPostingsPositions = 2 | kPostingsFreqs;
inline constexpr uint32_t kPostingsOffsets = 4 | kPostingsPositions;
inline constexpr uint32_t kPostingsPayloads = 8 | kPostingsPositions;

class INVERT_EXPORT PostingsEnum {
 public:
  static constexpr uint32_t kNoMoreDocs = UINT32_MAX;

  virtual ~PostingsEnum();

  // Moves to the next live document and returns it; kNoMoreDocs at the end (or
  // on error: see status()).
  virtual uint32_t NextDoc() = 0;
  // Moves to the first live document >= target and returns it (kNoMoreDocs if
  // none). Never moves backwards: if the current document is already >=
  // target, stays on it. Skips whole 128-document blocks by their headers
  // without decoding them.
  virtual uint32_t Advance(uint32_t target) = 0;
  // The current document; kNoMoreDocs before the first NextDoc/Advance and
  // after the end.
  virtual uint32_t doc() const = 0;
  // Occurrences of the term in the current document; 1 when the field does
  // not index frequencies.
  virtual uint32_t freq() const = 0;
  // The term's document frequency in this segment (deleted documents
  // counted): an upper bound of the documents left, for planning
  // intersections.
  virtual uint64_t cost() const = 0;

  // Reads the current document's next position (at most freq() per
  // document). False when positions were not requested (status() says so),
  // when freq() positions were read already, or on corrupt data.
  virtual bool NextPosition() = 0;
  // Of the last position NextPosition read.
  virtual uint32_t position() const = 0;
  // UTF-8 byte offsets of the token in the field's value (multi-valued
  // fields: as documented for IndexWriterOptions::offset_gap). 0 unless
  // kPostingsOffsets was requested.
  virtual uint32_t start_offset() const = 0;
  virtual uint32_t end_offset() const = 0;
  // The token's payload (may be empty); empty unless kPostingsPayloads was
  // requested. Valid until the next NextPosition/NextDoc/Advance.
  virtual std::string_view payload() const = 0;

  // OK, or why the iteration stopped early.
  virtual const absl::Status& status() const = 0;
};

}  // namespace invert

#endif  // INVERT_POSTINGS_ENUM_H_

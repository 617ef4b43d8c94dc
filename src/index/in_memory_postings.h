// InMemoryPostingsIterator: reads one term's postings back out of a
// PostingsWriterPerField's streams (format in postings_writer_per_field.h),
// doc by doc and position by position. The flush and the tests read the
// in-memory segment through it.
//
// Usage:
//   InMemoryPostingsIterator it(field, term_id);
//   while (it.NextDoc()) {
//     use it.doc(), it.freq();
//     for (uint32_t i = 0; i < it.freq(); ++i) { it.NextPosition(); use it.position() ... }
//   }
// Positions not read before NextDoc() are skipped. freq() is 1 when the field
// does not index freqs.
//
// Thread safety: none; reads must not overlap writes to the field.
#ifndef INVERT_INDEX_IN_MEMORY_POSTINGS_H_
#define INVERT_INDEX_IN_MEMORY_POSTINGS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "index/postings_writer_per_field.h"
#include "util/byte_slices.h"

namespace invert {

class InMemoryPostingsIterator {
 public:
  InMemoryPostingsIterator(const PostingsWriterPerField& field, uint32_t term_id);

  // Advances to the next doc; returns false when there are no more.
  bool NextDoc() {
    if (positions_left_ == 0 && !docs_.eof()) [[likely]] {
      ReadDocCode();
      StartDoc();
      return true;
    }
    return NextDocSlow();
  }
  uint32_t doc() const { return doc_; }
  uint32_t freq() const { return freq_; }

  // Reads the next position of the current doc. REQUIRES: positions indexed
  // and fewer than freq() positions read in this doc.
  void NextPosition() {
    --positions_left_;
    uint32_t code;
    if (!prox_.ReadVInt(&code)) Corrupted();
    const uint32_t has_payload = has_payloads_ ? code & 1 : 0;
    position_ += has_payloads_ ? code >> 1 : code;
    if (has_payload != 0 || has_offsets_) {
      ReadPositionExtras(has_payload != 0);
    } else {
      payload_.clear();
    }
  }
  uint32_t position() const { return position_; }
  uint32_t start_offset() const { return start_offset_; }
  uint32_t end_offset() const { return end_offset_; }
  // Valid until the next NextPosition().
  std::string_view payload() const { return payload_; }

 private:
  uint32_t ReadProxVInt();
  // NextDoc() when positions are left to skip or the doc stream is done (the
  // last doc lives in the PostingState, not in the stream).
  bool NextDocSlow();
  // Decodes the next doc delta (and freq) from the doc stream.
  void ReadDocCode() {
    uint32_t code;
    if (!docs_.ReadVInt(&code)) Corrupted();
    if (!has_freqs_) {
      doc_ += code;
      freq_ = 1;
    } else {
      doc_ += code >> 1;
      if (code & 1) {
        freq_ = 1;
      } else if (!docs_.ReadVInt(&freq_)) {
        Corrupted();
      }
    }
  }
  void StartDoc() {
    position_ = 0;
    start_offset_ = 0;
    positions_left_ = has_positions_ ? freq_ : 0;
  }
  // The payload (if has_payload) and offsets of the position just read.
  void ReadPositionExtras(bool has_payload);
  // The streams were written by this process: a short read is a bug.
  [[noreturn]] static void Corrupted();

  const PostingState& state_;
  SliceReader docs_;
  SliceReader prox_;
  bool has_freqs_;
  bool has_positions_;
  bool has_offsets_;
  bool has_payloads_;          // position codes carry the payload bit
  bool pending_done_ = false;  // the pending last doc was returned
  uint32_t doc_ = 0;
  uint32_t freq_ = 0;
  uint32_t positions_left_ = 0;
  uint32_t position_ = 0;
  uint32_t start_offset_ = 0;
  uint32_t end_offset_ = 0;
  std::string payload_;
};

}  // namespace invert

#endif  // INVERT_INDEX_IN_MEMORY_POSTINGS_H_

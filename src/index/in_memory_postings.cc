// InMemoryPostingsIterator: decoding of the postings streams.
#include "index/in_memory_postings.h"

#include <cassert>
#include <cstdlib>

namespace invert {

InMemoryPostingsIterator::InMemoryPostingsIterator(const PostingsWriterPerField& field,
                                                   uint32_t term_id)
    : state_(field.terms().state(term_id)),
      docs_(field.terms().StreamReader(term_id, PostingsWriterPerField::kDocStream)),
      has_freqs_(HasFreqs(field.options())),
      has_positions_(HasPositions(field.options())),
      has_offsets_(HasOffsets(field.options())) {
  if (has_positions_)
    prox_ = field.terms().StreamReader(term_id, PostingsWriterPerField::kPositionStream);
}

uint32_t InMemoryPostingsIterator::ReadProxVInt() {
  uint32_t value = 0;
  // The streams were written by this process; a short read is a bug.
  if (!prox_.ReadVInt(&value)) std::abort();
  return value;
}

bool InMemoryPostingsIterator::NextDoc() {
  while (positions_left_ > 0) NextPosition();
  if (!docs_.eof()) {
    uint32_t code = 0;
    if (!docs_.ReadVInt(&code)) std::abort();
    if (!has_freqs_) {
      doc_ += code;
      freq_ = 1;
    } else {
      doc_ += code >> 1;
      if (code & 1) {
        freq_ = 1;
      } else if (!docs_.ReadVInt(&freq_)) {
        std::abort();
      }
    }
  } else if (!pending_done_) {
    pending_done_ = true;
    doc_ = state_.last_doc_id;
    freq_ = has_freqs_ ? state_.term_freq : 1;
  } else {
    return false;
  }
  position_ = 0;
  start_offset_ = 0;
  positions_left_ = has_positions_ ? freq_ : 0;
  return true;
}

void InMemoryPostingsIterator::NextPosition() {
  assert(positions_left_ > 0);
  --positions_left_;
  const uint32_t code = ReadProxVInt();
  position_ += code >> 1;
  payload_.clear();
  if (code & 1) {
    const uint32_t length = ReadProxVInt();
    payload_.resize(length);
    if (!prox_.ReadBytes(reinterpret_cast<uint8_t*>(payload_.data()), length)) std::abort();
  }
  if (has_offsets_) {
    start_offset_ += ReadProxVInt();
    end_offset_ = start_offset_ + ReadProxVInt();
  }
}

}  // namespace invert

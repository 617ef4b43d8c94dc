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
      has_offsets_(HasOffsets(field.options())),
      has_payloads_(field.has_payloads()) {
  if (has_positions_)
    prox_ = field.terms().StreamReader(term_id, PostingsWriterPerField::kPositionStream);
}

uint32_t InMemoryPostingsIterator::ReadProxVInt() {
  uint32_t value = 0;
  if (!prox_.ReadVInt(&value)) Corrupted();
  return value;
}

bool InMemoryPostingsIterator::NextDocSlow() {
  while (positions_left_ > 0) NextPosition();
  if (!docs_.eof()) {
    ReadDocCode();
  } else if (!pending_done_) {
    pending_done_ = true;
    doc_ = state_.last_doc_id;
    freq_ = has_freqs_ ? state_.term_freq : 1;
  } else {
    return false;
  }
  StartDoc();
  return true;
}

void InMemoryPostingsIterator::ReadPositionExtras(bool has_payload) {
  payload_.clear();
  if (has_payload) {
    const uint32_t length = ReadProxVInt();
    payload_.resize(length);
    if (!prox_.ReadBytes(reinterpret_cast<uint8_t*>(payload_.data()), length)) Corrupted();
  }
  if (has_offsets_) {
    start_offset_ += ReadProxVInt();
    end_offset_ = start_offset_ + ReadProxVInt();
  }
}

void InMemoryPostingsIterator::Corrupted() { std::abort(); }

}  // namespace invert

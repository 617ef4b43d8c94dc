// TermVectorsWriterPerField: per-document term vectors in a chained hash.
#include "index/term_vectors_writer_per_field.h"

#include <vector>

namespace invert {

TermVectorsWriterPerField::TermVectorsWriterPerField(TermsHash* chained, const FieldType& type,
                                                     RamCounter* counter)
    : positions_(type.term_vector_positions),
      offsets_(type.term_vector_offsets),
      payloads_(type.term_vector_payloads),
      terms_(chained, (positions_ && offsets_) ? 2 : 1, counter) {}

void TermVectorsWriterPerField::Add(uint32_t term_entry_address, uint32_t position,
                                    uint32_t start_offset, uint32_t end_offset,
                                    std::string_view payload) {
  const auto added = terms_.AddByPoolOffset(term_entry_address);
  TermVectorState& s = *added.state;
  if (added.is_new) s = TermVectorState{0, 0, 0};
  ++s.freq;
  if (positions_) {
    const uint32_t delta = position - s.last_position;
    s.last_position = position;
    if (payloads_ && !payload.empty()) {
      terms_.WriteVInt(positions_stream(), delta << 1 | 1);
      terms_.WriteVInt(positions_stream(), static_cast<uint32_t>(payload.size()));
      terms_.WriteBytes(positions_stream(), reinterpret_cast<const uint8_t*>(payload.data()),
                        payload.size());
    } else {
      terms_.WriteVInt(positions_stream(), delta << 1);
    }
  }
  if (offsets_) {
    terms_.WriteVInt(offsets_stream(), start_offset - s.last_start_offset);
    terms_.WriteVInt(offsets_stream(), end_offset - start_offset);
    s.last_start_offset = start_offset;
  }
}

namespace {

// Appends [fixed32 length][bytes] of a stream in one pass: the length is
// patched in after the copy.
void AppendStream(SliceReader reader, CountedArray<uint8_t>* out) {
  const size_t at = out->size();
  const uint8_t zero[4] = {0, 0, 0, 0};
  out->Append(zero, 4);
  const uint8_t* data;
  while (size_t n = reader.NextChunk(&data)) out->Append(data, n);
  const uint32_t length = static_cast<uint32_t>(out->size() - at - 4);
  for (int i = 0; i < 4; ++i) (*out)[at + i] = static_cast<uint8_t>(length >> (8 * i));
}

}  // namespace

bool TermVectorsWriterPerField::FinishDocument(uint32_t field_number, CountedArray<uint8_t>* out) {
  if (terms_.size() == 0) return false;
  const std::vector<uint32_t> sorted = terms_.SortTerms();
  AppendVInt(out, field_number);
  AppendVInt(out, sorted.size());
  for (uint32_t id : sorted) {
    AppendVInt(out, terms_.term_entry_address(id));
    AppendVInt(out, terms_.state(id).freq);
    if (positions_) AppendStream(terms_.StreamReader(id, positions_stream()), out);
    if (offsets_) AppendStream(terms_.StreamReader(id, offsets_stream()), out);
  }
  terms_.Reset(/*keep_capacity=*/true);
  return true;
}

}  // namespace invert

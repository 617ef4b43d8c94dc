// TermVectorsWriterPerField: builds one field's term vector for the current
// document in a chained TermsHash (its terms are the primary's term entries,
// referenced by address, never copied), and at the end of the document
// appends it in sorted term order to the segment's term-vector buffer.
//
// Streams of a term (present as the field type asks):
//   positions: VInt(position_delta << 1 | has_payload) [VInt(length), bytes]
//   offsets:   VInt(start_offset - previous start_offset), VInt(end - start)
// Deltas start from 0 in each document.
//
// Serialized field entry (TermVectorsBuffer, see term_vectors_buffer.h):
//   VInt field_number, VInt term_count, then per term in byte order:
//   VInt term_entry_address (in the primary's term pool), VInt freq,
//   [fixed32 n, n bytes of the positions stream]  if positions
//   [fixed32 n, n bytes of the offsets stream]    if offsets
// (in-memory only; the term-vectors file has its own format).
//
// Thread safety: none.
#ifndef INVERT_INDEX_TERM_VECTORS_WRITER_PER_FIELD_H_
#define INVERT_INDEX_TERM_VECTORS_WRITER_PER_FIELD_H_

#include <cstdint>
#include <string_view>

#include "index/terms_hash_per_field.h"
#include "invert/field_type.h"
#include "util/counted_array.h"

namespace invert {

struct TermVectorState {
  uint32_t freq;
  uint32_t last_position;
  uint32_t last_start_offset;
};

class TermVectorsWriterPerField {
 public:
  // REQUIRES: type.term_vectors; `chained` is a chained TermsHash.
  TermVectorsWriterPerField(TermsHash* chained, const FieldType& type, RamCounter* counter);

  // Adds one occurrence of the primary term whose entry is at
  // `term_entry_address`.
  void Add(uint32_t term_entry_address, uint32_t position, uint32_t start_offset,
           uint32_t end_offset, std::string_view payload);

  bool empty() const { return terms_.size() == 0; }

  // Appends this document's vector (if any term was added) to `out` as a
  // field entry and forgets the terms. Returns true iff an entry was written.
  // The caller resets the chained TermsHash's pools after the document.
  bool FinishDocument(uint32_t field_number, CountedArray<uint8_t>* out);

  bool has_positions() const { return positions_; }
  bool has_offsets() const { return offsets_; }
  bool has_payloads() const { return payloads_; }
  // The current document's terms (for RAM accounting and estimates).
  const TermsHashPerField<TermVectorState>& terms() const { return terms_; }

 private:
  int positions_stream() const { return 0; }
  int offsets_stream() const { return positions_ ? 1 : 0; }

  bool positions_;
  bool offsets_;
  bool payloads_;
  TermsHashPerField<TermVectorState> terms_;
};

// Appends VInt(value) to `out`.
inline void AppendVInt(CountedArray<uint8_t>* out, uint64_t value) {
  uint8_t buf[10];
  size_t n = 0;
  while (value >= 0x80) {
    buf[n++] = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  buf[n++] = static_cast<uint8_t>(value);
  out->Append(buf, n);
}

}  // namespace invert

#endif  // INVERT_INDEX_TERM_VECTORS_WRITER_PER_FIELD_H_

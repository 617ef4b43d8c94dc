// FieldType: how the indexing chain treats a field: whether and how it is
// inverted, whether its value is stored, and whether it gets norms and term
// vectors. A field name's type is fixed by its first use in a segment's
// writer; a later document that uses the name with a different type is
// rejected as a whole.
#ifndef INVERT_FIELD_TYPE_H_
#define INVERT_FIELD_TYPE_H_

#include <string>

#include "absl/status/status.h"
#include "invert/export.h"
#include "invert/index_options.h"

namespace invert {

struct INVERT_EXPORT FieldType {
  // What the postings record; kNone: the field is not inverted.
  IndexOptions index_options = IndexOptions::kNone;
  // Text values: true = analyzed by the field's analyzer; false = the whole
  // value is one term (a keyword). Ignored for pre-analyzed token values.
  bool tokenized = true;
  // Keep the value in the stored fields, retrievable per document.
  bool stored = false;
  // Record the field's length per document (one byte, see docs/format.md).
  // Only for inverted fields.
  bool norms = true;
  // Index token payloads with the positions. REQUIRES positions.
  bool payloads = false;
  // Term vectors: a per-document inverted index of this field. REQUIRES an
  // inverted field. Positions, offsets and payloads are each optional;
  // term_vector_payloads REQUIRES term_vector_positions.
  bool term_vectors = false;
  bool term_vector_positions = false;
  bool term_vector_offsets = false;
  bool term_vector_payloads = false;

  // Returns OK iff the combination is meaningful (see the REQUIRES above, and
  // at least one of index_options != kNone or stored).
  absl::Status Validate() const;

  // The type in words, for messages, e.g. "text (tokenized; indexed with
  // docs, freqs and positions; norms; stored; no term vectors)".
  std::string Describe() const;

  bool indexed() const { return index_options != IndexOptions::kNone; }
  bool has_norms() const { return indexed() && norms; }

  bool operator==(const FieldType&) const = default;

  // Analyzed text with docs, freqs, positions and norms (a body or a title).
  static FieldType Text(bool stored = false);
  // One untokenized term, docs only, no norms (an id, a tag).
  static FieldType Keyword(bool stored = false);
  // Stored, not inverted.
  static FieldType StoredOnly();
};

// A field of an index's schema: its name and the type it is fixed to (the
// writer's schema(), the reader's fields()).
struct FieldSchema {
  std::string name = {};
  FieldType type = {};
  bool operator==(const FieldSchema&) const = default;
};

}  // namespace invert

#endif  // INVERT_FIELD_TYPE_H_

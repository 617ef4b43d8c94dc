// FieldType validation and presets.
#include "invert/field_type.h"

namespace invert {

absl::Status FieldType::Validate() const {
  if (!indexed() && !stored) {
    return absl::InvalidArgumentError("field type neither indexes nor stores the field");
  }
  if (payloads && !HasPositions(index_options)) {
    return absl::InvalidArgumentError("payloads require an index option with positions");
  }
  if (term_vectors && !indexed()) {
    return absl::InvalidArgumentError("term vectors require an indexed field");
  }
  if (!term_vectors && (term_vector_positions || term_vector_offsets || term_vector_payloads)) {
    return absl::InvalidArgumentError(
        "term vector positions, offsets or payloads require term_vectors");
  }
  if (term_vector_payloads && !term_vector_positions) {
    return absl::InvalidArgumentError("term vector payloads require term vector positions");
  }
  return absl::OkStatus();
}

FieldType FieldType::Text(bool stored) {
  FieldType t;
  t.index_options = IndexOptions::kDocsAndFreqsAndPositions;
  t.tokenized = true;
  t.stored = stored;
  t.norms = true;
  return t;
}

FieldType FieldType::Keyword(bool stored) {
  FieldType t;
  t.index_options = IndexOptions::kDocs;
  t.tokenized = false;
  t.stored = stored;
  t.norms = false;
  return t;
}

FieldType FieldType::StoredOnly() {
  FieldType t;
  t.index_options = IndexOptions::kNone;
  t.tokenized = false;
  t.stored = true;
  t.norms = false;
  return t;
}

}  // namespace invert

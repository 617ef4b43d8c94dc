// FieldType validation and presets.
#include "invert/field_type.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace invert {

std::string FieldType::Describe() const {
  std::vector<std::string> parts;
  const char* kind = "stored only";
  if (indexed()) {
    kind = tokenized ? "text" : "keyword";
    parts.push_back(tokenized ? "tokenized" : "untokenized");
    switch (index_options) {
      case IndexOptions::kDocs:
        parts.push_back("indexed with docs");
        break;
      case IndexOptions::kDocsAndFreqs:
        parts.push_back("indexed with docs and freqs");
        break;
      case IndexOptions::kDocsAndFreqsAndPositions:
        parts.push_back("indexed with docs, freqs and positions");
        break;
      default:
        parts.push_back("indexed with docs, freqs, positions and offsets");
        break;
    }
    if (payloads) parts.push_back("payloads");
    parts.push_back(norms ? "norms" : "no norms");
  }
  parts.push_back(stored ? "stored" : "not stored");
  if (indexed()) {
    if (term_vectors) {
      std::vector<std::string> with;
      if (term_vector_positions) with.push_back("positions");
      if (term_vector_offsets) with.push_back("offsets");
      if (term_vector_payloads) with.push_back("payloads");
      parts.push_back(with.empty() ? std::string("term vectors")
                                   : absl::StrCat("term vectors with ", absl::StrJoin(with, ", ")));
    } else {
      parts.push_back("no term vectors");
    }
  }
  return absl::StrCat(kind, " (", absl::StrJoin(parts, "; "), ")");
}

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

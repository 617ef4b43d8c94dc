// What a reader returns per document, as plain values: its stored fields
// (StoredDocument) and its term vectors (TermVector).
#ifndef INVERT_STORED_DOCUMENT_H_
#define INVERT_STORED_DOCUMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace invert {

// One stored value: the field's name and the value's bytes (the UTF-8 text
// or the bytes that were indexed).
struct StoredValue {
  std::string field;
  std::string value;
  bool operator==(const StoredValue&) const = default;
};

// The stored values of one document, in the order the document gave them (a
// multi-valued field has several entries with its name).
struct StoredDocument {
  std::vector<StoredValue> values;

  // The first value of `field`, or nullopt. The view points into this
  // document.
  std::optional<std::string_view> Get(std::string_view field) const {
    for (const StoredValue& v : values) {
      if (v.field == field) return std::string_view(v.value);
    }
    return std::nullopt;
  }
  // Every value of `field`, in order.
  std::vector<std::string_view> GetAll(std::string_view field) const {
    std::vector<std::string_view> out;
    for (const StoredValue& v : values) {
      if (v.field == field) out.emplace_back(v.value);
    }
    return out;
  }
  bool operator==(const StoredDocument&) const = default;
};

// One term of a document's term vector.
struct TermVectorTerm {
  std::string term;
  uint32_t freq = 0;  // occurrences in the document's field
  // freq entries each when the field's vectors record them, else empty.
  std::vector<uint32_t> positions;
  std::vector<uint32_t> start_offsets;
  std::vector<uint32_t> end_offsets;
  std::vector<std::string> payloads;
  bool operator==(const TermVectorTerm&) const = default;
};

// One field's term vector in one document: its terms in increasing
// unsigned-byte order.
struct TermVector {
  std::string field;
  bool has_positions = false;
  bool has_offsets = false;
  bool has_payloads = false;
  std::vector<TermVectorTerm> terms;
  bool operator==(const TermVector&) const = default;
};

}  // namespace invert

#endif  // INVERT_STORED_DOCUMENT_H_

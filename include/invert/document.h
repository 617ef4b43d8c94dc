// Document and Field: what a pipeline hands to the indexing chain.
//
// A Field is a name, a FieldType and a value, which is either
//   * text: analyzed by the field's analyzer when the type is tokenized, or
//     indexed as one term (a keyword) when it is not; stored as is; or
//   * pre-analyzed tokens, for pipelines that tokenize themselves: each token
//     carries its term bytes, position increment, offsets and payload, and the
//     field may carry a separate value to store.
// A name may appear several times in a document (a multi-valued field): the
// values are inverted one after another, positions continuing (plus the
// writer's position gap) and offsets shifted past the previous value.
//
// Fields do not own their bytes: names, values and tokens must stay valid
// until AddDocument() returns. Building a document copies nothing. A
// temporary std::string as a name or value would be gone by then, so Text(),
// Keyword() and Stored() reject one at compile time; keep the string in a
// variable that outlives AddDocument().
#ifndef INVERT_DOCUMENT_H_
#define INVERT_DOCUMENT_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "invert/field_type.h"

namespace invert {

// One token of a pre-analyzed field value. Offsets are byte offsets into the
// value the token came from; the first token's position_increment must be
// positive (it usually is 1, putting the token at position 0).
struct PreAnalyzedToken {
  std::string_view term = {};
  uint32_t position_increment = 1;
  uint32_t start_offset = 0;
  uint32_t end_offset = 0;
  std::string_view payload = {};
};

namespace internal {
// True when a name or value argument is a std::string that dies at the end of
// the full-expression (a prvalue or a moved-from xvalue): the types as deduced
// for forwarding `T&&` parameters.
template <typename Name, typename Value>
concept HasTemporaryString =
    std::is_same_v<Name, std::string> || std::is_same_v<Value, std::string>;
}  // namespace internal

class Field {
 public:
  enum class Kind { kText, kTokens };

  // Deleted: the Field would view the bytes of a temporary string (see the
  // top of this file). Chosen over the string_view overloads below only when
  // the name or the value is a std::string rvalue.
  template <typename Name, typename Value>
  requires internal::HasTemporaryString<Name, Value>
  static Field Text(Name&&, Value&&, const FieldType& = FieldType::Text()) = delete;
  template <typename Name, typename Value>
  requires internal::HasTemporaryString<Name, Value>
  static Field Keyword(Name&&, Value&&, FieldType = FieldType::Keyword()) = delete;
  template <typename Name, typename Value>
  requires internal::HasTemporaryString<Name, Value>
  static Field Stored(Name&&, Value&&) = delete;

  // Analyzed text (Text() type unless given).
  static Field Text(std::string_view name, std::string_view value,
                    const FieldType& type = FieldType::Text()) {
    return Field(name, type, Kind::kText, value, {}, std::nullopt);
  }
  // One untokenized term (Keyword() type unless given; tokenized is forced off).
  static Field Keyword(std::string_view name, std::string_view value,
                       FieldType type = FieldType::Keyword()) {
    type.tokenized = false;
    return Field(name, type, Kind::kText, value, {}, std::nullopt);
  }
  // A stored value that is not inverted.
  static Field Stored(std::string_view name, std::string_view value) {
    return Field(name, FieldType::StoredOnly(), Kind::kText, value, {}, std::nullopt);
  }
  // Pre-analyzed tokens; `stored_value` is what the stored fields keep when
  // the type is stored (nothing is stored without it).
  static Field Tokens(std::string_view name, std::span<const PreAnalyzedToken> tokens,
                      const FieldType& type,
                      std::optional<std::string_view> stored_value = std::nullopt) {
    return Field(name, type, Kind::kTokens, {}, tokens, stored_value);
  }

  std::string_view name() const { return name_; }
  const FieldType& type() const { return type_; }
  Kind kind() const { return kind_; }
  // The text value (kText).
  std::string_view text() const { return text_; }
  // The tokens (kTokens).
  std::span<const PreAnalyzedToken> tokens() const { return tokens_; }
  // What the stored fields keep for this value, if the type is stored.
  std::optional<std::string_view> stored_value() const {
    if (kind_ == Kind::kText) return text_;
    return stored_value_;
  }

 private:
  Field(std::string_view name, const FieldType& type, Kind kind, std::string_view text,
        std::span<const PreAnalyzedToken> tokens, std::optional<std::string_view> stored_value)
      : name_(name),
        type_(type),
        kind_(kind),
        text_(text),
        tokens_(tokens),
        stored_value_(stored_value) {}

  std::string_view name_;
  FieldType type_;
  Kind kind_;
  std::string_view text_;
  std::span<const PreAnalyzedToken> tokens_;
  std::optional<std::string_view> stored_value_;
};

struct Document {
  std::vector<Field> fields;

  Document& Add(Field field) {
    fields.push_back(field);
    return *this;
  }
};

}  // namespace invert

#endif  // INVERT_DOCUMENT_H_

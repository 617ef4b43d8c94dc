// LineDocSchema: how a line document (title, date, body, id) becomes a
// Document, the same way for the invert-index CLI and the benchmarks.
// Fields, as in luceneutil's Wikipedia indexing:
//   id     keyword, stored
//   title  analyzed text (docs, freqs, positions, norms), stored
//   date   stored only
//   body   analyzed text with positions and norms; optionally stored, and
//          optionally with term vectors (positions and offsets)
#ifndef INVERT_INDEX_LINE_DOC_SCHEMA_H_
#define INVERT_INDEX_LINE_DOC_SCHEMA_H_

#include <string_view>

#include "invert/document.h"

namespace invert {

struct LineDocSchemaOptions {
  bool body_term_vectors = false;
  bool store_body = false;
};

class LineDocSchema {
 public:
  explicit LineDocSchema(const LineDocSchemaOptions& options = {}) {
    body_ = FieldType::Text(options.store_body);
    if (options.body_term_vectors) {
      body_.term_vectors = true;
      body_.term_vector_positions = true;
      body_.term_vector_offsets = true;
    }
  }

  // Fills *doc (cleared first) with the fields of one line document. The
  // document points at the given views.
  void Build(std::string_view id, std::string_view title, std::string_view date,
             std::string_view body, Document* doc) const {
    doc->fields.clear();
    doc->Add(Field::Keyword("id", id, FieldType::Keyword(/*stored=*/true)));
    doc->Add(Field::Text("title", title, FieldType::Text(/*stored=*/true)));
    doc->Add(Field::Stored("date", date));
    doc->Add(Field::Text("body", body, body_));
  }

  const FieldType& body_type() const { return body_; }

 private:
  FieldType body_;
};

}  // namespace invert

#endif  // INVERT_INDEX_LINE_DOC_SCHEMA_H_

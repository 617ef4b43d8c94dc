// LineDocSchema: the fields of a line document (see invert/line_docs.h).
#include "invert/line_docs.h"

namespace invert {

LineDocSchema::LineDocSchema(const LineDocSchemaOptions& options)
    : body_(FieldType::Text(options.store_body)) {
  if (options.body_term_vectors) {
    body_.term_vectors = true;
    body_.term_vector_positions = true;
    body_.term_vector_offsets = true;
  }
}

void LineDocSchema::Build(std::string_view id, std::string_view title, std::string_view date,
                          std::string_view body, Document* doc) const {
  doc->fields.clear();
  doc->Add(Field::Keyword("id", id, FieldType::Keyword(/*stored=*/true)));
  doc->Add(Field::Text("title", title, FieldType::Text(/*stored=*/true)));
  doc->Add(Field::Stored("date", date));
  doc->Add(Field::Text("body", body, body_));
}

}  // namespace invert

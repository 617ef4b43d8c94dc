// Tests of LineDocSchema (invert/line_docs.h): the four fields, their
// documented types, the options' effect on the body, and that Build clears
// the document and points at the given bytes.
#include <string>
#include <string_view>

#include "gtest/gtest.h"
#include "invert/line_docs.h"

namespace invert {
namespace {

TEST(LineDocSchemaTest, BuildsTheFourFieldsWithTheirTypes) {
  const LineDocSchema schema;
  Document doc;
  schema.Build("7", "A title", "2024-01-02", "the body", &doc);
  ASSERT_EQ(doc.fields.size(), 4u);
  EXPECT_EQ(doc.fields[0].name(), "id");
  EXPECT_EQ(doc.fields[0].text(), "7");
  EXPECT_EQ(doc.fields[0].type().index_options, IndexOptions::kDocs);
  EXPECT_FALSE(doc.fields[0].type().tokenized);
  EXPECT_TRUE(doc.fields[0].type().stored);
  EXPECT_EQ(doc.fields[1].name(), "title");
  EXPECT_EQ(doc.fields[1].type(), FieldType::Text(/*stored=*/true));
  EXPECT_EQ(doc.fields[2].name(), "date");
  EXPECT_EQ(doc.fields[2].type(), FieldType::StoredOnly());
  EXPECT_EQ(doc.fields[3].name(), "body");
  EXPECT_EQ(doc.fields[3].text(), "the body");
  EXPECT_EQ(doc.fields[3].type(), FieldType::Text(/*stored=*/false));
  EXPECT_EQ(schema.body_type(), doc.fields[3].type());
}

TEST(LineDocSchemaTest, OptionsChangeOnlyTheBody) {
  const LineDocSchema plain;
  const LineDocSchema rich({.body_term_vectors = true, .store_body = true});
  Document a, b;
  plain.Build("1", "t", "d", "b", &a);
  rich.Build("1", "t", "d", "b", &b);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(a.fields[i].type(), b.fields[i].type()) << i;
  const FieldType& body = b.fields[3].type();
  EXPECT_TRUE(body.stored);
  EXPECT_TRUE(body.term_vectors);
  EXPECT_TRUE(body.term_vector_positions);
  EXPECT_TRUE(body.term_vector_offsets);
  EXPECT_FALSE(body.term_vector_payloads);
  EXPECT_TRUE(body.Validate().ok()) << body.Validate();
}

TEST(LineDocSchemaTest, BuildFromASourceDocClearsAndPointsAtItsBytes) {
  const LineDocSchema schema;
  Document doc;
  doc.Add(Field::Stored("left over", "x"));
  const std::string body = "body bytes";
  const SourceDoc source{"id", "title", "date", body, 3};
  schema.Build(source, &doc);
  ASSERT_EQ(doc.fields.size(), 4u);
  EXPECT_EQ(doc.fields[0].name(), "id");
  EXPECT_EQ(doc.fields[3].text().data(), body.data());
}

}  // namespace
}  // namespace invert

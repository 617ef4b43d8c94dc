// The schema check invert-index runs before adding anything: the fields a
// line document will have (LineDocSchema, invert/line_docs.h) against the
// types the index already fixed for them (IndexWriter::schema()). A field
// keeps the type of its first use for the whole index, so a run whose flags
// give a field another type would have every document rejected; this says
// so up front, in words, with the flag that fixes it.
#ifndef INVERT_TOOLS_INDEX_SCHEMA_CHECK_H_
#define INVERT_TOOLS_INDEX_SCHEMA_CHECK_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "invert/field_type.h"
#include "invert/index_writer.h"
#include "invert/line_docs.h"

namespace invert::tools {

// Words for a field type, e.g. "indexed with docs+freqs+positions, analyzed
// text, stored, with norms, with term vectors (positions+offsets)".
std::string DescribeFieldType(const FieldType& type);

// OK iff no field of the line-doc schema built from `run` has a different
// type in `index_schema` (attributes that do not apply, such as the norms of
// a field that is not indexed, are ignored). Otherwise FailedPrecondition
// naming the first such field, how it differs and the fix, e.g.
//   the index's "body" field has term vectors (positions+offsets); this run
//   would add it without term vectors: pass --term-vectors to append, or
//   --overwrite
absl::Status CheckLineDocSchema(const std::vector<FieldSchema>& index_schema,
                                const LineDocSchemaOptions& run);

// OK iff `field` can be the key of --update-key: a field of the line-doc
// schema built from `run` indexed as one keyword term per value, so that a
// document's value is matched whole, as indexed. Otherwise InvalidArgument
// starting with the field in quotes and saying why and which fields can be
// keys, e.g.
//   "title" is analyzed text: a value is split into many terms, so it cannot
//   identify a document; use a keyword field: id
absl::Status CheckKeyField(std::string_view field, const LineDocSchemaOptions& run);

// The same for --delete-ids against the index's own schema: FailedPrecondition
// when the index has no such field or it is not a keyword field.
absl::Status CheckIndexKeyField(std::string_view field,
                                const std::vector<FieldSchema>& index_schema);

}  // namespace invert::tools

#endif  // INVERT_TOOLS_INDEX_SCHEMA_CHECK_H_

// Schema check before indexing (see schema_check.h).
#include "schema_check.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace invert::tools {
namespace {

// The type with every attribute that does not apply reset, so that two
// types compare equal iff they index and store the same things.
FieldType Effective(FieldType t) {
  if (!t.indexed()) {
    t.tokenized = false;
    t.norms = false;
    t.payloads = false;
    t.term_vectors = false;
  }
  if (!HasPositions(t.index_options)) t.payloads = false;
  if (!t.term_vectors) {
    t.term_vector_positions = t.term_vector_offsets = t.term_vector_payloads = false;
  }
  return t;
}

const char* PostingsWords(IndexOptions o) {
  switch (o) {
    case IndexOptions::kNone:
      return "nothing";
    case IndexOptions::kDocs:
      return "docs";
    case IndexOptions::kDocsAndFreqs:
      return "docs+freqs";
    case IndexOptions::kDocsAndFreqsAndPositions:
      return "docs+freqs+positions";
    case IndexOptions::kDocsAndFreqsAndPositionsAndOffsets:
      return "docs+freqs+positions+offsets";
  }
  return "?";
}

std::string VectorWords(const FieldType& t) {
  std::vector<const char*> parts;
  if (t.term_vector_positions) parts.push_back("positions");
  if (t.term_vector_offsets) parts.push_back("offsets");
  if (t.term_vector_payloads) parts.push_back("payloads");
  if (parts.empty()) return "term vectors";
  return absl::StrCat("term vectors (", absl::StrJoin(parts, "+"), ")");
}

// One way two types differ: how the index has it ("has term vectors
// (positions+offsets)") and how this run would add it ("without term
// vectors").
struct Difference {
  std::string have;
  std::string want;
};

std::vector<Difference> Differences(const FieldType& have, const FieldType& want) {
  std::vector<Difference> out;
  if (have.index_options != want.index_options) {
    out.push_back({have.indexed()
                       ? absl::StrCat("is indexed with ", PostingsWords(have.index_options))
                       : "is not indexed",
                   want.indexed() ? absl::StrCat("indexed with ", PostingsWords(want.index_options))
                                  : "not indexed"});
  }
  if (have.indexed() && want.indexed() && have.tokenized != want.tokenized) {
    out.push_back({have.tokenized ? "is analyzed text" : "is one keyword term per value",
                   want.tokenized ? "as analyzed text" : "as one keyword term per value"});
  }
  if (have.stored != want.stored) {
    out.push_back(
        {have.stored ? "is stored" : "is not stored", want.stored ? "stored" : "not stored"});
  }
  if (have.indexed() && want.indexed() && have.norms != want.norms) {
    out.push_back(
        {have.norms ? "has norms" : "has no norms", want.norms ? "with norms" : "without norms"});
  }
  if (have.payloads != want.payloads) {
    out.push_back({have.payloads ? "has payloads" : "has no payloads",
                   want.payloads ? "with payloads" : "without payloads"});
  }
  if (have.term_vectors != want.term_vectors ||
      (have.term_vectors && VectorWords(have) != VectorWords(want))) {
    out.push_back(
        {have.term_vectors ? absl::StrCat("has ", VectorWords(have)) : "has no term vectors",
         want.term_vectors ? absl::StrCat("with ", VectorWords(want)) : "without term vectors"});
  }
  return out;
}

// The fields a line document gets with `options`, in order.
std::vector<FieldSchema> LineDocFields(const LineDocSchemaOptions& options) {
  Document doc;
  LineDocSchema(options).Build("", "", "", "", &doc);
  std::vector<FieldSchema> fields;
  for (const Field& f : doc.fields) fields.push_back({std::string(f.name()), f.type()});
  return fields;
}

// How to run so that `field` gets the type `have`, in invert-index flags;
// empty if no combination of its flags does.
std::string FlagsFor(const std::string& field, const FieldType& have,
                     const LineDocSchemaOptions& run) {
  for (const bool tv : {false, true}) {
    for (const bool store : {false, true}) {
      const LineDocSchemaOptions options{.body_term_vectors = tv, .store_body = store};
      for (const FieldSchema& f : LineDocFields(options)) {
        if (f.name != field || Effective(f.type) != Effective(have)) continue;
        std::vector<const char*> fixes;
        if (tv && !run.body_term_vectors) fixes.push_back("pass --term-vectors");
        if (!tv && run.body_term_vectors) fixes.push_back("drop --term-vectors");
        if (store && !run.store_body) fixes.push_back("pass --store-body");
        if (!store && run.store_body) fixes.push_back("drop --store-body");
        if (!fixes.empty()) return absl::StrJoin(fixes, " and ");
      }
    }
  }
  return "";
}

// Why `type` cannot be a key field ("" if it can).
std::string NotAKey(const FieldType& type) {
  if (!type.indexed()) return "is stored only, not indexed: no term matches it";
  if (type.tokenized) {
    return "is analyzed text: a value is split into many terms, so it cannot identify a "
           "document";
  }
  return "";
}

std::string KeyFields(const std::vector<FieldSchema>& fields) {
  std::vector<std::string> keys;
  for (const FieldSchema& f : fields) {
    if (NotAKey(f.type).empty()) keys.push_back(f.name);
  }
  return keys.empty() ? "none" : absl::StrJoin(keys, ", ");
}

}  // namespace

absl::Status CheckKeyField(std::string_view field, const LineDocSchemaOptions& run) {
  const std::vector<FieldSchema> fields = LineDocFields(run);
  for (const FieldSchema& f : fields) {
    if (f.name != field) continue;
    const std::string why = NotAKey(f.type);
    if (why.empty()) return absl::OkStatus();
    return absl::InvalidArgumentError(
        absl::StrCat("\"", f.name, "\" ", why, "; use a keyword field: ", KeyFields(fields)));
  }
  std::vector<std::string> names;
  for (const FieldSchema& f : fields) names.push_back(f.name);
  return absl::InvalidArgumentError(
      absl::StrCat("\"", std::string(field), "\" is not a field of line documents (",
                   absl::StrJoin(names, ", "), "); use a keyword field: ", KeyFields(fields)));
}

absl::Status CheckIndexKeyField(std::string_view field,
                                const std::vector<FieldSchema>& index_schema) {
  for (const FieldSchema& f : index_schema) {
    if (f.name != field) continue;
    const std::string why = NotAKey(f.type);
    if (why.empty()) return absl::OkStatus();
    return absl::FailedPreconditionError(
        absl::StrCat("the index's \"", f.name, "\" field ", why,
                     "; pick a keyword field with --update-key: ", KeyFields(index_schema)));
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "the index has no field \"", std::string(field),
      "\" to match --delete-ids against; pick one with --update-key: ", KeyFields(index_schema)));
}

std::string DescribeFieldType(const FieldType& type) {
  const FieldType t = Effective(type);
  std::vector<std::string> parts;
  if (t.indexed()) {
    parts.push_back(absl::StrCat("indexed with ", PostingsWords(t.index_options)));
    parts.push_back(t.tokenized ? "analyzed text" : "one keyword term per value");
  } else {
    parts.push_back("not indexed");
  }
  parts.push_back(t.stored ? "stored" : "not stored");
  if (t.indexed()) parts.push_back(t.norms ? "with norms" : "without norms");
  if (t.payloads) parts.push_back("with payloads");
  if (t.term_vectors) parts.push_back(absl::StrCat("with ", VectorWords(t)));
  return absl::StrJoin(parts, ", ");
}

absl::Status CheckLineDocSchema(const std::vector<FieldSchema>& index_schema,
                                const LineDocSchemaOptions& run) {
  for (const FieldSchema& want : LineDocFields(run)) {
    for (const FieldSchema& have : index_schema) {
      if (have.name != want.name) continue;
      const std::vector<Difference> diffs = Differences(Effective(have.type), Effective(want.type));
      if (diffs.empty()) break;
      std::vector<std::string> have_words, want_words;
      for (const Difference& d : diffs) {
        have_words.push_back(d.have);
        want_words.push_back(d.want);
      }
      const std::string flags = FlagsFor(have.name, have.type, run);
      return absl::FailedPreconditionError(absl::StrCat(
          "the index's \"", have.name, "\" field ", absl::StrJoin(have_words, " and "),
          "; this run would add it ", absl::StrJoin(want_words, " and "), ": ",
          flags.empty() ? "use --overwrite to replace the index, or another --index directory"
                        : absl::StrCat(flags, " to append, or --overwrite")));
    }
  }
  return absl::OkStatus();
}

}  // namespace invert::tools

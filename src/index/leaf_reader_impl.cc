// LeafReaderImpl and ReaderSchema: field resolution and the conversions from
// the segment formats' records to the public value types.
#include "index/leaf_reader_impl.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "index/terms_enum_impl.h"
#include "util/absl_compat.h"

namespace invert {

LeafReader::~LeafReader() = default;

// ---- ReaderSchema

ReaderSchema::ReaderSchema(const std::vector<FieldInfo>& commit_schema) {
  fields_.reserve(commit_schema.size());
  for (const FieldInfo& f : commit_schema) {
    by_name_.emplace(f.name, fields_.size());
    fields_.push_back(FieldSchema{f.name, f.type});
  }
}

const FieldSchema* ReaderSchema::Find(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &fields_[it->second];
}

absl::Status ReaderSchema::Check(std::string_view name, bool need_indexed) const {
  const FieldSchema* field = Find(name);
  if (field == nullptr) {
    std::string names;
    for (const FieldSchema& f : fields_) absl::StrAppend(&names, names.empty() ? "" : ", ", f.name);
    return absl::NotFoundError(
        absl::StrCat("no field \"", Sv(name),
                     "\" in the index (its fields: ", names.empty() ? "none" : names, ")"));
  }
  if (need_indexed && !field->type.indexed()) {
    return absl::InvalidArgumentError(
        absl::StrCat("field \"", Sv(name), "\" is not indexed: ", field->type.Describe()));
  }
  return absl::OkStatus();
}

// ---- LeafReaderImpl

LeafReaderImpl::LeafReaderImpl(std::shared_ptr<SegmentReader> segment,
                               std::shared_ptr<const LiveDocs> live,
                               std::shared_ptr<const ReaderSchema> schema, uint64_t doc_base)
    : segment_(std::move(segment)),
      live_(std::move(live)),
      schema_(std::move(schema)),
      doc_base_(doc_base) {
  for (const FieldInfo& f : segment_->fields()) fields_.push_back(FieldSchema{f.name, f.type});
}

absl::StatusOr<const FieldInfo*> LeafReaderImpl::IndexedField(std::string_view field) const {
  if (absl::Status s = schema_->Check(field, /*need_indexed=*/true); !s.ok()) return s;
  return segment_->FieldByName(field);
}

absl::Status LeafReaderImpl::CheckDoc(uint32_t doc) const {
  if (doc < max_doc()) return absl::OkStatus();
  return absl::OutOfRangeError(absl::StrCat("doc ", doc, " out of range: segment ", Sv(name()),
                                            " holds ", max_doc(), " documents"));
}

absl::Status LeafReaderImpl::CheckLiveDoc(uint32_t doc) const {
  if (absl::Status s = CheckDoc(doc); !s.ok()) return s;
  if (!IsDeleted(doc)) return absl::OkStatus();
  return absl::NotFoundError(absl::StrCat("doc ", doc, " of segment ", Sv(name()), " (index doc ",
                                          doc_base_ + doc, ") is deleted"));
}

absl::StatusOr<TermsStatistics> LeafReaderImpl::TermsStats(std::string_view field) const {
  absl::StatusOr<const FieldInfo*> info = IndexedField(field);
  if (!info.ok()) return info.status();
  TermsStatistics stats;
  if (*info == nullptr) return stats;
  if (const FieldTermsStats* s = segment_->TermsStats((*info)->number); s != nullptr) {
    stats.term_count = s->term_count;
    stats.sum_doc_freq = s->sum_doc_freq;
    stats.sum_total_term_freq = s->sum_total_term_freq;
    stats.doc_count = s->doc_count;
  }
  return stats;
}

absl::StatusOr<std::unique_ptr<TermsEnum>> LeafReaderImpl::Terms(std::string_view field) const {
  absl::StatusOr<const FieldInfo*> info = IndexedField(field);
  if (!info.ok()) return info.status();
  const TermDictReader* dict = *info == nullptr ? nullptr : segment_->Terms((*info)->number);
  return std::unique_ptr<TermsEnum>(new TermsEnumImpl(segment_, *info, dict, live_));
}

absl::StatusOr<TermStatistics> LeafReaderImpl::TermStats(std::string_view field,
                                                         std::string_view term) const {
  absl::StatusOr<std::unique_ptr<TermsEnum>> terms = Terms(field);
  if (!terms.ok()) return terms.status();
  absl::StatusOr<bool> found = (*terms)->SeekExact(term);
  if (!found.ok()) return found.status();
  if (!*found) return TermStatistics{};
  return TermStatistics{(*terms)->doc_freq(), (*terms)->total_term_freq()};
}

absl::StatusOr<std::unique_ptr<PostingsEnum>> LeafReaderImpl::Postings(std::string_view field,
                                                                       std::string_view term,
                                                                       uint32_t flags) const {
  absl::StatusOr<const FieldInfo*> info = IndexedField(field);
  if (!info.ok()) return info.status();
  if (*info == nullptr) {
    // The segment has no values of the field: check the flags against the
    // schema's type, so that a bad request fails the same in every segment.
    const FieldSchema* f = schema_->Find(field);
    FieldInfo schema_field{f->name, 0, f->type};
    if (absl::Status s = CheckPostingsFlags(schema_field, flags); !s.ok()) return s;
    return std::unique_ptr<PostingsEnum>();
  }
  TermsEnumImpl terms(segment_, *info, segment_->Terms((*info)->number), live_);
  absl::StatusOr<bool> found = terms.SeekExact(term);
  if (!found.ok()) return found.status();
  if (!*found) {
    if (absl::Status s = CheckPostingsFlags(**info, flags); !s.ok()) return s;
    return std::unique_ptr<PostingsEnum>();
  }
  return terms.Postings(flags);
}

absl::StatusOr<uint8_t> LeafReaderImpl::Norm(std::string_view field, uint32_t doc) const {
  absl::StatusOr<const FieldInfo*> info = IndexedField(field);
  if (!info.ok()) return info.status();
  if (*info == nullptr || !segment_->HasNorms((*info)->number)) {
    return absl::NotFoundError(
        absl::StrCat("field \"", Sv(field), "\" has no norms in segment ", Sv(name())));
  }
  if (absl::Status s = CheckDoc(doc); !s.ok()) return s;
  return segment_->Norm((*info)->number, doc);
}

absl::StatusOr<std::string> LeafReaderImpl::FieldName(uint32_t number) const {
  const std::vector<FieldInfo>& fields = segment_->fields();
  if (number < fields.size()) return fields[number].name;
  return absl::DataLossError(absl::StrCat("segment ", Sv(name()),
                                          ": a stored value or vector of field number ", number,
                                          ", which the segment does not have"));
}

absl::StatusOr<StoredDocument> LeafReaderImpl::ToStoredDocument(
    std::vector<StoredField> fields) const {
  StoredDocument doc;
  doc.values.reserve(fields.size());
  for (StoredField& f : fields) {
    absl::StatusOr<std::string> field = FieldName(f.field_number);
    if (!field.ok()) return field.status();
    doc.values.push_back(StoredValue{std::move(*field), std::move(f.value)});
  }
  return doc;
}

absl::StatusOr<StoredDocument> LeafReaderImpl::Document(uint32_t doc) const {
  if (absl::Status s = CheckLiveDoc(doc); !s.ok()) return s;
  absl::StatusOr<std::vector<StoredField>> fields = segment_->stored_fields().Document(doc);
  if (!fields.ok()) return fields.status();
  return ToStoredDocument(std::move(*fields));
}

absl::StatusOr<std::vector<StoredDocument>> LeafReaderImpl::Documents(
    std::span<const uint32_t> docs) const {
  for (uint32_t doc : docs) {
    if (absl::Status s = CheckLiveDoc(doc); !s.ok()) return s;
  }
  absl::StatusOr<std::vector<std::vector<StoredField>>> fields = segment_->StoredDocuments(docs);
  if (!fields.ok()) return fields.status();
  std::vector<StoredDocument> result;
  result.reserve(fields->size());
  for (std::vector<StoredField>& f : *fields) {
    absl::StatusOr<StoredDocument> doc = ToStoredDocument(std::move(f));
    if (!doc.ok()) return doc.status();
    result.push_back(std::move(*doc));
  }
  return result;
}

absl::StatusOr<std::vector<TermVector>> LeafReaderImpl::TermVectors(uint32_t doc) const {
  if (absl::Status s = CheckLiveDoc(doc); !s.ok()) return s;
  absl::StatusOr<std::vector<TermVectorFieldData>> data = segment_->term_vectors().Get(doc);
  if (!data.ok()) return data.status();
  std::vector<TermVector> vectors;
  vectors.reserve(data->size());
  for (TermVectorFieldData& f : *data) {
    absl::StatusOr<std::string> field = FieldName(f.field_number);
    if (!field.ok()) return field.status();
    TermVector v;
    v.field = std::move(*field);
    v.has_positions = f.has_positions;
    v.has_offsets = f.has_offsets;
    v.has_payloads = f.has_payloads;
    v.terms.reserve(f.terms.size());
    for (TermVectorTermData& t : f.terms) {
      v.terms.push_back(TermVectorTerm{std::move(t.term), t.freq, std::move(t.positions),
                                       std::move(t.start_offsets), std::move(t.end_offsets),
                                       std::move(t.payloads)});
    }
    vectors.push_back(std::move(v));
  }
  return vectors;
}

absl::Status LeafReaderImpl::CheckIntegrity() const {
  absl::Status s = segment_->CheckIntegrity();
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat("segment ", Sv(name()), ": ", s.message()));
}

}  // namespace invert

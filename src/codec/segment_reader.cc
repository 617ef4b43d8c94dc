// SegmentReader: opening and checking a segment.
#include "codec/segment_reader.h"

#include "absl/strings/str_cat.h"
#include "codec/field_infos_format.h"
#include "codec/segment_files.h"
#include "util/absl_compat.h"

namespace invert {

namespace {

// Opens a segment file and checks its header (a version in [min_version,
// max_version], stored in *version if given) and footer.
absl::StatusOr<IndexInput> OpenChecked(Directory* dir, std::string_view segment,
                                       const char* extension, std::string_view codec,
                                       const SegmentId& id,
                                       uint32_t min_version = kSegmentFormatVersion,
                                       uint32_t max_version = kSegmentFormatVersion,
                                       uint32_t* version_out = nullptr) {
  absl::StatusOr<IndexInput> in = OpenInput(dir, SegmentFileName(segment, extension));
  if (!in.ok()) return in.status();
  absl::StatusOr<uint32_t> version = CheckHeader(*in, codec, min_version, max_version, id);
  if (!version.ok()) return version.status();
  if (version_out != nullptr) *version_out = *version;
  if (absl::StatusOr<uint64_t> c = ReadFooterChecksum(*in); !c.ok()) return c.status();
  return in;
}

}  // namespace

absl::StatusOr<std::unique_ptr<SegmentReader>> SegmentReader::Open(Directory* dir,
                                                                   std::string_view segment,
                                                                   const SegmentId& id) {
  std::unique_ptr<SegmentReader> r(new SegmentReader());
  absl::StatusOr<SegmentInfo> info = ReadSegmentInfo(dir, segment, id);
  if (!info.ok()) return info.status();
  r->info_ = std::move(*info);
  // Every file is opened (mapped) now and kept: the reader reads and
  // verifies these mappings, never the names again, so a writer deleting
  // the files later does not disturb it.
  for (const SegmentFile& f : r->info_.files) {
    absl::StatusOr<IndexInput> in = OpenInput(dir, f.name);
    if (!in.ok()) return in.status();
    if (in->length() != f.length) {
      return absl::DataLossError(
          absl::StrCat(f.name, " is ", in->length(), " bytes; the segment info says ", f.length));
    }
    r->files_.push_back(std::move(*in));
  }
  absl::StatusOr<std::vector<FieldInfo>> fields = ReadFieldInfos(dir, segment, id);
  if (!fields.ok()) return fields.status();
  r->fields_ = std::move(*fields);
  absl::StatusOr<std::unique_ptr<TermsReader>> terms = TermsReader::Open(dir, segment, id);
  if (!terms.ok()) return terms.status();
  r->terms_ = std::move(*terms);
  for (uint32_t field : r->terms_->fields()) {
    if (field >= r->fields_.size() || !r->fields_[field].type.indexed()) {
      return absl::DataLossError(
          absl::StrCat(Sv(segment), ": terms for a field that is not indexed"));
    }
  }
  absl::StatusOr<IndexInput> doc =
      OpenChecked(dir, segment, "doc", kDocCodec, id, kDocVersionNoImpacts, kDocFormatVersion,
                  &r->doc_version_);
  if (!doc.ok()) return doc.status();
  r->doc_ = std::move(*doc);
  absl::StatusOr<IndexInput> pos = OpenChecked(dir, segment, "pos", kPosCodec, id);
  if (!pos.ok()) return pos.status();
  r->pos_ = std::move(*pos);
  absl::StatusOr<NormsReader> norms = NormsReader::Open(dir, segment, id, r->info_.doc_count);
  if (!norms.ok()) return norms.status();
  r->norms_ = std::move(*norms);
  absl::StatusOr<std::unique_ptr<StoredFieldsReader>> stored =
      StoredFieldsReader::Open(dir, segment, id, r->info_.doc_count);
  if (!stored.ok()) return stored.status();
  r->stored_ = std::move(*stored);
  absl::StatusOr<std::unique_ptr<TermVectorsReader>> vectors =
      TermVectorsReader::Open(dir, segment, id, r->info_.doc_count);
  if (!vectors.ok()) return vectors.status();
  r->vectors_ = std::move(*vectors);
  return r;
}

const FieldInfo* SegmentReader::FieldByName(std::string_view name) const {
  for (const FieldInfo& f : fields_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

PostingsCursor SegmentReader::Postings(uint32_t field, const TermStats& stats) const {
  // Spans exclude the footer so a corrupt offset cannot read into it.
  std::span<const uint8_t> doc = doc_->bytes();
  std::span<const uint8_t> pos = pos_->bytes();
  return PostingsCursor(doc.first(doc.size() - kFooterLength),
                        pos.first(pos.size() - kFooterLength), stats, fields_[field].type,
                        doc_version_);
}

void SegmentReader::SetPrefetchPolicy(PrefetchPolicy policy) {
  policy_ = policy;
  doc_->set_prefetch_policy(policy);
  pos_->set_prefetch_policy(policy);
  stored_->data_input().set_prefetch_policy(policy);
  vectors_->data_input().set_prefetch_policy(policy);
}

absl::Status SegmentReader::SetReadAdvice(ReadAdvice advice) const {
  const IndexInput* inputs[] = {&terms_->input(), &*doc_, &*pos_, &stored_->data_input(),
                                &vectors_->data_input()};
  for (const IndexInput* in : inputs) {
    if (absl::Status s = in->SetReadAdvice(advice); !s.ok()) return s;
  }
  return absl::OkStatus();
}

SegmentReader::DocFilesPrefetchStats SegmentReader::doc_files_prefetch_stats() const {
  return {stored_->data_input().prefetch_stats(), vectors_->data_input().prefetch_stats()};
}

absl::Status SegmentReader::CheckIntegrity() const {
  for (size_t i = 0; i < info_.files.size(); ++i) {
    const SegmentFile& f = info_.files[i];
    absl::StatusOr<uint64_t> checksum = VerifyChecksum(files_[i]);
    if (!checksum.ok()) {
      return absl::DataLossError(absl::StrCat(f.name, ": ", checksum.status().message()));
    }
    if (*checksum != f.checksum) {
      return absl::DataLossError(
          absl::StrCat(f.name, ": checksum differs from the one the segment info recorded"));
    }
  }
  return absl::OkStatus();
}

}  // namespace invert

// Norms file: write and read.
#include "codec/norms_format.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "codec/norm_encoding.h"
#include "codec/segment_files.h"
#include "store/index_output.h"

namespace invert {

absl::StatusOr<std::string> WriteNorms(
    Directory* dir, std::string_view segment, const SegmentId& id, uint32_t doc_count,
    const std::vector<uint32_t>& fields,
    absl::FunctionRef<void(uint32_t field, uint32_t first_doc, std::span<uint8_t> out)> fill,
    uint32_t version) {
  const std::string name = SegmentFileName(segment, "nvd");
  absl::StatusOr<std::unique_ptr<IndexOutput>> out = CreateOutput(dir, name);
  if (!out.ok()) return out.status();
  IndexOutput& o = **out;
  if (absl::Status s = WriteHeader(o, kNormsCodec, version, id); !s.ok()) return s;
  o.WriteVInt32(doc_count);
  o.WriteVInt32(static_cast<uint32_t>(fields.size()));
  std::vector<uint8_t> bytes(std::min(doc_count, kNormsFillChunk));
  for (uint32_t field : fields) {
    o.WriteVInt32(field);
    for (uint32_t first = 0; first < doc_count;) {
      const uint32_t n = std::min(doc_count - first, kNormsFillChunk);
      fill(field, first, std::span<uint8_t>(bytes.data(), n));
      o.WriteBytes(bytes.data(), n);
      first += n;
    }
  }
  if (absl::Status s = WriteFooter(o); !s.ok()) return s;
  if (absl::Status s = o.Close(); !s.ok()) return s;
  return name;
}

absl::StatusOr<std::string> WriteNorms(Directory* dir, std::string_view segment,
                                       const SegmentId& id, uint32_t doc_count,
                                       const std::vector<uint32_t>& fields,
                                       const std::function<uint8_t(uint32_t, uint32_t)>& norm) {
  return WriteNorms(dir, segment, id, doc_count, fields,
                    [&norm](uint32_t field, uint32_t first, std::span<uint8_t> out) {
                      for (size_t i = 0; i < out.size(); ++i) {
                        out[i] = norm(field, first + static_cast<uint32_t>(i));
                      }
                    });
}

absl::StatusOr<NormsReader> NormsReader::Open(Directory* dir, std::string_view segment,
                                              const SegmentId& id, uint32_t doc_count) {
  const std::string name = SegmentFileName(segment, "nvd");
  NormsReader r;
  absl::StatusOr<IndexInput> in = OpenInput(dir, name);
  if (!in.ok()) return in.status();
  r.input_ = *in;
  r.doc_count_ = doc_count;
  absl::StatusOr<uint32_t> version =
      CheckHeader(*in, kNormsCodec, kNormsFormatVersionMin, kNormsFormatVersion, id);
  if (!version.ok()) return version.status();
  r.file_version_ = *version;
  auto corrupt = [&name](const char* what) {
    return absl::DataLossError(absl::StrCat(name, ": corrupt norms: ", what));
  };
  uint32_t docs = 0;
  uint32_t count = 0;
  if (!in->ReadVInt32(&docs) || !in->ReadVInt32(&count)) return corrupt("truncated counts");
  if (docs != doc_count) return corrupt("doc count differs from the segment info");
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t field = 0;
    std::span<const uint8_t> view;
    if (!in->ReadVInt32(&field) || !in->ReadView(doc_count, &view))
      return corrupt("truncated field");
    if (!r.fields_.emplace(field, view).second) return corrupt("field listed twice");
  }
  if (in->remaining_length() != kFooterLength) return corrupt("trailing bytes before the footer");
  if (r.file_version_ == 1) {
    // Translate every field's bytes into one owned copy (256-entry mapping).
    uint8_t table[256];
    for (int b = 0; b < 256; ++b) table[b] = TranslateNormV1(static_cast<uint8_t>(b));
    auto copy = std::make_shared<std::vector<uint8_t>>();
    copy->reserve(static_cast<size_t>(doc_count) * r.fields_.size());
    std::vector<std::pair<uint32_t, size_t>> starts;
    for (const auto& [field, view] : r.fields_) {
      starts.emplace_back(field, copy->size());
      for (uint8_t b : view) copy->push_back(table[b]);
    }
    for (const auto& [field, start] : starts) {
      r.fields_[field] = std::span<const uint8_t>(copy->data() + start, doc_count);
    }
    r.translated_ = std::move(copy);
  }
  return r;
}

uint8_t NormsReader::Get(uint32_t field, uint32_t doc) const {
  auto it = fields_.find(field);
  if (it == fields_.end() || doc >= doc_count_) return 0;
  return it->second[doc];
}

absl::Status NormsReader::CheckIntegrity() const { return VerifyChecksum(*input_).status(); }

}  // namespace invert

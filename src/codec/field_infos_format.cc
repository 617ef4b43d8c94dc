// Field infos file: write and read.
#include "codec/field_infos_format.h"

#include "absl/strings/str_cat.h"
#include "codec/segment_files.h"
#include "store/index_input.h"
#include "store/index_output.h"
#include "util/absl_compat.h"

namespace invert {

uint8_t FieldTypeFlags(const FieldType& t) {
  return static_cast<uint8_t>(t.tokenized << 0 | t.stored << 1 | t.norms << 2 | t.payloads << 3 |
                              t.term_vectors << 4 | t.term_vector_positions << 5 |
                              t.term_vector_offsets << 6 | t.term_vector_payloads << 7);
}

std::optional<FieldType> DecodeFieldType(uint8_t index_options, uint8_t flags) {
  if (index_options > static_cast<uint8_t>(IndexOptions::kDocsAndFreqsAndPositionsAndOffsets)) {
    return std::nullopt;
  }
  FieldType type;
  type.index_options = static_cast<IndexOptions>(index_options);
  type.tokenized = flags & 1;
  type.stored = flags & 2;
  type.norms = flags & 4;
  type.payloads = flags & 8;
  type.term_vectors = flags & 16;
  type.term_vector_positions = flags & 32;
  type.term_vector_offsets = flags & 64;
  type.term_vector_payloads = flags & 128;
  if (!type.Validate().ok()) return std::nullopt;
  return type;
}

absl::StatusOr<std::string> WriteFieldInfos(Directory* dir, std::string_view segment,
                                            const SegmentId& id,
                                            const std::vector<FieldInfo>& fields) {
  const std::string name = SegmentFileName(segment, "fnm");
  absl::StatusOr<std::unique_ptr<IndexOutput>> out = CreateOutput(dir, name);
  if (!out.ok()) return out.status();
  IndexOutput& o = **out;
  if (absl::Status s = WriteHeader(o, kFieldInfosCodec, kSegmentFormatVersion, id); !s.ok()) {
    return s;
  }
  o.WriteVInt32(static_cast<uint32_t>(fields.size()));
  for (const FieldInfo& f : fields) {
    o.WriteVInt32(f.number);
    o.WriteString(f.name);
    o.WriteByte(static_cast<uint8_t>(f.type.index_options));
    o.WriteByte(FieldTypeFlags(f.type));
  }
  if (absl::Status s = WriteFooter(o); !s.ok()) return s;
  if (absl::Status s = o.Close(); !s.ok()) return s;
  return name;
}

absl::StatusOr<std::vector<FieldInfo>> ReadFieldInfos(Directory* dir, std::string_view segment,
                                                      const SegmentId& id) {
  const std::string name = SegmentFileName(segment, "fnm");
  absl::StatusOr<IndexInput> in = OpenInput(dir, name);
  if (!in.ok()) return in.status();
  absl::StatusOr<uint32_t> version =
      CheckHeader(*in, kFieldInfosCodec, kSegmentFormatVersion, kSegmentFormatVersion, id);
  if (!version.ok()) return version.status();
  auto corrupt = [&name](std::string_view what) {
    return absl::DataLossError(absl::StrCat(name, ": corrupt field infos: ", Sv(what)));
  };
  uint32_t count = 0;
  if (!in->ReadVInt32(&count)) return corrupt("field count");
  if (count > in->remaining_length()) return corrupt("field count larger than the file");
  std::vector<FieldInfo> fields;
  fields.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    FieldInfo f;
    uint8_t options = 0;
    uint8_t flags = 0;
    if (!in->ReadVInt32(&f.number) || !in->ReadString(&f.name) || !in->ReadByte(&options) ||
        !in->ReadByte(&flags)) {
      return corrupt("truncated field");
    }
    if (f.number != i) return corrupt("field numbers out of order");
    std::optional<FieldType> type = DecodeFieldType(options, flags);
    if (!type.has_value()) return corrupt("invalid field type");
    f.type = *type;
    fields.push_back(std::move(f));
  }
  if (absl::StatusOr<uint64_t> c = CheckFooter(*in); !c.ok()) return c.status();
  return fields;
}

}  // namespace invert

// Segment info file: write and read.
#include "codec/segment_info_format.h"

#include "absl/strings/str_cat.h"
#include "codec/segment_files.h"
#include "store/index_input.h"
#include "store/index_output.h"
#include "util/absl_compat.h"

namespace invert {

absl::StatusOr<std::string> WriteSegmentInfo(Directory* dir, SegmentInfo* info) {
  for (SegmentFile& f : info->files) {
    absl::StatusOr<IndexInput> in = OpenInput(dir, f.name);
    if (!in.ok()) return in.status();
    absl::StatusOr<uint64_t> checksum = ReadFooterChecksum(*in);
    if (!checksum.ok()) return checksum.status();
    f.length = in->length();
    f.checksum = *checksum;
  }
  const std::string name = SegmentFileName(info->name, "si");
  absl::StatusOr<std::unique_ptr<IndexOutput>> out = CreateOutput(dir, name);
  if (!out.ok()) return out.status();
  IndexOutput& o = **out;
  if (absl::Status s = WriteHeader(o, kSegmentInfoCodec, kSegmentFormatVersion, info->id);
      !s.ok()) {
    return s;
  }
  o.WriteVInt32(info->doc_count);
  o.WriteString(info->term_bytes_layout);
  o.WriteString(info->created_by);
  o.WriteVInt32(static_cast<uint32_t>(info->files.size()));
  for (const SegmentFile& f : info->files) {
    o.WriteString(f.name);
    o.WriteVInt64(f.length);
    o.WriteFixed64(f.checksum);
  }
  if (absl::Status s = WriteFooter(o); !s.ok()) return s;
  if (absl::Status s = o.Close(); !s.ok()) return s;
  return name;
}

absl::StatusOr<SegmentInfo> ReadSegmentInfo(Directory* dir, std::string_view segment,
                                            const SegmentId& id) {
  const std::string name = SegmentFileName(segment, "si");
  absl::StatusOr<IndexInput> in = OpenInput(dir, name);
  if (!in.ok()) return in.status();
  absl::StatusOr<uint32_t> version =
      CheckHeader(*in, kSegmentInfoCodec, kSegmentFormatVersion, kSegmentFormatVersion, id);
  if (!version.ok()) return version.status();
  auto corrupt = [&name](const char* what) {
    return absl::DataLossError(absl::StrCat(name, ": corrupt segment info: ", what));
  };
  SegmentInfo info;
  info.name = std::string(segment);
  info.id = id;
  uint32_t count = 0;
  if (!in->ReadVInt32(&info.doc_count) || !in->ReadString(&info.term_bytes_layout) ||
      !in->ReadString(&info.created_by) || !in->ReadVInt32(&count)) {
    return corrupt("truncated");
  }
  if (count > in->remaining_length()) return corrupt("file count larger than the file");
  for (uint32_t i = 0; i < count; ++i) {
    SegmentFile f;
    if (!in->ReadString(&f.name) || !in->ReadVInt64(&f.length) || !in->ReadFixed64(&f.checksum)) {
      return corrupt("truncated file entry");
    }
    info.files.push_back(std::move(f));
  }
  if (absl::StatusOr<uint64_t> c = CheckFooter(*in); !c.ok()) return c.status();
  return info;
}

}  // namespace invert

// Codec helpers: header and footer encoding and their checks.
#include "store/codec_util.h"

#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "store/io_error.h"
#include "util/absl_compat.h"
#include "xxhash.h"

namespace invert {
namespace {

uint64_t LoadFixed64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

uint32_t LoadFixed32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

// Checks the footer's structure; returns the stored checksum.
absl::StatusOr<uint64_t> ParseFooter(const IndexInput& in) {
  const std::span<const uint8_t> bytes = in.bytes();
  if (bytes.size() < kFooterLength) {
    return absl::DataLossError(absl::StrCat("truncated file ", in.name(), ": ", bytes.size(),
                                            " bytes cannot hold the ", kFooterLength,
                                            "-byte footer"));
  }
  const uint8_t* footer = bytes.data() + bytes.size() - kFooterLength;
  const uint32_t magic = LoadFixed32(footer);
  if (magic != kCodecFooterMagic) {
    return absl::DataLossError(absl::StrCat(
        "footer magic mismatch in ", in.name(), ": expected 0x", absl::Hex(kCodecFooterMagic),
        ", found 0x", absl::Hex(magic), " (truncated or not a segment file)"));
  }
  const uint32_t algorithm = LoadFixed32(footer + 4);
  if (algorithm != static_cast<uint32_t>(ChecksumAlgorithm::kXxHash64)) {
    return absl::DataLossError(
        absl::StrCat("unknown checksum algorithm ", algorithm, " in footer of ", in.name()));
  }
  return LoadFixed64(footer + 8);
}

}  // namespace

std::string SegmentIdHex(const SegmentId& id) {
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(id.data()), id.size()));
}

absl::Status ValidateCodecName(std::string_view name) {
  if (name.empty() || name.size() > kMaxCodecNameLength) {
    return absl::InvalidArgumentError(absl::StrCat("codec name \"", Sv(name), "\" must have 1 to ",
                                                   kMaxCodecNameLength, " bytes"));
  }
  for (char c : name) {
    if (c <= 0x20 || c >= 0x7f) {
      return absl::InvalidArgumentError(absl::StrCat("codec name \"", absl::CHexEscape(Sv(name)),
                                                     "\" must be printable ASCII without spaces"));
    }
  }
  return absl::OkStatus();
}

absl::Status WriteHeader(IndexOutput& out, std::string_view codec_name, uint32_t version,
                         const SegmentId& segment_id) {
  if (absl::Status s = ValidateCodecName(codec_name); !s.ok()) return s;
  out.WriteFixed32(kCodecHeaderMagic);
  out.WriteString(codec_name);
  out.WriteFixed32(version);
  out.WriteBytes(segment_id.data(), segment_id.size());
  // On disk at once: a file a crash leaves behind still names its index.
  return out.Flush();
}

absl::StatusOr<uint32_t> CheckHeader(IndexInput& in, std::string_view codec_name,
                                     uint32_t min_version, uint32_t max_version,
                                     const SegmentId& segment_id) {
  SegmentId found_id;
  absl::StatusOr<uint32_t> version =
      CheckHeaderReadId(in, codec_name, min_version, max_version, &found_id);
  if (!version.ok()) return version;
  if (found_id != segment_id) {
    return absl::DataLossError(absl::StrCat("segment id mismatch in ", in.name(), ": expected ",
                                            SegmentIdHex(segment_id), ", found ",
                                            SegmentIdHex(found_id)));
  }
  return version;
}

absl::StatusOr<uint32_t> CheckHeaderReadId(IndexInput& in, std::string_view codec_name,
                                           uint32_t min_version, uint32_t max_version,
                                           SegmentId* id) {
  if (!in.ok()) return in.status();
  const uint64_t start = in.file_offset() + in.position();
  auto truncated = [&] {
    return absl::DataLossError(absl::StrCat("truncated codec header in ", in.name(),
                                            " at file offset ", start, ": ",
                                            in.status().message()));
  };
  uint32_t magic;
  if (!in.ReadFixed32(&magic)) return truncated();
  if (magic != kCodecHeaderMagic) {
    return absl::DataLossError(absl::StrCat(
        "codec header magic mismatch in ", in.name(), ": expected 0x", absl::Hex(kCodecHeaderMagic),
        ", found 0x", absl::Hex(magic), " (not a segment file, or corrupt)"));
  }
  uint32_t name_length;
  std::span<const uint8_t> name;
  if (!in.ReadVInt32(&name_length) || !in.ReadView(name_length, &name)) return truncated();
  const std::string_view found(reinterpret_cast<const char*>(name.data()), name.size());
  if (found != codec_name) {
    return absl::DataLossError(absl::StrCat("codec mismatch in ", in.name(), ": expected \"",
                                            Sv(codec_name), "\", found \"",
                                            absl::CHexEscape(Sv(found)), "\""));
  }
  uint32_t version;
  if (!in.ReadFixed32(&version)) return truncated();
  if (version < min_version || version > max_version) {
    return absl::FailedPreconditionError(
        absl::StrCat("format version ", version, " of ", in.name(), " (codec \"", Sv(codec_name),
                     "\") is ", version > max_version ? "newer" : "older",
                     " than this build reads (", min_version, " to ", max_version, ")",
                     version > max_version ? ": open it with the newer invert that wrote it"
                                           : ": reindex with this build"));
  }
  if (!in.ReadBytes(id->data(), id->size())) return truncated();
  return version;
}

absl::Status WriteFooter(IndexOutput& out) {
  out.WriteFixed32(kCodecFooterMagic);
  out.WriteFixed32(static_cast<uint32_t>(ChecksumAlgorithm::kXxHash64));
  out.WriteFixed64(out.checksum());
  return out.status();
}

absl::StatusOr<uint64_t> ReadFooterChecksum(const IndexInput& in) {
  if (!in.ok()) return in.status();
  return ParseFooter(in);
}

absl::StatusOr<uint64_t> VerifyChecksum(const IndexInput& in) {
  absl::StatusOr<uint64_t> stored = ReadFooterChecksum(in);
  if (!stored.ok()) return stored.status();
  const std::span<const uint8_t> bytes = in.bytes();
  const uint64_t computed = XXH64(bytes.data(), bytes.size() - 8, 0);
  if (computed != *stored) {
    return absl::DataLossError(absl::StrCat("checksum mismatch in ", in.name(), ": footer says 0x",
                                            absl::Hex(*stored, absl::kZeroPad16),
                                            ", bytes hash to 0x",
                                            absl::Hex(computed, absl::kZeroPad16)));
  }
  return computed;
}

absl::StatusOr<uint64_t> CheckFooter(IndexInput& in) {
  if (!in.ok()) return in.status();
  if (in.length() < kFooterLength || in.position() != in.length() - kFooterLength) {
    return absl::DataLossError(
        absl::StrCat("footer of ", in.name(), " expected at offset ",
                     in.length() < kFooterLength ? 0 : in.length() - kFooterLength,
                     " but the reader is at ", in.position(), " of ", in.length(),
                     " (payload misread, truncated or with trailing bytes)"));
  }
  absl::StatusOr<uint64_t> checksum = VerifyChecksum(in);
  if (!checksum.ok()) return checksum.status();
  in.SkipBytes(kFooterLength);
  return checksum;
}

}  // namespace invert

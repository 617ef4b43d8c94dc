// CopySegment: one committed segment rewritten into another directory under
// a new name and id (see segment_copy.h).
#include "index/segment_copy.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "codec/live_docs_format.h"
#include "codec/segment_files.h"
#include "codec/segment_info_format.h"
#include "store/index_input.h"
#include "store/index_output.h"
#include "util/absl_compat.h"

#define XXH_STATIC_LINKING_ONLY
#include "xxhash.h"

namespace invert {
namespace {

// Bytes handed to the output at once: large enough that IndexOutput writes
// them straight from the source's mapping, small enough to bound what one
// write call holds.
constexpr size_t kCopyChunk = size_t{1} << 20;

uint32_t LoadFixed32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

// The header of a segment file, parsed without knowing its codec.
struct ParsedHeader {
  std::string_view codec;
  uint32_t version = 0;
  SegmentId id{};
  size_t length = 0;  // bytes of the header
};

absl::StatusOr<ParsedHeader> ParseHeader(std::string_view file, std::span<const uint8_t> bytes) {
  auto corrupt = [&](std::string_view what) {
    return absl::DataLossError(absl::StrCat("corrupt header in ", Sv(file), ": ", Sv(what)));
  };
  if (bytes.size() < 5) return corrupt("truncated");
  if (LoadFixed32(bytes.data()) != kCodecHeaderMagic) return corrupt("wrong magic");
  const size_t name_length = bytes[4];
  if (name_length == 0 || name_length > kMaxCodecNameLength) {
    return corrupt(absl::StrCat("codec name length ", name_length));
  }
  ParsedHeader h;
  h.length = 4 + 1 + name_length + 4 + kSegmentIdLength;
  if (bytes.size() < h.length + kFooterLength) return corrupt("truncated");
  h.codec = std::string_view(reinterpret_cast<const char*>(bytes.data()) + 5, name_length);
  h.version = LoadFixed32(bytes.data() + 5 + name_length);
  std::copy_n(bytes.data() + 9 + name_length, kSegmentIdLength, h.id.begin());
  return h;
}

class Copier {
 public:
  Copier(Directory* from, const CommitSegment& segment, Directory* to, std::string_view new_name,
         const SegmentId& new_id, CopyStats* stats)
      : from_(from),
        segment_(segment),
        to_(to),
        new_name_(new_name),
        new_id_(new_id),
        stats_(stats) {}

  absl::StatusOr<CopiedSegment> Run() {
    absl::StatusOr<CopiedSegment> result = RunOrFail();
    if (!result.ok()) {
      // Abandon the open output (if any) before deleting its file.
      out_.reset();
      for (const std::string& name : created_) (void)to_->DeleteFile(name);
    }
    return result;
  }

 private:
  absl::StatusOr<CopiedSegment> RunOrFail() {
    if (absl::Status s = CheckNewName(); !s.ok()) return s;

    // The source .si: its checksum first (a damaged byte anywhere, its
    // header included, is kDataLoss), then that it is the one the commit
    // recorded, then its contents.
    const std::string si_name = SegmentFileName(segment_.name, "si");
    if (absl::Status s = VerifySmallFile(si_name, segment_.si_checksum, true); !s.ok()) return s;
    absl::StatusOr<SegmentInfo> info = ReadSegmentInfo(from_, segment_.name, segment_.id);
    if (!info.ok()) return SourceError(info.status());
    if (info->doc_count != segment_.doc_count) {
      return SourceError(absl::DataLossError(absl::StrCat(
          si_name, " says ", info->doc_count, " documents; the commit says ", segment_.doc_count)));
    }
    if (segment_.del_gen > 0) {
      // Fully verified before anything is written (it is small).
      if (absl::Status s = VerifySmallFile(LiveDocsFileName(segment_.name, segment_.del_gen),
                                           segment_.liv_checksum, false);
          !s.ok()) {
        return s;
      }
      absl::StatusOr<LiveDocs> live =
          ReadLiveDocs(from_, segment_.name, segment_.id, segment_.del_gen, segment_.doc_count,
                       segment_.del_count);
      if (!live.ok()) return SourceError(live.status());
    }

    // Destination names, all checked free before the first is created.
    SegmentInfo new_info = *info;
    new_info.name = new_name_;
    new_info.id = new_id_;
    const std::string prefix = segment_.name + ".";
    for (SegmentFile& f : new_info.files) {
      if (!f.name.starts_with(prefix)) {
        return SourceError(absl::DataLossError(
            absl::StrCat(si_name, " lists ", f.name, ", which is not a file of the segment")));
      }
      f.name = absl::StrCat(new_name_, f.name.substr(segment_.name.size()));
    }
    std::vector<std::string> targets;
    targets.push_back(SegmentFileName(new_name_, "si"));
    for (const SegmentFile& f : new_info.files) targets.push_back(f.name);
    if (segment_.del_gen > 0) targets.push_back(LiveDocsFileName(new_name_, segment_.del_gen));
    for (const std::string& t : targets) {
      if (to_->FileLength(t).ok()) {
        return absl::AlreadyExistsError(absl::StrCat("cannot copy segment ", segment_.name, " of ",
                                                     from_->DebugString(), " as ", new_name_, ": ",
                                                     t, " already exists in ", to_->DebugString()));
      }
    }

    for (size_t i = 0; i < info->files.size(); ++i) {
      const SegmentFile& src = info->files[i];
      absl::StatusOr<uint64_t> copied =
          CopyFile(src.name, new_info.files[i].name, src.length, src.checksum);
      if (!copied.ok()) return copied.status();
    }
    CopiedSegment result;
    result.segment.name = new_name_;
    result.segment.id = new_id_;
    result.segment.doc_count = segment_.doc_count;
    result.segment.del_gen = segment_.del_gen;
    result.segment.del_count = segment_.del_count;
    if (segment_.del_gen > 0) {
      const std::string liv = LiveDocsFileName(segment_.name, segment_.del_gen);
      absl::StatusOr<uint64_t> checksum = CopyFile(
          liv, LiveDocsFileName(new_name_, segment_.del_gen), std::nullopt, segment_.liv_checksum);
      if (!checksum.ok()) return checksum.status();
      result.segment.liv_checksum = *checksum;
    }

    // The new .si, with the new names; WriteSegmentInfo fills lengths and
    // checksums from the new files' footers.
    const std::string new_si = targets.front();
    created_.push_back(new_si);
    absl::StatusOr<std::string> written = WriteSegmentInfo(to_, &new_info);
    if (!written.ok()) {
      if (absl::IsAlreadyExists(written.status())) created_.pop_back();  // not ours
      return DestError(written.status());
    }
    absl::StatusOr<IndexInput> si = OpenInput(to_, new_si);
    absl::StatusOr<uint64_t> si_checksum = si.ok() ? ReadFooterChecksum(*si) : si.status();
    if (!si_checksum.ok()) return DestError(si_checksum.status());
    result.segment.si_checksum = *si_checksum;
    Count(0, si->length());
    if (stats_ != nullptr) ++stats_->files;

    if (absl::Status s = to_->Sync(created_); !s.ok()) return DestError(s);
    // .si first, then the rest in the order they were written.
    result.files.push_back(new_si);
    for (const std::string& name : created_) {
      if (name != new_si) result.files.push_back(name);
    }
    if (stats_ != nullptr) {
      stats_->seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }
    return result;
  }

  // Verifies the checksum of source file `name` and that it is
  // `recorded` (when not 0: the checksum the commit recorded).
  // With `count_read`, its bytes count as read (for a file not copied).
  absl::Status VerifySmallFile(const std::string& name, uint64_t recorded, bool count_read) {
    absl::StatusOr<IndexInput> in = OpenInput(from_, name);
    absl::StatusOr<uint64_t> checksum = in.ok() ? VerifyChecksum(*in) : in.status();
    if (!checksum.ok()) return SourceError(checksum.status());
    if (recorded != 0 && *checksum != recorded) {
      return SourceError(absl::DataLossError(
          absl::StrCat(name, " is not the one the commit recorded (its checksum differs)")));
    }
    if (count_read) Count(in->length(), 0);
    return absl::OkStatus();
  }

  absl::Status CheckNewName() const {
    // The parts are views into the name: it must outlive them.
    const std::string si_name = SegmentFileName(new_name_, "si");
    const std::optional<SegmentFileNameParts> parts = ParseSegmentFileName(si_name);
    if (!parts.has_value() || parts->segment != new_name_) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot copy segment ", segment_.name, ": \"", new_name_,
          "\" is not a segment name (\"_\" and the segment number in lower-case base 36)"));
    }
    if (from_ == to_ && new_name_ == segment_.name) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot copy segment ", segment_.name, " onto itself: give it a new name"));
    }
    return absl::OkStatus();
  }

  // Copies `from_name` to `to_name` with the new id in its header. The
  // source must have `expected_length` bytes (when given) and
  // `expected_checksum` in its footer (when not 0). Returns the new file's
  // checksum.
  absl::StatusOr<uint64_t> CopyFile(const std::string& from_name, const std::string& to_name,
                                    std::optional<uint64_t> expected_length,
                                    uint64_t expected_checksum) {
    absl::StatusOr<IndexInput> in = OpenInput(from_, from_name);
    if (!in.ok()) return SourceError(in.status());
    (void)in->SetReadAdvice(ReadAdvice::kSequential);  // a hint only
    const std::span<const uint8_t> bytes = in->bytes();
    if (expected_length.has_value() && bytes.size() != *expected_length) {
      return SourceError(absl::DataLossError(absl::StrCat(
          from_name, " has ", bytes.size(), " bytes; the segment info says ", *expected_length)));
    }
    absl::StatusOr<uint64_t> stored = ReadFooterChecksum(*in);
    if (!stored.ok()) return SourceError(stored.status());
    if (expected_checksum != 0 && *stored != expected_checksum) {
      return SourceError(absl::DataLossError(
          absl::StrCat(from_name, " is not the file the segment recorded (its checksum differs)")));
    }
    absl::StatusOr<ParsedHeader> header = ParseHeader(from_name, bytes);
    if (!header.ok()) return SourceError(header.status());
    if (header->id != segment_.id) {
      return SourceError(absl::DataLossError(absl::StrCat("segment id mismatch in ", from_name,
                                                          ": expected ", SegmentIdHex(segment_.id),
                                                          ", found ", SegmentIdHex(header->id))));
    }

    absl::StatusOr<std::unique_ptr<IndexOutput>> out = CreateOutput(to_, to_name);
    if (!out.ok()) return DestError(out.status());  // not created: nothing to delete
    created_.push_back(to_name);
    out_ = std::move(*out);
    if (absl::Status s = WriteHeader(*out_, header->codec, header->version, new_id_); !s.ok()) {
      return absl::IsInvalidArgument(s) ? SourceError(absl::DataLossError(s.message()))
                                        : DestError(s);
    }
    // The body, hashed as it is copied: the source is verified in the same
    // pass over its bytes.
    XXH64_state_t hash;
    XXH64_reset(&hash, 0);
    XXH64_update(&hash, bytes.data(), header->length);
    const size_t body_end = bytes.size() - kFooterLength;
    for (size_t pos = header->length; pos < body_end;) {
      const size_t n = std::min(kCopyChunk, body_end - pos);
      XXH64_update(&hash, bytes.data() + pos, n);
      out_->WriteBytes(bytes.data() + pos, n);
      if (!out_->ok()) return DestError(out_->status());
      pos += n;
    }
    XXH64_update(&hash, bytes.data() + body_end, 8);  // footer magic and algorithm
    const uint64_t computed = XXH64_digest(&hash);
    if (computed != *stored) {
      return SourceError(absl::DataLossError(
          absl::StrCat("checksum mismatch in ", from_name, ": footer says 0x",
                       absl::Hex(*stored, absl::kZeroPad16), ", bytes hash to 0x",
                       absl::Hex(computed, absl::kZeroPad16))));
    }
    if (absl::Status s = WriteFooter(*out_); !s.ok()) return DestError(s);
    const uint64_t length = out_->file_pointer();
    if (absl::Status s = out_->Close(); !s.ok()) return DestError(s);
    out_.reset();
    absl::StatusOr<IndexInput> written = OpenInput(to_, to_name);
    absl::StatusOr<uint64_t> new_checksum =
        written.ok() ? ReadFooterChecksum(*written) : written.status();
    if (!new_checksum.ok()) return DestError(new_checksum.status());
    Count(bytes.size(), length);
    if (stats_ != nullptr) ++stats_->files;
    return *new_checksum;
  }

  void Count(uint64_t read, uint64_t written) {
    if (stats_ == nullptr) return;
    stats_->bytes_read += read;
    stats_->bytes_written += written;
  }

  absl::Status SourceError(const absl::Status& s) const {
    return absl::Status(s.code(), absl::StrCat("cannot copy segment ", segment_.name, " of ",
                                               from_->DebugString(), ": ", s.message()));
  }
  absl::Status DestError(const absl::Status& s) const {
    return absl::Status(
        s.code(), absl::StrCat("cannot copy segment ", segment_.name, " of ", from_->DebugString(),
                               " into ", to_->DebugString(), " as ", new_name_, ": ", s.message()));
  }

  Directory* from_;
  const CommitSegment& segment_;
  Directory* to_;
  const std::string new_name_;
  const SegmentId new_id_;
  CopyStats* stats_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::vector<std::string> created_;  // files this call created, in order
  std::unique_ptr<IndexOutput> out_;  // the file being written
};

}  // namespace

absl::StatusOr<CopiedSegment> CopySegment(Directory* from, const CommitSegment& segment,
                                          Directory* to, std::string_view new_name,
                                          const SegmentId& new_id, CopyStats* stats) {
  return Copier(from, segment, to, new_name, new_id, stats).Run();
}

}  // namespace invert

// Commit points: write atomically, read the newest one (or say why not).
#include "codec/commit_format.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "codec/field_infos_format.h"
#include "codec/live_docs_format.h"
#include "codec/segment_files.h"
#include "store/atomic_file.h"
#include "store/index_input.h"
#include "store/index_output.h"
#include "util/absl_compat.h"

namespace invert {

namespace {

// The decimal generation after `prefix`, or -1: digits only, no leading
// zero, at most 18 of them, and > 0.
int64_t GenerationAfter(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix)) return -1;
  const std::string_view digits = name.substr(prefix.size());
  if (digits.empty() || digits.size() > 18 || digits[0] == '0') return -1;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
  }
  int64_t generation = 0;
  if (!absl::SimpleAtoi(Sv(digits), &generation)) return -1;
  return generation;
}

}  // namespace

std::string CommitPoint::file_name() const { return absl::StrCat(Sv(kCommitPrefix), generation); }

uint64_t CommitPoint::doc_count() const {
  uint64_t total = 0;
  for (const CommitSegment& s : segments) total += s.doc_count;
  return total;
}

uint64_t CommitPoint::live_doc_count() const {
  uint64_t total = 0;
  for (const CommitSegment& s : segments) total += s.doc_count - s.del_count;
  return total;
}

int64_t CommitGeneration(std::string_view name) { return GenerationAfter(name, kCommitPrefix); }

int64_t PendingCommitGeneration(std::string_view name) {
  return GenerationAfter(name, kPendingCommitPrefix);
}

bool IsForeignCommitFile(std::span<const uint8_t> bytes) {
  if (bytes.size() < 4) return false;  // too short to tell: a truncated commit point
  const uint8_t magic[4] = {
      static_cast<uint8_t>(kCodecHeaderMagic), static_cast<uint8_t>(kCodecHeaderMagic >> 8),
      static_cast<uint8_t>(kCodecHeaderMagic >> 16), static_cast<uint8_t>(kCodecHeaderMagic >> 24)};
  if (std::memcmp(bytes.data(), magic, 4) == 0) return false;
  // The codec name's VInt length, then its bytes.
  const std::span<const uint8_t> rest = bytes.subspan(4);
  if (rest.size() >= 1 + kCommitCodec.size() && rest[0] == kCommitCodec.size() &&
      std::memcmp(rest.data() + 1, kCommitCodec.data(), kCommitCodec.size()) == 0) {
    return false;
  }
  return true;
}

namespace {

// Empty iff the deletion fields of `s` keep the invariants of CommitSegment;
// otherwise what is wrong.
std::string DeletionFieldsProblem(const CommitSegment& s) {
  if (s.del_count > s.doc_count) {
    return absl::StrCat("deletes ", s.del_count, " of its ", s.doc_count, " documents");
  }
  if ((s.del_gen == 0) != (s.del_count == 0)) {
    return absl::StrCat("has deletion generation ", s.del_gen, " but ", s.del_count,
                        " deleted documents (generation 0 iff none are deleted)");
  }
  if (s.del_gen == 0 && s.liv_checksum != 0) return "has a live-docs checksum but no deletions";
  return "";
}

}  // namespace

absl::Status WriteCommit(Directory* dir, const CommitPoint& commit) {
  for (const CommitSegment& s : commit.segments) {
    if (std::string problem = DeletionFieldsProblem(s); !problem.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("commit ", commit.generation, ": segment ", s.name, " ", problem));
    }
    if (s.del_gen == 0) continue;
    // Bind the commit to the exact .liv, and refuse one that does not have it.
    const std::string liv = LiveDocsFileName(s.name, s.del_gen);
    absl::StatusOr<IndexInput> in = OpenInput(dir, liv);
    absl::StatusOr<uint64_t> checksum = in.ok() ? ReadFooterChecksum(*in) : in.status();
    if (!checksum.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("commit ", commit.generation, ": segment ", s.name,
                       "'s live docs: ", checksum.status().message()));
    }
    if (*checksum != s.liv_checksum) {
      return absl::InvalidArgumentError(
          absl::StrCat("commit ", commit.generation, ": segment ", s.name, "'s liv_checksum 0x",
                       absl::Hex(s.liv_checksum), " is not the checksum of ", liv, " (0x",
                       absl::Hex(*checksum), "): set it from WriteLiveDocs"));
    }
  }
  return WriteFileAtomically(*dir, commit.file_name(), [&commit](IndexOutput& o) -> absl::Status {
    if (absl::Status s = WriteHeader(o, kCommitCodec, kCommitFormatVersion, commit.index_id);
        !s.ok()) {
      return s;
    }
    o.WriteVInt64(commit.generation);
    o.WriteVInt64(commit.next_segment_number);
    o.WriteVInt32(static_cast<uint32_t>(commit.schema.size()));
    for (const FieldInfo& f : commit.schema) {
      o.WriteString(f.name);
      o.WriteByte(static_cast<uint8_t>(f.type.index_options));
      o.WriteByte(FieldTypeFlags(f.type));
    }
    o.WriteVInt32(static_cast<uint32_t>(commit.segments.size()));
    for (const CommitSegment& s : commit.segments) {
      o.WriteString(s.name);
      o.WriteBytes(s.id.data(), s.id.size());
      o.WriteVInt32(s.doc_count);
      o.WriteFixed64(s.si_checksum);
      o.WriteVInt64(s.del_gen);
      o.WriteVInt32(s.del_count);
      if (s.del_gen > 0) o.WriteFixed64(s.liv_checksum);
    }
    return WriteFooter(o);
  });
}

absl::StatusOr<CommitPoint> ReadCommit(Directory* dir, std::string_view file_name) {
  absl::StatusOr<IndexInput> in = OpenInput(dir, file_name);
  if (!in.ok()) return in.status();
  CommitPoint commit;
  // A format version this build does not read is reported as such, not as a
  // checksum mismatch of a layout it cannot know; so look at the header
  // (on a copy of the input) before the checksum.
  {
    IndexInput peek = *in;
    absl::StatusOr<uint32_t> version = CheckHeaderReadId(
        peek, kCommitCodec, kMinCommitFormatVersion, kCommitFormatVersion, &commit.index_id);
    if (absl::IsFailedPrecondition(version.status())) return version.status();
  }
  if (absl::StatusOr<uint64_t> c = VerifyChecksum(*in); !c.ok()) return c.status();
  absl::StatusOr<uint32_t> version = CheckHeaderReadId(*in, kCommitCodec, kMinCommitFormatVersion,
                                                       kCommitFormatVersion, &commit.index_id);
  if (!version.ok()) return version.status();
  auto corrupt = [file_name](const char* what) {
    return absl::DataLossError(absl::StrCat(Sv(file_name), ": corrupt commit point: ", what));
  };
  uint32_t field_count = 0;
  if (!in->ReadVInt64(&commit.generation) || !in->ReadVInt64(&commit.next_segment_number) ||
      !in->ReadVInt32(&field_count)) {
    return corrupt("truncated");
  }
  if (static_cast<int64_t>(commit.generation) != CommitGeneration(file_name)) {
    return corrupt("generation differs from the file name");
  }
  if (field_count > in->remaining_length()) return corrupt("field count larger than the file");
  for (uint32_t i = 0; i < field_count; ++i) {
    FieldInfo f;
    f.number = i;
    uint8_t options = 0, flags = 0;
    if (!in->ReadString(&f.name) || !in->ReadByte(&options) || !in->ReadByte(&flags)) {
      return corrupt("truncated schema");
    }
    std::optional<FieldType> type = DecodeFieldType(options, flags);
    if (!type.has_value()) return corrupt("invalid field type in the schema");
    f.type = *type;
    commit.schema.push_back(std::move(f));
  }
  uint32_t count = 0;
  if (!in->ReadVInt32(&count)) return corrupt("truncated");
  if (count > in->remaining_length()) return corrupt("segment count larger than the file");
  for (uint32_t i = 0; i < count; ++i) {
    CommitSegment s;
    if (!in->ReadString(&s.name) || !in->ReadBytes(s.id.data(), s.id.size()) ||
        !in->ReadVInt32(&s.doc_count) || !in->ReadFixed64(&s.si_checksum)) {
      return corrupt("truncated segment entry");
    }
    if (*version >= 3) {
      if (!in->ReadVInt64(&s.del_gen) || !in->ReadVInt32(&s.del_count) ||
          (s.del_gen > 0 && !in->ReadFixed64(&s.liv_checksum))) {
        return corrupt("truncated segment entry");
      }
      if (std::string problem = DeletionFieldsProblem(s); !problem.empty()) {
        return absl::DataLossError(
            absl::StrCat(Sv(file_name), ": corrupt commit point: segment ", s.name, " ", problem));
      }
    }
    commit.segments.push_back(std::move(s));
  }
  if (absl::StatusOr<uint64_t> c = CheckFooter(*in); !c.ok()) return c.status();
  return commit;
}

absl::StatusOr<NewestCommit> ReadNewestCommit(Directory* dir, bool fall_back) {
  constexpr int kMaxAttempts = 100;
  absl::Status last_race;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    absl::StatusOr<std::vector<std::string>> names = dir->ListAll();
    if (!names.ok()) return names.status();
    NewestCommit result;
    std::vector<std::pair<int64_t, std::string>> commits;
    for (const std::string& name : *names) {
      if (int64_t g = CommitGeneration(name); g >= 0) {
        commits.emplace_back(g, name);
        result.max_generation = std::max<uint64_t>(result.max_generation, g);
      } else if (int64_t p = PendingCommitGeneration(name); p >= 0) {
        result.max_generation = std::max<uint64_t>(result.max_generation, p);
      }
    }
    std::sort(commits.rbegin(), commits.rend());
    bool raced = false;
    std::vector<std::string> newer_foreign;
    for (const auto& [generation, name] : commits) {
      absl::StatusOr<std::shared_ptr<const MappedFile>> file = dir->OpenFile(name);
      if (file.ok() && IsForeignCommitFile((*file)->bytes())) {
        result.foreign.push_back(name);
        newer_foreign.push_back(name);
        continue;
      }
      absl::StatusOr<CommitPoint> commit =
          file.ok() ? ReadCommit(dir, name) : absl::StatusOr<CommitPoint>(file.status());
      if (commit.ok()) {
        // A newer file with a commit point's name but not its header may be
        // a commit point destroyed beyond recognition: refuse unless asked.
        if (!newer_foreign.empty()) {
          if (!fall_back) {
            return absl::FailedPreconditionError(absl::StrCat(
                "the newest commit point ", newer_foreign.front(),
                " is named like a commit point newer than ", name,
                " but is not an invert commit point (no invert header): it may be a destroyed "
                "commit point. Move it out of the directory if it is not invert's"));
          }
          for (const std::string& f : newer_foreign) {
            result.skipped.push_back(
                {f, absl::DataLossError(absl::StrCat(f, ": not an invert commit point"))});
          }
        }
        result.commit = std::move(*commit);
        return result;
      }
      if (absl::IsNotFound(commit.status())) {
        // Listed, then gone: a concurrent commit replaced it. List again.
        raced = true;
        last_race = commit.status();
        break;
      }
      if (!fall_back && !newer_foreign.empty()) {
        return absl::FailedPreconditionError(absl::StrCat(
            "the newest commit point ", newer_foreign.front(),
            " is not an invert commit point (no invert header): it may be a destroyed commit "
            "point (and the next one, ",
            name, ", cannot be read either: ", commit.status().message(), ")"));
      }
      if (!fall_back) {
        return absl::Status(commit.status().code(),
                            absl::StrCat("the newest commit point ", name,
                                         " cannot be read: ", commit.status().message()));
      }
      result.skipped.push_back({name, commit.status()});
    }
    if (raced) continue;
    if (!result.skipped.empty()) {
      return absl::DataLossError(absl::StrCat("no commit point can be read; the newest, ",
                                              result.skipped.front().file, ": ",
                                              result.skipped.front().cause.message()));
    }
    return absl::NotFoundError(
        absl::StrCat("no commit point (segments_N) in ", dir->DebugString()));
  }
  return absl::UnavailableError(absl::StrCat("the commit points of ", dir->DebugString(),
                                             " kept changing while being read (", kMaxAttempts,
                                             " attempts): ", last_race.message()));
}

}  // namespace invert

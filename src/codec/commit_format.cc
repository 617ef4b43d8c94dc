// Commit points: write atomically, read the newest valid one.
#include "codec/commit_format.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "codec/segment_files.h"
#include "store/atomic_file.h"
#include "store/index_input.h"
#include "store/index_output.h"
#include "util/absl_compat.h"

namespace invert {

namespace {
constexpr SegmentId kNoId{};
}  // namespace

std::string CommitPoint::file_name() const { return absl::StrCat(Sv(kCommitPrefix), generation); }

int64_t CommitGeneration(std::string_view name) {
  if (name.substr(0, kCommitPrefix.size()) != kCommitPrefix) return -1;
  const std::string_view digits = name.substr(kCommitPrefix.size());
  if (digits.empty() || digits.size() > 18) return -1;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
  }
  int64_t generation = 0;
  if (!absl::SimpleAtoi(Sv(digits), &generation)) return -1;
  return generation;
}

absl::Status WriteCommit(Directory* dir, const CommitPoint& commit) {
  return WriteFileAtomically(*dir, commit.file_name(), [&commit](IndexOutput& o) -> absl::Status {
    if (absl::Status s = WriteHeader(o, kCommitCodec, kSegmentFormatVersion, kNoId); !s.ok()) {
      return s;
    }
    o.WriteVInt64(commit.generation);
    o.WriteVInt64(commit.next_segment_number);
    o.WriteVInt32(static_cast<uint32_t>(commit.segments.size()));
    for (const CommitSegment& s : commit.segments) {
      o.WriteString(s.name);
      o.WriteBytes(s.id.data(), s.id.size());
      o.WriteVInt32(s.doc_count);
      o.WriteFixed64(s.si_checksum);
    }
    return WriteFooter(o);
  });
}

absl::StatusOr<CommitPoint> ReadCommit(Directory* dir, std::string_view file_name) {
  absl::StatusOr<IndexInput> in = dir->OpenInput(file_name);
  if (!in.ok()) return in.status();
  if (absl::StatusOr<uint64_t> c = VerifyChecksum(*in); !c.ok()) return c.status();
  absl::StatusOr<uint32_t> version =
      CheckHeader(*in, kCommitCodec, kSegmentFormatVersion, kSegmentFormatVersion, kNoId);
  if (!version.ok()) return version.status();
  auto corrupt = [file_name](const char* what) {
    return absl::DataLossError(absl::StrCat(Sv(file_name), ": corrupt commit: ", what));
  };
  CommitPoint commit;
  uint32_t count = 0;
  if (!in->ReadVInt64(&commit.generation) || !in->ReadVInt64(&commit.next_segment_number) ||
      !in->ReadVInt32(&count)) {
    return corrupt("truncated");
  }
  if (static_cast<int64_t>(commit.generation) != CommitGeneration(file_name)) {
    return corrupt("generation differs from the file name");
  }
  if (count > in->remaining_length()) return corrupt("segment count larger than the file");
  for (uint32_t i = 0; i < count; ++i) {
    CommitSegment s;
    if (!in->ReadString(&s.name) || !in->ReadBytes(s.id.data(), s.id.size()) ||
        !in->ReadVInt32(&s.doc_count) || !in->ReadFixed64(&s.si_checksum)) {
      return corrupt("truncated segment entry");
    }
    commit.segments.push_back(std::move(s));
  }
  if (absl::StatusOr<uint64_t> c = CheckFooter(*in); !c.ok()) return c.status();
  return commit;
}

absl::StatusOr<CommitPoint> ReadLatestCommit(Directory* dir, std::vector<std::string>* skipped) {
  absl::StatusOr<std::vector<std::string>> names = dir->ListAll();
  if (!names.ok()) return names.status();
  std::vector<std::pair<int64_t, std::string>> commits;
  for (const std::string& name : *names) {
    if (int64_t g = CommitGeneration(name); g >= 0) commits.emplace_back(g, name);
  }
  std::sort(commits.rbegin(), commits.rend());
  for (const auto& [generation, name] : commits) {
    absl::StatusOr<CommitPoint> commit = ReadCommit(dir, name);
    if (commit.ok()) return commit;
    if (skipped != nullptr) skipped->push_back(name);
  }
  return absl::NotFoundError("no valid commit point (segments_N) in the directory");
}

}  // namespace invert

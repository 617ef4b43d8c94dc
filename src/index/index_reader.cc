// IndexReader: open the newest commit and its segments.
#include "index/index_reader.h"

#include "absl/strings/str_cat.h"
#include "store/index_input.h"

namespace invert {

absl::StatusOr<std::unique_ptr<IndexReader>> IndexReader::Open(const std::string& path) {
  absl::StatusOr<std::unique_ptr<FSDirectory>> dir = FSDirectory::Open(path, /*create=*/false);
  if (!dir.ok()) return dir.status();
  Directory* raw = dir->get();
  absl::StatusOr<std::unique_ptr<IndexReader>> reader = Open(raw);
  if (!reader.ok()) return reader.status();
  (*reader)->owned_ = std::move(*dir);
  return reader;
}

absl::StatusOr<std::unique_ptr<IndexReader>> IndexReader::Open(Directory* dir) {
  std::unique_ptr<IndexReader> r(new IndexReader());
  r->dir_ = dir;
  absl::StatusOr<CommitPoint> commit = ReadLatestCommit(dir, &r->skipped_);
  if (!commit.ok()) return commit.status();
  r->commit_ = std::move(*commit);
  for (const CommitSegment& s : r->commit_.segments) {
    absl::StatusOr<std::unique_ptr<SegmentReader>> segment = SegmentReader::Open(dir, s.name, s.id);
    if (!segment.ok()) {
      return absl::Status(segment.status().code(),
                          absl::StrCat("segment ", s.name, ": ", segment.status().message()));
    }
    if ((*segment)->doc_count() != s.doc_count) {
      return absl::DataLossError(absl::StrCat("segment ", s.name, " has ", (*segment)->doc_count(),
                                              " documents; the commit says ", s.doc_count));
    }
    absl::StatusOr<IndexInput> si = dir->OpenInput(s.name + ".si");
    if (!si.ok()) return si.status();
    absl::StatusOr<uint64_t> checksum = ReadFooterChecksum(*si);
    if (!checksum.ok()) return checksum.status();
    if (*checksum != s.si_checksum) {
      return absl::DataLossError(
          absl::StrCat("segment ", s.name, ": its .si is not the one the commit recorded"));
    }
    r->bases_.push_back(r->doc_count_);
    r->doc_count_ += s.doc_count;
    r->segments_.push_back(std::move(*segment));
  }
  return r;
}

}  // namespace invert

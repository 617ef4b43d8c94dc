// IndexReader: the newest valid commit of an index, with every segment it
// lists opened. Documents are numbered across segments: segment i's doc d is
// global doc doc_base(i) + d.
//
// Thread safety: immutable after Open(); may be shared by threads.
#ifndef INVERT_INDEX_INDEX_READER_H_
#define INVERT_INDEX_INDEX_READER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "codec/commit_format.h"
#include "codec/segment_reader.h"
#include "invert/directory.h"

namespace invert {

class IndexReader {
 public:
  // Opens the index at `path` (which must exist).
  static absl::StatusOr<std::unique_ptr<IndexReader>> Open(const std::string& path);
  // Over any directory, which must outlive the reader.
  static absl::StatusOr<std::unique_ptr<IndexReader>> Open(Directory* dir);

  const CommitPoint& commit() const { return commit_; }
  // Newer commit files that did not verify and were passed over.
  const std::vector<std::string>& skipped_commits() const { return skipped_; }
  size_t segment_count() const { return segments_.size(); }
  const SegmentReader& segment(size_t i) const { return *segments_[i]; }
  uint64_t doc_base(size_t i) const { return bases_[i]; }
  uint64_t doc_count() const { return doc_count_; }
  Directory* directory() const { return dir_; }

 private:
  std::unique_ptr<Directory> owned_;
  Directory* dir_ = nullptr;
  CommitPoint commit_;
  std::vector<std::string> skipped_;
  std::vector<std::unique_ptr<SegmentReader>> segments_;
  std::vector<uint64_t> bases_;
  uint64_t doc_count_ = 0;
};

}  // namespace invert

#endif  // INVERT_INDEX_INDEX_READER_H_

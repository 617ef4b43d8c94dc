// CommitReader (internal; the public reader is invert/index_reader.h): the
// newest valid commit of an index, with every segment it
// lists opened. Documents are numbered across segments: segment i's doc d is
// global doc doc_base(i) + d. Also: K-document fetches across segments, and
// IndexTermLookup, K term lookups across segments, both prefetching
// (docs/prefetch.md).
//
// Deletions: each segment's live docs (codec/live_docs_format.h) are read
// and verified at open, kept apart from the SegmentReader (a segment's files
// never change, its live docs change with every commit that deletes from
// it), and exposed as live_docs(i). Nothing else here skips deleted
// documents: SegmentReader, FetchDocuments and IndexTermLookup read every
// document; the public IndexReader is what hides them.
//
// Thread safety: immutable after Open() (and SetPrefetchPolicy()); may be
// shared by threads.
#ifndef INVERT_INDEX_COMMIT_READER_H_
#define INVERT_INDEX_COMMIT_READER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "codec/commit_format.h"
#include "codec/live_docs_format.h"
#include "codec/segment_reader.h"
#include "codec/term_lookup.h"
#include "invert/directory.h"

namespace invert {

struct CommitReaderOptions {
  // When the newest commit point cannot be read: false fails with its cause;
  // true opens the newest older one that reads (skipped_commits() lists
  // the others).
  bool recover = false;
  // Read and verify every segment's live docs (a damaged one fails Open).
  // False leaves live_docs(i) null for a caller that reads and reports them
  // itself (the checker).
  bool live_docs = true;
};

class CommitReader {
 public:
  // Opens the newest commit of the index at `path` (which must exist). A
  // commit that a concurrent writer replaces while it is being opened is
  // followed to the newer one (the open is retried). Takes no lock.
  static absl::StatusOr<std::unique_ptr<CommitReader>> Open(
      const std::string& path, const CommitReaderOptions& options = {});
  // Over any directory, which must outlive the reader.
  static absl::StatusOr<std::unique_ptr<CommitReader>> Open(
      Directory* dir, const CommitReaderOptions& options = {});

  const CommitPoint& commit() const { return commit_; }
  // Newer commit files that did not read and were passed over (recover):
  // "segments_N: cause".
  const std::vector<std::string>& skipped_commits() const { return skipped_; }
  // Files named like commit points that are not ones.
  const std::vector<std::string>& foreign_commit_files() const { return foreign_; }
  size_t segment_count() const { return segments_.size(); }
  const SegmentReader& segment(size_t i) const { return *segments_[i]; }
  // Segment i's live docs; null when it has no deletions (or
  // options.live_docs was false).
  const LiveDocs* live_docs(size_t i) const { return live_docs_[i].get(); }
  uint64_t doc_base(size_t i) const { return bases_[i]; }
  // Documents of every segment, deleted ones included.
  uint64_t doc_count() const { return doc_count_; }
  Directory* directory() const { return dir_; }

  // ---- Prefetch (docs/prefetch.md)

  // SegmentReader::SetPrefetchPolicy on every segment. Not while other
  // threads read.
  void SetPrefetchPolicy(PrefetchPolicy policy);
  // SegmentReader::SetReadAdvice on every segment.
  absl::Status SetReadAdvice(ReadAdvice advice) const;
  // The segments' doc_files_prefetch_stats() added up. Not while other
  // threads read.
  SegmentReader::DocFilesPrefetchStats doc_files_prefetch_stats() const;

  // ---- K-document fetches

  // The segment holding global doc `doc`. REQUIRES: doc < doc_count().
  size_t SegmentOf(uint64_t doc) const;

  struct FetchOptions {
    bool stored_fields = true;  // fill FetchedDocument::stored
    bool term_vectors = false;  // fill FetchedDocument::term_vectors
  };
  struct FetchedDocument {
    std::vector<StoredField> stored;
    std::vector<TermVectorFieldData> term_vectors;
    bool operator==(const FetchedDocument&) const = default;
  };
  // Result i is global doc docs[i] (any order, repeats allowed; deleted
  // docs are read like the others). The docs
  // are grouped by segment and each segment's are read with one
  // StoredDocuments() / TermVectorDocuments() call, which prefetches all the
  // blocks it will decode before decoding the first (when there are two or
  // more in that segment). kOutOfRange (nothing read) if a doc is >=
  // doc_count(); kDataLoss for corrupt data.
  absl::StatusOr<std::vector<FetchedDocument>> FetchDocuments(std::span<const uint64_t> docs,
                                                              const FetchOptions& options) const;
  absl::StatusOr<std::vector<FetchedDocument>> FetchDocuments(
      std::span<const uint64_t> docs) const {
    return FetchDocuments(docs, FetchOptions());
  }

 private:
  std::unique_ptr<Directory> owned_;
  Directory* dir_ = nullptr;
  CommitPoint commit_;
  std::vector<std::string> skipped_;
  std::vector<std::string> foreign_;
  std::vector<std::shared_ptr<SegmentReader>> segments_;
  std::vector<std::shared_ptr<const LiveDocs>> live_docs_;  // one per segment
  std::vector<uint64_t> bases_;
  uint64_t doc_count_ = 0;
};

// Opens segment `s` of a commit and checks that it is the one the commit
// recorded (its document count and the checksum of its .si). Errors name the
// segment. (Its live docs: OpenCommitLiveDocs.)
absl::StatusOr<std::unique_ptr<SegmentReader>> OpenCommitSegment(Directory* dir,
                                                                 const CommitSegment& s);

// Reads segment `s`'s live docs as of the commit: null when s.del_gen is 0;
// else its .liv, checked against the commit (the footer checksum equals
// s.liv_checksum, then ReadLiveDocs's checks). Errors name the segment and
// the file: kNotFound when it is missing, kDataLoss when it is not the one
// the commit recorded or is damaged.
absl::StatusOr<std::shared_ptr<const LiveDocs>> OpenCommitLiveDocs(Directory* dir,
                                                                   const CommitSegment& s);

// One segment of an opened commit: its reader, shared by every commit that
// has the segment, and its live docs as of this commit (null: none
// deleted), which differ from commit to commit.
struct OpenedSegment {
  std::shared_ptr<SegmentReader> reader;
  std::shared_ptr<const LiveDocs> live_docs;
};

// A commit point and its segments, opened.
struct OpenedCommit {
  NewestCommit found;                   // skipped/foreign stay empty for a given generation
  std::vector<OpenedSegment> segments;  // one per commit segment
};
// For segment `s` of the commit being opened: an already open reader of it
// (same name and id) or null to have it opened, and, if the caller has them,
// its live docs of generation s.del_gen (null to have them read).
using SegmentReuse = std::function<OpenedSegment(const CommitSegment& s)>;

// Reads commit point `generation` (0: the newest, falling back past
// unreadable ones with `recover`) and opens every segment it lists (those
// `reuse` does not return) and, with `live_docs`, reads the live docs of
// each that has deletions (unless `reuse` gave them). When a file of the
// newest commit disappears while being opened, a concurrent writer replaced
// the commit: the newer one is opened instead (up to 100 times). A given
// generation whose files are gone is kNotFound.
absl::StatusOr<OpenedCommit> OpenCommitAndSegments(Directory* dir, uint64_t generation,
                                                   bool recover, const SegmentReuse& reuse,
                                                   bool live_docs = true);

// K term lookups over every segment of a CommitReader, with the I/O of all
// segments overlapped: first every segment's dictionary blocks are
// prefetched (TermLookup::PrefetchBlocks), then each segment seeks and
// prefetches the postings of what it found (TermLookup::SeekAndPrefetch).
// Holds one TermLookup per segment, made with the segments' prefetch
// policies when this is made.
//
// Thread safety: one per thread. The CommitReader must outlive it.
class IndexTermLookup {
 public:
  explicit IndexTermLookup(const CommitReader* reader);

  // result[s][i]: the stats of terms[i] in field `field` of segment s, or
  // nullopt (also when segment s has no such field).
  absl::StatusOr<std::vector<std::vector<std::optional<TermStats>>>> Lookup(
      std::string_view field, std::span<const std::string_view> terms);

  size_t segment_count() const { return lookups_.size(); }
  TermLookup& segment(size_t i) { return lookups_[i]; }
  // SegmentReader::FieldByName(field) of segment s, or null.
  const FieldInfo* field(size_t s, std::string_view field) const;
  // Sums over the segments' lookups.
  PrefetchStats prefetch_stats() const;
  uint64_t prefetch_failures() const;
  void set_prefetch_policy(PrefetchPolicy policy);

 private:
  const CommitReader* reader_;
  std::vector<TermLookup> lookups_;
};

}  // namespace invert

#endif  // INVERT_INDEX_COMMIT_READER_H_

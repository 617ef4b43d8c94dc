// IndexReader: a point-in-time view of one commit of an index: its segments
// ("leaves"), schema, statistics, stored documents and term vectors.
//
//   absl::StatusOr<std::unique_ptr<invert::IndexReader>> reader =
//       invert::IndexReader::Open("/path/to/index");
//   for (const invert::LeafReader* leaf : (*reader)->leaves()) {
//     auto postings = leaf->Postings("body", "fox", invert::kPostingsPositions);
//     ...  // doc ids are leaf->doc_base() + the leaf's own ids
//   }
//   absl::StatusOr<invert::StoredDocument> doc = (*reader)->Document(42);
//
// Snapshot: a reader sees exactly the commit it opened, whatever a writer
// does afterwards. It takes no lock and never blocks a writer. Every file of
// its commit is opened (memory-mapped) by Open(), so a writer that commits
// and deletes the files it no longer needs does not disturb it: on POSIX a
// deleted file stays readable through the mappings until the last reader of
// it is destroyed (its disk space is freed then). OpenIfChanged() gives a
// reader of a newer commit, sharing the segments the two commits have in
// common.
//
// Document ids: index-wide ids run 0 .. max_doc() - 1 across the leaves in
// order; leaf i holds leaves()[i]->doc_base() onward.
//
// Deleted documents (docs/reader.md): a commit may delete documents of its
// segments. They keep their ids until a merge drops them; num_docs() and
// IsDeleted() tell them apart, postings skip them, Document / Documents /
// TermVectors refuse them (kNotFound), and the statistics (FieldStatistics,
// TermStats) still count them, as Lucene's do.
//
// Errors: every failure is an absl::Status naming the file, segment, field
// or document. A damaged index is reported (kDataLoss with the cause),
// never repaired, and never makes a reader crash or read out of bounds.
//
// Thread safety: an IndexReader and its leaves may be used from any number
// of threads at once. Cursors (TermsEnum, PostingsEnum) are one thread's
// each; they keep their segment alive, so they may outlive the reader.
#ifndef INVERT_INDEX_READER_H_
#define INVERT_INDEX_READER_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "invert/directory.h"
#include "invert/export.h"
#include "invert/field_type.h"
#include "invert/leaf_reader.h"
#include "invert/prefetch.h"
#include "invert/stored_document.h"
#include "invert/terms_enum.h"

namespace invert {

struct IndexReaderOptions {
  // Open commit generation N (the file segments_N) instead of the newest.
  // 0: the newest.
  uint64_t generation = 0;
  // When the newest commit point cannot be read (damaged, unreadable, a
  // newer format): false fails Open() with the file and the cause; true
  // opens the newest older one that reads, and warnings() names the ones
  // passed over.
  bool recover = false;
  // Read-ahead of the pages a read is about to touch (invert/prefetch.h).
  PrefetchPolicy prefetch = PrefetchPolicy::kAlways;
  // How the postings, dictionaries, stored fields and term vectors will be
  // read (madvise on their mappings; invert/directory.h). kRandom suits an
  // index larger than memory read at random.
  ReadAdvice read_advice = ReadAdvice::kNormal;
};

class INVERT_EXPORT IndexReader {
 public:
  // Opens the commit options.generation (default: the newest) of the index
  // at `path`. kNotFound when there is no index there. A commit that a
  // writer replaces while it is being opened is followed to the newer one.
  static absl::StatusOr<std::unique_ptr<IndexReader>> Open(const std::string& path,
                                                           const IndexReaderOptions& options = {});
  // The same over any Directory, which must outlive the reader and every
  // reader OpenIfChanged() makes from it.
  static absl::StatusOr<std::unique_ptr<IndexReader>> Open(Directory* dir,
                                                           const IndexReaderOptions& options = {});

  virtual ~IndexReader();

  // A reader of the index's newest commit if it is not this reader's, with
  // this reader's options (except generation); null (and OK) when this
  // reader already has the newest. Segments both commits have are shared,
  // not opened again (also when the newer commit deleted documents of
  // them: the new reader sees its commit's deletions, this one its own).
  // This reader stays valid and unchanged either way.
  virtual absl::StatusOr<std::unique_ptr<IndexReader>> OpenIfChanged() const = 0;

  // The commit this reader sees: its generation and the index's id (32 hex
  // digits, fixed when the index was created).
  virtual uint64_t generation() const = 0;
  virtual const std::string& index_id() const = 0;

  // Documents in the index, deleted ones included, and those not deleted
  // (the leaves' num_docs() summed).
  virtual uint64_t max_doc() const = 0;
  virtual uint64_t num_docs() const = 0;
  // True iff index-wide doc `doc` is deleted. REQUIRES: doc < max_doc() (a
  // larger doc is not deleted: false).
  virtual bool IsDeleted(uint64_t doc) const = 0;

  // The segments, in order. The pointers live as long as this reader.
  virtual const std::vector<const LeafReader*>& leaves() const = 0;
  // The index of the leaf holding index-wide doc `doc`. REQUIRES: doc <
  // max_doc().
  virtual size_t LeafIndexOf(uint64_t doc) const = 0;

  // The index's schema: every field of the commit with its type, in order
  // of first use.
  virtual const std::vector<FieldSchema>& fields() const = 0;

  // A field's statistics summed over the leaves (term_count stays 0: the
  // distinct terms of several segments are not a sum), deleted documents
  // counted. kNotFound for a field not in the schema, kInvalidArgument for
  // one that is not indexed.
  virtual absl::StatusOr<TermsStatistics> FieldStatistics(std::string_view field) const = 0;
  // A term's statistics summed over the leaves (zero when absent), deleted
  // documents counted.
  virtual absl::StatusOr<TermStatistics> TermStats(std::string_view field,
                                                   std::string_view term) const = 0;

  // The stored values of index-wide doc `doc`; kOutOfRange for doc >=
  // max_doc(), kNotFound (naming the doc, saying it is deleted) for a
  // deleted one.
  virtual absl::StatusOr<StoredDocument> Document(uint64_t doc) const = 0;
  // The same for K documents (any order, repeats allowed), each segment's
  // blocks prefetched together before any is decoded. Result i is docs[i];
  // kOutOfRange if any doc >= max_doc(), kNotFound if any is deleted: the
  // whole call fails and nothing is returned.
  virtual absl::StatusOr<std::vector<StoredDocument>> Documents(
      std::span<const uint64_t> docs) const = 0;
  // The term vectors of index-wide doc `doc`; errors as Document.
  virtual absl::StatusOr<std::vector<TermVector>> TermVectors(uint64_t doc) const = 0;

  // What Open() passed over with options.recover: "segments_N: cause" per
  // unreadable newer commit point, and files named like commit points that
  // are not ones.
  virtual const std::vector<std::string>& warnings() const = 0;
};

}  // namespace invert

#endif  // INVERT_INDEX_READER_H_

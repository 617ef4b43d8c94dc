// LeafReader: one segment of an open index (a "leaf" of the IndexReader):
// its documents 0 .. max_doc() - 1, which are the index's documents
// doc_base() .. doc_base() + max_doc() - 1, and per field its term
// dictionary, postings, norms, stored values and term vectors.
//
// Deleted documents keep their ids: max_doc() counts them, num_docs() does
// not, IsDeleted() tells them apart. Postings never return them; Document,
// Documents and TermVectors refuse them (kNotFound saying the doc is
// deleted). Statistics (TermsStats, TermStats, TermsEnum::doc_freq and
// total_term_freq) still count them, as Lucene's do, until a merge drops
// them (they are read from the term dictionary, which a deletion does not
// rewrite); so a term whose documents are all deleted still enumerates,
// with no postings. Norm returns a deleted document's stored norm.
//
// Field lookups by name: a name that is not in the index's schema is
// kNotFound (the message lists the fields there are); a field that the
// schema has but that does not support the request (e.g. Terms of a
// stored-only field) is kInvalidArgument saying what the field is; a field
// of the schema that this segment has no values of reads as empty (no
// terms, no norms: kNotFound only from Norm).
//
// Thread safety: every method may be called from any number of threads at
// once; the cursors it hands out are one thread's each.
#ifndef INVERT_LEAF_READER_H_
#define INVERT_LEAF_READER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "invert/export.h"
#include "invert/field_type.h"
#include "invert/postings_enum.h"
#include "invert/stored_document.h"
#include "invert/terms_enum.h"

namespace invert {

class INVERT_EXPORT LeafReader {
 public:
  virtual ~LeafReader();

  // The segment's name ("_3") and the version of invert that wrote it.
  virtual const std::string& name() const = 0;
  virtual const std::string& created_by() const = 0;
  // Index-wide id of this segment's document 0.
  virtual uint64_t doc_base() const = 0;
  // Documents in the segment, deleted ones included (ids 0 .. max_doc() -
  // 1), and those not deleted.
  virtual uint32_t max_doc() const = 0;
  virtual uint32_t num_docs() const = 0;
  // True iff some document of the segment is deleted (num_docs() <
  // max_doc()).
  virtual bool has_deletions() const = 0;
  // True iff `doc` is deleted in the commit this reader sees. REQUIRES:
  // doc < max_doc() (a larger doc is not deleted: false).
  virtual bool IsDeleted(uint32_t doc) const = 0;

  // The fields this segment has values of, in the segment's field order.
  virtual const std::vector<FieldSchema>& fields() const = 0;

  // Statistics of the field's terms in this segment, deleted documents
  // counted (see the top); all zero when the segment has none. kNotFound /
  // kInvalidArgument as at the top.
  virtual absl::StatusOr<TermsStatistics> TermsStats(std::string_view field) const = 0;
  // A cursor over the field's terms (empty when the segment has none).
  virtual absl::StatusOr<std::unique_ptr<TermsEnum>> Terms(std::string_view field) const = 0;
  // One term's statistics in this segment (zero when absent), deleted
  // documents counted.
  virtual absl::StatusOr<TermStatistics> TermStats(std::string_view field,
                                                   std::string_view term) const = 0;
  // One term's postings (TermsEnum::Postings), or null when the segment
  // does not have the term. They skip deleted documents (so they may be
  // empty when the term's documents are all deleted).
  virtual absl::StatusOr<std::unique_ptr<PostingsEnum>> Postings(std::string_view field,
                                                                 std::string_view term,
                                                                 uint32_t flags) const = 0;

  // The norm byte of `doc` in `field`: the field's length in the document,
  // encoded as Lucene 8.8's SmallFloat.intToByte4 (docs/format.md, norms
  // version 2; a segment with version-1 norms reads translated to it; 0: the
  // document has no value of the field). kNotFound when the field has no
  // norms in this segment, kOutOfRange for a doc >= max_doc(). A deleted
  // document's norm is returned as stored (a deletion does not change the
  // norms).
  virtual absl::StatusOr<uint8_t> Norm(std::string_view field, uint32_t doc) const = 0;

  // The stored values of `doc`. kOutOfRange for a doc >= max_doc(),
  // kNotFound (naming the doc, saying it is deleted) for a deleted one.
  virtual absl::StatusOr<StoredDocument> Document(uint32_t doc) const = 0;
  // The same for K documents (any order, repeats allowed): every block they
  // need is prefetched before the first is decoded. Result i is docs[i].
  // One doc out of range or deleted fails the whole call, nothing read.
  virtual absl::StatusOr<std::vector<StoredDocument>> Documents(
      std::span<const uint32_t> docs) const = 0;
  // The term vectors of `doc`, one per field that has them, in field order.
  // kOutOfRange / kNotFound (deleted) as Document.
  virtual absl::StatusOr<std::vector<TermVector>> TermVectors(uint32_t doc) const = 0;

  // Verifies the checksum of every file of the segment (reads them whole).
  virtual absl::Status CheckIntegrity() const = 0;
};

}  // namespace invert

#endif  // INVERT_LEAF_READER_H_

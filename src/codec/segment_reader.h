// SegmentReader: one flushed segment opened for reading. Every file is
// memory-mapped once, by Open(), and read only through those mappings (so
// the files may be deleted under an open reader). Opening checks every
// header, footer structure and the segment info's file list (names,
// lengths); CheckIntegrity() also verifies every checksum. All reads are
// bounds-checked: a damaged segment yields errors, never a crash.
//
// Thread safety: after Open() a SegmentReader may be shared by threads; the
// cursors and enums it hands out are used by one thread each.
#ifndef INVERT_CODEC_SEGMENT_READER_H_
#define INVERT_CODEC_SEGMENT_READER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "codec/field_info.h"
#include "codec/norms_format.h"
#include "codec/postings_format.h"
#include "codec/segment_info_format.h"
#include "codec/stored_fields_format.h"
#include "codec/term_vectors_format.h"
#include "invert/directory.h"
#include "store/index_input.h"

namespace invert {

class SegmentReader {
 public:
  static absl::StatusOr<std::unique_ptr<SegmentReader>> Open(Directory* dir,
                                                             std::string_view segment,
                                                             const SegmentId& id);

  const SegmentInfo& info() const { return info_; }
  uint32_t doc_count() const { return info_.doc_count; }
  const std::vector<FieldInfo>& fields() const { return fields_; }
  // The field named `name`, or null.
  const FieldInfo* FieldByName(std::string_view name) const;

  // The term dictionary of an inverted field, or null if it has no terms.
  const TermDictReader* Terms(uint32_t field) const { return terms_->Field(field); }
  const FieldTermsStats* TermsStats(uint32_t field) const { return terms_->Stats(field); }
  // Postings of the term whose dictionary entry is `stats`.
  PostingsCursor Postings(uint32_t field, const TermStats& stats) const;

  uint8_t Norm(uint32_t field, uint32_t doc) const { return norms_->Get(field, doc); }
  bool HasNorms(uint32_t field) const { return norms_->HasNorms(field); }
  // Every document's norm of `field` (empty if it has none): for bulk copies.
  std::span<const uint8_t> NormBytes(uint32_t field) const { return norms_->Field(field); }
  // The norms file's header version (NormsReader::file_version): 1 means
  // its bytes were translated, so the .doc impacts of the same flush were
  // built from other bytes than Norm() returns and bound nothing.
  uint32_t norms_version() const { return norms_->file_version(); }

  const StoredFieldsReader& stored_fields() const { return *stored_; }
  const TermVectorsReader& term_vectors() const { return *vectors_; }

  // Verifies every file's checksum, and that each equals what the segment
  // info recorded.
  absl::Status CheckIntegrity() const;

  std::span<const uint8_t> doc_file() const { return doc_->bytes(); }
  // The .doc file's format version (kDocVersionNoImpacts, kDocVersionImpacts or
  // kDocFormatVersion).
  uint32_t doc_version() const { return doc_version_; }
  std::span<const uint8_t> pos_file() const { return pos_->bytes(); }

  // ---- Prefetch (docs/prefetch.md)

  // Sets the prefetch policy of every input this reader prefetches through
  // (.doc, .pos, and the stored-fields and term-vectors data files) and of
  // the copies a TermLookup made afterwards takes (.tim, .doc, .pos). The
  // default is IndexInput::kDefaultPrefetchPolicy. Not while other threads
  // read.
  void SetPrefetchPolicy(PrefetchPolicy policy);
  PrefetchPolicy prefetch_policy() const { return policy_; }
  // Tells the kernel how the postings, dictionary, stored-fields and
  // term-vectors files will be read (e.g. kRandom: single-page faults, for
  // random access to an index larger than memory). Affects every reader of
  // the same mappings.
  absl::Status SetReadAdvice(ReadAdvice advice) const;

  struct DocFilesPrefetchStats {
    PrefetchStats stored;   // .fdt
    PrefetchStats vectors;  // .tvd
  };
  // Prefetch counters of the K-document fetches (term lookups count in their
  // TermLookup). Not while other threads read.
  DocFilesPrefetchStats doc_files_prefetch_stats() const;

  // The inputs a TermLookup copies (whole files, footer included).
  const IndexInput& terms_input() const { return terms_->input(); }
  const IndexInput& doc_input() const { return *doc_; }
  const IndexInput& pos_input() const { return *pos_; }

  // ---- K-document fetches

  // The stored fields of docs[i] for every i (any order, repeats allowed),
  // as stored_fields().Documents(docs): every block to decode is prefetched
  // (even a single one) before the first is decoded. kOutOfRange if
  // a doc is >= doc_count().
  absl::StatusOr<std::vector<std::vector<StoredField>>> StoredDocuments(
      std::span<const uint32_t> docs) const {
    return stored_->Documents(docs);
  }
  // The same for term vectors (term_vectors().Get(docs)).
  absl::StatusOr<std::vector<std::vector<TermVectorFieldData>>> TermVectorDocuments(
      std::span<const uint32_t> docs) const {
    return vectors_->Get(docs);
  }

 private:
  SegmentReader() = default;

  SegmentInfo info_;
  std::vector<IndexInput> files_;  // info_.files[i], opened by Open()
  std::vector<FieldInfo> fields_;
  std::unique_ptr<TermsReader> terms_;
  std::optional<IndexInput> doc_;
  uint32_t doc_version_ = kDocFormatVersion;
  std::optional<IndexInput> pos_;
  std::optional<NormsReader> norms_;
  std::unique_ptr<StoredFieldsReader> stored_;
  std::unique_ptr<TermVectorsReader> vectors_;
  PrefetchPolicy policy_ = IndexInput::kDefaultPrefetchPolicy;
};

}  // namespace invert

#endif  // INVERT_CODEC_SEGMENT_READER_H_

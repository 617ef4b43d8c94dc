// SegmentReader: one flushed segment opened for reading. Every file is
// memory-mapped; opening checks every header, footer structure and the
// segment info's file list (names, lengths); CheckIntegrity() also verifies
// every checksum. All reads are bounds-checked: a damaged segment yields
// errors, never a crash.
//
// Thread safety: after Open() a SegmentReader may be shared by threads; the
// cursors and enums it hands out are used by one thread each.
#ifndef INVERT_CODEC_SEGMENT_READER_H_
#define INVERT_CODEC_SEGMENT_READER_H_

#include <cstdint>
#include <memory>
#include <optional>
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
  PostingsEnum Postings(uint32_t field, const TermStats& stats) const;

  uint8_t Norm(uint32_t field, uint32_t doc) const { return norms_->Get(field, doc); }
  bool HasNorms(uint32_t field) const { return norms_->HasNorms(field); }

  const StoredFieldsReader& stored_fields() const { return *stored_; }
  const TermVectorsReader& term_vectors() const { return *vectors_; }

  // Verifies every file's checksum, and that each equals what the segment
  // info recorded.
  absl::Status CheckIntegrity() const;

  std::span<const uint8_t> doc_file() const { return doc_->bytes(); }
  std::span<const uint8_t> pos_file() const { return pos_->bytes(); }

 private:
  SegmentReader() = default;

  Directory* dir_ = nullptr;
  SegmentInfo info_;
  std::vector<FieldInfo> fields_;
  std::unique_ptr<TermsReader> terms_;
  std::optional<IndexInput> doc_;
  std::optional<IndexInput> pos_;
  std::optional<NormsReader> norms_;
  std::unique_ptr<StoredFieldsReader> stored_;
  std::unique_ptr<TermVectorsReader> vectors_;
};

}  // namespace invert

#endif  // INVERT_CODEC_SEGMENT_READER_H_

// LeafReaderImpl: the public LeafReader over one opened segment and its live
// docs as of one commit, and ReaderSchema, the index's schema its leaves
// resolve field names against (see the top of include/invert/leaf_reader.h
// for the rules, deleted documents included).
#ifndef INVERT_INDEX_LEAF_READER_IMPL_H_
#define INVERT_INDEX_LEAF_READER_IMPL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "codec/field_info.h"
#include "codec/live_docs_format.h"
#include "codec/segment_reader.h"
#include "invert/leaf_reader.h"

namespace invert {

// The fields of a commit's schema, by name.
class ReaderSchema {
 public:
  explicit ReaderSchema(const std::vector<FieldInfo>& commit_schema);

  const std::vector<FieldSchema>& fields() const { return fields_; }
  // The field called `name`, or null.
  const FieldSchema* Find(std::string_view name) const;
  // kNotFound for a name not in the schema (listing the fields there are);
  // with `need_indexed`, kInvalidArgument for a field that is not inverted.
  absl::Status Check(std::string_view name, bool need_indexed) const;

 private:
  std::vector<FieldSchema> fields_;
  std::map<std::string, size_t, std::less<>> by_name_;
};

class LeafReaderImpl final : public LeafReader {
 public:
  // `live` (null: no deletions) covers the segment's documents.
  LeafReaderImpl(std::shared_ptr<SegmentReader> segment, std::shared_ptr<const LiveDocs> live,
                 std::shared_ptr<const ReaderSchema> schema, uint64_t doc_base);

  // The segment, shared with the leaves of other readers of the same index.
  const std::shared_ptr<SegmentReader>& segment() const { return segment_; }
  // Its live docs in this reader's commit (null: none deleted).
  const std::shared_ptr<const LiveDocs>& live_docs() const { return live_; }

  const std::string& name() const override { return segment_->info().name; }
  const std::string& created_by() const override { return segment_->info().created_by; }
  uint64_t doc_base() const override { return doc_base_; }
  uint32_t max_doc() const override { return segment_->doc_count(); }
  uint32_t num_docs() const override {
    return segment_->doc_count() - (live_ != nullptr ? live_->del_count() : 0);
  }
  bool has_deletions() const override { return live_ != nullptr && live_->del_count() > 0; }
  bool IsDeleted(uint32_t doc) const override {
    return live_ != nullptr && doc < live_->doc_count() && !live_->IsLive(doc);
  }
  const std::vector<FieldSchema>& fields() const override { return fields_; }

  absl::StatusOr<TermsStatistics> TermsStats(std::string_view field) const override;
  absl::StatusOr<std::unique_ptr<TermsEnum>> Terms(std::string_view field) const override;
  absl::StatusOr<TermStatistics> TermStats(std::string_view field,
                                           std::string_view term) const override;
  absl::StatusOr<std::unique_ptr<PostingsEnum>> Postings(std::string_view field,
                                                         std::string_view term,
                                                         uint32_t flags) const override;
  absl::StatusOr<uint8_t> Norm(std::string_view field, uint32_t doc) const override;
  absl::StatusOr<StoredDocument> Document(uint32_t doc) const override;
  absl::StatusOr<std::vector<StoredDocument>> Documents(
      std::span<const uint32_t> docs) const override;
  absl::StatusOr<std::vector<TermVector>> TermVectors(uint32_t doc) const override;
  absl::Status CheckIntegrity() const override;

 private:
  // The segment's info of an inverted field `field` of the schema, or null
  // when this segment has no values of it; errors as ReaderSchema::Check.
  absl::StatusOr<const FieldInfo*> IndexedField(std::string_view field) const;
  // OK iff doc < max_doc(); else kOutOfRange.
  absl::Status CheckDoc(uint32_t doc) const;
  // CheckDoc, and kNotFound if the doc is deleted.
  absl::Status CheckLiveDoc(uint32_t doc) const;
  // The segment's field numbered `number`'s name; kDataLoss if none.
  absl::StatusOr<std::string> FieldName(uint32_t number) const;
  absl::StatusOr<StoredDocument> ToStoredDocument(std::vector<StoredField> fields) const;

  std::shared_ptr<SegmentReader> segment_;
  std::shared_ptr<const LiveDocs> live_;  // null: no deletions
  std::shared_ptr<const ReaderSchema> schema_;
  uint64_t doc_base_;
  std::vector<FieldSchema> fields_;
};

}  // namespace invert

#endif  // INVERT_INDEX_LEAF_READER_IMPL_H_

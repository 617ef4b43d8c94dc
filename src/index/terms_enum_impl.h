// The public TermsEnum and PostingsEnum (include/invert/) over one segment's
// term dictionary cursor and postings cursor. Each holds a reference to its
// SegmentReader, so the mapped files it reads stay alive as long as it does,
// and to the live docs of the commit it was made from (null: none deleted).
// The postings skip deleted documents; the term statistics (doc_freq,
// total_term_freq, cost) count them, as the dictionary does.
#ifndef INVERT_INDEX_TERMS_ENUM_IMPL_H_
#define INVERT_INDEX_TERMS_ENUM_IMPL_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "absl/status/status.h"
#include "codec/field_info.h"
#include "codec/live_docs_format.h"
#include "codec/postings_format.h"
#include "codec/segment_reader.h"
#include "codec/term_dict_reader.h"
#include "invert/postings_enum.h"
#include "invert/terms_enum.h"
#include "store/index_input.h"

namespace invert {

// OK iff `flags` (kPostings*) asks for nothing `field` does not index;
// otherwise kInvalidArgument naming the field, what it indexes and what was
// asked for.
absl::Status CheckPostingsFlags(const FieldInfo& field, uint32_t flags);

class PostingsEnumImpl final : public PostingsEnum {
 public:
  // REQUIRES: CheckPostingsFlags(field, flags) is OK; `field` is the
  // segment's and `stats` came from its dictionary; `live` (null: every
  // document is live) covers the segment's documents.
  PostingsEnumImpl(std::shared_ptr<const SegmentReader> segment, const FieldInfo& field,
                   const TermStats& stats, uint32_t flags,
                   std::shared_ptr<const LiveDocs> live = nullptr);
  PostingsEnumImpl(const PostingsEnumImpl&) = delete;  // the cursor points at doc_input_
  PostingsEnumImpl& operator=(const PostingsEnumImpl&) = delete;

  // Inline: a TermScorer holding this final class calls them without a
  // virtual dispatch, once per document it moves over.
  uint32_t NextDoc() override { return Landed(cursor_.NextDoc()); }
  uint32_t Advance(uint32_t target) override {
    if (doc_ != kNoMoreDocs && doc_ >= target) return doc_;
    return Landed(cursor_.Advance(target));
  }
  uint32_t doc() const override { return doc_; }
  uint32_t freq() const override { return doc_ == kNoMoreDocs ? 0 : cursor_.freq(); }
  uint64_t cost() const override { return doc_freq_; }
  bool NextPosition() override;
  uint32_t position() const override;
  uint32_t start_offset() const override;
  uint32_t end_offset() const override;
  std::string_view payload() const override;
  const absl::Status& status() const override;

  // The codec cursor underneath, for its impacts (AdvanceShallow, impacts,
  // TermImpacts): the searcher's block-max pruning; and for a conjunction
  // that moves it itself (a boolean query's required terms), which then calls
  // SyncToCursor before any other call on this enum.
  PostingsCursor& cursor() { return cursor_; }
  // After cursor() was moved directly: this enum's doc becomes the cursor's,
  // or the next live one if that one is deleted (as Advance would land);
  // unchanged if the cursor was never moved. Returns doc().
  uint32_t SyncToCursor() {
    if (!cursor_.started()) return doc_;
    return Landed(cursor_.doc() != kNoMoreDocs);
  }
  // Advance(target) through PostingsCursor::AdvanceFiltered: full blocks
  // `filter` judges kSkip are passed over (a pruning term scorer's skips).
  uint32_t AdvanceFiltered(uint32_t target, PostingsCursor::BlockFilter& filter) {
    if (doc_ != kNoMoreDocs && doc_ >= target) return doc_;
    return Landed(cursor_.AdvanceFiltered(target, &filter));
  }

 private:
  // Moves the cursor past deleted documents (from the one it is on, if
  // on_doc), then records where it landed; kNoMoreDocs when nowhere.
  uint32_t Landed(bool on_doc) {
    if (live_ != nullptr && on_doc) on_doc = SkipDeleted();
    doc_ = on_doc ? cursor_.doc() : kNoMoreDocs;
    positions_read_ = 0;
    on_position_ = false;
    return doc_;
  }
  // Moves the cursor (on a doc) past deleted documents: false if none is
  // left.
  bool SkipDeleted();

  std::shared_ptr<const SegmentReader> segment_;
  std::shared_ptr<const LiveDocs> live_;  // null: no deletions
  // The skip prefetch's copy of .doc (own counters); only for lists long
  // enough for Advance to ever prefetch (saves the copy for the many short
  // ones).
  std::optional<IndexInput> doc_input_;
  PostingsCursor cursor_;
  uint32_t flags_;
  uint32_t doc_freq_;
  uint32_t doc_ = kNoMoreDocs;
  uint32_t positions_read_ = 0;  // in the current document
  bool on_position_ = false;
  absl::Status misuse_;  // a call the flags did not allow
};

class TermsEnumImpl final : public TermsEnum {
 public:
  // `field` and `dict` (null: the segment has no terms in the field) belong
  // to `segment`; the postings it opens skip the docs `live` deletes.
  TermsEnumImpl(std::shared_ptr<const SegmentReader> segment, const FieldInfo* field,
                const TermDictReader* dict, std::shared_ptr<const LiveDocs> live = nullptr);

  absl::StatusOr<bool> Next() override;
  absl::StatusOr<bool> SeekExact(std::string_view term) override;
  absl::StatusOr<SeekStatus> SeekCeil(std::string_view target) override;
  std::string_view term() const override;
  uint32_t doc_freq() const override;
  uint64_t total_term_freq() const override;
  absl::StatusOr<std::unique_ptr<PostingsEnum>> Postings(uint32_t flags) const override;

 private:
  // Adds the segment's name to a cursor error.
  absl::Status Named(const absl::Status& status) const;
  bool positioned() const { return cursor_.has_value() && cursor_->valid(); }

  std::shared_ptr<const SegmentReader> segment_;
  std::shared_ptr<const LiveDocs> live_;  // null: no deletions
  const FieldInfo* field_;
  std::optional<TermDictCursor> cursor_;  // nullopt: no terms
};

}  // namespace invert

#endif  // INVERT_INDEX_TERMS_ENUM_IMPL_H_

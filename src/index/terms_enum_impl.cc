// TermsEnumImpl, PostingsEnumImpl: the public cursors over a segment.
#include "index/terms_enum_impl.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "util/absl_compat.h"

namespace invert {

PostingsEnum::~PostingsEnum() = default;
TermsEnum::~TermsEnum() = default;

namespace {

constexpr uint32_t kAllPostingsFlags = kPostingsOffsets | kPostingsPayloads;

// What a field's postings record, in words.
std::string IndexedText(const FieldInfo& field) {
  const char* what = "nothing (the field is not indexed)";
  switch (field.type.index_options) {
    case IndexOptions::kNone:
      break;
    case IndexOptions::kDocs:
      what = "docs only";
      break;
    case IndexOptions::kDocsAndFreqs:
      what = "docs and freqs";
      break;
    case IndexOptions::kDocsAndFreqsAndPositions:
      what = "docs, freqs and positions";
      break;
    case IndexOptions::kDocsAndFreqsAndPositionsAndOffsets:
      what = "docs, freqs, positions and offsets";
      break;
  }
  return absl::StrCat(what, field.type.payloads ? " (with payloads)" : "");
}

}  // namespace

absl::Status CheckPostingsFlags(const FieldInfo& field, uint32_t flags) {
  if ((flags & ~kAllPostingsFlags) != 0) {
    return absl::InvalidArgumentError(absl::StrCat("unknown postings flags 0x", absl::Hex(flags),
                                                   " (use the kPostings* constants)"));
  }
  const IndexOptions options = field.type.index_options;
  const char* missing = nullptr;
  if ((flags & kPostingsFreqs) != 0 && !HasFreqs(options)) missing = "frequencies";
  if ((flags & (kPostingsPositions & ~kPostingsFreqs)) != 0 && !HasPositions(options)) {
    missing = "positions";
  }
  if ((flags & (kPostingsOffsets & ~kPostingsPositions)) != 0 && !HasOffsets(options)) {
    missing = "offsets";
  }
  if ((flags & (kPostingsPayloads & ~kPostingsPositions)) != 0 &&
      !(field.type.payloads && HasPositions(options))) {
    missing = "payloads";
  }
  if (missing == nullptr) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("field \"", Sv(field.name), "\" indexes ",
                                                 IndexedText(field), ": its postings have no ",
                                                 missing, " to read"));
}

// ---- PostingsEnumImpl

PostingsEnumImpl::PostingsEnumImpl(std::shared_ptr<const SegmentReader> segment,
                                   const FieldInfo& field, const TermStats& stats, uint32_t flags,
                                   std::shared_ptr<const LiveDocs> live)
    : segment_(std::move(segment)),
      live_(std::move(live)),
      cursor_(segment_->Postings(field.number, stats)),
      flags_(flags),
      doc_freq_(stats.doc_freq) {
  const uint64_t min_docs = uint64_t{kForBlockSize} * PostingsCursor::kSkipPrefetchAfter;
  if (segment_->prefetch_policy() != PrefetchPolicy::kOff && doc_freq_ > min_docs) {
    doc_input_.emplace(segment_->doc_input());
    doc_input_->set_prefetch_policy(segment_->prefetch_policy());
    cursor_.set_skip_prefetch(&*doc_input_);
  }
}

bool PostingsEnumImpl::SkipDeleted() {
  // A doc id past the live docs is corrupt postings: the cursor reports
  // those itself, so only ids in range are looked up.
  bool on_doc = true;
  while (on_doc && cursor_.doc() < live_->doc_count() && !live_->IsLive(cursor_.doc())) {
    on_doc = cursor_.NextDoc();
  }
  return on_doc;
}

bool PostingsEnumImpl::NextPosition() {
  if ((flags_ & kPostingsPositions & ~kPostingsFreqs) == 0) {
    misuse_ =
        absl::FailedPreconditionError("NextPosition on postings opened without kPostingsPositions");
    return false;
  }
  if (doc_ == kNoMoreDocs || positions_read_ >= cursor_.freq()) return false;
  on_position_ = cursor_.NextPosition();
  if (on_position_) ++positions_read_;
  return on_position_;
}

uint32_t PostingsEnumImpl::position() const { return on_position_ ? cursor_.position() : 0; }

uint32_t PostingsEnumImpl::start_offset() const {
  const bool asked = (flags_ & kPostingsOffsets & ~kPostingsPositions) != 0;
  return asked && on_position_ ? cursor_.start_offset() : 0;
}

uint32_t PostingsEnumImpl::end_offset() const {
  const bool asked = (flags_ & kPostingsOffsets & ~kPostingsPositions) != 0;
  return asked && on_position_ ? cursor_.end_offset() : 0;
}

std::string_view PostingsEnumImpl::payload() const {
  const bool asked = (flags_ & kPostingsPayloads & ~kPostingsPositions) != 0;
  return asked && on_position_ ? cursor_.payload() : std::string_view();
}

const absl::Status& PostingsEnumImpl::status() const {
  return misuse_.ok() ? cursor_.status() : misuse_;
}

// ---- TermsEnumImpl

TermsEnumImpl::TermsEnumImpl(std::shared_ptr<const SegmentReader> segment, const FieldInfo* field,
                             const TermDictReader* dict, std::shared_ptr<const LiveDocs> live)
    : segment_(std::move(segment)), live_(std::move(live)), field_(field) {
  if (dict != nullptr) cursor_.emplace(dict->NewCursor());
}

absl::Status TermsEnumImpl::Named(const absl::Status& status) const {
  return absl::Status(status.code(),
                      absl::StrCat("segment ", Sv(segment_->info().name), ", field \"",
                                   Sv(field_->name), "\": ", status.message()));
}

absl::StatusOr<bool> TermsEnumImpl::Next() {
  if (!cursor_.has_value()) return false;
  absl::StatusOr<bool> more = cursor_->Next();
  if (!more.ok()) {
    if (absl::IsFailedPrecondition(more.status())) {
      return absl::FailedPreconditionError(
          "TermsEnum::Next after SeekExact found nothing: seek again first");
    }
    return Named(more.status());
  }
  return *more;
}

absl::StatusOr<bool> TermsEnumImpl::SeekExact(std::string_view term) {
  if (!cursor_.has_value()) return false;
  absl::StatusOr<bool> found = cursor_->SeekExact(term);
  if (!found.ok()) return Named(found.status());
  return *found;
}

absl::StatusOr<TermsEnum::SeekStatus> TermsEnumImpl::SeekCeil(std::string_view target) {
  if (!cursor_.has_value()) return SeekStatus::kEnd;
  absl::StatusOr<TermDictCursor::SeekResult> result = cursor_->SeekCeil(target);
  if (!result.ok()) return Named(result.status());
  switch (*result) {
    case TermDictCursor::SeekResult::kFound:
      return SeekStatus::kFound;
    case TermDictCursor::SeekResult::kNotFound:
      return SeekStatus::kNotFound;
    case TermDictCursor::SeekResult::kEnd:
      break;
  }
  return SeekStatus::kEnd;
}

std::string_view TermsEnumImpl::term() const {
  return positioned() ? cursor_->term() : std::string_view();
}

uint32_t TermsEnumImpl::doc_freq() const { return positioned() ? cursor_->stats().doc_freq : 0; }

uint64_t TermsEnumImpl::total_term_freq() const {
  return positioned() ? cursor_->stats().total_term_freq : 0;
}

absl::StatusOr<std::unique_ptr<PostingsEnum>> TermsEnumImpl::Postings(uint32_t flags) const {
  if (absl::Status s = CheckPostingsFlags(*field_, flags); !s.ok()) return s;
  if (!positioned()) {
    return absl::FailedPreconditionError(
        "TermsEnum::Postings on an unpositioned enum: Next or seek to a term first");
  }
  return std::unique_ptr<PostingsEnum>(
      new PostingsEnumImpl(segment_, *field_, cursor_->stats(), flags, live_));
}

}  // namespace invert

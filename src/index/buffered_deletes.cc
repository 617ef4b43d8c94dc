// DeleteQueue and ApplyDeletes (see buffered_deletes.h for the ordering
// argument).
#include "index/buffered_deletes.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "util/absl_compat.h"

namespace invert {

uint64_t DeleteQueue::Add(std::string_view field, std::string_view term, uint64_t* doc_seq) {
  DeleteTerm d{std::string(field), std::string(term), 0};
  const int64_t bytes = BytesOf(d);
  MutexLock lock(&mu_);
  d.seq = next_seq_;
  queue_.push_back(std::move(d));  // may throw: nothing changed then
  ++next_seq_;
  if (doc_seq != nullptr) *doc_seq = next_seq_++;
  bytes_ += bytes;
  ram_->Add(bytes);
  return base_ + queue_.size() - 1;
}

std::vector<DeleteTerm> DeleteQueue::Snapshot(uint64_t from, uint64_t* upto) const {
  MutexLock lock(&mu_);
  const uint64_t start = std::max(from, base_);
  std::vector<DeleteTerm> out(queue_.begin() + static_cast<ptrdiff_t>(start - base_), queue_.end());
  *upto = base_ + queue_.size();
  return out;
}

void DeleteQueue::TrimBelow(uint64_t upto) {
  MutexLock lock(&mu_);
  int64_t freed = 0;
  while (base_ < upto && !queue_.empty()) {
    freed += BytesOf(queue_.front());
    queue_.pop_front();
    ++base_;
  }
  bytes_ -= freed;
  ram_->Add(-freed);
}

void DeleteQueue::Clear() {
  MutexLock lock(&mu_);
  base_ += queue_.size();
  queue_.clear();
  ram_->Add(-bytes_);
  bytes_ = 0;
}

absl::StatusOr<uint32_t> ApplyDeletes(const SegmentReader& segment,
                                      std::span<const DeleteTerm> deletes,
                                      std::span<const uint64_t> doc_seqs, LiveDocs* live) {
  // Sorted by field, then term: each dictionary is walked forward once.
  std::vector<const DeleteTerm*> order;
  order.reserve(deletes.size());
  for (const DeleteTerm& d : deletes) order.push_back(&d);
  std::sort(order.begin(), order.end(), [](const DeleteTerm* a, const DeleteTerm* b) {
    if (a->field != b->field) return a->field < b->field;
    if (a->term != b->term) return a->term < b->term;
    return a->seq > b->seq;  // the newest first: it deletes the most
  });
  const std::string& name = segment.info().name;
  uint32_t deleted = 0;
  size_t i = 0;
  while (i < order.size()) {
    const std::string& field_name = order[i]->field;
    size_t end = i;
    while (end < order.size() && order[end]->field == field_name) ++end;
    const FieldInfo* field = segment.FieldByName(field_name);
    const TermDictReader* dict = field != nullptr ? segment.Terms(field->number) : nullptr;
    if (dict == nullptr) {  // the field has no terms here
      i = end;
      continue;
    }
    TermDictCursor cursor = dict->NewCursor();
    for (; i < end; ++i) {
      const DeleteTerm& d = *order[i];
      if (i > 0 && order[i - 1]->field == d.field && order[i - 1]->term == d.term) {
        continue;  // an older delete of the same term deletes a subset
      }
      absl::StatusOr<bool> found = cursor.SeekExact(d.term);
      if (!found.ok()) {
        return absl::DataLossError(absl::StrCat("segment ", name, ", field \"", field_name,
                                                "\": ", found.status().message()));
      }
      if (!*found) continue;
      PostingsCursor postings = segment.Postings(field->number, cursor.stats());
      while (postings.NextDoc()) {
        const uint32_t doc = postings.doc();
        if (doc >= live->doc_count()) {
          return absl::DataLossError(absl::StrCat("segment ", name, ", field \"", field_name,
                                                  "\": a posting names doc ", doc,
                                                  " past the segment's ", live->doc_count()));
        }
        if (!doc_seqs.empty() && doc_seqs[doc] >= d.seq) break;  // added after the delete
        if (live->Delete(doc)) ++deleted;
      }
      if (!postings.status().ok()) {
        return absl::DataLossError(absl::StrCat("segment ", name, ", field \"", field_name,
                                                "\": ", postings.status().message()));
      }
    }
  }
  return deleted;
}

}  // namespace invert

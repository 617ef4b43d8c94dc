// TermLookup: the three passes of a batched term lookup.
#include "codec/term_lookup.h"

#include <unistd.h>

#include <algorithm>
#include <numeric>

#include "invert/index_options.h"

namespace invert {

namespace {

uint64_t PageSize() {
  static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return page;
}

// Sorts `ranges` and merges those that share or touch a page, so that each
// run of consecutive pages costs one Prefetch.
void MergeByPage(std::vector<FileRange>* ranges) {
  if (ranges->size() < 2) return;
  std::sort(ranges->begin(), ranges->end(),
            [](const FileRange& a, const FileRange& b) { return a.offset < b.offset; });
  const uint64_t page = PageSize();
  size_t out = 0;
  for (size_t i = 1; i < ranges->size(); ++i) {
    FileRange& last = (*ranges)[out];
    const FileRange& next = (*ranges)[i];
    const uint64_t last_end = last.offset + last.length;
    if (next.offset / page <= (last_end - 1) / page + 1) {
      last.length = std::max(last_end, next.offset + next.length) - last.offset;
    } else {
      (*ranges)[++out] = next;
    }
  }
  ranges->resize(out + 1);
}

}  // namespace

TermLookup::TermLookup(const SegmentReader* segment)
    : segment_(segment),
      tim_(segment->terms_input()),
      doc_(segment->doc_input()),
      pos_(segment->pos_input()) {
  set_prefetch_policy(segment->prefetch_policy());
}

void TermLookup::set_prefetch_policy(PrefetchPolicy policy) {
  tim_.set_prefetch_policy(policy);
  doc_.set_prefetch_policy(policy);
  pos_.set_prefetch_policy(policy);
}

PrefetchStats TermLookup::prefetch_stats() const {
  PrefetchStats total;
  for (const IndexInput* in : {&tim_, &doc_, &pos_}) {
    total.calls += in->prefetch_stats().calls;
    total.madvise += in->prefetch_stats().madvise;
    total.mincore += in->prefetch_stats().mincore;
  }
  return total;
}

void TermLookup::Prefetch(IndexInput& in, const FileRange& range) {
  if (!in.Prefetch(range.offset, range.length).ok()) ++prefetch_failures_;
}

void TermLookup::CollectBlocks(const TermDictReader& dict, std::span<const std::string_view> terms,
                               std::vector<int64_t>* blocks, std::vector<FileRange>* ranges) const {
  blocks->resize(terms.size());
  ranges->clear();
  const uint8_t* file = tim_.bytes().data();
  for (size_t i = 0; i < terms.size(); ++i) {
    const int64_t block = dict.BlockFor(terms[i]);
    (*blocks)[i] = block;
    if (block < 0) continue;
    const std::span<const uint8_t> bytes = dict.BlockBytesAt(static_cast<uint32_t>(block));
    ranges->push_back({static_cast<uint64_t>(bytes.data() - file), bytes.size()});
  }
  MergeByPage(ranges);
}

std::vector<FileRange> TermLookup::BlockRanges(uint32_t field,
                                               std::span<const std::string_view> terms) const {
  std::vector<FileRange> ranges;
  std::vector<int64_t> blocks;
  if (const TermDictReader* dict = segment_->Terms(field); dict != nullptr) {
    CollectBlocks(*dict, terms, &blocks, &ranges);
  }
  return ranges;
}

void TermLookup::PostingsRanges(uint32_t field, const TermStats& stats,
                                std::optional<FileRange>* doc,
                                std::optional<FileRange>* pos) const {
  doc->reset();
  pos->reset();
  if (field >= segment_->fields().size()) return;
  const FieldType& type = segment_->fields()[field].type;
  // Estimates of the first block's bytes: a full doc block of 128 deltas and
  // freqs is a few hundred bytes, a VInt tail a few bytes per document.
  if (stats.doc_freq >= 2 && stats.doc_offset < doc_.length()) {
    const uint64_t docs = std::min<uint64_t>(stats.doc_freq, 128);
    const uint64_t want = std::min<uint64_t>(kPostingsPrefetchBytes, 16 + 8 * docs);
    *doc = FileRange{stats.doc_offset, std::min(want, doc_.length() - stats.doc_offset)};
  }
  if (HasPositions(type.index_options) && stats.total_term_freq > 0 &&
      stats.pos_offset < pos_.length()) {
    const uint64_t positions = std::min<uint64_t>(stats.total_term_freq, 128);
    const uint64_t per_position = HasOffsets(type.index_options) || type.payloads ? 8 : 4;
    const uint64_t want = std::min<uint64_t>(kPostingsPrefetchBytes, 16 + per_position * positions);
    *pos = FileRange{stats.pos_offset, std::min(want, pos_.length() - stats.pos_offset)};
  }
}

void TermLookup::PrefetchBlocks(uint32_t field, std::span<const std::string_view> terms) {
  hint_terms_ = {};
  if (tim_.prefetch_policy() == PrefetchPolicy::kOff) return;  // the plain seeks
  const TermDictReader* dict = segment_->Terms(field);
  if (dict == nullptr) return;
  CollectBlocks(*dict, terms, &hints_, &block_ranges_);
  hint_dict_ = dict;
  hint_terms_ = terms;
  for (const FileRange& range : block_ranges_) Prefetch(tim_, range);
}

absl::StatusOr<std::vector<std::optional<TermStats>>> TermLookup::SeekAndPrefetch(
    uint32_t field, std::span<const std::string_view> terms) {
  std::vector<std::optional<TermStats>> result(terms.size());
  const TermDictReader* dict = segment_->Terms(field);
  if (dict == nullptr) return result;
  // Sorted order: terms of one block are found by scanning on in it.
  order_.resize(terms.size());
  std::iota(order_.begin(), order_.end(), 0);
  std::sort(order_.begin(), order_.end(),
            [&](uint32_t a, uint32_t b) { return terms[a] < terms[b]; });
  // The blocks pass 1 found, when it was given these terms (the cursor
  // checks each hint, so stale ones cost a binary search, never a result).
  const bool hinted = hint_dict_ == dict && hint_terms_.data() == terms.data() &&
                      hint_terms_.size() == terms.size();
  hint_terms_ = {};
  TermDictCursor cursor = dict->NewCursor();
  for (uint32_t i : order_) {
    absl::StatusOr<bool> found =
        hinted ? cursor.SeekExact(terms[i], hints_[i]) : cursor.SeekExact(terms[i]);
    if (!found.ok()) return found.status();
    if (*found) result[i] = cursor.stats();
  }
  if (doc_.prefetch_policy() == PrefetchPolicy::kOff) return result;
  doc_ranges_.clear();
  pos_ranges_.clear();
  for (const std::optional<TermStats>& stats : result) {
    if (!stats.has_value()) continue;
    std::optional<FileRange> doc, pos;
    PostingsRanges(field, *stats, &doc, &pos);
    if (doc.has_value()) doc_ranges_.push_back(*doc);
    if (pos.has_value()) pos_ranges_.push_back(*pos);
  }
  MergeByPage(&doc_ranges_);
  MergeByPage(&pos_ranges_);
  for (const FileRange& range : doc_ranges_) Prefetch(doc_, range);
  for (const FileRange& range : pos_ranges_) Prefetch(pos_, range);
  return result;
}

absl::StatusOr<std::vector<std::optional<TermStats>>> TermLookup::Lookup(
    uint32_t field, std::span<const std::string_view> terms) {
  PrefetchBlocks(field, terms);
  return SeekAndPrefetch(field, terms);
}

PostingsCursor TermLookup::Postings(uint32_t field, const TermStats& stats, bool skip_prefetch) {
  PostingsCursor postings = segment_->Postings(field, stats);
  if (skip_prefetch && doc_.prefetch_policy() != PrefetchPolicy::kOff) {
    postings.set_skip_prefetch(&doc_);
  }
  return postings;
}

}  // namespace invert

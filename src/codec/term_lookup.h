// TermLookup: K term lookups in one segment with their I/O overlapped (design
// notes, benchmarks section 3; measurements in docs/prefetch.md).
//
// K plain SeekExact calls on a cold index fault in K dictionary blocks one
// after another, and the first read of each term's postings faults again.
// Lookup(field, terms) instead works in passes:
//
//   1. Blocks: for each term, the dictionary block it falls in, from the
//      in-memory block index (TermDictReader::BlockFor; no block byte is
//      touched). One Prefetch per run of consecutive pages of .tim.
//   2. Seeks: the terms in sorted order through one cursor, so a block shared
//      by several terms is checked and scanned once; each seek starts from
//      the block pass 1 found (SeekExact(term, block_hint): no second binary
//      search).
//   3. Postings: for each term found, a Prefetch of the first bytes of its
//      postings: .doc when doc_freq >= 2 (a term in one document keeps it in
//      its dictionary entry), .pos when the field has positions. These are
//      the bytes the first NextDoc() / NextPosition() read.
//
// The result is what K TermDictCursor::SeekExact calls return: per term its
// TermStats, or nullopt when absent. Under kOff passes 1 and 3 are skipped:
// K plain seeks. PrefetchBlocks() is pass 1 and
// SeekAndPrefetch() passes 2 and 3, for a caller that overlaps several
// segments (IndexTermLookup in index/commit_reader.h); BlockRanges() and
// PostingsRanges() give the same byte ranges to a caller that reads them
// another way (the benchmark's io_uring path).
//
// Prefetch is only a hint: it never changes a result. A failed Prefetch is
// counted in prefetch_failures() and otherwise ignored.
//
// Policy and counters: a TermLookup reads and prefetches through its own
// copies of the segment's .tim, .doc and .pos inputs (sharing the mappings),
// which take the SegmentReader's prefetch_policy() when the TermLookup is
// made (set_prefetch_policy() changes them later). prefetch_stats() counts
// their calls, madvise and mincore; kBackoff's counter of consecutive hits
// lives in these copies, so it sees this lookup's whole history.
//
// Thread safety: one TermLookup per thread, like a cursor. The SegmentReader
// must outlive it, and it must outlive the PostingsEnums from Postings().
#ifndef INVERT_CODEC_TERM_LOOKUP_H_
#define INVERT_CODEC_TERM_LOOKUP_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "codec/postings_format.h"
#include "codec/segment_reader.h"
#include "codec/term_dict_reader.h"
#include "codec/term_stats.h"
#include "store/index_input.h"

namespace invert {

// A byte range of one file.
struct FileRange {
  uint64_t offset = 0;
  uint64_t length = 0;
  bool operator==(const FileRange&) const = default;
};

class TermLookup {
 public:
  // Bytes prefetched at the start of a term's postings: the first doc block
  // (or the VInt tail) and the first position block are at most about this
  // long; a shorter estimate is used for rare terms (PostingsRanges).
  static constexpr uint64_t kPostingsPrefetchBytes = 1024;

  explicit TermLookup(const SegmentReader* segment);

  // Passes 1-3. Result i is the stats of terms[i] in `field`, or nullopt.
  // A field without terms (or unknown) finds nothing. Errors: kDataLoss for a
  // corrupt dictionary block, as SeekExact. Under kOff passes 1 and 3 are
  // skipped altogether: what is left is K plain seeks.
  absl::StatusOr<std::vector<std::optional<TermStats>>> Lookup(
      uint32_t field, std::span<const std::string_view> terms);

  // Pass 1: prefetches the dictionary blocks of `terms`.
  void PrefetchBlocks(uint32_t field, std::span<const std::string_view> terms);
  // Passes 2 and 3: seeks, and prefetches the postings of what is found.
  // Given the span the last PrefetchBlocks() was given (same data and size),
  // it seeks from the blocks that pass found (checked hints: a span whose
  // terms changed in between costs a binary search, never a wrong result).
  absl::StatusOr<std::vector<std::optional<TermStats>>> SeekAndPrefetch(
      uint32_t field, std::span<const std::string_view> terms);

  // The .tim ranges pass 1 prefetches: the blocks of `terms`, sorted, runs
  // of consecutive pages merged into one range.
  std::vector<FileRange> BlockRanges(uint32_t field, std::span<const std::string_view> terms) const;
  // The ranges pass 3 prefetches for a term of `field` with these stats;
  // nullopt where nothing is read from that file (a singleton's .doc, a
  // field without positions).
  void PostingsRanges(uint32_t field, const TermStats& stats, std::optional<FileRange>* doc,
                      std::optional<FileRange>* pos) const;

  // The term's postings (SegmentReader::Postings) with Advance()'s skip
  // prefetch going through this lookup's .doc input when `skip_prefetch`
  // and the policy is not kOff. REQUIRES: `field` is a field of the segment
  // and `stats` came from its dictionary.
  PostingsCursor Postings(uint32_t field, const TermStats& stats, bool skip_prefetch = true);

  // Changes the policy of the three inputs (and restarts kBackoff's counter).
  void set_prefetch_policy(PrefetchPolicy policy);
  PrefetchPolicy prefetch_policy() const { return tim_.prefetch_policy(); }

  // Counters of the three inputs together, and each.
  PrefetchStats prefetch_stats() const;
  const PrefetchStats& terms_prefetch_stats() const { return tim_.prefetch_stats(); }
  const PrefetchStats& doc_prefetch_stats() const { return doc_.prefetch_stats(); }
  const PrefetchStats& pos_prefetch_stats() const { return pos_.prefetch_stats(); }
  // Prefetch calls that returned an error (a bug if ever non-zero).
  uint64_t prefetch_failures() const { return prefetch_failures_; }

  const SegmentReader& segment() const { return *segment_; }

 private:
  void Prefetch(IndexInput& in, const FileRange& range);
  // The block of each term (BlockFor) and the .tim ranges of those blocks,
  // sorted and merged by page.
  void CollectBlocks(const TermDictReader& dict, std::span<const std::string_view> terms,
                     std::vector<int64_t>* blocks, std::vector<FileRange>* ranges) const;

  const SegmentReader* segment_;
  IndexInput tim_;
  IndexInput doc_;
  IndexInput pos_;
  uint64_t prefetch_failures_ = 0;
  // What the last PrefetchBlocks() found, for the next SeekAndPrefetch() of
  // the same terms: the block of each term.
  const TermDictReader* hint_dict_ = nullptr;
  std::span<const std::string_view> hint_terms_;
  std::vector<int64_t> hints_;
  // Scratch, kept to avoid allocating per call.
  std::vector<uint32_t> order_;
  std::vector<FileRange> block_ranges_;
  std::vector<FileRange> doc_ranges_;
  std::vector<FileRange> pos_ranges_;
};

}  // namespace invert

#endif  // INVERT_CODEC_TERM_LOOKUP_H_

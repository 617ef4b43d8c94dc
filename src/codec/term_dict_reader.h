// TermDictReader: opens a term dictionary written by TermDictWriter over a
// std::span<const uint8_t> (the caller keeps the bytes alive, e.g. an mmap),
// and TermDictCursor, which seeks and iterates it.
//
// Open() validates the footer and decodes the block index into memory: the
// first term of every block (one arena), the blocks' offsets and checksums.
// That is ~ (first-term bytes + 16) per block; blocks stay in the span.
//
// Lookup cost (n terms, B = block_terms, L = term length):
//   SeekExact / SeekCeil: binary search over the n / B first terms
//     (log2(n / B) comparisons in memory), then one block: its checksum
//     (when verified, O(block bytes)) and a linear scan of at most B entries,
//     each O(1) VInts plus a suffix copy and one comparison.
//   A seek into the block the cursor is already in, at or after its current
//     term, scans on from there without reloading the block.
//   Next(): O(1) amortized (one entry; one block load per B terms).
//   SeekOrdinal / ordinal(): ordinal = block * B + index in block, so a seek
//     by ordinal scans at most B entries of one block.
//
// Corruption: every read is bounds-checked and invariant-checked (see
// term_dict_format.h); corrupt input yields DataLoss, never a crash or a read
// outside the span. With `verify_checksums` (the default) each block's
// checksum is verified when a cursor first loads it and the index/footer
// checksum at Open(), so any corruption of a block that is read is reported
// instead of decoding to wrong terms or stats.
//
// Thread safety: a TermDictReader is immutable after Open() and may be shared
// by threads; a TermDictCursor is used by one thread at a time.
#ifndef INVERT_CODEC_TERM_DICT_READER_H_
#define INVERT_CODEC_TERM_DICT_READER_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "codec/byte_io.h"
#include "codec/term_stats.h"

namespace invert {

struct TermDictReaderOptions {
  // Verify the index checksum at Open() and each block's checksum when a
  // cursor loads it (default true; costs one XXH3 pass over each loaded
  // block). Without it corrupt blocks are still never read out of bounds, but
  // may decode to wrong terms or stats that happen to be well formed.
  bool verify_checksums = true;
};

class TermDictCursor;

class TermDictReader {
 public:
  // Parses and validates the footer and index of `data`, which must be
  // exactly one dictionary. DataLoss if it is truncated or corrupt.
  static absl::StatusOr<TermDictReader> Open(std::span<const uint8_t> data,
                                             TermDictReaderOptions options = {});

  uint64_t term_count() const { return term_count_; }
  uint32_t block_count() const { return static_cast<uint32_t>(block_start_.size()) - 1; }
  uint32_t block_terms() const { return block_terms_; }
  bool has_pos_offsets() const { return has_pos_; }
  bool has_pay_offsets() const { return has_pay_; }
  // Memory held by the decoded index.
  size_t index_bytes() const;

  // A cursor positioned before the first term. The reader must outlive it
  // and stay where it is (cursors point to it; move it before making them).
  TermDictCursor NewCursor() const;

  // The bytes of the block that SeekExact(term) loads, found from the
  // in-memory block index alone: no byte of the block (or of the span) is
  // read, so a caller can prefetch it before seeking. A subspan of the span
  // given to Open(); empty iff `term` sorts before every term (SeekExact
  // then returns false without loading a block). SeekCeil(term) loads the
  // same block, and the next one when `term` is past the block's last term.
  std::span<const uint8_t> BlockBytes(std::string_view term) const;
  // The same in two steps, for a caller that keeps the block for
  // TermDictCursor::SeekExact(term, block_hint): the index of the block
  // (-1 iff `term` sorts before every term), and a block's bytes.
  // REQUIRES (BlockBytesAt): block < block_count().
  int64_t BlockFor(std::string_view term) const { return FindBlock(term); }
  std::span<const uint8_t> BlockBytesAt(uint32_t block) const {
    return data_.subspan(block_start_[block], block_start_[block + 1] - block_start_[block]);
  }
  // The span given to Open().
  std::span<const uint8_t> data() const { return data_; }

 private:
  friend class TermDictCursor;
  TermDictReader() = default;

  std::string_view first_term(uint32_t block) const {
    return std::string_view(first_terms_)
        .substr(first_term_end_[block], first_term_end_[block + 1] - first_term_end_[block]);
  }
  // Index of the last block whose first term is <= target, or -1.
  int64_t FindBlock(std::string_view target) const;
  // Returns true iff FindBlock(target) == block, by comparing `target` with
  // the first terms of `block` and the next block only.
  bool IsBlockOf(int64_t block, std::string_view target) const;
  // The first 8 bytes of `term`, zero-padded, as a big-endian integer: keys
  // compare as the terms do, except that a tie needs the full terms.
  static uint64_t KeyOf(std::string_view term);

  std::span<const uint8_t> data_;
  TermDictReaderOptions options_;
  uint64_t term_count_ = 0;
  uint32_t block_terms_ = 1;
  bool has_pos_ = false;
  bool has_pay_ = false;
  std::string first_terms_;               // every block's first term, concatenated
  std::vector<uint64_t> first_term_end_;  // block b's first term: [end[b], end[b+1])
  std::vector<uint64_t> block_start_;     // block b: [start[b], start[b+1]); size = blocks + 1
  std::vector<uint32_t> block_checksum_;
  std::vector<uint64_t> first_key_;  // KeyOf(first term): the binary search's
                                     // compact array, one cache line per 8 blocks
};

class TermDictCursor {
 public:
  enum class SeekResult {
    kFound,     // positioned on the target
    kNotFound,  // positioned on the first term > target
    kEnd,       // every term is < target; the cursor is exhausted
  };

  explicit TermDictCursor(const TermDictReader* reader) : reader_(reader) {}

  // Positions on `term` and returns true iff it exists. On false the cursor
  // is unpositioned: the next call must be a seek.
  absl::StatusOr<bool> SeekExact(std::string_view term);
  // The same, for a caller that already has the term's block from
  // TermDictReader::BlockFor(term) (to prefetch it first): saves the binary
  // search. The hint is checked against the in-memory index (two term
  // comparisons); a wrong one is ignored and the block searched for, so the
  // result is always SeekExact(term)'s.
  absl::StatusOr<bool> SeekExact(std::string_view term, int64_t block_hint);

  // Positions on the first term >= target.
  absl::StatusOr<SeekResult> SeekCeil(std::string_view target);

  // Moves to the next term (the first one on a fresh cursor). Returns true
  // iff the cursor is on a term; false at the end. FailedPrecondition when the
  // cursor is unpositioned.
  absl::StatusOr<bool> Next();

  // Positions on the term with this ordinal (0-based rank); false (and
  // exhausted) if ordinal >= term_count().
  absl::StatusOr<bool> SeekOrdinal(uint64_t ordinal);

  // Iff true, term(), stats() and ordinal() describe the current term.
  bool valid() const { return state_ == State::kOnTerm; }
  // REQUIRES: valid(). term() is invalidated by the next move.
  std::string_view term() const { return {term_.data(), term_length_}; }
  const TermStats& stats() const { return stats_; }
  uint64_t ordinal() const {
    return uint64_t{block_} * reader_->block_terms_ + static_cast<uint64_t>(entry_);
  }

 private:
  enum class State { kBeforeFirst, kOnTerm, kEnd, kUnpositioned };
  enum class ScanResult { kFound, kGreater, kBlockEnd };

  // Makes `block` current with no entry read (entry_ == -1).
  absl::Status LoadBlock(uint32_t block);
  // Reads entry entry_ + 1 of the current block into term_/stats_.
  // REQUIRES: entry_ + 1 < block_entries_.
  absl::Status ReadEntry();
  // Loads block b + 1 (if any) and reads its first entry; false at the end.
  absl::StatusOr<bool> NextBlock();
  // Reads on from the current entry (if any) of the current block until
  // term() >= target: kFound, kGreater, or kBlockEnd when every remaining
  // term of the block is smaller (the cursor is then on the block's last).
  absl::StatusOr<ScanResult> ScanBlock(std::string_view target);
  absl::Status Fail(absl::Status status);
  absl::Status Corrupt(const char* what);
  // SeekExact in `found` == FindBlock(term).
  absl::StatusOr<bool> SeekExactIn(std::string_view term, int64_t found);
  bool AtBlockEnd() const { return entry_ + 1 >= static_cast<int64_t>(block_entries_); }

  const TermDictReader* reader_;
  State state_ = State::kBeforeFirst;
  bool block_loaded_ = false;
  uint32_t block_ = 0;
  uint32_t verified_block_ = UINT32_MAX;  // last block whose checksum matched
  uint32_t block_entries_ = 0;
  int64_t entry_ = -1;        // index in block of the entry in term_/stats_
  uint32_t last_prefix_ = 0;  // prefix_len of that entry
  ByteReader in_;             // the rest of the current block
  std::string term_;          // buffer; the term is term_[0, term_length_),
  size_t term_length_ = 0;    // with >= 16 bytes of slack after it
  TermStats stats_;
};

inline TermDictCursor TermDictReader::NewCursor() const { return TermDictCursor(this); }

}  // namespace invert

#endif  // INVERT_CODEC_TERM_DICT_READER_H_

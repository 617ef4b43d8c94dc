// TermDictWriter: writes a term dictionary (terms in strictly increasing
// unsigned byte order, each with its TermStats) as prefix-compressed blocks of
// `block_terms` terms, followed by an index of the blocks' first terms and a
// footer. Layout: codec/term_dict_format.h and docs/codec-primitives.md.
//
// Usage, as LevelDB's TableBuilder:
//   std::string out;
//   TermDictWriter writer(&out);
//   for (...) RETURN_IF_ERROR(writer.Add(term, stats));
//   RETURN_IF_ERROR(writer.Finish());
// The dictionary is appended to *out starting at out->size() at construction;
// all offsets inside it are relative to that start, so it can be embedded in a
// larger file. *out must not be modified by others until Finish().
//
// An Add that fails (out-of-order term, over-long term, inconsistent stats)
// changes nothing: the writer stays usable and the term is not added.
//
// Memory: one block, the index (~ first term + 10 bytes per block) and the
// previous term. Thread safety: none.
#ifndef INVERT_CODEC_TERM_DICT_WRITER_H_
#define INVERT_CODEC_TERM_DICT_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "codec/term_stats.h"

namespace invert {

struct TermDictOptions {
  // Terms per block (1..65535; default 32). Seeks scan half a block on
  // average; larger blocks make the index smaller and compress prefixes
  // better. See docs/codec-primitives.md for the measured trade-off.
  uint32_t block_terms = 32;
  // Whether TermStats::pos_offset / pay_offset are stored. A field that
  // indexes no positions (payloads, offsets) sets these to false and then
  // must leave those offsets 0.
  bool has_pos_offsets = true;
  bool has_pay_offsets = true;
};

class TermDictWriter {
 public:
  explicit TermDictWriter(std::string* out, TermDictOptions options = {});
  TermDictWriter(const TermDictWriter&) = delete;
  TermDictWriter& operator=(const TermDictWriter&) = delete;

  // Adds the next term. InvalidArgument (and no change) if `term` is not
  // strictly greater than the previous term, longer than 32766 bytes, or if
  // `stats` breaks a TermStats REQUIRES (singleton_doc with doc_freq != 1,
  // an offset below the previous term's, a pos/pay offset the options omit).
  // FailedPrecondition after Finish() or with invalid options.
  absl::Status Add(std::string_view term, const TermStats& stats);

  // Writes the last block, the index and the footer. Call once.
  absl::Status Finish();

  // Streaming: hands the dictionary's bytes still in *out (its finished
  // blocks; nothing before Add() filled a block) to `sink`, in order, and
  // removes them from *out, so that a caller writing the dictionary to a
  // file holds about one block instead of the whole dictionary. The bytes
  // are exactly those a single Finish() would have left in *out. Offsets stay
  // relative to the dictionary's first byte, wherever the caller put it.
  template <typename Sink>
  void Drain(Sink&& sink) {
    const size_t n = out_->size() - start_;
    if (n == 0) return;
    sink(std::string_view(*out_).substr(start_, n));
    out_->resize(start_);
    drained_ += n;
  }

  uint64_t term_count() const { return term_count_; }
  // Memory held besides *out: the block being built and the index.
  size_t buffered_bytes() const {
    return block_.capacity() + index_.capacity() + last_term_.capacity() +
           block_first_term_.capacity() + last_first_term_.capacity();
  }
  // Bytes of the dictionary so far, drained ones included (all of it after
  // Finish()).
  size_t bytes_written() const { return out_->size() - start_ + drained_; }

 private:
  // Why an Add is refused. CheckAdd returns a code, not a Status, so that
  // the check of every Add inlines and the Status is built (AddErrorStatus,
  // out of line) only for a refused term: the flush adds millions of terms
  // and building an OK Status per term cost ~50 instructions.
  enum class AddError : uint8_t {
    kNone,
    kOptions,
    kFinished,
    kTooLong,
    kOrder,
    kFull,
    kSingleton,
    kColumn,
    kOffsets,
  };
  // `shared`: the length of the prefix `term` shares with the previous term.
  AddError CheckAdd(std::string_view term, const TermStats& stats, size_t shared) const;
  __attribute__((noinline, cold)) absl::Status AddErrorStatus(AddError error,
                                                              std::string_view term) const;
  void FlushBlock();

  std::string* out_;
  size_t start_;
  size_t drained_ = 0;  // bytes handed to Drain's sink
  TermDictOptions options_;
  absl::Status options_status_;
  bool finished_ = false;

  uint64_t term_count_ = 0;
  uint32_t block_count_ = 0;
  std::string block_;           // entries of the block being built
  uint32_t block_entries_ = 0;  // entries in block_
  std::string last_term_;       // previous term added (any block)
  TermStats last_stats_;        // its stats
  std::string block_first_term_;
  std::string index_;            // index entries so far
  std::string last_first_term_;  // previous block's first term
};

}  // namespace invert

#endif  // INVERT_CODEC_TERM_DICT_WRITER_H_

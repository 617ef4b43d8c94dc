// IndexInput: a cursor over the bytes of a memory-mapped file (or a slice of
// one) whose reads can never leave the slice, plus Prefetch(), which asks the
// kernel to start reading pages before they are touched.
//
// Layout:
//
//   file_->bytes():  [ ...... | begin_ ............ cur_ ........ end_ | ... ]
//                              ^ file offset base_   position()     ^ length()
//
// Invariants:
//   1. begin_ <= cur_ <= end_, and [begin_, end_) lies inside the mapping,
//      which file_ keeps alive; copies and slices share it (cheap).
//   2. Every read checks its length against end_ - cur_ before touching
//      memory; a read that does not fit fails, consumes nothing and sets
//      *value to 0 (strings to empty).
//   3. Sticky errors: the first failed read or seek is kept in status();
//      afterwards cur_ == end_, so every later read fails as well, and Seek
//      returns the status. A decoder can read a whole record and check ok()
//      once at the end. Codes: kOutOfRange for a read past the end, kDataLoss
//      for a malformed encoding (an over-long VInt).
//   4. Prefetch never moves the cursor or changes what is read.
//
// Two ways to read:
//   * the typed reads below (bool ReadVInt32(uint32_t*) ...): checked, with
//     a one-compare fast path;
//   * bytes(), remaining() or ReadView(): spans for decoders that bounds-check
//     themselves (block decoders, checksum verification), no copy.
//
// Prefetch policies (PrefetchPolicy), chosen per input:
//   kOff      Prefetch() checks the range and does nothing else.
//   kAlways   one madvise(MADV_WILLNEED) per call.
//   kBackoff  seed 001's (Lucene #13381) scheme for data that is mostly
//             cached: a counter of consecutive calls since the last miss; a
//             call whose counter is neither 0 nor a power of two returns at
//             once, the others check residency with mincore() and, on a miss,
//             reset the counter and madvise. After k straight hits only
//             O(log k) calls reach the kernel. The cost (seed 000): when hits
//             and misses mix, misses that fall between two checks are not
//             prefetched.
// prefetch_stats() counts calls, madvise and mincore per input; a copy
// carries its counters along, a Slice starts from zero.
//
// Thread safety: an IndexInput is a cursor, so one per thread; copy it (or
// Slice it) to read the same file from several threads.
#ifndef INVERT_STORE_INDEX_INPUT_H_
#define INVERT_STORE_INDEX_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "invert/directory.h"
#include "invert/prefetch.h"
#include "util/varint.h"

namespace invert {

// "off", "always", "backoff".
const char* PrefetchPolicyName(PrefetchPolicy policy);

struct PrefetchStats {
  uint64_t calls = 0;    // Prefetch() calls that passed the range check
  uint64_t madvise = 0;  // madvise(MADV_WILLNEED) system calls
  uint64_t mincore = 0;  // residency checks: one mincore() per check of up to 1 MiB
};

class IndexInput {
 public:
  // The policy OpenInput gives new inputs.
  static constexpr PrefetchPolicy kDefaultPrefetchPolicy = PrefetchPolicy::kAlways;

  // Reads all of `file`, which is called `name` in messages.
  IndexInput(std::string name, std::shared_ptr<const MappedFile> file);

  IndexInput(const IndexInput&) = default;
  IndexInput& operator=(const IndexInput&) = default;
  IndexInput(IndexInput&&) = default;
  IndexInput& operator=(IndexInput&&) = default;

  const std::string& name() const { return name_; }
  uint64_t length() const { return static_cast<uint64_t>(end_ - begin_); }
  uint64_t position() const { return static_cast<uint64_t>(cur_ - begin_); }
  uint64_t remaining_length() const { return static_cast<uint64_t>(end_ - cur_); }
  // Offset of this input's first byte in the file (non-zero for slices).
  uint64_t file_offset() const { return base_; }

  // The first error, or OK.
  const absl::Status& status() const { return status_; }
  bool ok() const { return status_.ok(); }

  // Moves the cursor to `position`. kOutOfRange (sticky) if position > length().
  absl::Status Seek(uint64_t position);

  // A new input over [offset, offset + length) of this one, at position 0,
  // with this input's prefetch policy and zeroed counters. Shares the mapping.
  // kOutOfRange unless offset + length <= length(); a failed input's status.
  absl::StatusOr<IndexInput> Slice(uint64_t offset, uint64_t length) const;

  // All bytes of this input, and those from the cursor on.
  std::span<const uint8_t> bytes() const { return {begin_, end_}; }
  std::span<const uint8_t> remaining() const { return {cur_, end_}; }

  // --- Typed reads. Each returns true iff it succeeded (see invariants 2, 3).

  bool ReadByte(uint8_t* value) {
    if (cur_ == end_) [[unlikely]]
      return FailPastEnd(1, value);
    *value = *cur_++;
    return true;
  }

  bool ReadBytes(void* out, size_t length) {
    if (remaining_length() < length) [[unlikely]] {
      if (length > 0) std::memset(out, 0, length);
      return FailPastEnd(length);
    }
    if (length > 0) std::memcpy(out, cur_, length);
    cur_ += length;
    return true;
  }
  bool ReadBytes(std::span<uint8_t> out) { return ReadBytes(out.data(), out.size()); }

  // Consumes `length` bytes and points *view at them, without copying.
  bool ReadView(size_t length, std::span<const uint8_t>* view) {
    if (remaining_length() < length) [[unlikely]] {
      *view = {};
      return FailPastEnd(length);
    }
    *view = {cur_, length};
    cur_ += length;
    return true;
  }

  bool SkipBytes(uint64_t length) {
    if (remaining_length() < length) [[unlikely]]
      return FailPastEnd(length);
    cur_ += length;
    return true;
  }

  bool ReadFixed32(uint32_t* value) {
    uint8_t b[4];
    if (!ReadBytes(b, 4)) [[unlikely]] {
      *value = 0;
      return false;
    }
    *value = uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
    return true;
  }

  bool ReadFixed64(uint64_t* value) {
    uint8_t b[8];
    if (!ReadBytes(b, 8)) [[unlikely]] {
      *value = 0;
      return false;
    }
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = v << 8 | b[i];
    *value = v;
    return true;
  }

  bool ReadVInt32(uint32_t* value) {
    if (cur_ != end_ && *cur_ < 0x80) [[likely]] {
      *value = *cur_++;
      return true;
    }
    return ReadVInt32Slow(value);
  }

  bool ReadVInt64(uint64_t* value) {
    if (cur_ != end_ && *cur_ < 0x80) [[likely]] {
      *value = *cur_++;
      return true;
    }
    return ReadVInt64Slow(value);
  }

  // A VInt32 length, then that many bytes. The length is checked against
  // the bytes left before anything is allocated.
  bool ReadString(std::string* value);

  // --- Prefetch.

  // Hints that [offset, offset + length) (relative to this input) will be
  // read soon; what happens depends on prefetch_policy(). kInvalidArgument
  // for length 0, kOutOfRange past the end; neither is sticky, and the
  // cursor never moves.
  absl::Status Prefetch(uint64_t offset, uint64_t length);

  // Tells the kernel how this input's bytes will be read (ReadAdvice, e.g.
  // kRandom to fault in single pages). Affects every reader of the file's
  // mapping over this range. OK and no effect on an empty input.
  absl::Status SetReadAdvice(ReadAdvice advice) const;

  PrefetchPolicy prefetch_policy() const { return policy_; }
  // Also restarts kBackoff's counter.
  void set_prefetch_policy(PrefetchPolicy policy) {
    policy_ = policy;
    consecutive_hits_ = 0;
  }
  const PrefetchStats& prefetch_stats() const { return stats_; }

 private:
  IndexInput(const IndexInput& parent, uint64_t offset, uint64_t length);

  bool ReadVInt32Slow(uint32_t* value);
  bool ReadVInt64Slow(uint64_t* value);
  // Records a read of `wanted` bytes past the end; returns false.
  bool FailPastEnd(uint64_t wanted);
  bool FailPastEnd(uint64_t wanted, uint8_t* value) {
    *value = 0;
    return FailPastEnd(wanted);
  }
  // Records `status` if it is the first error and empties the input.
  void Fail(absl::Status status);

  std::string name_;
  std::shared_ptr<const MappedFile> file_;
  const uint8_t* begin_;
  const uint8_t* cur_;
  const uint8_t* end_;
  uint64_t base_ = 0;
  absl::Status status_;

  PrefetchPolicy policy_ = kDefaultPrefetchPolicy;
  uint64_t consecutive_hits_ = 0;  // kBackoff: calls since the last miss
  PrefetchStats stats_;
};

// Opens `name` in `dir` for reading through a bounds-checked IndexInput (the
// codec's way to read a file; Directory::OpenFile underneath).
absl::StatusOr<IndexInput> OpenInput(Directory* dir, std::string_view name);

}  // namespace invert

#endif  // INVERT_STORE_INDEX_INPUT_H_

// TermDictWriter: block building, the index and the footer.
#include "codec/term_dict_writer.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "codec/byte_io.h"
#include "codec/term_dict_format.h"
#include "xxhash.h"

namespace invert {

using term_dict::kMaxTermLength;

namespace {

// Eight bytes at a time: consecutive sorted terms share short prefixes, and
// std::mismatch's byte loop cost more than the rest of an entry.
size_t SharedPrefix(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  if constexpr (std::endian::native == std::endian::little) {
    for (; i + 8 <= n; i += 8) {
      uint64_t x;
      uint64_t y;
      std::memcpy(&x, a.data() + i, 8);
      std::memcpy(&y, b.data() + i, 8);
      if (x != y) return i + static_cast<size_t>(std::countr_zero(x ^ y)) / 8;
    }
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

void PutPrefixed(std::string* out, std::string_view previous, std::string_view term) {
  const size_t prefix = SharedPrefix(previous, term);
  PutVInt(out, prefix);
  PutVInt(out, term.size() - prefix);
  out->append(term.substr(prefix));
}

uint32_t Checksum32(std::string_view bytes) {
  return static_cast<uint32_t>(XXH3_64bits(bytes.data(), bytes.size()));
}

}  // namespace

TermDictWriter::TermDictWriter(std::string* out, TermDictOptions options)
    : out_(out), start_(out->size()), options_(options) {
  if (options.block_terms < 1 || options.block_terms > term_dict::kMaxBlockTerms) {
    options_status_ = absl::InvalidArgumentError(
        absl::StrCat("block_terms must be in 1..65535, got ", options.block_terms));
  }
}

TermDictWriter::AddError TermDictWriter::CheckAdd(std::string_view term, const TermStats& stats,
                                                  size_t shared) const {
  if (!options_status_.ok()) return AddError::kOptions;
  if (finished_) return AddError::kFinished;
  if (term.size() > kMaxTermLength) return AddError::kTooLong;
  // term > last_term_ iff it goes on after their shared prefix and either
  // last_term_ ends there or has a smaller (unsigned) byte there.
  if (term_count_ > 0 &&
      !(shared < term.size() &&
        (shared == last_term_.size() ||
         static_cast<uint8_t>(term[shared]) > static_cast<uint8_t>(last_term_[shared])))) {
    return AddError::kOrder;
  }
  if (block_entries_ == 0 && block_count_ == UINT32_MAX) return AddError::kFull;
  if (stats.singleton_doc.has_value() && stats.doc_freq != 1) return AddError::kSingleton;
  if ((!options_.has_pos_offsets && stats.pos_offset != 0) ||
      (!options_.has_pay_offsets && stats.pay_offset != 0)) {
    return AddError::kColumn;
  }
  if (stats.doc_offset < last_stats_.doc_offset || stats.pos_offset < last_stats_.pos_offset ||
      stats.pay_offset < last_stats_.pay_offset) {
    return AddError::kOffsets;
  }
  return AddError::kNone;
}

absl::Status TermDictWriter::AddErrorStatus(AddError error, std::string_view term) const {
  switch (error) {
    case AddError::kNone:
      break;
    case AddError::kOptions:
      return absl::FailedPreconditionError(options_status_.message());
    case AddError::kFinished:
      return absl::FailedPreconditionError("TermDictWriter::Add after Finish");
    case AddError::kTooLong:
      return absl::InvalidArgumentError(
          absl::StrCat("term of ", term.size(), " bytes is longer than 32766 bytes"));
    case AddError::kOrder:
      return absl::InvalidArgumentError("terms must be added in strictly increasing byte order");
    case AddError::kFull:
      return absl::ResourceExhaustedError("term dictionary full: 2^32 - 1 blocks");
    case AddError::kSingleton:
      return absl::InvalidArgumentError("singleton_doc requires doc_freq == 1");
    case AddError::kColumn:
      return absl::InvalidArgumentError("pos/pay offset set on a dictionary without that column");
    case AddError::kOffsets:
      return absl::InvalidArgumentError("postings offsets must not decrease in term order");
  }
  return absl::OkStatus();
}

absl::Status TermDictWriter::Add(std::string_view term, const TermStats& stats) {
  // The prefix shared with the previous term serves both the order check and,
  // inside a block, the entry's prefix compression.
  const size_t shared = term_count_ > 0 ? SharedPrefix(last_term_, term) : 0;
  if (const AddError error = CheckAdd(term, stats, shared); error != AddError::kNone) {
    return AddErrorStatus(error, term);
  }

  // Deltas are against the previous entry of this block; entry 0 against 0.
  // The entry is encoded into `entry` and appended at once (an append per
  // VInt cost more than the encoding).
  const bool first = block_entries_ == 0;
  const TermStats base = first ? TermStats{} : last_stats_;
  const size_t prefix = first ? 0 : shared;
  const std::string_view suffix = term.substr(prefix);
  constexpr size_t kInlineSuffix = 64;
  uint8_t entry[2 * kMaxVInt64Bytes + kInlineSuffix + 6 * kMaxVInt64Bytes];
  size_t n = EncodeVInt(prefix, entry);
  n += EncodeVInt(suffix.size(), entry + n);
  if (suffix.size() <= kInlineSuffix) {
    std::memcpy(entry + n, suffix.data(), suffix.size());
    n += suffix.size();
  } else {
    block_.append(reinterpret_cast<const char*>(entry), n);
    block_.append(suffix);
    n = 0;
  }
  const bool ttf_is_df = stats.total_term_freq == stats.doc_freq;
  n += EncodeVInt(uint64_t{stats.doc_freq} << term_dict::kCodeDocFreqShift |
                      (stats.singleton_doc ? term_dict::kCodeSingleton : 0) |
                      (ttf_is_df ? term_dict::kCodeTtfIsDf : 0),
                  entry + n);
  if (!ttf_is_df) {
    n += EncodeVInt(ZigZagEncode64(static_cast<int64_t>(stats.total_term_freq - stats.doc_freq)),
                    entry + n);
  }
  if (stats.singleton_doc) n += EncodeVInt(*stats.singleton_doc, entry + n);
  n += EncodeVInt(stats.doc_offset - base.doc_offset, entry + n);
  if (options_.has_pos_offsets) n += EncodeVInt(stats.pos_offset - base.pos_offset, entry + n);
  if (options_.has_pay_offsets) n += EncodeVInt(stats.pay_offset - base.pay_offset, entry + n);
  block_.append(reinterpret_cast<const char*>(entry), n);

  if (first) block_first_term_.assign(term);
  // Only the bytes after the shared prefix change.
  last_term_.resize(shared);
  last_term_.append(term.substr(shared));
  last_stats_ = stats;
  ++term_count_;
  if (++block_entries_ == options_.block_terms) FlushBlock();
  return absl::OkStatus();
}

void TermDictWriter::FlushBlock() {
  PutPrefixed(&index_, last_first_term_, block_first_term_);
  PutVInt(&index_, block_.size());
  PutFixed32(&index_, Checksum32(block_));
  out_->append(block_);
  last_first_term_.swap(block_first_term_);
  block_.clear();
  block_entries_ = 0;
  ++block_count_;
}

absl::Status TermDictWriter::Finish() {
  if (!options_status_.ok()) return absl::FailedPreconditionError(options_status_.message());
  if (finished_) return absl::FailedPreconditionError("TermDictWriter::Finish called twice");
  finished_ = true;
  if (block_entries_ > 0) FlushBlock();
  const uint64_t index_offset = out_->size() - start_ + drained_;
  std::string footer;
  PutFixed64(&footer, term_count_);
  PutFixed64(&footer, index_offset);
  PutFixed32(&footer, block_count_);
  footer.push_back(static_cast<char>(options_.block_terms & 0xff));
  footer.push_back(static_cast<char>(options_.block_terms >> 8));
  footer.push_back(static_cast<char>((options_.has_pos_offsets ? term_dict::kHasPos : 0) |
                                     (options_.has_pay_offsets ? term_dict::kHasPay : 0)));
  footer.push_back(static_cast<char>(term_dict::kVersion));
  out_->append(index_);
  out_->append(footer);
  // The checksum covers the index and the footer bytes before it, which now
  // end *out.
  const size_t covered = index_.size() + footer.size();
  PutFixed32(out_, Checksum32(std::string_view(*out_).substr(out_->size() - covered)));
  PutFixed32(out_, term_dict::kMagic);
  index_.clear();
  index_.shrink_to_fit();
  return absl::OkStatus();
}

}  // namespace invert

// TermDictWriter: block building, the index and the footer.
#include "codec/term_dict_writer.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "codec/byte_io.h"
#include "codec/term_dict_format.h"
#include "xxhash.h"

namespace invert {

using term_dict::kMaxTermLength;

namespace {

size_t SharedPrefix(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  return static_cast<size_t>(std::mismatch(a.begin(), a.begin() + n, b.begin()).first - a.begin());
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

absl::Status TermDictWriter::CheckAdd(std::string_view term, const TermStats& stats) const {
  if (!options_status_.ok()) return absl::FailedPreconditionError(options_status_.message());
  if (finished_) return absl::FailedPreconditionError("TermDictWriter::Add after Finish");
  if (term.size() > kMaxTermLength) {
    return absl::InvalidArgumentError(
        absl::StrCat("term of ", term.size(), " bytes is longer than 32766 bytes"));
  }
  if (term_count_ > 0 && term <= std::string_view(last_term_)) {
    return absl::InvalidArgumentError("terms must be added in strictly increasing byte order");
  }
  if (block_entries_ == 0 && block_count_ == UINT32_MAX) {
    return absl::ResourceExhaustedError("term dictionary full: 2^32 - 1 blocks");
  }
  if (stats.singleton_doc.has_value() && stats.doc_freq != 1) {
    return absl::InvalidArgumentError("singleton_doc requires doc_freq == 1");
  }
  if ((!options_.has_pos_offsets && stats.pos_offset != 0) ||
      (!options_.has_pay_offsets && stats.pay_offset != 0)) {
    return absl::InvalidArgumentError("pos/pay offset set on a dictionary without that column");
  }
  if (stats.doc_offset < last_stats_.doc_offset || stats.pos_offset < last_stats_.pos_offset ||
      stats.pay_offset < last_stats_.pay_offset) {
    return absl::InvalidArgumentError("postings offsets must not decrease in term order");
  }
  return absl::OkStatus();
}

absl::Status TermDictWriter::Add(std::string_view term, const TermStats& stats) {
  if (absl::Status status = CheckAdd(term, stats); !status.ok()) return status;

  // Deltas are against the previous entry of this block; entry 0 against 0.
  const bool first = block_entries_ == 0;
  const TermStats base = first ? TermStats{} : last_stats_;
  PutPrefixed(&block_, first ? std::string_view() : std::string_view(last_term_), term);
  const bool ttf_is_df = stats.total_term_freq == stats.doc_freq;
  PutVInt(&block_, uint64_t{stats.doc_freq} << term_dict::kCodeDocFreqShift |
                       (stats.singleton_doc ? term_dict::kCodeSingleton : 0) |
                       (ttf_is_df ? term_dict::kCodeTtfIsDf : 0));
  if (!ttf_is_df) {
    PutVInt(&block_, ZigZagEncode64(static_cast<int64_t>(stats.total_term_freq - stats.doc_freq)));
  }
  if (stats.singleton_doc) PutVInt(&block_, *stats.singleton_doc);
  PutVInt(&block_, stats.doc_offset - base.doc_offset);
  if (options_.has_pos_offsets) PutVInt(&block_, stats.pos_offset - base.pos_offset);
  if (options_.has_pay_offsets) PutVInt(&block_, stats.pay_offset - base.pay_offset);

  if (first) block_first_term_.assign(term);
  last_term_.assign(term);
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

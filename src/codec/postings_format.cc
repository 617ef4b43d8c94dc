// Postings files: the writer, the per-term iterator and the dictionary reader.
#include "codec/postings_format.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "absl/strings/str_cat.h"
#include "codec/doc_block_sums.h"
#include "codec/segment_files.h"
#include "util/absl_compat.h"
#include "util/varint.h"

namespace invert {

// ---------------------------------------------------------------- writer

absl::StatusOr<std::unique_ptr<PostingsWriter>> PostingsWriter::Create(Directory* dir,
                                                                       std::string_view segment,
                                                                       const SegmentId& id) {
  std::unique_ptr<PostingsWriter> w(new PostingsWriter());
  w->segment_ = std::string(segment);
  struct Spec {
    std::unique_ptr<IndexOutput>* out;
    const char* extension;
    std::string_view codec;
  };
  for (const Spec& spec :
       {Spec{&w->doc_out_, "doc", kDocCodec}, Spec{&w->pos_out_, "pos", kPosCodec},
        Spec{&w->tim_out_, "tim", kTermsCodec}}) {
    absl::StatusOr<std::unique_ptr<IndexOutput>> out =
        CreateOutput(dir, SegmentFileName(segment, spec.extension));
    if (!out.ok()) return out.status();
    *spec.out = std::move(*out);
    const uint32_t version = spec.codec == kDocCodec ? kDocFormatVersion : kSegmentFormatVersion;
    if (absl::Status s = WriteHeader(**spec.out, spec.codec, version, id); !s.ok()) return s;
  }
  w->tim_payload_start_ = w->tim_out_->file_pointer();
  return w;
}

std::vector<std::string> PostingsWriter::file_names() const {
  return {SegmentFileName(segment_, "doc"), SegmentFileName(segment_, "pos"),
          SegmentFileName(segment_, "tim")};
}

void PostingsWriter::StartField(const FieldInfo& field) {
  field_ = field;
  has_freqs_ = HasFreqs(field.type.index_options);
  has_positions_ = HasPositions(field.type.index_options);
  has_offsets_ = HasOffsets(field.type.index_options);
  has_payloads_ = field.type.payloads && has_positions_;
  dict_.clear();
  dict_start_ = tim_out_->file_pointer();
  TermDictOptions options;
  options.has_pos_offsets = has_positions_;
  options.has_pay_offsets = false;
  dict_writer_ = std::make_unique<TermDictWriter>(&dict_, options);
  field_stats_ = FieldTermsStats{field.number, 0, 0, 0, 0};
}

void PostingsWriter::StartTerm() {
  stats_ = TermStats{};
  stats_.doc_offset = doc_out_->file_pointer();
  if (has_positions_) stats_.pos_offset = pos_out_->file_pointer();
  last_skip_pos_fp_ = stats_.pos_offset;
  block_base_doc_ = 0;
  last_doc_ = 0;
  doc_n_ = 0;
  pos_n_ = 0;
  payload_bytes_.clear();
  // FinishTerm wrote the blocks the last term held, so none are held and
  // the skip runs are empty; they start at doc 0 and at the term's .pos
  // offset. (Only a term with no documents may be abandoned. Should one
  // with documents be, the blocks it still holds are dropped here; what it
  // wrote already, nothing points at.)
  if (group_n_ != 0) {
    for (size_t i = 0; i < group_n_; i += kSkipGroupBlocks)
      run_headers_[i / kSkipGroupBlocks].clear();
    group_headers_.clear();
    group_data_.clear();
    group_n_ = 0;
    for (int level = 1; level <= kMaxSkipLevels; ++level) RestartRun(level);
  }
  for (int level = 1; level <= kMaxSkipLevels; ++level) {
    runs_[level].base_doc = 0;
    runs_[level].pos_fp = stats_.pos_offset;
  }
}

void PostingsWriter::RestartRun(int level) {
  SkipRun& run = runs_[level];
  run.base_doc = last_doc_;
  run.bytes = 0;
  run.freq_sum = 0;
  run.pos_fp = last_skip_pos_fp_;
  if (!run.impacts.empty()) run.impacts.Take(&frontier_);
}

namespace {

void AppendVInt(uint64_t value, std::string* out) {
  uint8_t buf[kMaxVInt64Bytes];
  out->append(reinterpret_cast<const char*>(buf), EncodeVInt(value, buf));
}

}  // namespace

void PostingsWriter::EmitDocBlock() {
  // Deltas in docs_ are from the previous doc; the first of the block is
  // from the previous block's last doc, as the format wants. The block is
  // held (FlushGroupBlocks writes it) until the runs it is in are settled.
  const size_t header_start = group_headers_.size();
  const size_t data_start = group_data_.size();
  SkipRun& group = runs_[1];
  EncodeForBlock(docs_, &group_data_);
  uint64_t freq_sum = 0;
  if (has_freqs_) {
    EncodeForBlock(freqs_, &group_data_);
    for (size_t i = 0; i < kForBlockSize; ++i) block_impacts_.Add(freqs_[i], norms_[i]);
    block_impacts_.Take(&frontier_);
    group.impacts.Add(frontier_);
    impact_bytes_.clear();
    EncodeImpacts(frontier_, &impact_bytes_);
  }
  for (uint32_t f : freqs_) freq_sum += f;
  std::string& h = group_headers_;
  AppendVInt(last_doc_ - block_base_doc_, &h);
  AppendVInt(group_data_.size() - data_start, &h);
  if (has_positions_) {
    // All positions of this block's docs were added: the .pos pointer and
    // the buffered count are where the next doc's positions start.
    AppendVInt(freq_sum, &h);
    const uint64_t fp = pos_out_->file_pointer();
    AppendVInt(fp - last_skip_pos_fp_, &h);
    last_skip_pos_fp_ = fp;
    group.freq_sum += freq_sum;
  }
  if (has_freqs_) {
    AppendVInt(impact_bytes_.size(), &h);
    h += impact_bytes_;
  }
  header_end_[group_n_] = static_cast<uint32_t>(h.size());
  data_end_[group_n_] = static_cast<uint32_t>(group_data_.size());
  group.bytes += (h.size() - header_start) + (group_data_.size() - data_start);
  block_base_doc_ = last_doc_;
  doc_n_ = 0;
  ++group_n_;
  // The runs this block completes, level 1 up: each one's header goes
  // before the lower ones' at its first block, and into its parent run.
  for (int level = 1; level <= kMaxSkipLevels && group_n_ % SkipRunBlocks(level) == 0; ++level) {
    SkipRun& run = runs_[level];
    std::string& header = scratch_;
    header.clear();
    AppendVInt(last_doc_ - run.base_doc, &header);
    AppendVInt(run.bytes, &header);
    if (has_positions_) {
      AppendVInt(run.freq_sum, &header);
      AppendVInt(last_skip_pos_fp_ - run.pos_fp, &header);
    }
    if (has_freqs_) {
      run.impacts.Take(&frontier_);
      impact_bytes_.clear();
      EncodeImpacts(frontier_, &impact_bytes_);
      AppendVInt(impact_bytes_.size(), &header);
      header += impact_bytes_;
    }
    run_headers_[(group_n_ - SkipRunBlocks(level)) / kSkipGroupBlocks].insert(0, header);
    if (level < kMaxSkipLevels) {
      SkipRun& parent = runs_[level + 1];
      parent.bytes += run.bytes + header.size();
      parent.freq_sum += run.freq_sum;
      if (has_freqs_) parent.impacts.Add(frontier_);
    }
    RestartRun(level);
  }
  if (group_n_ == kHeldBlocks) FlushGroupBlocks();
}

void PostingsWriter::FlushGroupBlocks() {
  IndexOutput& o = *doc_out_;
  uint32_t header_at = 0;
  uint32_t data_at = 0;
  for (size_t i = 0; i < group_n_; ++i) {
    if (i % kSkipGroupBlocks == 0) {
      std::string& runs = run_headers_[i / kSkipGroupBlocks];
      o.WriteBytes(runs.data(), runs.size());
      runs.clear();
    }
    o.WriteBytes(group_headers_.data() + header_at, header_end_[i] - header_at);
    o.WriteBytes(group_data_.data() + data_at, data_end_[i] - data_at);
    header_at = header_end_[i];
    data_at = data_end_[i];
  }
  group_headers_.clear();
  group_data_.clear();
  group_n_ = 0;
  for (int level = 1; level <= kMaxSkipLevels; ++level) RestartRun(level);
}

void PostingsWriter::EmitPosBlock() {
  scratch_.clear();
  EncodeForBlock(pos_deltas_, &scratch_);
  if (has_payloads_) {
    EncodeForBlock(payload_lengths_, &scratch_);
    uint8_t buf[kMaxVInt64Bytes];
    scratch_.append(reinterpret_cast<const char*>(buf), EncodeVInt(payload_bytes_.size(), buf));
    scratch_ += payload_bytes_;
    payload_bytes_.clear();
  }
  if (has_offsets_) {
    EncodeForBlock(start_deltas_, &scratch_);
    EncodeForBlock(offset_lengths_, &scratch_);
  }
  pos_out_->WriteBytes(scratch_.data(), scratch_.size());
  pos_n_ = 0;
}

// Tails of more than a few values are encoded into a local buffer and
// written at once: through IndexOutput's per-value writes, every byte stored
// would make the compiler reload the output's cursor. For one or two values
// the memcpy into the output would cost more than that.
constexpr size_t kBufferedTailMin = 3;

void PostingsWriter::WriteDocTail() {
  if (doc_n_ >= kBufferedTailMin) {
    uint8_t buf[2 * kForBlockSize * 5];  // <= 2 VInt32s per doc
    uint8_t* out = buf;
    for (size_t i = 0; i < doc_n_; ++i) {
      if (!has_freqs_) {
        out += EncodeVInt(docs_[i], out);
      } else if (freqs_[i] == 1) {
        out += EncodeVInt(docs_[i] << 1 | 1, out);
      } else {
        out += EncodeVInt(docs_[i] << 1, out);
        out += EncodeVInt(freqs_[i], out);
      }
    }
    doc_out_->WriteBytes(buf, static_cast<size_t>(out - buf));
    doc_n_ = 0;
    return;
  }
  IndexOutput& o = *doc_out_;
  for (size_t i = 0; i < doc_n_; ++i) {
    if (!has_freqs_) {
      o.WriteVInt32(docs_[i]);
    } else if (freqs_[i] == 1) {
      o.WriteVInt32(docs_[i] << 1 | 1);
    } else {
      o.WriteVInt32(docs_[i] << 1);
      o.WriteVInt32(freqs_[i]);
    }
  }
  doc_n_ = 0;
}

void PostingsWriter::WritePosTail() {
  IndexOutput& o = *pos_out_;
  if (!has_payloads_ && pos_n_ >= kBufferedTailMin) {
    uint8_t buf[3 * kForBlockSize * 5];  // <= 3 VInt32s per position
    uint8_t* out = buf;
    for (size_t i = 0; i < pos_n_; ++i) {
      out += EncodeVInt(pos_deltas_[i], out);
      if (has_offsets_) {
        out += EncodeVInt(start_deltas_[i], out);
        out += EncodeVInt(offset_lengths_[i], out);
      }
    }
    o.WriteBytes(buf, static_cast<size_t>(out - buf));
    pos_n_ = 0;
    return;
  }
  size_t payload_at = 0;
  for (size_t i = 0; i < pos_n_; ++i) {
    o.WriteVInt32(pos_deltas_[i]);
    if (has_payloads_) {
      o.WriteVInt32(payload_lengths_[i]);
      o.WriteBytes(payload_bytes_.data() + payload_at, payload_lengths_[i]);
      payload_at += payload_lengths_[i];
    }
    if (has_offsets_) {
      o.WriteVInt32(start_deltas_[i]);
      o.WriteVInt32(offset_lengths_[i]);
    }
  }
  pos_n_ = 0;
  payload_bytes_.clear();
}

absl::Status PostingsWriter::FinishTerm(std::string_view term, std::span<const uint8_t> doc_tail,
                                        std::span<const uint8_t> pos_tail) {
  if (stats_.doc_freq == 0) {
    return absl::InvalidArgumentError(absl::StrCat("term \"", Sv(term), "\" has no documents"));
  }
  if (stats_.doc_freq == 1) {
    stats_.singleton_doc = first_doc_;
    doc_n_ = 0;
  } else if (!doc_tail.empty() && doc_n_ == stats_.doc_freq && doc_n_ < kForBlockSize) {
    // No block was emitted (doc_n_ would have restarted from 0), so the
    // tail is all of the term's docs: the caller's bytes.
    doc_out_->WriteBytes(doc_tail.data(), doc_tail.size());
    doc_n_ = 0;
  } else {
    if (doc_n_ == kForBlockSize) EmitDocBlock();
    if (group_n_ > 0) FlushGroupBlocks();  // fewer than 8 full blocks since the last group
    WriteDocTail();                        // no-op when the last block was full
  }
  if (!pos_tail.empty()) {
    pos_out_->WriteBytes(pos_tail.data(), pos_tail.size());
  } else if (has_positions_ && pos_n_ > 0) {
    WritePosTail();
  }
  if (!has_freqs_) stats_.total_term_freq = stats_.doc_freq;
  ++field_stats_.term_count;
  field_stats_.sum_doc_freq += stats_.doc_freq;
  field_stats_.sum_total_term_freq += stats_.total_term_freq;
  if (!doc_out_->ok()) return doc_out_->status();
  if (!pos_out_->ok()) return pos_out_->status();
  if (absl::Status s = dict_writer_->Add(term, stats_); !s.ok()) return s;
  if (dict_.size() >= kDictDrainBytes) {
    dict_writer_->Drain(
        [this](std::string_view bytes) { tim_out_->WriteBytes(bytes.data(), bytes.size()); });
  }
  return absl::OkStatus();
}

absl::Status PostingsWriter::FinishField(uint32_t doc_count) {
  if (field_stats_.term_count == 0) {  // left out, as if never started
    dict_.clear();
    dict_writer_.reset();
    return tim_out_->status();
  }
  field_stats_.doc_count = doc_count;
  if (absl::Status s = dict_writer_->Finish(); !s.ok()) return s;
  tim_out_->WriteBytes(dict_.data(), dict_.size());
  directory_.push_back({field_stats_, {dict_start_, tim_out_->file_pointer() - dict_start_}});
  dict_.clear();
  if (dict_.capacity() > 4 * kDictDrainBytes) std::string().swap(dict_);
  dict_writer_.reset();
  return tim_out_->status();
}

absl::Status PostingsWriter::Finish() {
  IndexOutput& t = *tim_out_;
  const uint64_t directory_offset = t.file_pointer();
  t.WriteVInt32(static_cast<uint32_t>(directory_.size()));
  for (const auto& [stats, where] : directory_) {
    t.WriteVInt32(stats.field_number);
    t.WriteVInt64(where.first);
    t.WriteVInt64(where.second);
    t.WriteVInt64(stats.term_count);
    t.WriteVInt64(stats.sum_doc_freq);
    t.WriteVInt64(stats.sum_total_term_freq);
    t.WriteVInt32(stats.doc_count);
  }
  t.WriteFixed64(directory_offset);
  for (IndexOutput* o : {doc_out_.get(), pos_out_.get(), tim_out_.get()}) {
    if (absl::Status s = WriteFooter(*o); !s.ok()) return s;
    if (absl::Status s = o->Close(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------- reader

PostingsCursor::PostingsCursor(std::span<const uint8_t> doc_file, std::span<const uint8_t> pos_file,
                               const TermStats& stats, const FieldType& type, uint32_t doc_version)
    : doc_begin_(doc_file.data()),
      doc_end_(doc_file.data() + doc_file.size()),
      pos_begin_(pos_file.data()),
      pos_end_(pos_file.data() + pos_file.size()),
      stats_(stats),
      has_freqs_(HasFreqs(type.index_options)),
      has_positions_(HasPositions(type.index_options)),
      has_offsets_(HasOffsets(type.index_options)),
      has_payloads_(type.payloads && HasPositions(type.index_options)),
      has_impacts_(doc_version > kDocVersionNoImpacts && HasFreqs(type.index_options)),
      skip_levels_(SkipLevelsOfVersion(doc_version)),
      docs_left_(stats.doc_freq) {
  Reset(stats);
}

void PostingsCursor::Reset(const TermStats& stats) {
  // Every member but the files, the field's flags, the skip prefetch input
  // and the block buffers (which are always written before they are read)
  // back to its constructed value.
  doc_ptr_ = nullptr;
  stats_ = stats;
  status_ = absl::OkStatus();
  docs_left_ = stats.doc_freq;
  buf_n_ = 0;
  buf_i_ = 0;
  started_ = false;
  block_base_ = 0;
  doc_ = 0;
  freq_ = 0;
  blocks_skipped_ = 0;
  buffered_header_ = nullptr;
  shallow_next_ = nullptr;
  shallow_base_ = 0;
  shallow_left_ = 0;
  shallow_last_ = 0;
  shallow_valid_ = false;
  shallow_tail_ = nullptr;
  shallow_tail_docs_ = 0;
  impacts_.clear();
  prefetched_end_ = nullptr;
  skip_recheck_ = nullptr;
  pos_base_ = 0;
  block_freq_total_ = 0;
  doc_pos_start_ = 0;
  pos_sync_i_ = 0;
  pos_syncs_ = 0;
  freq_starts_ready_ = false;
  pos_read_ = 0;
  skip_pos_fp_ = 0;
  pos_ptr_ = nullptr;
  ptr_block_ = 0;
  decoded_block_ = -1;
  pos_n_ = 0;
  payload_blob_ = {};
  position_ = 0;
  start_offset_ = 0;
  end_offset_ = 0;
  payload_ = {};
  if (stats_.doc_freq > 1) {
    if (stats_.doc_offset > static_cast<uint64_t>(doc_end_ - doc_begin_)) {
      Fail("doc offset past the end of the file");
    } else {
      doc_ptr_ = doc_begin_ + stats_.doc_offset;
    }
  } else if (stats_.doc_freq == 1 && !stats_.singleton_doc.has_value()) {
    Fail("a term in one document without its document");
  }
  if (has_positions_) {
    if (stats_.pos_offset > static_cast<uint64_t>(pos_end_ - pos_begin_)) {
      Fail("position offset past the end of the file");
    } else {
      pos_ptr_ = pos_begin_ + stats_.pos_offset;
    }
  }
}

bool PostingsCursor::Fail(const char* what) {
  if (status_.ok()) status_ = absl::DataLossError(absl::StrCat("corrupt postings: ", what));
  doc_ = kNoMoreDocs;
  docs_left_ = 0;
  buf_n_ = buf_i_ = 0;
  return false;
}

namespace {

// A full block's skip header, or a group's level-1 header (the same fields,
// with VLongs up to 8 blocks' worth), read from *p (left after it). False if
// it is truncated or its block (group) runs past `end`.
struct SkipHeader {
  uint32_t last_delta = 0;
  uint32_t bytes = 0;
  uint64_t freq_sum = 0;
  uint64_t pos_fp_delta = 0;
  const uint8_t* impacts = nullptr;
  uint32_t impact_bytes = 0;
};

// The largest freq_sum and pos_fp_delta a block's header may hold; a
// level-L header holds up to 8^L blocks' worth: sums of them never wrap.
constexpr uint64_t kMaxBlockPosMove = UINT32_MAX;

// out[i] = base + in[0] + ... + in[i] for i < n, modulo 2^32 (in == out is
// fine); returns the last sum (base when n is 0). SSE2 (every x86-64): 4
// lanes at a time, each a prefix sum of its own lanes plus the carry of the
// ones before, then the < 4 left one at a time; elsewhere all one at a time.
inline uint32_t PrefixSum(const uint32_t* in, size_t n, uint32_t base, uint32_t* out) {
  size_t i = 0;
#if defined(__SSE2__)
  if (n >= 4) {
    __m128i carry = _mm_set1_epi32(static_cast<int>(base));
    for (; i + 4 <= n; i += 4) {
      const __m128i x = postings_internal::PrefixSum4(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i)), carry);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), x);
      carry = _mm_shuffle_epi32(x, 0xff);
    }
    base = static_cast<uint32_t>(_mm_cvtsi128_si32(carry));
  }
#endif
  for (; i < n; ++i) out[i] = base += in[i];
  return base;
}

// The most bytes a skip header's VInts take (the impacts' bytes aside):
// two VInt32s, two VLongs, the impacts' length.
constexpr size_t kMaxSkipHeaderVIntBytes = 3 * kMaxVInt32Bytes + 2 * kMaxVInt64Bytes;

template <uint64_t kMaxPosMove = kMaxBlockPosMove>
[[gnu::always_inline]] inline bool ParseSkipHeader(const uint8_t** p, const uint8_t* end,
                                                   bool positions, bool impacts, SkipHeader* h) {
  // Away from the end of the file (every header but a term's last few in
  // the file's last bytes) the VInts are read without an end check each.
  if (static_cast<size_t>(end - *p) >= kMaxSkipHeaderVIntBytes) {
    if (!DecodeVIntUnchecked(p, &h->last_delta) || !DecodeVIntUnchecked(p, &h->bytes) ||
        (positions &&
         (!DecodeVIntUnchecked(p, &h->freq_sum) || !DecodeVIntUnchecked(p, &h->pos_fp_delta))) ||
        (impacts && !DecodeVIntUnchecked(p, &h->impact_bytes))) {
      return false;
    }
  } else if (!DecodeVInt32(p, end, &h->last_delta) || !DecodeVInt32(p, end, &h->bytes) ||
             (positions &&
              (!DecodeVInt64(p, end, &h->freq_sum) || !DecodeVInt64(p, end, &h->pos_fp_delta))) ||
             (impacts && !DecodeVInt32(p, end, &h->impact_bytes))) {
    return false;
  }
  if (positions && (h->freq_sum > kMaxPosMove || h->pos_fp_delta > kMaxPosMove)) return false;
  if (impacts) {
    if (static_cast<uint64_t>(end - *p) < h->impact_bytes) return false;
    h->impacts = *p;
    *p += h->impact_bytes;
  }
  return static_cast<uint64_t>(end - *p) >= h->bytes;
}

// A level-`level` skip header (.doc version 3 on): a block's fields, with
// VLongs up to 8^level blocks' worth.
inline bool ParseGroupHeader(const uint8_t** p, const uint8_t* end, bool positions, bool impacts,
                             int level, SkipHeader* h) {
  return ParseSkipHeader<UINT64_MAX>(p, end, positions, impacts, h) &&
         h->freq_sum <= kMaxBlockPosMove * SkipRunBlocks(level) &&
         h->pos_fp_delta <= kMaxBlockPosMove * SkipRunBlocks(level);
}

// The highest freq among the `docs` VInt-coded docs of a term's tail (fewer
// than a block) starting at p: a doc code with its low bit set has freq 1,
// else its freq follows. False if the tail is truncated or holds freq 0.
inline bool TailMaxFreq(const uint8_t* p, const uint8_t* end, uint64_t docs, uint32_t* max) {
  uint32_t tail_max = 0;
  for (uint64_t i = 0; i < docs; ++i) {
    uint32_t code = 0;
    uint32_t freq = 1;
    if (!DecodeVInt32(&p, end, &code) ||
        ((code & 1) == 0 && (!DecodeVInt32(&p, end, &freq) || freq == 0))) {
      return false;
    }
    tail_max = std::max(tail_max, freq);
  }
  *max = tail_max;
  return true;
}

}  // namespace

bool PostingsCursor::ReadBlockImpacts(const uint8_t* header) {
  SkipHeader h;
  if (!ParseSkipHeader(&header, doc_end_, has_positions_, has_impacts_, &h) ||
      !DecodeImpacts(h.impacts, h.impacts + h.impact_bytes, &impacts_)) {
    return Fail("bad impacts in a skip header");
  }
  return true;
}

Impact PostingsCursor::TermImpactBound() const {
  if (!has_freqs_) return Impact{1, 0};
  const uint64_t bound = stats_.total_term_freq - stats_.doc_freq + 1;
  return Impact{static_cast<uint32_t>(std::min<uint64_t>(bound, UINT32_MAX)), 0};
}

bool PostingsCursor::TermImpacts(std::vector<Impact>* out) {
  out->clear();
  if (!status_.ok()) return false;
  if (!has_impacts_ || stats_.doc_freq < kForBlockSize) {
    out->push_back(TermImpactBound());
    return true;
  }
  const uint8_t* p = doc_begin_ + stats_.doc_offset;  // checked by Reset
  uint64_t left = stats_.doc_freq;
  ImpactSet set;
  std::vector<Impact> block;
  while (left >= kForBlockSize) {
    // The highest run starting here by its skip header, a block outside
    // runs by its own.
    const int level = SkipLevelAt(left);
    SkipHeader h;
    if (!(level > 0 ? ParseGroupHeader(&p, doc_end_, has_positions_, true, level, &h)
                    : ParseSkipHeader(&p, doc_end_, has_positions_, true, &h)) ||
        !DecodeImpacts(h.impacts, h.impacts + h.impact_bytes, &block)) {
      return Fail("bad impacts in a skip header");
    }
    set.Add(block);
    p += h.bytes;
    left -= level > 0 ? kForBlockSize * SkipRunBlocks(level) : kForBlockSize;
  }
  uint32_t tail_max = 0;
  if (!TailMaxFreq(p, doc_end_, left, &tail_max)) return Fail("truncated doc tail");
  if (left > 0) set.Add(tail_max, 0);
  set.Take(out);
  return true;
}

uint32_t PostingsCursor::AdvanceShallow(uint32_t target, bool whole_groups) {
  if (shallow_valid_ && target <= shallow_last_) return shallow_last_;
  auto whole_term = [this]() {
    impacts_.assign(1, TermImpactBound());
    shallow_last_ = kNoMoreDocs;
    shallow_valid_ = true;
    return kNoMoreDocs;
  };
  if (!has_impacts_ || stats_.doc_freq < kForBlockSize || !status_.ok()) return whole_term();
  // The buffered block, if it is a full block holding the target.
  if (buf_n_ > 0 && buffered_header_ != nullptr && target <= block_base_) {
    if (!ReadBlockImpacts(buffered_header_)) return whole_term();
    shallow_next_ = doc_ptr_;
    shallow_base_ = block_base_;
    shallow_left_ = docs_left_;
    shallow_last_ = block_base_;
    shallow_valid_ = true;
    return shallow_last_;
  }
  // Walk the headers from the iterator's next one or from this walk's, the
  // further of the two (both follow the same chain of headers).
  const uint8_t* p = doc_ptr_;
  uint32_t base = block_base_;
  uint64_t left = docs_left_;
  if (shallow_next_ != nullptr && shallow_next_ > p) {
    p = shallow_next_;
    base = shallow_base_;
    left = shallow_left_;
  }
  int next_level = -1;  // inside a run just entered: its next header's level
  while (left >= kForBlockSize) {
    SkipHeader h;
    const int level = next_level >= 0 ? next_level : SkipLevelAt(left);
    next_level = -1;
    if (level > 0) {
      // A run ending before the target is passed by its skip header; else
      // the walk goes on into its lower headers (never stopping between
      // levels: one of its blocks holds the target), except that a group
      // (level 1) holding it is the range with `whole_groups`.
      if (!ParseGroupHeader(&p, doc_end_, has_positions_, true, level, &h)) {
        Fail("truncated skip header of a run of blocks");
        return whole_term();
      }
      const uint64_t last = uint64_t{base} + h.last_delta;
      if (last > UINT32_MAX - 1) {
        Fail("doc id overflow in a run's skip header");
        return whole_term();
      }
      if (last < target || (whole_groups && level == 1)) {
        p += h.bytes;
        left -= kForBlockSize * SkipRunBlocks(level);
        base = static_cast<uint32_t>(last);
        if (last < target) continue;
        // The whole group, by its level-1 impacts.
        if (!DecodeImpacts(h.impacts, h.impacts + h.impact_bytes, &impacts_)) {
          Fail("bad impacts in a level-1 skip header");
          return whole_term();
        }
        shallow_next_ = p;
        shallow_base_ = base;
        shallow_left_ = left;
        shallow_last_ = base;
        shallow_valid_ = true;
        return shallow_last_;
      }
      next_level = level - 1;
      continue;
    }
    if (!ParseSkipHeader(&p, doc_end_, has_positions_, true, &h)) {
      Fail("truncated skip header or block");
      return whole_term();
    }
    const uint64_t last = uint64_t{base} + h.last_delta;
    if (last > UINT32_MAX - 1) {
      Fail("doc id overflow in skip header");
      return whole_term();
    }
    p += h.bytes;
    left -= kForBlockSize;
    base = static_cast<uint32_t>(last);
    if (last >= target) {
      // The impacts of the header just parsed (no second parse).
      if (!DecodeImpacts(h.impacts, h.impacts + h.impact_bytes, &impacts_)) {
        Fail("bad impacts in a skip header");
        return whole_term();
      }
      shallow_next_ = p;
      shallow_base_ = base;
      shallow_left_ = left;
      shallow_last_ = base;
      shallow_valid_ = true;
      return shallow_last_;
    }
  }
  shallow_next_ = p;
  shallow_base_ = base;
  shallow_left_ = left;
  if (left > 0) {
    shallow_tail_ = p;
    shallow_tail_docs_ = left;
  }
  return whole_term();
}

bool PostingsCursor::TailImpact(Impact* out) {
  if (shallow_tail_ == nullptr || !has_impacts_ || !status_.ok()) return false;
  uint32_t tail_max = 0;
  if (!TailMaxFreq(shallow_tail_, doc_end_, shallow_tail_docs_, &tail_max)) {
    return Fail("truncated doc tail");
  }
  *out = Impact{tail_max, 0};
  return true;
}

// Loads the next doc block (or the tail, or the singleton) into the buffer,
// stepping over a level-1 header first where a group starts.
bool PostingsCursor::LoadDocBlock(bool at_level0) {
  LeaveBufferedBlock();
  if (docs_left_ == 0) return false;
  if (stats_.doc_freq == 1) {
    docs_[0] = *stats_.singleton_doc;
    freqs_[0] = has_freqs_ ? static_cast<uint32_t>(stats_.total_term_freq) : 1;
    buf_n_ = 1;
    docs_left_ = 0;
    buffered_header_ = nullptr;
    block_freq_total_ = freqs_[0];
  } else if (docs_left_ >= kForBlockSize) {
    for (int level = at_level0 ? 0 : SkipLevelAt(docs_left_); level > 0; --level) {
      SkipHeader g;
      if (!ParseGroupHeader(&doc_ptr_, doc_end_, has_positions_, has_impacts_, level, &g)) {
        return Fail("truncated skip header of a run of blocks");
      }
    }
    const uint8_t* header = doc_ptr_;
    SkipHeader h;
    if (!ParseSkipHeader(&doc_ptr_, doc_end_, has_positions_, has_impacts_, &h)) {
      return Fail("truncated skip header or block");
    }
    return DecodeFullBlock(header, h.last_delta, h.bytes, h.freq_sum, h.pos_fp_delta);
  } else {
    buffered_header_ = nullptr;
    uint64_t doc = block_base_;
    for (size_t i = 0; i < docs_left_; ++i) {
      uint32_t code = 0;
      if (!DecodeVInt32(&doc_ptr_, doc_end_, &code)) return Fail("truncated doc tail");
      uint32_t freq = 1;
      uint32_t delta = code;
      if (has_freqs_) {
        delta = code >> 1;
        if ((code & 1) == 0 && (!DecodeVInt32(&doc_ptr_, doc_end_, &freq) || freq == 0)) {
          return Fail("bad freq in doc tail");
        }
      }
      if ((i > 0 || started_) && delta == 0) return Fail("doc ids not increasing");
      doc += delta;
      if (doc > UINT32_MAX - 1) return Fail("doc id overflow");
      docs_[i] = static_cast<uint32_t>(doc);
      freqs_[i] = freq;
    }
    buf_n_ = docs_left_;
    docs_left_ = 0;
    for (size_t i = 0; i < buf_n_; ++i) block_freq_total_ += freqs_[i];
  }
  return BlockLoaded();
}

// Decodes the full block whose skip header starts at `header` and was
// parsed (its fields are the arguments; doc_ptr_ is past it), checks it
// against the header and buffers it: LoadDocBlock's full blocks, and
// Advance's walk, which has just parsed the header of the block it stops
// at (so it is not parsed twice).
bool PostingsCursor::DecodeFullBlock(const uint8_t* header, uint32_t last_delta, uint32_t bytes,
                                     uint64_t freq_sum, uint64_t pos_fp_delta) {
  buffered_header_ = header;
  const uint8_t* block_end = doc_ptr_ + bytes;
  // The doc deltas come out as doc ids (their prefix sums from block_base_,
  // modulo 2^32), with the OR of every delta minus 1.
  uint32_t delta_bits = 0;
  if (!DecodeForDeltaBlock(&doc_ptr_, block_end, block_base_, docs_, &delta_bits)) {
    return Fail("bad doc block");
  }
  uint32_t freq_bits = 0;  // the OR of every freq minus 1
  uint32_t freq_sum32 = static_cast<uint32_t>(kForBlockSize);
  if (has_freqs_) {
    if (!DecodeForCountedBlock(&doc_ptr_, block_end, freqs_, &freq_bits, &freq_sum32)) {
      return Fail("bad freq block");
    }
  } else {
    freqs_.fill(1);
  }
  if (doc_ptr_ != block_end) return Fail("doc block length mismatch");
  // The block's checks: every delta >= 1 except the term's first, which
  // may be 0; every freq >= 1; the deltas' sum is the header's last doc;
  // the freqs' sum is the header's (with positions). The common case from
  // the ORs of every value minus 1 the two decodings took: it
  // is below 2^24 iff every value is in [1, 2^24] (a 0 wraps to all ones).
  // Then the freqs' 32-bit sum is exact (128 * 2^24 = 2^31) and so is the
  // prefix sum, whose last doc is the deltas' sum: it cannot wrap onto the
  // header's value, which is below 2^32, without the sum reaching 2^32. Any
  // other block (the term's first doc is 0, a gap or freq above 2^24, a
  // corrupt block) takes the exact checks in 64 bits, on the deltas taken
  // back from the doc ids (consecutive differences modulo 2^32 are the
  // deltas exactly).
  static_assert(kForBlockSize <= 128, "128 values of at most 2^24 sum to at most 2^31");
  uint64_t sum = freq_sum32;
  const uint64_t doc = uint64_t{block_base_} + last_delta;
  if ((delta_bits | freq_bits) >= (uint32_t{1} << 24)) {
    uint32_t zero_deltas = 0;
    uint32_t zero_freqs = 0;
    uint64_t delta_sum = 0;
    uint32_t previous = block_base_;
    sum = 0;
    for (size_t i = 0; i < kForBlockSize; ++i) {
      const uint32_t delta = docs_[i] - previous;
      previous = docs_[i];
      zero_deltas += delta == 0 ? 1 : 0;
      zero_freqs += freqs_[i] == 0 ? 1 : 0;
      delta_sum += delta;
      sum += freqs_[i];
    }
    const uint32_t allowed_zero = !started_ && docs_[0] == block_base_ ? 1 : 0;
    if (zero_deltas > allowed_zero) return Fail("doc ids not increasing");
    if (zero_freqs > 0) return Fail("zero frequency");
    if (delta_sum != last_delta) return Fail("skip header disagrees with its block");
  }
  if (has_positions_ && sum != freq_sum) return Fail("skip header freq sum disagrees");
  if (doc > UINT32_MAX - 1) return Fail("skip header disagrees with its block");
  // After the exact checks every partial sum is <= doc, so the 32-bit
  // prefix sum did not wrap; after the fast one it can only have for a
  // corrupt block, whose last doc then differs from the header's.
  if (docs_[kForBlockSize - 1] != doc) return Fail("skip header disagrees with its block");
  skip_pos_fp_ += pos_fp_delta;
  block_base_ = static_cast<uint32_t>(doc);
  buf_n_ = kForBlockSize;
  docs_left_ -= kForBlockSize;
  block_freq_total_ = sum;
  return BlockLoaded();
}

// The positions bookkeeping of a newly buffered block.
bool PostingsCursor::BlockLoaded() {
  doc_pos_start_ = pos_base_;
  pos_sync_i_ = 0;
  pos_syncs_ = 0;
  freq_starts_ready_ = false;
  started_ = true;
  return true;
}

bool PostingsCursor::NextDocSlow() {
  if (!status_.ok() || doc_ == kNoMoreDocs) return false;
  if (buf_n_ > 0 && buf_i_ + 1 < buf_n_) {
    ++buf_i_;
  } else if (!LoadDocBlock()) {
    doc_ = kNoMoreDocs;
    return false;
  }
  doc_ = docs_[buf_i_];
  freq_ = freqs_[buf_i_];
  pos_read_ = 0;
  return true;
}

void PostingsCursor::set_skip_prefetch(IndexInput* doc_input) {
  const bool same_file = doc_input != nullptr && doc_input->file_offset() == 0 &&
                         doc_input->bytes().data() == doc_begin_ &&
                         doc_input->length() >= static_cast<uint64_t>(doc_end_ - doc_begin_);
  skip_prefetch_ = same_file ? doc_input : nullptr;
}

void PostingsCursor::SkipPrefetch(const uint8_t* walk_start, uint32_t walked) {
  // No further than this term's remaining full blocks, estimated from the
  // bytes per block walked so far (+25%): other terms' postings are not
  // wanted.
  const uint64_t per_block = static_cast<uint64_t>(doc_ptr_ - walk_start) / walked + 1;
  const uint64_t term_left = (docs_left_ / kForBlockSize) * per_block * 5 / 4;
  const uint64_t window =
      std::min({kSkipPrefetchBytes, term_left, static_cast<uint64_t>(doc_end_ - doc_ptr_)});
  const uint8_t* from =
      prefetched_end_ != nullptr && prefetched_end_ > doc_ptr_ ? prefetched_end_ : doc_ptr_;
  const uint8_t* to = doc_ptr_ + window;
  if (from < to) {
    (void)skip_prefetch_->Prefetch(static_cast<uint64_t>(from - doc_begin_),
                                   static_cast<uint64_t>(to - from));
    prefetched_end_ = to;
  }
  // Look again half a window before the prefetched end; when the window
  // stopped at the term's estimated end, once the walk passes it.
  skip_recheck_ = window == kSkipPrefetchBytes ? to - kSkipPrefetchBytes / 2
                  : to < doc_end_              ? to + 1
                                               : doc_end_;
}

bool PostingsCursor::AdvanceFilteredSlow(uint32_t target, BlockFilter* filter) {
  if (!status_.ok() || doc_ == kNoMoreDocs) return false;
  if (buf_n_ > 0 && doc_ >= target && started_) return true;
  uint32_t walked = 0;  // blocks skipped by this call, from walk_start
  const uint8_t* walk_start = doc_ptr_;
  for (;;) {
    // Within the buffered block, if its last doc reaches the target (not
    // when AdvanceFiltered's fast path sent the call here: it found that
    // it does not, and the block is not scanned for nothing).
    if (buf_n_ > 0 && target <= docs_[buf_n_ - 1]) {
      // Found: the buffered docs increase (DecodeFullBlock and LoadDocBlock
      // check it) and docs_[buf_i_] < target (the cursor's doc, or a block
      // just loaded whose first doc was below the target).
      const size_t i = postings_internal::FirstAtLeast(docs_, buf_i_ + 1, buf_n_, target);
      assert(i < buf_n_);
      buf_i_ = i;
      doc_ = docs_[i];
      freq_ = freqs_[i];
      pos_read_ = 0;
      return true;
    }
    if (buf_n_ > 0) buf_i_ = buf_n_ - 1;
    // Whole groups and blocks whose last doc is below the target, or that
    // the filter rejects: skip by their headers.
    bool loaded = false;  // the walk decoded the block it stopped at
    int next_level = -1;  // inside a run just entered: its next header's level
    while (docs_left_ >= kForBlockSize && stats_.doc_freq > 1) {
      const int level = next_level >= 0 ? next_level : SkipLevelAt(docs_left_);
      next_level = -1;
      if (level > 0) {
        SkipHeader g;
        if (!ParseGroupHeader(&doc_ptr_, doc_end_, has_positions_, has_impacts_, level, &g)) {
          return Fail("truncated skip header of a run of blocks");
        }
        const uint64_t last = uint64_t{block_base_} + g.last_delta;
        if (last > UINT32_MAX - 1) return Fail("doc id overflow in a run's skip header");
        bool pass = last < target;
        if (!pass && filter != nullptr && has_impacts_) {
          const BlockFilter::Verdict verdict = filter->Judge(g.impacts, g.impacts + g.impact_bytes);
          if (verdict == BlockFilter::Verdict::kCorrupt) {
            return Fail("bad impacts in a run's skip header");
          }
          pass = verdict == BlockFilter::Verdict::kSkip;
        }
        if (!pass) {
          next_level = level - 1;  // into the run: its lower headers follow
          continue;
        }
        // The run's 8^level blocks at once. The positions bookkeeping ends
        // where passing them one by one would (pos_base_ +
        // block_freq_total_ is the index of the first position after the
        // last block passed), with the run's positions all in pos_base_.
        const uint32_t blocks = static_cast<uint32_t>(SkipRunBlocks(level));
        doc_ptr_ += g.bytes;
        docs_left_ -= kForBlockSize * blocks;
        block_base_ = static_cast<uint32_t>(last);
        pos_base_ += block_freq_total_ + g.freq_sum;
        block_freq_total_ = 0;
        if (has_positions_) {
          skip_pos_fp_ += g.pos_fp_delta;
          if (stats_.pos_offset + skip_pos_fp_ > static_cast<uint64_t>(pos_end_ - pos_begin_)) {
            return Fail("skip pointer past the end of the positions");
          }
          pos_ptr_ = pos_begin_ + stats_.pos_offset + skip_pos_fp_;
          ptr_block_ = pos_base_ / kForBlockSize;
          decoded_block_ = -1;
        }
        buf_n_ = 0;
        started_ = true;
        blocks_skipped_ += blocks;
        walked += blocks;
        if (skip_prefetch_ != nullptr && walked >= kSkipPrefetchAfter &&
            (skip_recheck_ == nullptr || doc_ptr_ >= skip_recheck_)) {
          SkipPrefetch(walk_start, walked);
        }
        continue;
      }
      const uint8_t* header = doc_ptr_;
      SkipHeader h;
      if (!ParseSkipHeader(&doc_ptr_, doc_end_, has_positions_, has_impacts_, &h)) {
        return Fail("truncated skip header or block");
      }
      const uint64_t freq_sum = h.freq_sum;
      const uint64_t pos_fp_delta = h.pos_fp_delta;
      const uint64_t last = uint64_t{block_base_} + h.last_delta;
      if (last >= target) {
        const BlockFilter::Verdict verdict =
            filter == nullptr || !has_impacts_
                ? BlockFilter::Verdict::kDecode
                : filter->Judge(h.impacts, h.impacts + h.impact_bytes);
        if (verdict == BlockFilter::Verdict::kCorrupt) {
          return Fail("bad impacts in a skip header");
        }
        if (verdict == BlockFilter::Verdict::kDecode) {
          // Decode this one (the skip headers of runs it starts are behind), from the
          // header just parsed, as LoadDocBlock would.
          LeaveBufferedBlock();
          if (!DecodeFullBlock(header, h.last_delta, h.bytes, h.freq_sum, h.pos_fp_delta)) {
            doc_ = kNoMoreDocs;
            return false;
          }
          loaded = true;
          break;
        }
      }
      if (last > UINT32_MAX - 1) return Fail("doc id overflow in skip header");
      doc_ptr_ += h.bytes;
      docs_left_ -= kForBlockSize;
      block_base_ = static_cast<uint32_t>(last);
      pos_base_ += block_freq_total_;
      block_freq_total_ = freq_sum;
      skip_pos_fp_ += pos_fp_delta;
      if (has_positions_) {
        // The .pos pointer now sits at the block holding position
        // pos_base_ + freq_sum.
        if (stats_.pos_offset + skip_pos_fp_ > static_cast<uint64_t>(pos_end_ - pos_begin_)) {
          return Fail("skip pointer past the end of the positions");
        }
        pos_ptr_ = pos_begin_ + stats_.pos_offset + skip_pos_fp_;
        ptr_block_ = (pos_base_ + freq_sum) / kForBlockSize;
        decoded_block_ = -1;
      }
      buf_n_ = 0;
      started_ = true;
      ++blocks_skipped_;
      if (skip_prefetch_ != nullptr && ++walked >= kSkipPrefetchAfter &&
          (skip_recheck_ == nullptr || doc_ptr_ >= skip_recheck_)) {
        SkipPrefetch(walk_start, walked);
      }
    }
    // Unless the walk decoded the block it stopped at: at a block's own
    // header (a group's level-1 header was read by the walk), or at the
    // tail.
    if (!loaded && !LoadDocBlock(/*at_level0=*/true)) {
      doc_ = kNoMoreDocs;
      return false;
    }
    if (docs_[0] >= target) {
      doc_ = docs_[0];
      freq_ = freqs_[0];
      pos_read_ = 0;
      return true;
    }
  }
}

int PostingsCursor::SkipLevelAtSlow(uint64_t left) const {
  const uint64_t before = (stats_.doc_freq - left) / kForBlockSize;
  const uint64_t blocks = left / kForBlockSize;
  int level = 1;
  while (level < skip_levels_ && before % SkipRunBlocks(level + 1) == 0 &&
         blocks >= SkipRunBlocks(level + 1)) {
    ++level;
  }
  return level;
}

bool PostingsCursor::ReadSkipGroups(std::vector<SkipGroup>* out) {
  out->clear();
  if (!status_.ok()) return false;
  if (skip_levels_ == 0 || stats_.doc_freq < kSkipGroupDocs) return true;
  const uint8_t* p = doc_begin_ + stats_.doc_offset;  // checked by Reset
  uint64_t left = stats_.doc_freq;
  uint32_t base = 0;
  uint64_t block = 0;  // full blocks read
  // Per level, the run being read (its index in *out, SIZE_MAX if none)
  // and where its bytes start (after its header).
  std::array<size_t, kMaxSkipLevels + 1> open;
  open.fill(SIZE_MAX);
  std::array<const uint8_t*, kMaxSkipLevels + 1> body{};
  while (left >= kForBlockSize) {
    SkipHeader h;
    for (int level = SkipLevelAt(left); level > 0; --level) {
      if (!ParseGroupHeader(&p, doc_end_, has_positions_, has_impacts_, level, &h)) {
        return Fail("truncated skip header of a run of blocks");
      }
      SkipGroup& g = out->emplace_back();
      g.level = level;
      g.first_block = block;
      g.last_doc =
          static_cast<uint32_t>(std::min<uint64_t>(uint64_t{base} + h.last_delta, UINT32_MAX));
      g.bytes = h.bytes;
      g.freq_sum = h.freq_sum;
      g.pos_fp_delta = h.pos_fp_delta;
      if (has_impacts_ && !DecodeImpacts(h.impacts, h.impacts + h.impact_bytes, &g.impacts)) {
        return Fail("bad impacts in a run's skip header");
      }
      open[level] = out->size() - 1;
      body[level] = p;
    }
    if (!ParseSkipHeader(&p, doc_end_, has_positions_, has_impacts_, &h)) {
      return Fail("truncated skip header or block");
    }
    const uint64_t last = uint64_t{base} + h.last_delta;
    if (last > UINT32_MAX - 1) return Fail("doc id overflow in skip header");
    base = static_cast<uint32_t>(last);
    p += h.bytes;
    left -= kForBlockSize;
    ++block;
    // The block into every run it is in; a run's last block closes it.
    for (int level = 1; level <= kMaxSkipLevels; ++level) {
      if (open[level] == SIZE_MAX) continue;
      SkipGroup& g = (*out)[open[level]];
      g.blocks_last_doc = base;
      g.blocks_freq_sum += h.freq_sum;
      g.blocks_pos_fp += h.pos_fp_delta;
      if (block - g.first_block == SkipRunBlocks(level)) {
        g.blocks_bytes = static_cast<uint64_t>(p - body[level]);
        open[level] = SIZE_MAX;
      }
    }
  }
  return true;
}

bool PostingsCursor::SkipPosBlock() {
  const uint8_t* p = pos_ptr_;
  if (!SkipForBlock(&p, pos_end_)) return Fail("bad position block");
  if (has_payloads_) {
    uint64_t blob = 0;
    if (!SkipForBlock(&p, pos_end_) || !DecodeVInt64(&p, pos_end_, &blob) ||
        blob > static_cast<uint64_t>(pos_end_ - p)) {
      return Fail("bad payload block");
    }
    p += blob;
  }
  if (has_offsets_ && (!SkipForBlock(&p, pos_end_) || !SkipForBlock(&p, pos_end_))) {
    return Fail("bad offset block");
  }
  pos_ptr_ = p;
  ++ptr_block_;
  return true;
}

bool PostingsCursor::DecodePosBlock() {
  const uint64_t full_blocks = stats_.total_term_freq / kForBlockSize;
  const uint8_t* p = pos_ptr_;
  if (ptr_block_ < full_blocks) {
    pos_n_ = kForBlockSize;
    if (!DecodeForBlock(&p, pos_end_, pos_deltas_)) return Fail("bad position block");
    if (has_payloads_) {
      uint64_t blob = 0;
      if (!DecodeForBlock(&p, pos_end_, payload_lengths_) || !DecodeVInt64(&p, pos_end_, &blob) ||
          blob > static_cast<uint64_t>(pos_end_ - p)) {
        return Fail("bad payload block");
      }
      payload_blob_ = {p, static_cast<size_t>(blob)};
      p += blob;
    }
    if (has_offsets_ && (!DecodeForBlock(&p, pos_end_, start_deltas_) ||
                         !DecodeForBlock(&p, pos_end_, offset_lengths_))) {
      return Fail("bad offset block");
    }
  } else {
    pos_n_ = stats_.total_term_freq % kForBlockSize;
    // Tail: payload bytes are interleaved; gather their positions.
    std::array<const uint8_t*, kForBlockSize> payload_at{};
    for (size_t i = 0; i < pos_n_; ++i) {
      if (!DecodeVInt32(&p, pos_end_, &pos_deltas_[i])) return Fail("truncated position tail");
      if (has_payloads_) {
        if (!DecodeVInt32(&p, pos_end_, &payload_lengths_[i]) ||
            payload_lengths_[i] > static_cast<uint64_t>(pos_end_ - p)) {
          return Fail("truncated payload tail");
        }
        payload_at[i] = p;
        p += payload_lengths_[i];
      }
      if (has_offsets_ && (!DecodeVInt32(&p, pos_end_, &start_deltas_[i]) ||
                           !DecodeVInt32(&p, pos_end_, &offset_lengths_[i]))) {
        return Fail("truncated offset tail");
      }
    }
    if (has_payloads_) {
      // Payload views point straight into the file: starts are offsets from
      // the first payload's byte; store them relative to pos_begin_.
      for (size_t i = 0; i < pos_n_; ++i) {
        payload_starts_[i] = static_cast<uint32_t>(payload_at[i] - pos_ptr_);
      }
      payload_blob_ = {pos_ptr_, static_cast<size_t>(p - pos_ptr_)};
    }
  }
  if (has_payloads_ && ptr_block_ < full_blocks) {
    uint64_t at = 0;
    for (size_t i = 0; i < pos_n_; ++i) {
      payload_starts_[i] = static_cast<uint32_t>(at);
      at += payload_lengths_[i];
    }
    if (at != payload_blob_.size()) return Fail("payload lengths disagree with their bytes");
  }
  decoded_block_ = static_cast<int64_t>(ptr_block_);
  pos_ptr_ = p;
  ++ptr_block_;
  return true;
}

uint64_t PostingsCursor::DocPosStartSlow() {
  if (pos_syncs_++ > 0 && buf_n_ == kForBlockSize && block_freq_total_ <= UINT32_MAX) {
    // Every partial sum is <= the block's total: no wrap.
    freq_starts_[0] = 0;
    std::memcpy(&freq_starts_[1], freqs_.data(), (kForBlockSize - 1) * sizeof(uint32_t));
    postings_internal::PrefixSumDocBlock(0, freq_starts_.data());
    freq_starts_ready_ = true;
    return pos_base_ + freq_starts_[buf_i_];
  }
  while (pos_sync_i_ < buf_i_) doc_pos_start_ += freqs_[pos_sync_i_++];
  return doc_pos_start_;
}

bool PostingsCursor::SeekPosition(uint64_t index) {
  const uint64_t block = index / kForBlockSize;
  if (decoded_block_ == static_cast<int64_t>(block)) return true;
  if (pos_ptr_ == nullptr || block < ptr_block_) return Fail("positions out of order");
  while (ptr_block_ < block) {
    if (!SkipPosBlock()) return false;
  }
  return DecodePosBlock();
}

bool PostingsCursor::NextPosition() {
  if (!status_.ok() || !has_positions_ || doc_ == kNoMoreDocs || pos_read_ >= freq_) {
    return false;
  }
  const uint64_t index = DocPosStart() + pos_read_;
  if (index >= stats_.total_term_freq) return Fail("position index past the term's positions");
  if (!SeekPosition(index)) return false;
  const size_t i = index % kForBlockSize;
  if (i >= pos_n_) return Fail("position index past its block");
  if (pos_read_ == 0) {
    position_ = 0;
    start_offset_ = 0;
  }
  position_ += pos_deltas_[i];
  if (has_payloads_) {
    if (uint64_t{payload_starts_[i]} + payload_lengths_[i] > payload_blob_.size()) {
      return Fail("payload past its block");
    }
    payload_ = {reinterpret_cast<const char*>(payload_blob_.data()) + payload_starts_[i],
                payload_lengths_[i]};
  }
  if (has_offsets_) {
    start_offset_ += start_deltas_[i];
    end_offset_ = start_offset_ + offset_lengths_[i];
  }
  ++pos_read_;
  return true;
}

bool PostingsCursor::ReadPositions(std::vector<uint32_t>* out) {
  if (!status_.ok() || !has_positions_ || doc_ == kNoMoreDocs || pos_read_ != 0) return false;
  uint64_t index = DocPosStart();
  const uint64_t end = index + freq_;
  if (end > stats_.total_term_freq) return Fail("position index past the term's positions");
  if (decoded_block_ != static_cast<int64_t>(index / kForBlockSize) && !SeekPosition(index)) {
    return false;
  }
  // The usual case: all of the doc's positions in its first block (the
  // loop below, in one step).
  if (index % kForBlockSize + freq_ <= pos_n_) {
    const size_t first = index % kForBlockSize;
    if (out->size() < freq_) out->resize(freq_);
    position_ = PrefixSum(&pos_deltas_[first], freq_, 0, out->data());
    pos_read_ = freq_;
    return true;
  }
  size_t k = 0;  // positions written
  uint32_t position = 0;
  while (index < end) {
    if (decoded_block_ != static_cast<int64_t>(index / kForBlockSize) && !SeekPosition(index)) {
      return false;
    }
    const size_t first = index % kForBlockSize;
    if (first >= pos_n_) return Fail("position index past its block");
    const size_t n = static_cast<size_t>(std::min<uint64_t>(end - index, pos_n_ - first));
    // Grown only by what a decoded block holds (see the header).
    if (out->size() < k + n) out->resize(k + n);
    position = PrefixSum(&pos_deltas_[first], n, position, out->data() + k);
    k += n;
    index += n;
  }
  position_ = position;
  pos_read_ = freq_;
  return true;
}

bool PostingsCursor::CopyPositions(PostingsWriter& out) {
  if (!status_.ok() || !has_positions_ || doc_ == kNoMoreDocs || pos_read_ != 0) return false;
  uint64_t index = DocPosStart();
  const uint64_t end = index + freq_;
  if (end > stats_.total_term_freq) return Fail("position index past the term's positions");
  while (index < end) {
    if (decoded_block_ != static_cast<int64_t>(index / kForBlockSize) && !SeekPosition(index)) {
      return false;
    }
    const size_t first = index % kForBlockSize;
    if (first >= pos_n_) return Fail("position index past its block");
    const size_t n = static_cast<size_t>(std::min<uint64_t>(end - index, pos_n_ - first));
    index += n;
    if (!has_payloads_) {
      out.AddPositionDeltaRun(&pos_deltas_[first], &start_deltas_[first], &offset_lengths_[first],
                              n);
      continue;
    }
    for (size_t i = first; i < first + n; ++i) {
      std::string_view payload;
      if (has_payloads_) {
        if (uint64_t{payload_starts_[i]} + payload_lengths_[i] > payload_blob_.size()) {
          return Fail("payload past its block");
        }
        payload = {reinterpret_cast<const char*>(payload_blob_.data()) + payload_starts_[i],
                   payload_lengths_[i]};
      }
      out.AddPositionDeltas(pos_deltas_[i], payload, start_deltas_[i], offset_lengths_[i]);
    }
  }
  pos_read_ = freq_;
  return true;
}

// ---------------------------------------------------------------- dictionary

absl::StatusOr<std::unique_ptr<TermsReader>> TermsReader::Open(Directory* dir,
                                                               std::string_view segment,
                                                               const SegmentId& id) {
  const std::string name = SegmentFileName(segment, "tim");
  auto r = std::make_unique<TermsReader>();
  absl::StatusOr<IndexInput> in = OpenInput(dir, name);
  if (!in.ok()) return in.status();
  r->input_ = *in;
  absl::StatusOr<uint32_t> version =
      CheckHeader(*in, kTermsCodec, kSegmentFormatVersion, kSegmentFormatVersion, id);
  if (!version.ok()) return version.status();
  auto corrupt = [&name](const char* what) {
    return absl::DataLossError(absl::StrCat(name, ": corrupt term dictionary file: ", what));
  };
  const uint64_t length = in->length();
  if (length < kFooterLength + 8 + in->position()) return corrupt("too short");
  const uint64_t payload_end = length - kFooterLength - 8;
  if (!in->Seek(payload_end).ok()) return corrupt("bad length");
  uint64_t directory_offset = 0;
  if (!in->ReadFixed64(&directory_offset)) return corrupt("truncated directory offset");
  if (directory_offset > payload_end || directory_offset < HeaderLength(kTermsCodec)) {
    return corrupt("directory offset out of range");
  }
  if (!in->Seek(directory_offset).ok()) return corrupt("bad directory offset");
  uint32_t count = 0;
  if (!in->ReadVInt32(&count)) return corrupt("truncated field count");
  const std::span<const uint8_t> bytes = in->bytes();
  for (uint32_t i = 0; i < count; ++i) {
    FieldTermsStats s;
    uint64_t offset = 0;
    uint64_t size = 0;
    if (!in->ReadVInt32(&s.field_number) || !in->ReadVInt64(&offset) || !in->ReadVInt64(&size) ||
        !in->ReadVInt64(&s.term_count) || !in->ReadVInt64(&s.sum_doc_freq) ||
        !in->ReadVInt64(&s.sum_total_term_freq) || !in->ReadVInt32(&s.doc_count)) {
      return corrupt("truncated field directory");
    }
    if (offset < HeaderLength(kTermsCodec) || offset > directory_offset ||
        size > directory_offset - offset) {
      return corrupt("field dictionary out of range");
    }
    absl::StatusOr<TermDictReader> dict = TermDictReader::Open(bytes.subspan(offset, size));
    if (!dict.ok()) return dict.status();
    if (dict->term_count() != s.term_count) return corrupt("term count disagrees");
    if (!r->dicts_.emplace(s.field_number, std::make_unique<TermDictReader>(std::move(*dict)))
             .second) {
      return corrupt("field listed twice");
    }
    r->stats_.emplace(s.field_number, s);
  }
  if (in->position() != payload_end) return corrupt("bytes after the field directory");
  return r;
}

const TermDictReader* TermsReader::Field(uint32_t number) const {
  auto it = dicts_.find(number);
  return it == dicts_.end() ? nullptr : it->second.get();
}

const FieldTermsStats* TermsReader::Stats(uint32_t number) const {
  auto it = stats_.find(number);
  return it == stats_.end() ? nullptr : &it->second;
}

std::vector<uint32_t> TermsReader::fields() const {
  std::vector<uint32_t> out;
  for (const auto& [number, dict] : dicts_) out.push_back(number);
  std::sort(out.begin(), out.end());
  return out;
}

absl::Status TermsReader::CheckIntegrity() const { return VerifyChecksum(*input_).status(); }

}  // namespace invert

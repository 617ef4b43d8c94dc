// Postings files of a segment: the term dictionaries (_N.tim), doc ids and
// frequencies (_N.doc), and positions with payloads and offsets (_N.pos).
// docs/format.md specifies every byte; in short:
//
// _N.doc, per term with doc_freq >= 2 (a term in one document keeps that doc
// in its dictionary entry and writes nothing here), starting at
// TermStats::doc_offset:
//   full blocks of 128 docs, with skip levels above them (version 3: one,
//   version 4: three): for L = 1, 2, 3, each run of 8^L of them starting at
//   block b with b mod 8^L = 0 and b + 8^L <= floor(doc_freq / 128) is
//   preceded by a level-L skip header (higher levels first where several
//   runs start at one block):
//     VInt(last doc of the run - last doc before it (0 at first)),
//     VInt(run bytes: what follows this header to the run's end, the lower
//          levels' headers and the blocks' own included),
//     [VLong(freq_sum), VLong(pos_fp_delta)]  over the run, if positions
//     [VInt(impact_bytes), impacts]  the run's frontier, if freqs
//   each full block:
//     skip header: VInt(last_doc - previous block's last_doc (0 at first)),
//                  VInt(block_bytes),
//                  [VInt(freq_sum), VInt(pos_fp_delta)]       if positions
//                  [VInt(impact_bytes), impacts]   if freqs (version 2 on)
//     block:       FOR(128 doc deltas) [FOR(128 freqs)]     (block_bytes long)
//   then the < 128 remaining docs as VInts: with freqs
//     VInt(delta << 1 | 1) if freq == 1 else VInt(delta << 1), VInt(freq);
//     docs only: VInt(delta).
//   Deltas are from the previous doc of the term (the first from 0).
//   pos_fp_delta: how far the .pos pointer moves (from pos_offset, then from
//   the previous header's) to the block holding the first position after
//   this doc block; freq_sum: the positions in this block. With both a reader
//   skips a doc block, and its positions, without decoding either; with a
//   level-L header, 8^L blocks at once.
//   impacts: the block's competitive (freq, norm) pairs (codec/impacts.h),
//   for block-max pruning; version 1 files have none.
// _N.pos, per term (if positions), starting at TermStats::pos_offset: the
//   term's positions over all its docs (position deltas restart at 0 in each
//   doc), in blocks of 128:
//     FOR(position deltas)
//     [FOR(payload lengths), VInt(total payload bytes), payload bytes]  if payloads
//     [FOR(start offset deltas), FOR(end - start)]                      if offsets
//   then the < 128 remaining positions as VInts: delta, [length, bytes],
//   [start delta, end - start]. Start offset deltas also restart per doc.
// _N.tim: header, one term dictionary (codec/term_dict_writer.h) per inverted
//   field, then the field directory: VInt count, per field VInt number,
//   VLong offset, VLong length, VLong term_count, VLong sum_doc_freq,
//   VLong sum_total_term_freq, VInt doc_count; then Fixed64 directory
//   offset; footer.
//
// Thread safety: a writer is used by one thread; a TermsReader may be shared
// (cursors and PostingsEnums are per thread).
#ifndef INVERT_CODEC_POSTINGS_FORMAT_H_
#define INVERT_CODEC_POSTINGS_FORMAT_H_

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "codec/field_info.h"
#include "codec/for_block.h"
#include "codec/impacts.h"
#include "codec/term_dict_reader.h"
#include "codec/term_dict_writer.h"
#include "codec/term_stats.h"
#include "invert/directory.h"
#include "store/codec_util.h"
#include "store/index_input.h"
#include "store/index_output.h"

namespace invert {

// .doc versions. Do not change the values: part of the persistent format.
// 1: no impacts. 2: every full block of a field with freqs carries its
// impacts in its skip header. 3: and every run of 8 full blocks has a
// level-1 skip header before it. 4 (written now): and every run of 64 a
// level-2 header, of 512 a level-3 one. All four are read.
inline constexpr uint32_t kDocVersionNoImpacts = 1;
inline constexpr uint32_t kDocVersionImpacts = 2;
inline constexpr uint32_t kDocVersionOneSkipLevel = 3;
inline constexpr uint32_t kDocFormatVersion = 4;

// The skip levels above the blocks: a level-L run is 8^L full blocks
// (kSkipGroupBlocks << 3 (L - 1)); level 1's is a "group" of 8.
inline constexpr size_t kSkipGroupBlocks = 8;
inline constexpr uint64_t kSkipGroupDocs = kSkipGroupBlocks * kForBlockSize;
inline constexpr int kMaxSkipLevels = 3;  // version 4; version 3 has 1
// Full blocks in a run of level `level` (>= 1).
constexpr uint64_t SkipRunBlocks(int level) { return uint64_t{1} << (3 * level); }
// The skip levels a .doc file of `version` has above its blocks.
constexpr int SkipLevelsOfVersion(uint32_t version) {
  return version >= kDocFormatVersion ? kMaxSkipLevels : version == kDocVersionOneSkipLevel ? 1 : 0;
}

struct FieldTermsStats {
  uint32_t field_number = 0;
  uint64_t term_count = 0;
  uint64_t sum_doc_freq = 0;
  uint64_t sum_total_term_freq = 0;
  uint32_t doc_count = 0;  // documents with at least one term in the field
};

namespace postings_internal {

// The first i in [i, n) with a[i] >= target, or n. SSE2: 8 at a time (two
// compares packed into one mask), then 4, unsigned order made signed by
// flipping the top bit.
inline size_t FirstAtLeast(const std::array<uint32_t, kForBlockSize>& a, size_t i, size_t n,
                           uint32_t target) {
  if (i < n && a[i] >= target) return i;  // the next doc: NextDoc-like moves
#if defined(__SSE2__)
  const __m128i flip = _mm_set1_epi32(INT32_MIN);
  const __m128i t = _mm_xor_si128(_mm_set1_epi32(static_cast<int>(target)), flip);
  for (; i + 8 <= n; i += 8) {
    const __m128i x0 =
        _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&a[i])), flip);
    const __m128i x1 =
        _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&a[i + 4])), flip);
    // Two mask bits per value (16-bit lanes of the packed compares).
    const int below = _mm_movemask_epi8(
        _mm_packs_epi32(_mm_cmpgt_epi32(t, x0), _mm_cmpgt_epi32(t, x1)));  // a < target
    if (below != 0xffff) {
      return i + static_cast<size_t>(std::countr_one(static_cast<unsigned>(below))) / 2;
    }
  }
  for (; i + 4 <= n; i += 4) {
    const __m128i x = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&a[i])), flip);
    const int below = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(t, x)));  // a < target
    if (below != 0xf) return i + static_cast<size_t>(std::countr_one(static_cast<unsigned>(below)));
  }
#endif
  while (i < n && a[i] < target) ++i;
  return i;
}

}  // namespace postings_internal

class PostingsWriter {
 public:
  static absl::StatusOr<std::unique_ptr<PostingsWriter>> Create(Directory* dir,
                                                                std::string_view segment,
                                                                const SegmentId& id);

  // Fields in increasing number; terms in increasing unsigned byte order;
  // per term: AddDoc for each doc (increasing), each followed by freq
  // AddPosition calls (increasing positions) if the field has positions.
  void StartField(const FieldInfo& field);
  // A term that got no AddDoc may be abandoned by calling StartTerm (or
  // FinishField) again instead of FinishTerm: nothing of it was written (a
  // merge drops a term whose documents are all deleted this way).
  void StartTerm();
  // Inline: called once per posting and once per position by the flush.
  // `norm`: the document's norm byte of the field, for the block's impacts;
  // 1 when the field has no norms (as Lucene takes it).
  void AddDoc(uint32_t doc, uint32_t freq, uint8_t norm = 1) {
    if (!has_freqs_) freq = 1;
    if (doc_n_ == kForBlockSize) EmitDocBlock();
    if (stats_.doc_freq == 0) first_doc_ = doc;
    docs_[doc_n_] = doc - last_doc_;
    freqs_[doc_n_] = freq;
    norms_[doc_n_] = norm;
    ++doc_n_;
    last_doc_ = doc;
    ++stats_.doc_freq;
    stats_.total_term_freq += freq;
    last_position_ = 0;
    last_start_ = 0;
  }
  void AddPosition(uint32_t position, uint32_t start_offset, uint32_t end_offset,
                   std::string_view payload) {
    pos_deltas_[pos_n_] = position - last_position_;
    last_position_ = position;
    if (has_payloads_) {
      payload_lengths_[pos_n_] = static_cast<uint32_t>(payload.size());
      payload_bytes_.append(payload);
    }
    if (has_offsets_) {
      start_deltas_[pos_n_] = start_offset - last_start_;
      offset_lengths_[pos_n_] = end_offset - start_offset;
      last_start_ = start_offset;
    }
    if (++pos_n_ == kForBlockSize) EmitPosBlock();
  }
  // AddPosition with the deltas as stored: `position_delta` from the doc's
  // previous position (from 0 for its first), `start_delta` from its
  // previous start offset (likewise), `length` = end - start. Used by
  // PostingsCursor::CopyPositions; a doc's positions all come one way.
  // The same for n positions without payloads. REQUIRES: the field has no
  // payloads.
  void AddPositionDeltaRun(const uint32_t* position_deltas, const uint32_t* start_deltas,
                           const uint32_t* lengths, size_t n) {
    while (n > 0) {
      const size_t m = std::min(n, kForBlockSize - pos_n_);
      std::copy_n(position_deltas, m, &pos_deltas_[pos_n_]);
      if (has_offsets_) {
        std::copy_n(start_deltas, m, &start_deltas_[pos_n_]);
        std::copy_n(lengths, m, &offset_lengths_[pos_n_]);
        start_deltas += m;
        lengths += m;
      }
      position_deltas += m;
      n -= m;
      pos_n_ += m;
      if (pos_n_ == kForBlockSize) EmitPosBlock();
    }
  }
  void AddPositionDeltas(uint32_t position_delta, std::string_view payload, uint32_t start_delta,
                         uint32_t length) {
    pos_deltas_[pos_n_] = position_delta;
    if (has_payloads_) {
      payload_lengths_[pos_n_] = static_cast<uint32_t>(payload.size());
      payload_bytes_.append(payload);
    }
    if (has_offsets_) {
      start_deltas_[pos_n_] = start_delta;
      offset_lengths_[pos_n_] = length;
    }
    if (++pos_n_ == kForBlockSize) EmitPosBlock();
  }
  absl::Status FinishTerm(std::string_view term) { return FinishTerm(term, {}, {}); }
  // FinishTerm, handed the term's .doc tail already encoded: every doc's
  // VInt code(s) exactly as WriteDocTail would write them from the AddDoc
  // calls (the flush's in-memory doc stream is these bytes). Written as they
  // are when all of the term's 2..127 docs go to the tail, instead of
  // encoding them again; ignored otherwise (a full block, one doc, or empty).
  // REQUIRES: non-empty `doc_tail` holds those bytes (not checked).
  //
  // `pos_tail`, when not empty, is the term's .pos tail already encoded:
  // the VInts WritePosTail would write for its last positions, which the
  // caller did not add. REQUIRES then: the field has no payloads, the
  // positions added for the term (AddPosition*) filled whole blocks, and
  // those in `pos_tail` are fewer than kForBlockSize (not checked).
  absl::Status FinishTerm(std::string_view term, std::span<const uint8_t> doc_tail,
                          std::span<const uint8_t> pos_tail = {});
  // `doc_count`: documents having the field. A field that got no term is
  // left out of the dictionary file, as if never started.
  absl::Status FinishField(uint32_t doc_count);
  // Writes the dictionary file and closes everything.
  absl::Status Finish();

  std::vector<std::string> file_names() const;
  // Bytes written to .doc / .pos / .tim so far.
  uint64_t doc_bytes() const { return doc_out_->file_pointer(); }
  uint64_t pos_bytes() const { return pos_out_->file_pointer(); }
  // Memory held beyond the fixed-size block buffers: the dictionary not yet
  // drained, its writer's block and index, the buffered payload bytes and
  // the blocks held for the current skip runs (at most 512).
  size_t buffered_bytes() const {
    size_t run_headers = 0;
    for (const std::string& h : run_headers_) run_headers += h.capacity();
    return dict_.capacity() + payload_bytes_.capacity() + group_headers_.capacity() +
           group_data_.capacity() + run_headers +
           (dict_writer_ != nullptr ? dict_writer_->buffered_bytes() : 0);
  }

 private:
  PostingsWriter() = default;
  void EmitDocBlock();
  // Writes the held blocks, each after the skip headers of the runs that
  // start at it (those that completed), and starts over.
  void FlushGroupBlocks();
  void EmitPosBlock();
  void WriteDocTail();
  void WritePosTail();

  std::string segment_;
  std::unique_ptr<IndexOutput> doc_out_;
  std::unique_ptr<IndexOutput> pos_out_;
  std::unique_ptr<IndexOutput> tim_out_;
  uint64_t tim_payload_start_ = 0;
  std::vector<std::pair<FieldTermsStats, std::pair<uint64_t, uint64_t>>> directory_;

  // Current field.
  FieldInfo field_;
  bool has_freqs_ = false;
  bool has_positions_ = false;
  bool has_offsets_ = false;
  bool has_payloads_ = false;
  // The field's dictionary streams through dict_ into the .tim: drained
  // whenever it holds kDictDrainBytes, so only about that much of it, plus
  // the dictionary's block index, is in memory.
  static constexpr size_t kDictDrainBytes = 64 * 1024;
  std::string dict_;
  uint64_t dict_start_ = 0;  // .tim offset of the field's dictionary
  std::unique_ptr<TermDictWriter> dict_writer_;
  FieldTermsStats field_stats_;

  // Current term.
  TermStats stats_;
  uint32_t first_doc_ = 0;
  uint32_t block_base_doc_ = 0;  // last doc of the previous doc block
  uint32_t last_doc_ = 0;
  std::array<uint32_t, kForBlockSize> docs_{};
  std::array<uint32_t, kForBlockSize> freqs_{};
  std::array<uint8_t, kForBlockSize> norms_{};
  size_t doc_n_ = 0;
  uint64_t last_skip_pos_fp_ = 0;
  ImpactSet block_impacts_;
  std::vector<Impact> frontier_;
  std::string impact_bytes_;
  // The skip runs being built (.doc version 4): a term's full blocks are
  // held until the top level's run of 512 completes, then written with
  // every skip header inside it; what the term ends with before that is
  // written with the headers of the runs that did complete (a run that
  // does not complete has no header). Each block's skip header and FOR data
  // are encoded once, into group_headers_ and group_data_ (held block i
  // ends at header_end_[i] / data_end_[i]), and copied once, to the file:
  // no cost per posting, one copy per block as without skip levels. A run
  // of level L completes when its 8th run of level L - 1 does (its 8th
  // block for level 1): its header is encoded then, from what its lower
  // runs added up, into run_headers_[first held block / 8], before the
  // headers of the lower runs starting at the same block.
  static constexpr size_t kHeldBlocks = SkipRunBlocks(kMaxSkipLevels);
  struct SkipRun {
    uint32_t base_doc = 0;  // last doc before the run
    uint64_t bytes = 0;     // its blocks and lower-level headers so far
    uint64_t freq_sum = 0;  // positions of its docs so far
    uint64_t pos_fp = 0;    // last_skip_pos_fp_ before the run
    ImpactSet impacts;      // the frontiers of its blocks (level 1) or lower runs
  };
  // Restarts level `level`'s run after the current block.
  void RestartRun(int level);
  std::string group_headers_;
  std::string group_data_;
  std::array<uint32_t, kHeldBlocks> header_end_{};
  std::array<uint32_t, kHeldBlocks> data_end_{};
  std::array<std::string, kHeldBlocks / kSkipGroupBlocks> run_headers_;
  std::array<SkipRun, kMaxSkipLevels + 1> runs_;  // [L]: level L's (runs_[0] unused)
  size_t group_n_ = 0;                            // blocks held
  // Positions of the current pos block.
  std::array<uint32_t, kForBlockSize> pos_deltas_{};
  std::array<uint32_t, kForBlockSize> payload_lengths_{};
  std::array<uint32_t, kForBlockSize> start_deltas_{};
  std::array<uint32_t, kForBlockSize> offset_lengths_{};
  std::string payload_bytes_;
  size_t pos_n_ = 0;
  uint32_t last_position_ = 0;
  uint32_t last_start_ = 0;
  std::string scratch_;
};

// Iterates one term's postings. Reads are bounds-checked against the spans;
// corrupt data ends the iteration with a DataLoss status().
class PostingsCursor {
 public:
  static constexpr uint32_t kNoMoreDocs = UINT32_MAX;

  // `doc_file` / `pos_file`: the whole .doc / .pos files; `doc_version`: the
  // .doc file's header version.
  PostingsCursor(std::span<const uint8_t> doc_file, std::span<const uint8_t> pos_file,
                 const TermStats& stats, const FieldType& type,
                 uint32_t doc_version = kDocFormatVersion);
  // Starts over on another term of the same field and files, as if newly
  // constructed with `stats` (the skip prefetch setting stays). Cheaper than
  // a new cursor, whose block buffers (~3.6 KiB) would be zeroed: a merge
  // reuses one cursor per input and field.
  void Reset(const TermStats& stats);

  // Moves to the next doc; false at the end or on error (see status()).
  bool NextDoc() {
    // Fast path: the next doc is in the buffered block (a failed cursor has
    // an empty buffer; an exhausted one is at kNoMoreDocs).
    if (buf_i_ + 1 < buf_n_ && doc_ != kNoMoreDocs) {
      ++buf_i_;
      doc_ = docs_[buf_i_];
      freq_ = freqs_[buf_i_];
      pos_read_ = 0;
      return true;
    }
    return NextDocSlow();
  }
  // Moves to the first doc >= target (never backwards); false if none.
  // Skips whole blocks using their headers without decoding them.
  bool Advance(uint32_t target) { return AdvanceFiltered(target, nullptr); }

  // Judges a full block, or a run of 8^L of them (.doc version 3 on), from
  // its encoded impacts (codec/impacts.h, ForEachImpact) as its skip header is
  // read: kSkip if no doc of the range can matter to the caller (a pruning
  // scorer: none can be competitive). REQUIRES: a filter that skips a
  // run's frontier skips every frontier it dominates (freq <=, norm >=
  // pair by pair: a lower run's or a block's), as a bound that grows with
  // freq and shrinks with norm does; so passing a run by its skip header
  // passes only blocks the filter would have skipped one by one.
  class BlockFilter {
   public:
    enum class Verdict { kDecode, kSkip, kCorrupt };
    virtual Verdict Judge(const uint8_t* impacts, const uint8_t* end) = 0;

   protected:
    ~BlockFilter() = default;
  };
  // Advance(target), except that the full blocks not yet buffered that hold
  // docs >= target and that `filter` judges kSkip are passed over by their
  // headers, undecoded, as if they held no docs: one walk over the headers
  // both bounds and skips (no separate AdvanceShallow walk, no impacts
  // stored). At a run of 8^L blocks none of which is buffered (version 3
  // on) the run is judged first by its skip header's impacts: kSkip passes
  // all its blocks at once, else its lower runs (its blocks) are judged one
  // by one. The buffered
  // block and the term's tail (which has no impacts) are never judged.
  // kCorrupt fails the cursor. `filter` null: Advance.
  //
  // Inline fast path: a target past the current doc and within the
  // buffered block (at most its last doc) is found there, without the
  // call or any skip-header work: what most moves of a conjunction's or a
  // phrase's clauses are. The buffered block is non-empty only while the
  // cursor is on one of its docs (doc_ == docs_[buf_i_]; a failed or
  // exhausted cursor has buf_n_ == 0 or doc_ == kNoMoreDocs, and
  // target > doc_ rules out the latter).
  bool AdvanceFiltered(uint32_t target, BlockFilter* filter) {
    if (buf_n_ > 0 && target > doc_ && target <= docs_[buf_n_ - 1]) {
      const size_t i = postings_internal::FirstAtLeast(docs_, buf_i_ + 1, buf_n_, target);
      buf_i_ = i;
      doc_ = docs_[i];
      freq_ = freqs_[i];
      pos_read_ = 0;
      return true;
    }
    return AdvanceFilteredSlow(target, filter);
  }
  uint32_t doc() const { return doc_; }
  // True once NextDoc or Advance was called (since construction or Reset):
  // from then on doc() is a doc the cursor is on, or kNoMoreDocs at the end
  // or after an error.
  bool started() const { return started_; }
  // 1 when the field does not index freqs.
  uint32_t freq() const { return freq_; }

  // Reads the current doc's next position. REQUIRES: positions indexed and
  // fewer than freq() read in this doc. False on corrupt data.
  bool NextPosition();
  uint32_t position() const { return position_; }
  uint32_t start_offset() const { return start_offset_; }
  uint32_t end_offset() const { return end_offset_; }
  std::string_view payload() const { return payload_; }

  // Reads all freq() positions of the current doc at once: (*out)[k] is its
  // k-th position, absolute, the value the k-th NextPosition() would leave
  // in position() (sums of the stored deltas modulo 2^32, as there). Decodes
  // the position blocks the doc spans and prefix-sums its slice of each (the
  // phrase scorers' path: no call and no bounds check per position).
  // Positions only: start_offset(), end_offset() and payload() are left
  // unspecified; position() is the doc's last. *out grows as needed and never
  // shrinks (reuse one vector across docs; its first freq() values are the
  // doc's); it grows a block's slice at a time, after that block decoded, so
  // a corrupt freq() cannot make it allocate more than the file holds.
  // REQUIRES: positions indexed and none of this doc's read yet. False on
  // corrupt data (see status()), with *out's contents unspecified.
  bool ReadPositions(std::vector<uint32_t>* out);

  // Appends all freq() positions of the current doc to `out`'s current doc
  // (AddPositionDeltas: their deltas, payloads and offsets as stored, never
  // turned into absolute values), block by block: what a merge does with
  // the positions of each doc it keeps. REQUIRES: positions indexed, none of
  // this doc's read yet, and `out`'s field has the same index options and
  // payloads flag. False on corrupt data (see status()).
  bool CopyPositions(PostingsWriter& out);

  // ---- Impacts, for block-max WAND / MaxScore (codec/impacts.h)
  //
  // True iff the postings carry per-block impacts: a .doc of version 2 or
  // later and a field with freqs. Without them (version 1 files, docs-only
  // fields) AdvanceShallow still answers, with the term's bound for the
  // whole term, so a searcher works unchanged, only without block pruning.
  bool has_impacts() const { return has_impacts_; }
  // Shallow advance: finds the range of the term's docs that holds the first
  // doc >= `target` (for a full block: that block, found by reading skip
  // headers only, none decoded; a run of blocks ending before the target
  // is passed by its skip header) and returns its last doc; impacts() then
  // bounds every doc of the term in [target, returned doc]: none has a
  // (freq, norm) better than one of its pairs (freq >=, norm <=). Past the
  // full blocks (the < 128 docs of the tail, a term of < 128 docs, or no
  // block impacts) the range is the rest of the term: returns kNoMoreDocs
  // and the term's bound. Leaves doc(), NextDoc() and Advance() as they
  // were. REQUIRES: targets never decrease from one call to the next, and
  // target >= doc() once the cursor is on a doc.
  //
  // `whole_groups` (.doc version 3 on): where the walk reaches the level-1
  // header of a group of 8 blocks that holds the target, the range is the
  // whole group (to its last doc) and impacts() its level-1 pairs: a range
  // 8 times longer with a looser bound, for a caller that pays per range
  // more than it loses per bound (a disjunction's densest clause). Elsewhere
  // (inside a group the walk entered, the buffered block, after the groups)
  // the same answer as without it. Higher runs holding the target are
  // entered, never the range.
  uint32_t AdvanceShallow(uint32_t target, bool whole_groups = false);
  // The impacts of the range the last AdvanceShallow returned.
  std::span<const Impact> impacts() const { return impacts_; }
  // The term's impacts over all its docs, for whole-term bounds (MaxScore):
  // the frontier of its blocks' impacts (the skip header of each run of
  // blocks not inside a higher one and the headers of the blocks outside
  // runs read, no block decoded) and, if the term has a tail, the pair (the tail's highest
  // freq, norm 0), as the tail has no impacts (its freqs are decoded, <= 127
  // VInts). Exact when doc_freq is a multiple of 128. Without block impacts
  // (or < 128 docs): {TermImpactBound()}. Independent of the iterator and of
  // AdvanceShallow. Cost: one header per 65,536 docs in version 4 (plus up
  // to 7 per lower level after the last run of each; per 1,024 in version
  // 3, per 128 in versions 1 and 2). False on corrupt data.
  bool TermImpacts(std::vector<Impact>* out);
  // After AdvanceShallow returned kNoMoreDocs because its walk reached the
  // term's tail (the < 128 docs after its full blocks, not yet loaded by
  // the iterator): sets *out to (the tail's highest freq, norm 0), a bound
  // of every tail doc tighter than impacts()' term-level pair, decoding the
  // tail's doc and freq VInts, and returns true. False otherwise (no walk
  // to the tail, no block impacts, the tail already loaded, corrupt data).
  bool TailImpact(Impact* out);
  // A bound for every doc of the term, from its statistics alone: one pair
  // (total_term_freq - doc_freq + 1, norm 0), as no doc has a freq above
  // that nor a norm below 0 (freq 1 without freqs).
  Impact TermImpactBound() const;

  const absl::Status& status() const { return status_; }
  // Doc blocks passed over by Advance() without being decoded.
  uint64_t blocks_skipped() const { return blocks_skipped_; }

  // ---- The skip levels above the blocks (.doc version 3 on), for
  // invert-check and tests
  //
  // True iff the postings have skip headers above the blocks' (version 3
  // on); a term has floor(doc_freq / 1024) groups (level-1 runs) and, in
  // version 4, floor(doc_freq / 8,192) level-2 and floor(doc_freq / 65,536)
  // level-3 runs.
  bool has_skip_groups() const { return skip_levels_ > 0; }
  // The file's skip levels above the blocks (SkipLevelsOfVersion).
  int skip_levels() const { return skip_levels_; }
  // A run's skip header as stored, beside what the headers of its blocks
  // add up to.
  struct SkipGroup {
    int level = 1;                 // 8^level blocks
    uint64_t first_block = 0;      // the term's full blocks before it
    uint32_t last_doc = 0;         // stored: base + last_doc_delta
    uint64_t bytes = 0;            // stored run bytes
    uint64_t freq_sum = 0;         // stored (positions-indexed fields)
    uint64_t pos_fp_delta = 0;     // stored (positions-indexed fields)
    std::vector<Impact> impacts;   // stored (fields with freqs)
    uint32_t blocks_last_doc = 0;  // its last block's last doc, by its headers
    uint64_t blocks_bytes = 0;     // what follows its header to its last block's end
    uint64_t blocks_freq_sum = 0;  // the sum of its blocks' freq_sums
    uint64_t blocks_pos_fp = 0;    // the sum of their pos_fp_deltas
  };
  // Reads every run of the term, in file order (a run before the lower
  // ones starting at its first block), into *out by walking all its skip
  // headers from the start (the iterator is not moved). False, with
  // status() set, on a header that cannot be parsed.
  bool ReadSkipGroups(std::vector<SkipGroup>* out);

  // Skip prefetch: once one Advance() call has passed kSkipPrefetchAfter
  // blocks by their headers (a run passed by its skip header counts its
  // blocks), it prefetches the .doc bytes ahead of the walk
  // through `doc_input`: up to kSkipPrefetchBytes, no further than the term's
  // remaining blocks (estimated from the bytes per block walked so far), and
  // again each time the walk gets within half a window of the prefetched
  // end. So the pages the walk is about to touch are read at once instead
  // of faulting one after another. Shorter advances never prefetch.
  // `doc_input` must be the whole .doc file that `doc_file` came from (else
  // this is ignored) and outlive the enum; null turns it off (the default).
  // Prefetch failures are ignored (a hint). docs/prefetch.md has the
  // measurements.
  static constexpr uint32_t kSkipPrefetchAfter = 8;
  static constexpr uint64_t kSkipPrefetchBytes = 64 * 1024;
  void set_skip_prefetch(IndexInput* doc_input);

 private:
  bool Fail(const char* what);
  bool NextDocSlow();
  bool AdvanceFilteredSlow(uint32_t target, BlockFilter* filter);
  // The level of the skip header that comes first at a header position
  // where `left` of the term's docs are still to come: the highest L (up
  // to the file's levels) such that a run of 8^L full blocks starts there
  // (the blocks before it a multiple of 8^L, 8^L full blocks left); 0
  // where only a block's own header does. Below L, headers of levels L - 1
  // .. 1 follow before the block's own.
  int SkipLevelAt(uint64_t left) const {
    if (skip_levels_ == 0 || left < kSkipGroupDocs ||
        ((stats_.doc_freq - left) & (kSkipGroupDocs - 1)) != 0) {
      return 0;
    }
    return SkipLevelAtSlow(left);
  }
  int SkipLevelAtSlow(uint64_t left) const;
  // Loads the next block; `at_level0`: doc_ptr_ is at a block's own header
  // even where runs start (their skip headers were read already).
  bool LoadDocBlock(bool at_level0 = false);
  // A full block whose skip header (at `header`, fields as parsed) was just
  // read, doc_ptr_ past it: decoded, checked and buffered.
  bool DecodeFullBlock(const uint8_t* header, uint32_t last_delta, uint32_t bytes,
                       uint64_t freq_sum, uint64_t pos_fp_delta);
  // The positions bookkeeping of a newly buffered block; true.
  bool BlockLoaded();
  // Before the next block is buffered: the buffered block's positions are
  // counted into pos_base_ (the index of the next block's first position).
  void LeaveBufferedBlock() {
    pos_base_ += block_freq_total_;
    block_freq_total_ = 0;
    buf_i_ = 0;
  }
  // Reads the impacts of the full block whose skip header starts at
  // `header` into impacts_.
  bool ReadBlockImpacts(const uint8_t* header);
  bool SeekPosition(uint64_t index);
  // The index of the current doc's first position (see freq_starts_).
  uint64_t DocPosStart() {
    if (freq_starts_ready_) return pos_base_ + freq_starts_[buf_i_];
    return DocPosStartSlow();
  }
  uint64_t DocPosStartSlow();
  bool DecodePosBlock();
  bool SkipPosBlock();
  // Advance's prefetch ahead of its header walk, which started at
  // `walk_start` and has skipped `walked` blocks (set_skip_prefetch).
  void SkipPrefetch(const uint8_t* walk_start, uint32_t walked);

  const uint8_t* doc_begin_;
  const uint8_t* doc_end_;
  const uint8_t* pos_begin_;
  const uint8_t* pos_end_;
  const uint8_t* doc_ptr_ = nullptr;
  TermStats stats_;
  bool has_freqs_;
  bool has_positions_;
  bool has_offsets_;
  bool has_payloads_;
  bool has_impacts_;
  int skip_levels_;  // skip levels above the blocks: 0, 1 (version 3) or 3
  absl::Status status_;

  uint64_t docs_left_;  // docs not yet loaded into the buffer
  std::array<uint32_t, kForBlockSize> docs_{};
  std::array<uint32_t, kForBlockSize> freqs_{};
  size_t buf_n_ = 0;
  size_t buf_i_ = 0;
  bool started_ = false;
  uint32_t block_base_ = 0;
  uint32_t doc_ = 0;
  uint32_t freq_ = 0;
  uint64_t blocks_skipped_ = 0;
  // Skip header of the buffered block if it is a full block, else null.
  const uint8_t* buffered_header_ = nullptr;
  // AdvanceShallow's own walk over the skip headers, at or ahead of the
  // iterator's: the next header to read, the last doc before its block and
  // the docs from its block on; the last doc of the range impacts_ bounds.
  const uint8_t* shallow_next_ = nullptr;
  uint32_t shallow_base_ = 0;
  uint64_t shallow_left_ = 0;
  uint32_t shallow_last_ = 0;
  bool shallow_valid_ = false;
  const uint8_t* shallow_tail_ = nullptr;  // the tail AdvanceShallow's walk reached (TailImpact)
  uint64_t shallow_tail_docs_ = 0;
  std::vector<Impact> impacts_;
  IndexInput* skip_prefetch_ = nullptr;      // see set_skip_prefetch
  const uint8_t* prefetched_end_ = nullptr;  // skip prefetch issued up to here
  const uint8_t* skip_recheck_ = nullptr;    // consider the next one from here

  // Positions: global index over the term's positions.
  uint64_t pos_base_ = 0;          // index of the first position of the buffered doc block
  uint64_t block_freq_total_ = 0;  // positions of the buffered doc block
  // Where the current doc's positions start (DocPosStart), found only when
  // they are read, so moving over docs never pays for it. The first time in
  // a buffered block: doc_pos_start_, the first position of buffered doc
  // pos_sync_i_, is brought up to the current doc one freq at a time (a
  // phrase whose rare term leads reads a frequent term's positions about
  // once per block). The second time, in a full block: freq_starts_[i] =
  // freqs_[0] + ... + freqs_[i - 1] for the whole block (one vector prefix
  // sum; no wrap: the block's freq sum is its header's, 32 bits), and buffered
  // doc i's first position is pos_base_ + freq_starts_[i] from then on (a
  // phrase of two frequent terms reads a third of the docs of a block).
  std::array<uint32_t, kForBlockSize> freq_starts_{};
  bool freq_starts_ready_ = false;
  uint32_t pos_syncs_ = 0;  // DocPosStartSlow calls in the buffered block
  uint64_t doc_pos_start_ = 0;
  size_t pos_sync_i_ = 0;
  uint32_t pos_read_ = 0;             // positions read in the current doc
  uint64_t skip_pos_fp_ = 0;          // .pos offset (from pos_offset) after the last header read
  const uint8_t* pos_ptr_ = nullptr;  // start of pos block ptr_block_
  uint64_t ptr_block_ = 0;
  int64_t decoded_block_ = -1;
  size_t pos_n_ = 0;
  std::array<uint32_t, kForBlockSize> pos_deltas_{};
  std::array<uint32_t, kForBlockSize> payload_lengths_{};
  std::array<uint32_t, kForBlockSize + 1> payload_starts_{};
  std::array<uint32_t, kForBlockSize> start_deltas_{};
  std::array<uint32_t, kForBlockSize> offset_lengths_{};
  std::span<const uint8_t> payload_blob_;
  uint32_t position_ = 0;
  uint32_t start_offset_ = 0;
  uint32_t end_offset_ = 0;
  std::string_view payload_;
};

// The term dictionaries of a segment, over the mapped .tim file.
class TermsReader {
 public:
  static absl::StatusOr<std::unique_ptr<TermsReader>> Open(Directory* dir, std::string_view segment,
                                                           const SegmentId& id);
  // The field's dictionary, or null if the field has no terms.
  const TermDictReader* Field(uint32_t number) const;
  const FieldTermsStats* Stats(uint32_t number) const;
  std::vector<uint32_t> fields() const;
  absl::Status CheckIntegrity() const;
  const IndexInput& input() const { return *input_; }

 private:
  std::optional<IndexInput> input_;
  absl::flat_hash_map<uint32_t, std::unique_ptr<TermDictReader>> dicts_;
  absl::flat_hash_map<uint32_t, FieldTermsStats> stats_;
};

}  // namespace invert

#endif  // INVERT_CODEC_POSTINGS_FORMAT_H_

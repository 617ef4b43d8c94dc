// PostingsWriterPerField: inverts one field's tokens into postings streams in
// a primary TermsHash (the "freq/prox" consumer).
//
// Stream 0, doc codes. A doc's entry is written when the term's *next* doc
// arrives, because only then is its frequency known; the last doc of every
// term stays pending in its PostingState until the postings are read:
//   with freqs:  VInt(delta << 1 | 1)             if freq == 1
//                VInt(delta << 1), VInt(freq)     otherwise
//   docs only:   VInt(delta)
//   delta = doc - previous doc of the term (the first doc's delta is its id).
// Stream 1 (positions indexed), per occurrence:
//   VInt(position_delta << 1 | has_payload)        if the field has payloads
//   [VInt(payload_length), payload bytes]          if has_payload
//   VInt(position_delta)                           if it has none
//   [VInt(start_offset - previous start_offset), VInt(end_offset - start_offset)]
//                                                   if offsets indexed
//   Deltas restart from 0 at each document. Without payloads, a term's
//   occurrences are byte for byte the .pos tail's VInts (docs/format.md), so
//   the flush writes a tail by copying the stream (PostingsWriter::FinishTerm).
//
// REQUIRES of callers (the indexing chain validates whole documents first):
// doc ids non-decreasing; within a doc, positions non-decreasing and start
// offsets non-decreasing with end_offset >= start_offset.
//
// Thread safety: none.
#ifndef INVERT_INDEX_POSTINGS_WRITER_PER_FIELD_H_
#define INVERT_INDEX_POSTINGS_WRITER_PER_FIELD_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "index/terms_hash_per_field.h"
#include "invert/index_options.h"

namespace invert {

// One token of a document, as the postings consumer sees it.
struct InvertedToken {
  std::string_view term;
  uint32_t position;
  uint32_t start_offset;
  uint32_t end_offset;
  std::string_view payload;
};

struct PostingState {
  uint32_t last_doc_id;
  uint32_t last_doc_code;  // pending code of last_doc_id (delta, shifted if freqs)
  uint32_t term_freq;      // occurrences in last_doc_id so far
  uint32_t last_position;
  uint32_t last_start_offset;
};

class PostingsWriterPerField {
  static_assert(sizeof(TermsHashPerField<PostingState>::Hash::Record) == 32,
                "a term's record is half a cache line: never straddles one");

 public:
  static constexpr int kDocStream = 0;
  static constexpr int kPositionStream = 1;

  // REQUIRES: options != kNone; terms_hash is a primary.
  PostingsWriterPerField(TermsHash* terms_hash, IndexOptions options, bool payloads,
                         RamCounter* counter, uint32_t initial_hash_capacity = 16)
      : options_(options),
        has_freqs_(HasFreqs(options)),
        has_positions_(HasPositions(options)),
        has_offsets_(HasOffsets(options)),
        has_payloads_(payloads && HasPositions(options)),
        terms_(terms_hash, HasPositions(options) ? 2 : 1, counter, initial_hash_capacity) {}

  // Adds one token without payload or offsets; returns the term id.
  uint32_t Add(std::string_view term, uint32_t doc_id, uint32_t position) {
    return Add(term, doc_id, position, 0, 0, {});
  }

  // Adds one token; offsets are used iff indexed, the payload iff payloads
  // are on (an empty payload is no payload). Returns the term id.
  uint32_t Add(std::string_view term, uint32_t doc_id, uint32_t position, uint32_t start_offset,
               uint32_t end_offset, std::string_view payload) {
    const auto added = terms_.Add(term);
    Apply(added, doc_id, position, start_offset, end_offset, payload);
    return added.id;
  }

  // Adds all tokens of one document at once, with their cache misses
  // overlapped (TermsHashPerField::AddBatch). The same result as calling Add()
  // for each token in order. If `term_ids` is not empty it receives each
  // token's term id. REQUIRES: term_ids.empty() || term_ids.size() == tokens.size().
  void AddTokens(uint32_t doc_id, std::span<const InvertedToken> tokens,
                 std::span<uint32_t> term_ids = {}) {
    terms_.AddBatch(
        tokens.size(), [tokens](size_t i) { return tokens[i].term; }, HotStream(),
        [&](size_t i, const TermsHashPerField<PostingState>::Added& added) {
          const InvertedToken& t = tokens[i];
          Apply(added, doc_id, t.position, t.start_offset, t.end_offset, t.payload);
          if (!term_ids.empty()) term_ids[i] = added.id;
        });
  }

  // Adds terms[i] at position first_position + i of doc `doc_id`, without
  // offsets or payloads, batched like AddTokens.
  void AddTerms(uint32_t doc_id, std::span<const std::string_view> terms,
                uint32_t first_position = 0) {
    terms_.AddBatch(
        terms.size(), [terms](size_t i) { return terms[i]; }, HotStream(),
        [&](size_t i, const TermsHashPerField<PostingState>::Added& added) {
          Apply(added, doc_id, first_position + static_cast<uint32_t>(i), 0, 0, {});
        });
  }

  IndexOptions options() const { return options_; }
  bool has_payloads() const { return has_payloads_; }
  TermsHashPerField<PostingState>& terms() { return terms_; }
  const TermsHashPerField<PostingState>& terms() const { return terms_; }

 private:
  // The stream every token writes to: positions if indexed, else doc codes.
  int HotStream() const { return has_positions_ ? kPositionStream : kDocStream; }

  void Apply(const TermsHashPerField<PostingState>::Added& added, uint32_t doc_id,
             uint32_t position, uint32_t start_offset, uint32_t end_offset,
             std::string_view payload) {
    PostingState& s = *added.state;
    if (added.is_new) {
      s.last_doc_id = doc_id;
      s.last_doc_code = has_freqs_ ? doc_id << 1 : doc_id;
      s.term_freq = 1;
      StartDoc(s);
    } else if (doc_id != s.last_doc_id) {
      FlushPendingDoc(s);
      s.last_doc_code = has_freqs_ ? (doc_id - s.last_doc_id) << 1 : doc_id - s.last_doc_id;
      s.last_doc_id = doc_id;
      s.term_freq = 1;
      StartDoc(s);
    } else {
      ++s.term_freq;
    }
    if (has_positions_) WriteProx(s, position, start_offset, end_offset, payload);
  }

  void StartDoc(PostingState& s) {
    s.last_position = 0;
    s.last_start_offset = 0;
  }

  void FlushPendingDoc(const PostingState& s) {
    if (!has_freqs_) {
      terms_.WriteVInt(kDocStream, s.last_doc_code);
    } else if (s.term_freq == 1) {
      terms_.WriteVInt(kDocStream, s.last_doc_code | 1);
    } else {
      terms_.WriteVInt(kDocStream, s.last_doc_code);
      terms_.WriteVInt(kDocStream, s.term_freq);
    }
  }

  void WriteProx(PostingState& s, uint32_t position, uint32_t start_offset, uint32_t end_offset,
                 std::string_view payload) {
    const uint32_t delta = position - s.last_position;
    s.last_position = position;
    if (!has_payloads_) {
      terms_.WriteVInt(kPositionStream, delta);
    } else if (!payload.empty()) {
      terms_.WriteVInt(kPositionStream, delta << 1 | 1);
      terms_.WriteVInt(kPositionStream, static_cast<uint32_t>(payload.size()));
      terms_.WriteBytes(kPositionStream, reinterpret_cast<const uint8_t*>(payload.data()),
                        payload.size());
    } else {
      terms_.WriteVInt(kPositionStream, delta << 1);
    }
    if (has_offsets_) {
      terms_.WriteVInt(kPositionStream, start_offset - s.last_start_offset);
      terms_.WriteVInt(kPositionStream, end_offset - start_offset);
      s.last_start_offset = start_offset;
    }
  }

  IndexOptions options_;
  bool has_freqs_;
  bool has_positions_;
  bool has_offsets_;
  bool has_payloads_;
  TermsHashPerField<PostingState> terms_;
};

}  // namespace invert

#endif  // INVERT_INDEX_POSTINGS_WRITER_PER_FIELD_H_

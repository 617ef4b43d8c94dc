// The input layout of fuzz/postings_fuzzer.cc, shared with the seed
// generator (fuzz/make_seeds.cc) so both agree byte for byte:
//
//   index_options:u8   % 4 + 1: kDocs .. kDocsAndFreqsAndPositionsAndOffsets
//   flags:u8           bit 0 payloads, bit 1 singleton_doc present,
//                      bits 2-3 mode (0 NextDoc, 1 Advance(i * step),
//                      2 NextDoc and Advance(doc + step) in turn, 3 the
//                      pruning calls: TermImpacts and ReadSkipGroups, then
//                      AdvanceShallow, AdvanceFiltered (a freq threshold
//                      from step) and NextDoc in turn),
//                      bits 4-5 positions read (0 all, 1 those of every
//                      50th doc, 2 the first of each doc, 3 none), so that
//                      whole position blocks also get skipped;
//                      bit 6 read the doc bytes through an IndexInput and
//                      give it to the enum for skip prefetching (when the
//                      library has PostingsCursor::set_skip_prefetch);
//                      bit 7 read a doc's positions with one
//                      PostingsCursor::ReadPositions call where all are
//                      read (when the library has it)
//   doc_freq:u32 total_term_freq:u64 doc_offset:u64 pos_offset:u64
//   pay_offset:u64 singleton_doc:u32 step:u32 doc_length:u32
//   (step's bit 31: read the doc bytes as .doc version 2, with no skip
//   headers above the blocks, else bit 30: as version 3, with level-1 ones
//   only, instead of the current version; the step is bits 0-29)
//   doc bytes (doc_length, or what is left), pos bytes (the rest)
// All little-endian; a short input reads as zeros.
#ifndef INVERT_FUZZ_POSTINGS_INPUT_H_
#define INVERT_FUZZ_POSTINGS_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "codec/term_stats.h"
#include "fuzz_common.h"
#include "invert/field_type.h"

namespace invert::fuzz {

struct PostingsInput {
  enum Mode : uint8_t { kNextDoc = 0, kAdvanceBy = 1, kMixed = 2, kPruning = 3 };
  enum Positions : uint8_t { kAll = 0, kSparse = 1, kFirstOnly = 2, kNone = 3 };

  FieldType type;
  TermStats stats;
  Mode mode = kNextDoc;
  Positions positions = kAll;
  bool skip_prefetch = false;
  bool bulk_positions = false;
  bool version2 = false;
  bool version3 = false;
  uint32_t step = 0;
  std::string_view doc_bytes;
  std::string_view pos_bytes;

  static PostingsInput Decode(const uint8_t* data, size_t size) {
    FuzzInput in(data, size);
    PostingsInput r;
    r.type.index_options = static_cast<IndexOptions>(in.U8() % 4 + 1);
    const uint8_t flags = in.U8();
    r.type.payloads = (flags & 1) != 0;
    r.stats.doc_freq = in.U32();
    r.stats.total_term_freq = in.U64();
    r.stats.doc_offset = in.U64();
    r.stats.pos_offset = in.U64();
    r.stats.pay_offset = in.U64();
    const uint32_t singleton = in.U32();
    if ((flags & 2) != 0) r.stats.singleton_doc = singleton;
    const uint8_t mode = (flags >> 2) & 3;
    r.mode = static_cast<Mode>(mode);
    r.positions = static_cast<Positions>((flags >> 4) & 3);
    r.skip_prefetch = (flags & 0x40) != 0;
    r.bulk_positions = (flags & 0x80) != 0;
    const uint32_t step = in.U32();
    r.version2 = (step >> 31) != 0;
    r.version3 = !r.version2 && ((step >> 30) & 1) != 0;
    r.step = step & 0x3fffffffU;
    const uint32_t doc_length = in.U32();
    r.doc_bytes = in.Bytes(doc_length);
    r.pos_bytes = in.Rest();
    return r;
  }

  // The input that Decode() turns back into this (doc_bytes and pos_bytes as
  // given).
  std::string Encode() const {
    std::string out;
    PutU8(&out, static_cast<uint8_t>(static_cast<uint8_t>(type.index_options) - 1));
    PutU8(&out,
          static_cast<uint8_t>((type.payloads ? 1 : 0) | (stats.singleton_doc.has_value() ? 2 : 0) |
                               (mode << 2) | (positions << 4) | (skip_prefetch ? 0x40 : 0) |
                               (bulk_positions ? 0x80 : 0)));
    PutU32(&out, stats.doc_freq);
    PutU64(&out, stats.total_term_freq);
    PutU64(&out, stats.doc_offset);
    PutU64(&out, stats.pos_offset);
    PutU64(&out, stats.pay_offset);
    PutU32(&out, stats.singleton_doc.value_or(0));
    PutU32(&out, step | (version2 ? 0x80000000U : version3 ? 0x40000000U : 0));
    PutU32(&out, static_cast<uint32_t>(doc_bytes.size()));
    out.append(doc_bytes);
    out.append(pos_bytes);
    return out;
  }
};

}  // namespace invert::fuzz

#endif  // INVERT_FUZZ_POSTINGS_INPUT_H_

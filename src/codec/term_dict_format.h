// The term dictionary's byte layout: constants shared by TermDictWriter and
// TermDictReader. docs/codec-primitives.md section 3 is the specification,
// with a worked example; this is a summary.
//
//   dict   := block[0] .. block[n-1]  index  footer
//   block  := entry[0] .. entry[m-1]     m = block_terms, fewer in the last
//   entry  := prefix_len:VInt32  suffix_len:VInt32  suffix:bytes
//             code:VInt64                  doc_freq << 2 | singleton << 1 | ttf_is_df
//             [ZigZag(ttf - doc_freq):VInt64]   iff !ttf_is_df
//             [singleton_doc:VInt32]             iff singleton
//             doc_offset - prev.doc_offset:VInt64
//             [pos_offset - prev.pos_offset:VInt64]  iff flags & kHasPos
//             [pay_offset - prev.pay_offset:VInt64]  iff flags & kHasPay
//     prefix_len is shared with the previous entry of the same block (0 for
//     entry 0); prev is the previous entry of the block (all zero for entry 0),
//     so every block decodes on its own.
//   index  := per block: prefix_len:VInt32 suffix_len:VInt32 suffix:bytes
//             (the block's first term, prefix-shared with the previous
//             block's first term), block_size:VInt64, checksum:fixed32
//             (low 32 bits of XXH3-64 of the block's bytes)
//   footer := 32 bytes, little-endian:
//     0  term_count:u64   8  index_offset:u64 (== total bytes of the blocks)
//     16 block_count:u32  20 block_terms:u16   22 flags:u8   23 version:u8
//     24 checksum:u32 (low 32 bits of XXH3-64 of index || footer[0, 24))
//     28 magic:u32
//
// Invariants a reader checks (anything else is DataLoss):
//   1. terms strictly increase in unsigned byte order, within a block and
//      from one block's last term to the next block's first term;
//   2. an entry's prefix_len <= previous term's length, the byte after the
//      shared prefix grows (so the prefix is maximal), and every term is at
//      most kMaxTermLength bytes;
//   3. block_count == ceil(term_count / block_terms); block sizes add up to
//      index_offset; a block holds exactly its entries and nothing after;
//   4. the first entry of a block equals the block's index term.
#ifndef INVERT_CODEC_TERM_DICT_FORMAT_H_
#define INVERT_CODEC_TERM_DICT_FORMAT_H_

#include <cstddef>
#include <cstdint>

namespace invert::term_dict {

// Longest term: as BytesRefHash (a pool block minus a 2-byte length prefix).
inline constexpr size_t kMaxTermLength = 32766;

inline constexpr size_t kFooterSize = 32;
// "TDIC" in file order. Do not change: part of the persistent format.
inline constexpr uint32_t kMagic = 0x43494454;
inline constexpr uint8_t kVersion = 1;

// Footer flags. Do not change the values: part of the persistent format.
inline constexpr uint8_t kHasPos = 1 << 0;
inline constexpr uint8_t kHasPay = 1 << 1;
inline constexpr uint8_t kKnownFlags = kHasPos | kHasPay;

// Entry code bits.
inline constexpr uint64_t kCodeTtfIsDf = 1 << 0;
inline constexpr uint64_t kCodeSingleton = 1 << 1;
inline constexpr int kCodeDocFreqShift = 2;

inline constexpr uint32_t kMaxBlockTerms = 0xffff;

// Smallest encodings, used to reject counts that cannot fit before
// allocating for them: an index entry is >= 1 + 1 + 1 + 4 bytes.
inline constexpr size_t kMinIndexEntryBytes = 7;

}  // namespace invert::term_dict

#endif  // INVERT_CODEC_TERM_DICT_FORMAT_H_

// The input layout of fuzz/segment_fuzzer.cc, shared with the seed
// generator: which file of the sample segment to damage, how, and whether to
// make the damage look legitimate.
//
//   file:u8    index into the segment's files, sorted by name (% count)
//   flags:u8   bit 0 rewrite the damaged file's footer checksum;
//              bit 1 rewrite _0.si so that it records the damaged file's new
//              length and checksum (not when the damaged file is _0.si);
//              bit 2 also commit the segment and run CheckIndex on it
//   edits, 5 bytes each (at most 64; a partial one at the end is ignored):
//     op:u8 offset:u24 value:u8, op % 4:
//       0 set the byte at offset % size to value
//       1 xor the byte at offset % size with value
//       2 truncate the file to offset % (size + 1) bytes
//       3 insert value before the byte at offset % (size + 1)
// All little-endian.
#ifndef INVERT_FUZZ_SEGMENT_PATCH_H_
#define INVERT_FUZZ_SEGMENT_PATCH_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_common.h"

namespace invert::fuzz {

struct SegmentPatch {
  static constexpr uint8_t kFixChecksum = 1;
  static constexpr uint8_t kRewriteSegmentInfo = 2;
  static constexpr uint8_t kCheckIndex = 4;
  enum Op : uint8_t { kSet = 0, kXor = 1, kTruncate = 2, kInsert = 3 };
  struct Edit {
    Op op;
    uint32_t offset;
    uint8_t value;
  };

  uint8_t file = 0;
  uint8_t flags = 0;
  std::vector<Edit> edits;

  static SegmentPatch Decode(const uint8_t* data, size_t size) {
    FuzzInput in(data, size);
    SegmentPatch p;
    p.file = in.U8();
    p.flags = in.U8();
    while (in.remaining() >= 5 && p.edits.size() < 64) {
      Edit e;
      e.op = static_cast<Op>(in.U8() % 4);
      e.offset = in.U8();
      e.offset |= uint32_t{in.U8()} << 8;
      e.offset |= uint32_t{in.U8()} << 16;
      e.value = in.U8();
      p.edits.push_back(e);
    }
    return p;
  }

  std::string Encode() const {
    std::string out;
    PutU8(&out, file);
    PutU8(&out, flags);
    for (const Edit& e : edits) {
      PutU8(&out, e.op);
      PutU8(&out, static_cast<uint8_t>(e.offset));
      PutU8(&out, static_cast<uint8_t>(e.offset >> 8));
      PutU8(&out, static_cast<uint8_t>(e.offset >> 16));
      PutU8(&out, e.value);
    }
    return out;
  }

  // Applies the edits (not the flags) to `bytes`.
  void Apply(std::string* bytes) const {
    for (const Edit& e : edits) {
      switch (e.op) {
        case kSet:
          if (!bytes->empty()) (*bytes)[e.offset % bytes->size()] = static_cast<char>(e.value);
          break;
        case kXor:
          if (!bytes->empty()) (*bytes)[e.offset % bytes->size()] ^= static_cast<char>(e.value);
          break;
        case kTruncate:
          bytes->resize(e.offset % (bytes->size() + 1));
          break;
        case kInsert:
          bytes->insert(bytes->begin() + e.offset % (bytes->size() + 1),
                        static_cast<char>(e.value));
          break;
      }
    }
  }
};

}  // namespace invert::fuzz

#endif  // INVERT_FUZZ_SEGMENT_PATCH_H_

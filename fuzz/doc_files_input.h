// The input layout of the two per-document-file targets
// (stored_fields_fuzzer.cc, term_vectors_fuzzer.cc), shared with the seed
// generator:
//
//   flags:u8         bit 0 rewrite both footer checksums, bit 1 verify the
//                    index file's checksum at open, bit 2 (term vectors only)
//                    the rest of the input is one raw document entry
//   num_docs:u32     what the reader is opened for
//   data_length:u32  then the data file (.fdt / .tvd: data_length bytes, or
//                    what is left) and the index file (.fdx / .tvx: the rest)
// All little-endian; a short input reads as zeros.
#ifndef INVERT_FUZZ_DOC_FILES_INPUT_H_
#define INVERT_FUZZ_DOC_FILES_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_common.h"

namespace invert::fuzz {

struct DocFilesInput {
  static constexpr uint8_t kFixChecksums = 1;
  static constexpr uint8_t kVerifyIndexChecksum = 2;
  static constexpr uint8_t kRawEntry = 4;

  uint8_t flags = 0;
  uint32_t num_docs = 0;
  std::string data;            // footer fixed when kFixChecksums
  std::string index;           // footer fixed when kFixChecksums
  std::string_view raw_entry;  // everything after flags, for kRawEntry

  static DocFilesInput Decode(const uint8_t* data, size_t size) {
    FuzzInput in(data, size);
    DocFilesInput r;
    r.flags = in.U8();
    FuzzInput raw(data + (size > 0 ? 1 : 0), size > 0 ? size - 1 : 0);
    r.raw_entry = raw.Rest();
    r.num_docs = in.U32();
    const uint32_t data_length = in.U32();
    r.data = std::string(in.Bytes(data_length));
    r.index = std::string(in.Rest());
    if (r.flags & kFixChecksums) {
      FixFooterChecksum(&r.data);
      FixFooterChecksum(&r.index);
    }
    return r;
  }

  static std::string Encode(uint8_t flags, uint32_t num_docs, std::string_view data_file,
                            std::string_view index_file) {
    std::string out;
    PutU8(&out, flags);
    PutU32(&out, num_docs);
    PutU32(&out, static_cast<uint32_t>(data_file.size()));
    out.append(data_file);
    out.append(index_file);
    return out;
  }

  static std::string EncodeRawEntry(std::string_view entry) {
    std::string out;
    PutU8(&out, kRawEntry);
    out.append(entry);
    return out;
  }
};

}  // namespace invert::fuzz

#endif  // INVERT_FUZZ_DOC_FILES_INPUT_H_

// Codec helpers: the header every segment file starts with and the footer it
// ends with. The byte layout is part of the persistent format and written
// down in docs/store.md; this file only holds its constants.
//
//   header: magic fixed32 | name: VInt length + bytes | version fixed32
//           | segment id: 16 bytes
//   footer: magic fixed32 | algorithm fixed32 | checksum fixed64
//
// The footer's checksum is the XXH64 (seed 0) of every byte of the file
// before the checksum field, footer magic and algorithm included.
//
// Error codes: kDataLoss for anything that says the bytes are not what was
// written (wrong magic or name, id mismatch, truncation, checksum mismatch);
// kFailedPrecondition for a well-formed header whose version this reader does
// not support; kInvalidArgument for bad arguments to the writers.
//
// Thread safety: free functions on the caller's input/output.
#ifndef INVERT_STORE_CODEC_UTIL_H_
#define INVERT_STORE_CODEC_UTIL_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "store/index_input.h"
#include "store/index_output.h"

namespace invert {

// Do not change these values: they are part of the persistent format.
inline constexpr uint32_t kCodecHeaderMagic = 0x48564E49;  // bytes "INVH" on disk
inline constexpr uint32_t kCodecFooterMagic = 0x46564E49;  // bytes "INVF" on disk
enum class ChecksumAlgorithm : uint32_t {
  kXxHash64 = 1,  // XXH64, seed 0
};

inline constexpr size_t kSegmentIdLength = 16;
using SegmentId = std::array<uint8_t, kSegmentIdLength>;
// The id as 32 lowercase hex digits (messages, IndexReader::index_id()).
std::string SegmentIdHex(const SegmentId& id);

inline constexpr size_t kMaxCodecNameLength = 127;  // so its VInt length is one byte
inline constexpr size_t kFooterLength = 16;

// Bytes WriteHeader writes for `codec_name`.
constexpr size_t HeaderLength(std::string_view codec_name) {
  return 4 + 1 + codec_name.size() + 4 + kSegmentIdLength;
}

// Returns OK iff `name` can be a codec name: 1 to kMaxCodecNameLength
// printable ASCII bytes without spaces.
absl::Status ValidateCodecName(std::string_view name);

// Writes the header and hands it to the file at once (IndexOutput::Flush):
// a file a crash leaves behind carries its id. kInvalidArgument (nothing
// written) for a bad name; otherwise returns out.status().
absl::Status WriteHeader(IndexOutput& out, std::string_view codec_name, uint32_t version,
                         const SegmentId& segment_id);

// Reads a header at the cursor and checks it against what the caller
// expects; returns the version, in [min_version, max_version].
absl::StatusOr<uint32_t> CheckHeader(IndexInput& in, std::string_view codec_name,
                                     uint32_t min_version, uint32_t max_version,
                                     const SegmentId& segment_id);

// The same, for a file whose id the reader learns from it (a commit point
// carries the index id): stores the header's id in *id instead of checking.
absl::StatusOr<uint32_t> CheckHeaderReadId(IndexInput& in, std::string_view codec_name,
                                           uint32_t min_version, uint32_t max_version,
                                           SegmentId* id);

// Writes the footer (magic, algorithm, checksum of everything before the
// checksum field). Returns out.status(); the file still needs Close().
absl::Status WriteFooter(IndexOutput& out);

// For a decoder that has read the whole payload: checks that the cursor sits
// exactly at the footer (else the payload was misread or has trailing
// bytes), then the footer and the checksum of the whole input, and consumes
// the footer. Returns the checksum.
absl::StatusOr<uint64_t> CheckFooter(IndexInput& in);

// Checks the footer and the checksum of the whole input, wherever its cursor
// is (the input is not moved). Returns the checksum.
absl::StatusOr<uint64_t> VerifyChecksum(const IndexInput& in);

// Checks the footer's magic and algorithm and returns the stored checksum
// without hashing the file (for a commit point that records checksums).
absl::StatusOr<uint64_t> ReadFooterChecksum(const IndexInput& in);

}  // namespace invert

#endif  // INVERT_STORE_CODEC_UTIL_H_

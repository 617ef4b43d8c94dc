// BlockCompressor: compresses one stored-fields block (a few KiB to ~100 KiB
// of concatenated documents) as a unit, with LZ4 or zstd, or stores it as is.
//
// A compressed block is the codec's raw output with no framing of our own:
//   kNone  the bytes themselves;
//   kLz4   one LZ4 block (LZ4_compress_fast, not the LZ4 frame format);
//   kZstd  one zstd frame (magic, frame header with the content size, no
//          checksum), as written by ZSTD_compressCCtx.
// The caller stores the codec id (CompressionCodec) and the uncompressed size
// next to the block; Decompress needs both. docs/codec-primitives.md
// section 2 has the measurements behind the recommended codec.
//
// Decompress is safe on any input: corrupt or truncated bytes, or bytes that
// decompress to a size other than the expected one, give DataLoss and never
// write outside `dst` or read outside `src`.
//
// Thread safety: a BlockCompressor keeps scratch state (zstd contexts), so one
// instance serves one thread at a time; create one per thread.
#ifndef INVERT_CODEC_BLOCK_COMPRESSOR_H_
#define INVERT_CODEC_BLOCK_COMPRESSOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace invert {

// Do not change the values: part of the persistent format.
enum class CompressionCodec : uint8_t {
  kNone = 0,
  kLz4 = 1,
  kZstd = 2,
};

class BlockCompressor {
 public:
  virtual ~BlockCompressor() = default;

  virtual CompressionCodec codec() const = 0;
  // "none", "lz4", "lz4hc-9", "zstd-3", ...: for benchmarks and messages.
  virtual std::string name() const = 0;

  // Appends the compressed form of `src` to *dst. Fails (InvalidArgument,
  // *dst unchanged) only if `src` is larger than the codec accepts (~2 GiB).
  virtual absl::Status Compress(std::span<const uint8_t> src, std::string* dst) = 0;

  // Decompresses `src` into exactly dst.size() bytes. Returns DataLoss unless
  // `src` is a well-formed block of exactly dst.size() uncompressed bytes.
  virtual absl::Status DecompressTo(std::span<const uint8_t> src, std::span<uint8_t> dst) = 0;

  // Appends the `expected_size` decompressed bytes of `src` to *dst. On error
  // *dst is restored to its previous size.
  absl::Status Decompress(std::span<const uint8_t> src, size_t expected_size, std::string* dst);
};

// Stores blocks uncompressed.
std::unique_ptr<BlockCompressor> NewNoneCompressor();

// LZ4 block format. `acceleration` >= 1 trades ratio for speed (1 = default).
std::unique_ptr<BlockCompressor> NewLz4Compressor(int acceleration = 1);

// LZ4 HC (same block format and decoder as kLz4, slower compression, better
// ratio). `level` in 1..12.
std::unique_ptr<BlockCompressor> NewLz4HcCompressor(int level = 9);

// zstd at `level` (1..19; 1 and 3 are the ones measured for stored fields).
std::unique_ptr<BlockCompressor> NewZstdCompressor(int level = 3);

// A decompressor for blocks written with `codec` (levels only affect
// compression). InvalidArgument for an unknown codec id.
absl::StatusOr<std::unique_ptr<BlockCompressor>> NewDecompressor(uint8_t codec);

}  // namespace invert

#endif  // INVERT_CODEC_BLOCK_COMPRESSOR_H_

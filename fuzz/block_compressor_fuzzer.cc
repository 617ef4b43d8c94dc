// Fuzz target: stored-fields block decompression (codec/block_compressor.h).
//
// Input: codec:u8, expected_size:u32, then the compressed block.
//   1. For an unknown codec id NewDecompressor must fail; for a known one
//      Decompress and DecompressTo into an exact-size heap buffer of
//      expected_size % 2^20 bytes: any result is fine but a crash or an
//      access outside src/dst.
//   2. Round trip of the block bytes as plain data through LZ4 and zstd:
//      compress, decompress to the original; asking for one byte more or less
//      must fail (the contract: DataLoss unless exactly dst.size() bytes).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>

#include "codec/block_compressor.h"
#include "fuzz_common.h"

namespace {

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "block_compressor_fuzzer: %s\n", what);
    std::abort();
  }
}

constexpr size_t kMaxExpected = size_t{1} << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace invert;
  static std::unique_ptr<BlockCompressor> lz4 = NewLz4Compressor();
  static std::unique_ptr<BlockCompressor> zstd = NewZstdCompressor(1);
  // One decompressor per known codec, made once (a zstd context is costly);
  // unknown ids still go through NewDecompressor every time.
  static std::unique_ptr<BlockCompressor>* decompressors = [] {
    auto* d = new std::unique_ptr<BlockCompressor>[3];
    for (uint8_t id = 0; id < 3; ++id) {
      absl::StatusOr<std::unique_ptr<BlockCompressor>> made = NewDecompressor(id);
      Check(made.ok(), "no decompressor for a known codec");
      d[id] = *std::move(made);
    }
    return d;
  }();

  fuzz::FuzzInput in(data, size);
  const uint8_t codec = in.U8();
  const size_t expected = in.U32() % kMaxExpected;
  const std::string_view block = in.Rest();
  const fuzz::ExactBytes src(block);

  // 1. Decompress arbitrary bytes.
  if (codec >= 3) {
    Check(!NewDecompressor(codec).ok(), "a decompressor for an unknown codec id");
  } else {
    BlockCompressor* decompressor = decompressors[codec].get();
    std::string out = "prefix";
    absl::Status s = decompressor->Decompress(src.span(), expected, &out);
    Check(s.ok() ? out.size() == 6 + expected : out == "prefix",
          "Decompress: wrong output size, or output not restored on error");
    auto dst = std::make_unique<uint8_t[]>(expected);
    (void)decompressor->DecompressTo(src.span(), std::span<uint8_t>(dst.get(), expected));
  }

  // 2. Round trip.
  for (BlockCompressor* c : {lz4.get(), zstd.get()}) {
    std::string compressed;
    Check(c->Compress(src.span(), &compressed).ok(), "Compress failed");
    const fuzz::ExactBytes packed(compressed);
    BlockCompressor* d = decompressors[static_cast<uint8_t>(c->codec())].get();
    std::string out;
    Check(d->Decompress(packed.span(), block.size(), &out).ok(), "round trip failed");
    Check(out == block, "round trip changed the bytes");
    std::string longer;
    Check(!d->Decompress(packed.span(), block.size() + 1, &longer).ok(),
          "decompressed to more bytes than were compressed");
    if (!block.empty()) {
      std::string shorter;
      Check(!d->Decompress(packed.span(), block.size() - 1, &shorter).ok(),
            "decompressed to fewer bytes than were compressed");
    }
  }
  return 0;
}

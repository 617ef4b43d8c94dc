// BlockCompressor implementations over liblz4 and libzstd (block and one-shot
// APIs, scratch state reused across calls).
#include "codec/block_compressor.h"

#include <lz4.h>
#include <lz4hc.h>
#include <zstd.h>

#include <climits>
#include <cstring>
#include <new>
#include <vector>

#include "absl/strings/str_cat.h"

namespace invert {
namespace {

// A valid pointer for zero-length buffers (some codecs reject nullptr).
uint8_t empty_buffer[1];

template <typename T>
T* NonNull(T* p) {
  return p != nullptr ? p : reinterpret_cast<T*>(empty_buffer);
}

absl::Status SizeMismatch(const char* codec, long long got, size_t expected) {
  return absl::DataLossError(
      absl::StrCat(codec, " block decompresses to ", got, " bytes, expected ", expected));
}

class NoneCompressor final : public BlockCompressor {
 public:
  CompressionCodec codec() const override { return CompressionCodec::kNone; }
  std::string name() const override { return "none"; }
  absl::Status Compress(std::span<const uint8_t> src, std::string* dst) override {
    dst->append(reinterpret_cast<const char*>(src.data()), src.size());
    return absl::OkStatus();
  }
  absl::Status DecompressTo(std::span<const uint8_t> src, std::span<uint8_t> dst) override {
    if (src.size() != dst.size()) return SizeMismatch("uncompressed", src.size(), dst.size());
    if (!src.empty()) std::memcpy(dst.data(), src.data(), src.size());
    return absl::OkStatus();
  }
};

// LZ4 and LZ4 HC share the block format and the decoder.
class Lz4Compressor final : public BlockCompressor {
 public:
  // hc_level 0: fast LZ4 with `acceleration`; else LZ4 HC at that level.
  Lz4Compressor(int acceleration, int hc_level)
      : acceleration_(acceleration),
        hc_level_(hc_level),
        state_(hc_level > 0 ? LZ4_sizeofStateHC() : LZ4_sizeofState()) {}

  CompressionCodec codec() const override { return CompressionCodec::kLz4; }
  std::string name() const override {
    if (hc_level_ > 0) return absl::StrCat("lz4hc-", hc_level_);
    return acceleration_ == 1 ? "lz4" : absl::StrCat("lz4-a", acceleration_);
  }

  absl::Status Compress(std::span<const uint8_t> src, std::string* dst) override {
    if (src.size() > LZ4_MAX_INPUT_SIZE) {
      return absl::InvalidArgumentError(
          absl::StrCat("lz4: block of ", src.size(), " bytes exceeds ", LZ4_MAX_INPUT_SIZE));
    }
    const int src_size = static_cast<int>(src.size());
    const int bound = LZ4_compressBound(src_size);
    const size_t old_size = dst->size();
    dst->resize(old_size + bound);
    const char* in = reinterpret_cast<const char*>(NonNull(src.data()));
    char* out = dst->data() + old_size;
    const int n =
        hc_level_ > 0
            ? LZ4_compress_HC_extStateHC(state_.data(), in, out, src_size, bound, hc_level_)
            : LZ4_compress_fast_extState(state_.data(), in, out, src_size, bound, acceleration_);
    if (n <= 0) {  // Cannot happen with a bound-sized buffer.
      dst->resize(old_size);
      return absl::InternalError("lz4: compression failed");
    }
    dst->resize(old_size + n);
    return absl::OkStatus();
  }

  absl::Status DecompressTo(std::span<const uint8_t> src, std::span<uint8_t> dst) override {
    if (src.size() > INT_MAX || dst.size() > INT_MAX) {
      return absl::DataLossError("lz4: block larger than 2 GiB");
    }
    const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(NonNull(src.data())),
                                      reinterpret_cast<char*>(NonNull(dst.data())),
                                      static_cast<int>(src.size()), static_cast<int>(dst.size()));
    if (n < 0) return absl::DataLossError("lz4: corrupt or truncated block");
    if (static_cast<size_t>(n) != dst.size()) return SizeMismatch("lz4", n, dst.size());
    return absl::OkStatus();
  }

 private:
  int acceleration_;
  int hc_level_;
  std::vector<char> state_;  // LZ4 / LZ4 HC hash tables, reused
};

class ZstdCompressor final : public BlockCompressor {
 public:
  explicit ZstdCompressor(int level) : level_(level) {}
  ~ZstdCompressor() override {
    ZSTD_freeCCtx(cctx_);
    ZSTD_freeDCtx(dctx_);
  }
  ZstdCompressor(const ZstdCompressor&) = delete;
  ZstdCompressor& operator=(const ZstdCompressor&) = delete;

  CompressionCodec codec() const override { return CompressionCodec::kZstd; }
  std::string name() const override { return absl::StrCat("zstd-", level_); }

  absl::Status Compress(std::span<const uint8_t> src, std::string* dst) override {
    if (cctx_ == nullptr) {
      cctx_ = ZSTD_createCCtx();
      if (cctx_ == nullptr) throw std::bad_alloc();
      ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, level_);
      ZSTD_CCtx_setParameter(cctx_, ZSTD_c_checksumFlag, 0);
    }
    const size_t bound = ZSTD_compressBound(src.size());
    if (ZSTD_isError(bound)) {
      return absl::InvalidArgumentError(
          absl::StrCat("zstd: block of ", src.size(), " bytes is too large"));
    }
    const size_t old_size = dst->size();
    dst->resize(old_size + bound);
    const size_t n =
        ZSTD_compress2(cctx_, dst->data() + old_size, bound, NonNull(src.data()), src.size());
    if (ZSTD_isError(n)) {
      dst->resize(old_size);
      return absl::InternalError(absl::StrCat("zstd: ", ZSTD_getErrorName(n)));
    }
    dst->resize(old_size + n);
    return absl::OkStatus();
  }

  absl::Status DecompressTo(std::span<const uint8_t> src, std::span<uint8_t> dst) override {
    if (dctx_ == nullptr) {
      dctx_ = ZSTD_createDCtx();
      if (dctx_ == nullptr) throw std::bad_alloc();
    }
    const size_t n = ZSTD_decompressDCtx(dctx_, NonNull(dst.data()), dst.size(),
                                         NonNull(src.data()), src.size());
    if (ZSTD_isError(n)) {
      return absl::DataLossError(absl::StrCat("zstd: ", ZSTD_getErrorName(n)));
    }
    if (n != dst.size()) return SizeMismatch("zstd", static_cast<long long>(n), dst.size());
    return absl::OkStatus();
  }

 private:
  int level_;
  ZSTD_CCtx* cctx_ = nullptr;  // created on first use
  ZSTD_DCtx* dctx_ = nullptr;
};

}  // namespace

absl::Status BlockCompressor::Decompress(std::span<const uint8_t> src, size_t expected_size,
                                         std::string* dst) {
  const size_t old_size = dst->size();
  dst->resize(old_size + expected_size);
  absl::Status status = DecompressTo(
      src, std::span<uint8_t>(reinterpret_cast<uint8_t*>(dst->data()) + old_size, expected_size));
  if (!status.ok()) dst->resize(old_size);
  return status;
}

std::unique_ptr<BlockCompressor> NewNoneCompressor() { return std::make_unique<NoneCompressor>(); }

std::unique_ptr<BlockCompressor> NewLz4Compressor(int acceleration) {
  return std::make_unique<Lz4Compressor>(acceleration < 1 ? 1 : acceleration, 0);
}

std::unique_ptr<BlockCompressor> NewLz4HcCompressor(int level) {
  return std::make_unique<Lz4Compressor>(1, level < 1 ? 1 : (level > 12 ? 12 : level));
}

std::unique_ptr<BlockCompressor> NewZstdCompressor(int level) {
  return std::make_unique<ZstdCompressor>(level);
}

absl::StatusOr<std::unique_ptr<BlockCompressor>> NewDecompressor(uint8_t codec) {
  switch (static_cast<CompressionCodec>(codec)) {
    case CompressionCodec::kNone:
      return NewNoneCompressor();
    case CompressionCodec::kLz4:
      return NewLz4Compressor();
    case CompressionCodec::kZstd:
      return NewZstdCompressor();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown compression codec id ", static_cast<int>(codec)));
}

}  // namespace invert

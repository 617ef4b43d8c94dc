// Shared pieces of the libFuzzer targets in fuzz/ and of the seed generator
// (fuzz/make_seeds.cc): an in-memory Directory, the fixed segment id every
// fuzzed file carries, the footer checksum fix-up, a reader for the small
// fixed headers the targets put in front of their file bytes, and the sample
// segment the whole-segment target patches. docs/fuzzing.md describes each
// target's input layout.
//
// Why an in-memory directory: FSDirectory maps files, so a read just past the
// end of a file usually lands in the rest of its last page and goes unnoticed.
// MemDirectory keeps every file in a heap block of exactly its size, so
// AddressSanitizer reports a read even one byte out of bounds.
//
// Thread safety: MemDirectory's operations may be called from several
// threads (one mutex); everything else is single-threaded.
#ifndef INVERT_FUZZ_FUZZ_COMMON_H_
#define INVERT_FUZZ_FUZZ_COMMON_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "codec/segment_info_format.h"
#include "invert/directory.h"
#include "store/codec_util.h"

namespace invert::fuzz {

// The id in the header of every file a per-file target reads; the seeds are
// written with it, so mutated inputs usually keep it.
inline constexpr SegmentId kFuzzSegmentId = {0x66, 0x75, 0x7a, 0x7a, 0x2d, 0x73, 0x65, 0x67,
                                             0x6d, 0x65, 0x6e, 0x74, 0x2d, 0x69, 0x64, 0x21};

// A Directory whose files live in memory, each in a heap block of exactly its
// size (see the top of this file). Writable files become visible (empty) at
// creation and take their contents at Close() or destruction.
class MemDirectory final : public Directory {
 public:
  MemDirectory() = default;

  // Creates or replaces `name` with `bytes` (test setup; no name check).
  void Put(std::string_view name, std::string_view bytes);
  // The bytes of `name`, or NotFound.
  absl::StatusOr<std::string> Get(std::string_view name) const;

  absl::StatusOr<std::unique_ptr<WritableFile>> CreateFile(std::string_view name) override;
  absl::StatusOr<std::shared_ptr<const MappedFile>> OpenFile(std::string_view name) override;
  absl::StatusOr<std::vector<std::string>> ListAll() const override;
  absl::StatusOr<uint64_t> FileLength(std::string_view name) const override;
  absl::Status DeleteFile(std::string_view name) override;
  absl::Status Rename(std::string_view from, std::string_view to) override;
  absl::Status Sync(const std::vector<std::string>& names) override;
  absl::Status SyncMetaData() override;
  // In-process only: a set of held lock names.
  absl::StatusOr<std::unique_ptr<DirectoryLock>> ObtainLock(std::string_view name) override;
  std::string DebugString() const override { return "MemDirectory"; }

 private:
  class File;
  class Writer;
  class Lock;
  std::set<std::string, std::less<>> locks_;  // guarded by mutex_
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const MappedFile>, std::less<>> files_;
};

// Rewrites the last 8 bytes of `file` with the XXH64 (seed 0) of every byte
// before them, as the store's footer wants (docs/store.md). Files shorter
// than a footer are left alone.
void FixFooterChecksum(std::string* file);

// Replaces the segment id in the header of `file` (magic, VInt name length,
// name, version, id) with `id` and fixes the footer checksum. Returns false
// if `file` does not start with a well-formed header.
bool ReplaceHeaderId(std::string* file, const SegmentId& id);

// Reads the fixed-size header a target puts before its file bytes: little-
// endian integers; bytes past the end of the input read as 0, so every input
// decodes to something.
class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  uint8_t U8();
  uint32_t U32();
  uint64_t U64();
  // The next min(n, remaining()) bytes.
  std::string_view Bytes(size_t n);
  // Everything left.
  std::string_view Rest() { return Bytes(remaining()); }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// The writers matching FuzzInput, for the seed generator.
void PutU8(std::string* out, uint8_t v);
void PutU32(std::string* out, uint32_t v);
void PutU64(std::string* out, uint64_t v);

// A heap copy of `bytes` of exactly its size, so that ASan catches any read
// outside it (a std::string has a terminator and spare capacity).
class ExactBytes {
 public:
  explicit ExactBytes(std::string_view bytes);
  std::span<const uint8_t> span() const { return {data_.get(), size_}; }

 private:
  std::unique_ptr<uint8_t[]> data_;
  size_t size_;
};

// The sample segment "_0" the whole-segment target patches and the seed
// generator takes real files from: a few hundred small documents with every
// kind of field (docs only, freqs, positions, offsets, payloads, norms,
// stored values, term vectors with positions, offsets and payloads), so that
// frequent terms fill whole 128-doc and 128-position blocks. Deterministic:
// built with a fixed random seed, and every file re-stamped with
// kFuzzSegmentId. Writes into `dir` (which must not hold "_0" yet), checks
// that the segment reads back, and returns its info; *dump (if not null)
// receives DumpSegment's rendering.
absl::StatusOr<SegmentInfo> BuildSampleSegment(Directory* dir, std::string* dump = nullptr);

// A file in the system's temporary directory, removed at destruction, for
// readers that take a path (the line-docs and JSON-lines readers).
class TempFile {
 public:
  TempFile();
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  // Replaces the file's contents; aborts on an I/O error (a harness failure,
  // not a finding).
  void Write(std::string_view bytes);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace invert::fuzz

#endif  // INVERT_FUZZ_FUZZ_COMMON_H_

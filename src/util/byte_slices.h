// Byte slices: growing streams threaded through a ByteBlockPool.
//
// Each term owns one stream per consumer channel (doc deltas, positions, ...).
// A stream starts as a 5-byte slice and continues in ever larger slices, so a
// rare term costs 5 bytes and a frequent one wastes little on links.
//
// Slice of level L (size kLevelSize[L]) at address A:
//
//   A                                   A+size-4          A+size-1
//   +-----------------------------------+-----------------+--------+
//   | payload                           | last 3 payload  | marker |   while open
//   +-----------------------------------+-----------------+--------+
//   | payload                           | next slice address (LE32)|   once full
//   +-----------------------------------+--------------------------+
//
// Invariants:
//   1. Levels grow as kLevelSize = {5, 14, 20, 30, 40, 40, 80, 80, 120, 200};
//      after the last level the size stays at 200.
//   2. The last byte of an open slice is the marker 16 | level, which is never
//      zero; every byte before it that was not yet written is zero. A writer
//      that finds a non-zero byte under its cursor has reached the marker.
//   3. Growing: allocate the next level's slice, move the 3 payload bytes that
//      sit before the marker to its start, and overwrite those 3 bytes plus the
//      marker with the new slice's address (little-endian uint32). A full slice
//      of size S therefore keeps S - 4 payload bytes; the first keeps 1.
//   4. A slice never crosses a block boundary, and a later slice always has a
//      higher address than an earlier one, so a stream's end address lies in
//      its last slice: a reader knows the stream ends in the current slice iff
//      end - slice_start < slice_size.
//
// Thread safety: none; slices belong to their pool's thread.
#ifndef INVERT_UTIL_BYTE_SLICES_H_
#define INVERT_UTIL_BYTE_SLICES_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "util/byte_block_pool.h"
#include "util/varint.h"

namespace invert {

inline constexpr int kSliceLevelCount = 10;
inline constexpr uint32_t kSliceLevelSize[kSliceLevelCount] = {5,  14, 20, 30,  40,
                                                               40, 80, 80, 120, 200};
inline constexpr uint8_t kSliceNextLevel[kSliceLevelCount] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 9};
inline constexpr uint32_t kFirstSliceSize = kSliceLevelSize[0];
inline constexpr uint8_t kSliceMarkerBase = 16;
// Bytes at the end of a full slice taken by the forwarding address.
inline constexpr uint32_t kSliceAddressBytes = 4;

static_assert(kSliceLevelSize[0] > kSliceAddressBytes,
              "a first slice must keep at least one payload byte besides its link");
static_assert(kSliceLevelSize[kSliceLevelCount - 1] <= ByteBlockPool::kBlockSize,
              "a slice must fit in one pool block");

// Allocates `count` first-level slices back to back in one block and returns
// the address of the first; slice i starts at the result + i * kFirstSliceSize.
// REQUIRES: count * kFirstSliceSize <= ByteBlockPool::kBlockSize.
inline uint32_t NewFirstSlices(ByteBlockPool& pool, uint32_t count) {
  uint32_t start = pool.Allocate(count * kFirstSliceSize);
  uint8_t* p = pool.At(start);
  for (uint32_t i = 1; i <= count; ++i) p[i * kFirstSliceSize - 1] = kSliceMarkerBase;
  return start;
}

// Called when a writer's cursor at `marker_address` holds a non-zero byte (the
// marker of a full slice). Allocates the next slice, links it (invariant 3)
// and returns the address at which writing continues.
uint32_t GrowSlice(ByteBlockPool& pool, uint32_t marker_address);

// Appends bytes to one stream. Holds only the stream's current end address,
// which callers store between writes (TermsHashPerField keeps it in the int
// pool).
class SliceWriter {
 public:
  SliceWriter(ByteBlockPool* pool, uint32_t address) : pool_(pool), address_(address) {}

  void WriteByte(uint8_t byte) {
    uint8_t* p = pool_->At(address_);
    if (*p != 0) {
      address_ = GrowSlice(*pool_, address_);
      p = pool_->At(address_);
    }
    *p = byte;
    ++address_;
  }

  void WriteBytes(const uint8_t* bytes, size_t length) {
    for (size_t i = 0; i < length; ++i) WriteByte(bytes[i]);
  }

  void WriteVInt(uint32_t value) {
    while (value >= 0x80) {
      WriteByte(static_cast<uint8_t>(value | 0x80));
      value >>= 7;
    }
    WriteByte(static_cast<uint8_t>(value));
  }

  // Address one past the last byte written.
  uint32_t address() const { return address_; }

 private:
  ByteBlockPool* pool_;
  uint32_t address_;
};

// Reads one stream from its start address to its end address.
//
// Walks a raw pointer through the current slice's payload (a slice never
// crosses a block, invariant 4), so a byte costs a compare and a load; the
// pool is consulted only when a slice ends. [cur_, run_end_) is the unread
// payload of the current slice; run_end_ points at its forwarding address,
// unless last_slice_, when it is the stream's end.
class SliceReader {
 public:
  SliceReader() = default;
  SliceReader(const ByteBlockPool* pool, uint32_t start, uint32_t end) { Init(pool, start, end); }

  void Init(const ByteBlockPool* pool, uint32_t start, uint32_t end) {
    assert(end >= start);
    pool_ = pool;
    level_ = 0;
    end_ = end;
    EnterSlice(start, kFirstSliceSize);
  }

  // True iff every byte of the stream has been read.
  bool eof() const { return last_slice_ && cur_ == run_end_; }

  // REQUIRES: !eof().
  uint8_t ReadByte() {
    assert(!eof());
    if (cur_ == run_end_) NextSlice();
    return *cur_++;
  }

  // Reads a VInt; returns false if the stream ends inside it (or it is
  // longer than 5 bytes).
  bool ReadVInt(uint32_t* value) {
    if (run_end_ - cur_ >= 5) {  // fast path: the whole VInt is in this slice
      const uint8_t* p = cur_;
      uint32_t result = p[0] & 0x7f;
      if (p[0] < 0x80) {
        cur_ = p + 1;
        *value = result;
        return true;
      }
      for (int i = 1; i < 5; ++i) {
        result |= static_cast<uint32_t>(p[i] & 0x7f) << (7 * i);
        if (p[i] < 0x80) {
          cur_ = p + i + 1;
          *value = result;
          return true;
        }
      }
      return false;
    }
    uint32_t result = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (eof()) return false;
      uint8_t byte = ReadByte();
      result |= static_cast<uint32_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) {
        *value = result;
        return true;
      }
    }
    return false;
  }

  // Copies `length` bytes; returns false if the stream has fewer left.
  bool ReadBytes(uint8_t* out, size_t length);

  // Points *data at the next contiguous run of the stream and returns its
  // length (0 at eof). Consumes the run. Inline: the flush copies every
  // stream of more than 4 bytes chunk by chunk.
  size_t NextChunk(const uint8_t** data) {
    if (eof()) return 0;
    if (cur_ == run_end_) NextSlice();
    *data = cur_;
    const size_t chunk = static_cast<size_t>(run_end_ - cur_);
    cur_ = run_end_;
    return chunk;
  }

 private:
  // Makes the slice at `address` (of `size` bytes) the current one.
  void EnterSlice(uint32_t address, uint32_t size) {
    last_slice_ = end_ - address < size;
    if (address == end_) {  // empty: touch no pool memory
      cur_ = run_end_ = nullptr;
      return;
    }
    const uint32_t limit = last_slice_ ? end_ : address + size - kSliceAddressBytes;
    cur_ = pool_->At(address);
    run_end_ = cur_ + (limit - address);
  }
  void NextSlice();

  const ByteBlockPool* pool_ = nullptr;
  const uint8_t* cur_ = nullptr;      // next byte to read
  const uint8_t* run_end_ = nullptr;  // end of the current slice's payload
  uint32_t end_ = 0;                  // end address of the stream
  int level_ = 0;
  bool last_slice_ = true;  // the stream ends in the current slice
};

}  // namespace invert

#endif  // INVERT_UTIL_BYTE_SLICES_H_

// Byte slices: growing and following slice links (see byte_slices.h).
#include "util/byte_slices.h"

#include <algorithm>

namespace invert {

namespace {

void StoreLE32(uint8_t* p, uint32_t value) {
  p[0] = static_cast<uint8_t>(value);
  p[1] = static_cast<uint8_t>(value >> 8);
  p[2] = static_cast<uint8_t>(value >> 16);
  p[3] = static_cast<uint8_t>(value >> 24);
}

uint32_t LoadLE32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

}  // namespace

uint32_t GrowSlice(ByteBlockPool& pool, uint32_t marker_address) {
  const int level = *pool.At(marker_address) & 0x0f;
  const int next_level = kSliceNextLevel[level];
  const uint32_t size = kSliceLevelSize[next_level];
  const uint32_t next = pool.Allocate(size);
  uint8_t* old_tail = pool.At(marker_address - 3);
  uint8_t* fresh = pool.At(next);
  std::memcpy(fresh, old_tail, 3);
  StoreLE32(old_tail, next);
  fresh[size - 1] = static_cast<uint8_t>(kSliceMarkerBase | next_level);
  return next + 3;
}

void SliceReader::NextSlice() {
  assert(!last_slice_ && cur_ == run_end_);
  const uint32_t next = LoadLE32(run_end_);  // the forwarding address
  level_ = kSliceNextLevel[level_];
  EnterSlice(next, kSliceLevelSize[level_]);
}

bool SliceReader::ReadBytes(uint8_t* out, size_t length) {
  while (length > 0) {
    if (cur_ == run_end_) {
      if (last_slice_) return false;
      NextSlice();
    }
    const size_t chunk = std::min<size_t>(length, static_cast<size_t>(run_end_ - cur_));
    std::memcpy(out, cur_, chunk);
    cur_ += chunk;
    out += chunk;
    length -= chunk;
  }
  return true;
}

}  // namespace invert

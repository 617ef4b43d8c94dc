// ByteBlockPool: block management and the slow, block-spanning copies.
#include "util/byte_block_pool.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace invert {

ByteBlockPool::ByteBlockPool(BlockAllocator* allocator) : allocator_(allocator) {}

ByteBlockPool::~ByteBlockPool() { Reset(/*keep_first=*/false); }

void ByteBlockPool::NextBlock() {
  if (blocks_.size() >= kMaxBlocks) {
    std::fprintf(stderr, "invert: ByteBlockPool exceeded 4 GiB; the segment must flush sooner\n");
    std::abort();
  }
  // Exception-safe: grow the list and take the block before changing state.
  if (blocks_.size() == blocks_.capacity())
    blocks_.reserve(std::max<size_t>(16, 2 * blocks_.size()));
  uint8_t* block = allocator_->Allocate();
  if (!blocks_.empty()) block_start_ += kBlockSize;
  blocks_.push_back(block);  // fits: cannot throw
  byte_upto_ = 0;
}

void ByteBlockPool::ReadBytes(uint32_t address, uint8_t* out, size_t length) const {
  while (length > 0) {
    uint32_t offset = address & kBlockMask;
    size_t chunk = std::min<size_t>(length, kBlockSize - offset);
    std::memcpy(out, At(address), chunk);
    out += chunk;
    address += static_cast<uint32_t>(chunk);
    length -= chunk;
  }
}

uint32_t ByteBlockPool::Append(std::string_view bytes) {
  if (byte_upto_ == kBlockSize) NextBlock();
  uint32_t start = end_address();
  const char* data = bytes.data();
  size_t length = bytes.size();
  while (length > 0) {
    if (byte_upto_ == kBlockSize) NextBlock();
    size_t chunk = std::min<size_t>(length, kBlockSize - byte_upto_);
    std::memcpy(blocks_.back() + byte_upto_, data, chunk);
    byte_upto_ += static_cast<uint32_t>(chunk);
    data += chunk;
    length -= chunk;
  }
  return start;
}

void ByteBlockPool::Reset(bool keep_first) {
  if (blocks_.empty()) return;
  if (keep_first) {
    // Only bytes that were handed out can be non-zero.
    std::memset(blocks_[0], 0, blocks_.size() == 1 ? byte_upto_ : kBlockSize);
    allocator_->Release(std::span<uint8_t* const>(blocks_).subspan(1));
    blocks_.resize(1);
    block_start_ = 0;
    byte_upto_ = 0;
  } else {
    allocator_->Release(blocks_);
    blocks_.clear();
    block_start_ = 0;
    byte_upto_ = kBlockSize;
  }
}

}  // namespace invert

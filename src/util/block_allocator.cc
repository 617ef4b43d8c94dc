// BlockAllocator: aligned, zero-filled 32 KiB blocks with an optional free list.
#include "util/block_allocator.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace invert {

BlockAllocator::BlockAllocator(RamCounter* counter, size_t max_free_blocks)
    : counter_(counter), max_free_blocks_(max_free_blocks) {
  // Release() runs in destructors and after failures: it must not allocate.
  free_.reserve(max_free_blocks);
}

BlockAllocator::~BlockAllocator() {
  for (uint8_t* block : free_) std::free(block);
}

uint8_t* BlockAllocator::Allocate() {
  uint8_t* block;
  if (!free_.empty()) {
    block = free_.back();
    free_.pop_back();
    std::memset(block, 0, kBlockSize);
  } else {
    block = static_cast<uint8_t*>(std::aligned_alloc(kBlockAlignment, kBlockSize));
    if (block == nullptr) throw std::bad_alloc();
    std::memset(block, 0, kBlockSize);
  }
  ++live_blocks_;
  counter_->Add(static_cast<int64_t>(kBlockSize));
  return block;
}

void BlockAllocator::Release(std::span<uint8_t* const> blocks) {
  for (uint8_t* block : blocks) {
    if (free_.size() < max_free_blocks_) {
      free_.push_back(block);
    } else {
      std::free(block);
    }
  }
  live_blocks_ -= static_cast<int64_t>(blocks.size());
  counter_->Add(-static_cast<int64_t>(blocks.size() * kBlockSize));
}

}  // namespace invert

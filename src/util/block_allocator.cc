// BlockAllocator: aligned, zero-filled 32 KiB blocks with an optional free
// list, and BlockCache: free blocks kept across allocators.
#include "util/block_allocator.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace invert {

BlockCache::BlockCache(size_t max_blocks)
    : max_blocks_(max_blocks), max_bytes_(max_blocks * BlockAllocator::kBlockSize) {
  // Put() and PutArray() run in destructors and after failures: they must
  // not allocate.
  free_.reserve(max_blocks);
  arrays_.reserve(kMaxArrays);
}

BlockCache::~BlockCache() { Trim(0); }

void BlockCache::Trim(size_t keep) {
  for (const Array& a : arrays_) {
    std::free(a.data);
    Held(-static_cast<int64_t>(a.bytes));
  }
  arrays_.clear();
  while (free_.size() > keep) {
    std::free(free_.back());
    free_.pop_back();
    Held(-static_cast<int64_t>(BlockAllocator::kBlockSize));
  }
}

uint8_t* BlockCache::Take() {
  if (free_.empty()) return nullptr;
  uint8_t* block = free_.back();
  free_.pop_back();
  Held(-static_cast<int64_t>(BlockAllocator::kBlockSize));
  return block;
}

bool BlockCache::Put(uint8_t* block) {
  if (free_.size() >= max_blocks_ || !Fits(BlockAllocator::kBlockSize)) return false;
  free_.push_back(block);
  Held(static_cast<int64_t>(BlockAllocator::kBlockSize));
  return true;
}

void* BlockCache::TakeArray(int kind, size_t min_bytes, size_t max_bytes, size_t* bytes) {
  size_t best = arrays_.size();
  for (size_t i = 0; i < arrays_.size(); ++i) {
    const size_t n = arrays_[i].bytes;
    if (arrays_[i].kind == kind && n >= min_bytes && n <= max_bytes &&
        (best == arrays_.size() || n < arrays_[best].bytes)) {
      best = i;
    }
  }
  if (best == arrays_.size()) return nullptr;
  const Array a = arrays_[best];
  arrays_[best] = arrays_.back();
  arrays_.pop_back();
  Held(-static_cast<int64_t>(a.bytes));
  *bytes = a.bytes;
  return a.data;
}

bool BlockCache::PutArray(int kind, void* array, size_t bytes) {
  if (bytes < kMinArrayBytes || arrays_.size() >= kMaxArrays || !Fits(bytes)) return false;
  arrays_.push_back({kind, array, bytes});
  Held(static_cast<int64_t>(bytes));
  return true;
}

void BlockCache::Held(int64_t delta) {
  held_ = static_cast<size_t>(static_cast<int64_t>(held_) + delta);
  bytes_.store(static_cast<int64_t>(held_), std::memory_order_relaxed);
}

BlockAllocator::BlockAllocator(RamCounter* counter, size_t max_free_blocks, BlockCache* cache)
    : counter_(counter), max_free_blocks_(max_free_blocks), cache_(cache) {
  // Release() runs in destructors and after failures: it must not allocate.
  free_.reserve(max_free_blocks);
}

BlockAllocator::~BlockAllocator() {
  for (uint8_t* block : free_) {
    if (cache_ == nullptr || !cache_->Put(block)) std::free(block);
  }
}

uint8_t* BlockAllocator::Allocate() {
  uint8_t* block = nullptr;
  if (!free_.empty()) {
    block = free_.back();
    free_.pop_back();
  } else if (cache_ != nullptr) {
    block = cache_->Take();
  }
  if (block != nullptr) {
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
    } else if (cache_ == nullptr || !cache_->Put(block)) {
      std::free(block);
    }
  }
  live_blocks_ -= static_cast<int64_t>(blocks.size());
  counter_->Add(-static_cast<int64_t>(blocks.size() * kBlockSize));
}

}  // namespace invert

// IntBlockPool: block management.
#include "util/int_block_pool.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <span>

namespace invert {

void IntBlockPool::NextBlock() {
  if (blocks_.size() >= (size_t{1} << (32 - kBlockShift))) {
    std::fprintf(stderr,
                 "invert: IntBlockPool exceeded 2^32 ints; the segment must flush sooner\n");
    std::abort();
  }
  // Exception-safe: grow the list and take the block before changing state.
  if (blocks_.size() == blocks_.capacity())
    blocks_.reserve(std::max<size_t>(16, 2 * blocks_.size()));
  // Blocks are 64-byte aligned, so the cast keeps int alignment.
  int32_t* block = reinterpret_cast<int32_t*>(allocator_->Allocate());
  if (!blocks_.empty()) block_start_ += kBlockInts;
  blocks_.push_back(block);  // fits: cannot throw
  int_upto_ = 0;
}

void IntBlockPool::Reset(bool keep_first) {
  if (blocks_.empty()) return;
  const size_t keep = keep_first ? 1 : 0;
  // One at a time: no allocation, so this cannot throw (it runs in
  // destructors).
  for (size_t i = keep; i < blocks_.size(); ++i) {
    uint8_t* const raw = reinterpret_cast<uint8_t*>(blocks_[i]);
    allocator_->Release(std::span<uint8_t* const>(&raw, 1));
  }
  blocks_.resize(keep);
  block_start_ = 0;
  int_upto_ = keep_first ? 0 : kBlockInts;
}

}  // namespace invert

// IntBlockPool: block management.
#include "util/int_block_pool.h"

#include <cstdio>
#include <cstdlib>

namespace invert {

void IntBlockPool::NextBlock() {
  if (blocks_.size() >= (size_t{1} << (32 - kBlockShift))) {
    std::fprintf(stderr,
                 "invert: IntBlockPool exceeded 2^32 ints; the segment must flush sooner\n");
    std::abort();
  }
  if (!blocks_.empty()) block_start_ += kBlockInts;
  // Blocks are 64-byte aligned, so the cast keeps int alignment.
  blocks_.push_back(reinterpret_cast<int32_t*>(allocator_->Allocate()));
  int_upto_ = 0;
}

void IntBlockPool::Reset() {
  if (blocks_.empty()) return;
  std::vector<uint8_t*> raw;
  raw.reserve(blocks_.size());
  for (int32_t* block : blocks_) raw.push_back(reinterpret_cast<uint8_t*>(block));
  allocator_->Release(raw);
  blocks_.clear();
  block_start_ = 0;
  int_upto_ = kBlockInts;
}

}  // namespace invert

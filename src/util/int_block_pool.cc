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

void IntBlockPool::Reset(bool keep_first) {
  if (blocks_.empty()) return;
  const size_t keep = keep_first ? 1 : 0;
  std::vector<uint8_t*> raw;
  raw.reserve(blocks_.size() - keep);
  for (size_t i = keep; i < blocks_.size(); ++i) {
    raw.push_back(reinterpret_cast<uint8_t*>(blocks_[i]));
  }
  allocator_->Release(raw);
  blocks_.resize(keep);
  block_start_ = 0;
  int_upto_ = keep_first ? 0 : kBlockInts;
}

}  // namespace invert

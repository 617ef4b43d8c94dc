// HugePageSlabs: 2 MiB-aligned, MADV_HUGEPAGE mappings cut into 32 KiB blocks.
#include "util/huge_page_slabs.h"

#include <sys/mman.h>

#include <bit>
#include <cassert>

namespace invert {

HugePageSlabs& HugePageSlabs::Default() {
  static HugePageSlabs* const slabs = new HugePageSlabs();
  return *slabs;
}

HugePageSlabs::~HugePageSlabs() {
  MutexLock lock(&mu_);
  assert(blocks_in_use_ == 0);
  for (const auto& [key, slab] : slabs_) {
    munmap(reinterpret_cast<void*>(key << kSlabShift), kSlabSize);
  }
}

HugePageSlabs::Slab* HugePageSlabs::MapSlab(uintptr_t* key) {
  // Map one slab's size more than needed and unmap what lies outside the
  // aligned slab: mmap only promises page alignment.
  const size_t span = 2 * kSlabSize;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t base = (start + kSlabSize - 1) & ~(kSlabSize - 1);
  if (base > start) munmap(raw, base - start);
  if (const uintptr_t end = base + kSlabSize; end < start + span) {
    munmap(reinterpret_cast<void*>(end), start + span - end);
  }
#ifdef MADV_HUGEPAGE
  // Advice, not a promise: EINVAL where THP is compiled out is fine.
  madvise(reinterpret_cast<void*>(base), kSlabSize, MADV_HUGEPAGE);
#endif

  *key = base >> kSlabShift;
  try {
    // Give() must not allocate: partial_ always has room for every slab.
    partial_.reserve(slabs_.size() + 1);
    Slab& slab = slabs_[*key];
    slab.partial_index = partial_.size();
    partial_.push_back(*key);
    return &slab;
  } catch (...) {
    slabs_.erase(*key);
    munmap(reinterpret_cast<void*>(base), kSlabSize);
    throw;
  }
}

void HugePageSlabs::RemoveFromPartial(Slab* slab) {
  const size_t i = slab->partial_index;
  assert(i != kNotPartial && i < partial_.size());
  const uintptr_t moved = partial_.back();
  partial_[i] = moved;
  slabs_.find(moved)->second.partial_index = i;
  partial_.pop_back();
  slab->partial_index = kNotPartial;
}

uint8_t* HugePageSlabs::Take(bool* zeroed) {
  MutexLock lock(&mu_);
  uintptr_t key = 0;
  Slab* slab = nullptr;
  if (!partial_.empty()) {
    key = partial_.back();
    slab = &slabs_.find(key)->second;
  } else {
    slab = MapSlab(&key);
    if (slab == nullptr) return nullptr;
  }
  if (slab->in_use == 0 && slab->touched != 0) --empty_slabs_;  // the spare
  const int i = std::countr_one(slab->in_use);                  // the lowest free block
  assert(i < kBlocksPerSlab);
  const uint64_t bit = uint64_t{1} << i;
  *zeroed = (slab->touched & bit) == 0;
  slab->in_use |= bit;
  slab->touched |= bit;
  if (slab->in_use == ~uint64_t{0}) RemoveFromPartial(slab);
  ++blocks_in_use_;
  return reinterpret_cast<uint8_t*>((key << kSlabShift) +
                                    (static_cast<uintptr_t>(i) << kBlockShift));
}

void HugePageSlabs::Give(uint8_t* block) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(block);
  assert(address % kBlockSize == 0);
  const uintptr_t key = address >> kSlabShift;
  const uint64_t bit = uint64_t{1} << ((address >> kBlockShift) & (kBlocksPerSlab - 1));
  MutexLock lock(&mu_);
  auto it = slabs_.find(key);
  assert(it != slabs_.end() && (it->second.in_use & bit) != 0);
  Slab& slab = it->second;
  if (slab.in_use == ~uint64_t{0}) {
    slab.partial_index = partial_.size();
    partial_.push_back(key);  // within the capacity reserved by MapSlab
  }
  slab.in_use &= ~bit;
  --blocks_in_use_;
  if (slab.in_use == 0 && empty_slabs_ == 0) {
    empty_slabs_ = 1;  // kept as the spare
  } else if (slab.in_use == 0) {
    RemoveFromPartial(&slab);
    slabs_.erase(it);
    munmap(reinterpret_cast<void*>(key << kSlabShift), kSlabSize);
  }
}

void HugePageSlabs::AdviseHugePages(void* data, size_t bytes) {
  if (bytes < 2 * kSlabSize) return;
#ifdef MADV_HUGEPAGE
  const uintptr_t start = reinterpret_cast<uintptr_t>(data);
  const uintptr_t first = (start + kSlabSize - 1) & ~(kSlabSize - 1);
  const uintptr_t end = (start + bytes) & ~(kSlabSize - 1);
  if (end > first) madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);
#endif
}

size_t HugePageSlabs::mapped_slabs() const {
  MutexLock lock(&mu_);
  return slabs_.size();
}

size_t HugePageSlabs::blocks_in_use() const {
  MutexLock lock(&mu_);
  return blocks_in_use_;
}

}  // namespace invert

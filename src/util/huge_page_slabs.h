// HugePageSlabs: the memory under the pools' 32 KiB blocks, carved from
// 2 MiB-aligned anonymous mappings that the kernel is asked to back with
// transparent huge pages (madvise MADV_HUGEPAGE).
//
// Why: the flush reads a segment's blocks in term order, not in the order
// they were written, so nearly every term touches a page of its own; with
// 4 KiB pages most of those reads also miss the TLB. One 2 MiB page holds
// 64 blocks (docs/benchmarks.md, "huge pages", has the measurements). Where
// the kernel's THP mode is `never` the advice is ignored and the slabs are
// ordinary pages; nothing else changes.
//
// Layout: a slab is kSlabSize bytes at a kSlabSize-aligned address and holds
// kBlocksPerSlab blocks; block i starts at slab + i * kBlockSize. Per slab,
// bit i of `in_use` says block i is handed out, bit i of `touched` that it
// has ever been: an untouched block is still the kernel's zero-filled page,
// so Take() reports it as zeroed and the caller need not clear it.
//
// Invariants (checked by the tests):
//   - every mapped slab has a block handed out, except at most one empty
//     slab kept back so that a caller taking and giving one block in a loop
//     does not map and unmap a slab each time: the Give() that empties a
//     second slab unmaps it, so memory goes back to the system as free() of
//     the same blocks would have given it to malloc;
//   - a slab with a free block is on `partial_`, and Take() fills it before
//     mapping a new slab, so at most one slab is ever only partly touched.
//
// Thread safety: every method may be called from any thread (one mutex).
// BlockAllocator comes here only when its free list and its BlockCache are
// empty (Take) or full (Give), which in steady state is rare.
#ifndef INVERT_UTIL_HUGE_PAGE_SLABS_H_
#define INVERT_UTIL_HUGE_PAGE_SLABS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "util/mutex.h"

namespace invert {

class HugePageSlabs {
 public:
  static constexpr int kBlockShift = 15;
  static constexpr size_t kBlockSize = size_t{1} << kBlockShift;  // 32 KiB
  static constexpr int kSlabShift = 21;
  static constexpr size_t kSlabSize = size_t{1} << kSlabShift;  // 2 MiB
  static constexpr int kBlocksPerSlab = 1 << (kSlabShift - kBlockShift);
  static_assert(kBlocksPerSlab == 64, "a slab's blocks are the bits of one uint64_t");

  // The process's slabs, shared by every BlockAllocator. Never destroyed, so
  // that allocators in static objects can give blocks back at exit.
  static HugePageSlabs& Default();

  HugePageSlabs() = default;
  ~HugePageSlabs();  // unmaps every slab; REQUIRES: no block is handed out
  HugePageSlabs(const HugePageSlabs&) = delete;
  HugePageSlabs& operator=(const HugePageSlabs&) = delete;

  // Returns a kBlockSize-aligned block and sets *zeroed to whether it is
  // known to be all zero bytes (never handed out before); returns null when
  // the system refuses the memory.
  uint8_t* Take(bool* zeroed);
  // Takes back a block from Take(). Never allocates; never throws.
  void Give(uint8_t* block);

  // Asks the kernel to back the 2 MiB-aligned pages inside [data, data +
  // bytes) with huge pages: for the big arrays that malloc gives the hash
  // tables and per-term records. Does nothing for arrays under 4 MiB (little
  // of them would be covered) or where the kernel lacks THP.
  static void AdviseHugePages(void* data, size_t bytes);

  // Slabs mapped now, and blocks handed out now.
  size_t mapped_slabs() const;
  size_t blocks_in_use() const;

 private:
  struct Slab {
    uint64_t in_use = 0;
    uint64_t touched = 0;
    size_t partial_index = kNotPartial;  // position in partial_, or kNotPartial
  };
  static constexpr size_t kNotPartial = ~size_t{0};

  // Maps a new slab and puts it on partial_; returns null on failure.
  Slab* MapSlab(uintptr_t* base) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void RemoveFromPartial(Slab* slab) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable Mutex mu_;
  // Keyed by slab base address >> kSlabShift.
  absl::flat_hash_map<uintptr_t, Slab> slabs_ ABSL_GUARDED_BY(mu_);
  // Keys of the slabs with at least one free block.
  std::vector<uintptr_t> partial_ ABSL_GUARDED_BY(mu_);
  size_t blocks_in_use_ ABSL_GUARDED_BY(mu_) = 0;
  size_t empty_slabs_ ABSL_GUARDED_BY(mu_) = 0;  // 0 or 1
};

}  // namespace invert

#endif  // INVERT_UTIL_HUGE_PAGE_SLABS_H_

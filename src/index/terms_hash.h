// TermsHash: the pools one indexing thread inverts a segment into.
//
// A primary TermsHash (postings) owns:
//   * byte_pool()      postings slices (and, with kShared, the term bytes)
//   * int_pool()       each term's stream end addresses
//   * term_byte_pool() the pool term bytes are written to: byte_pool() itself
//                      with kShared, a pool of its own with kSeparate.
// A chained TermsHash (term vectors) owns its own byte and int pools, and its
// term_byte_pool() is the primary's: its per-field hashes refer to terms by
// their entry address in that pool and never copy term bytes. This holds in
// both layouts.
//
// All pools take blocks from one BlockAllocator, so the allocator's counter is
// the RAM held by the pools.
//
// Thread safety: none; a TermsHash belongs to one indexing thread.
#ifndef INVERT_INDEX_TERMS_HASH_H_
#define INVERT_INDEX_TERMS_HASH_H_

#include <memory>

#include "invert/term_bytes_layout.h"
#include "util/block_allocator.h"
#include "util/byte_block_pool.h"
#include "util/int_block_pool.h"

namespace invert {

class TermsHash {
 public:
  // Primary. `allocator` must outlive this.
  TermsHash(BlockAllocator* allocator, TermBytesLayout layout);
  // Chained after `primary`, which must outlive this.
  TermsHash(BlockAllocator* allocator, TermsHash* primary);
  TermsHash(const TermsHash&) = delete;
  TermsHash& operator=(const TermsHash&) = delete;

  ByteBlockPool& byte_pool() { return byte_pool_; }
  IntBlockPool& int_pool() { return int_pool_; }
  ByteBlockPool& term_byte_pool() { return *term_byte_pool_; }
  const ByteBlockPool& byte_pool() const { return byte_pool_; }
  const IntBlockPool& int_pool() const { return int_pool_; }
  const ByteBlockPool& term_byte_pool() const { return *term_byte_pool_; }

  TermBytesLayout layout() const { return layout_; }
  bool is_chained() const { return primary_ != nullptr; }
  // True iff term bytes and postings slices share byte_pool().
  bool shares_term_pool() const { return term_byte_pool_ == &byte_pool_; }
  BlockAllocator* allocator() const { return allocator_; }

  // Returns every block this TermsHash owns to the allocator (after a flush,
  // or after each document for term vectors). A primary's per-field hashes
  // must be cleared first; a chained hash must not be used across a reset of
  // its primary's term pool.
  // With `keep_first`, each pool keeps its first block for reuse (the
  // per-document reset of term vectors).
  void Reset(bool keep_first = false);

 private:
  BlockAllocator* allocator_;
  TermBytesLayout layout_;
  TermsHash* primary_ = nullptr;
  ByteBlockPool byte_pool_;
  IntBlockPool int_pool_;
  std::unique_ptr<ByteBlockPool> own_term_pool_;  // kSeparate primary only
  ByteBlockPool* term_byte_pool_;
};

}  // namespace invert

#endif  // INVERT_INDEX_TERMS_HASH_H_

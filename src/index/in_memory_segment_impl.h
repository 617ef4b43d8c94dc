// InMemorySegmentImpl: the InMemorySegment that InMemorySegment::Create()
// returns, a thin face over one IndexingChain. Internal code and tests that
// need the chain itself get it through chain():
//
//   auto segment = InMemorySegment::Create();
//   IndexingChain& chain = static_cast<InMemorySegmentImpl&>(*segment).chain();
#ifndef INVERT_INDEX_IN_MEMORY_SEGMENT_IMPL_H_
#define INVERT_INDEX_IN_MEMORY_SEGMENT_IMPL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "index/indexing_chain.h"
#include "invert/in_memory_segment.h"

namespace invert {

class InMemorySegmentImpl final : public InMemorySegment {
 public:
  explicit InMemorySegmentImpl(const InMemorySegmentOptions& options);

  absl::Status AddDocument(const Document& doc) override;
  uint32_t num_docs() const override;
  int64_t ram_bytes_used() const override;
  uint32_t unique_terms(std::string_view field) const override;
  absl::Status FlushTo(const std::string& path, std::string_view name) override;

  // The chain the documents went into (a new one after FlushTo).
  IndexingChain& chain() { return *chain_; }
  // The flushed chains' pool blocks and large arrays, kept for the next
  // chain.
  const BlockCache& block_cache() const { return blocks_; }

  // At most this many blocks' worth (512 MiB) of a flushed segment is kept
  // for the next one; it is freed with the InMemorySegment.
  static constexpr size_t kCachedBlocks = 16384;

 private:
  InMemorySegmentOptions options_;
  BlockCache blocks_{kCachedBlocks};  // before chain_, which gives blocks back here
  std::unique_ptr<IndexingChain> chain_;
};

}  // namespace invert

#endif  // INVERT_INDEX_IN_MEMORY_SEGMENT_IMPL_H_

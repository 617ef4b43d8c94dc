// InMemorySegment::Create and InMemorySegmentImpl: the public face of
// IndexingChain.
#include "index/in_memory_segment_impl.h"
#include "index/segment_flush.h"
#include "invert/directory.h"

namespace invert {

namespace {

std::unique_ptr<IndexingChain> MakeChain(const InMemorySegmentOptions& options,
                                         BlockCache* blocks) {
  IndexingChainOptions o;
  o.layout = options.layout;
  o.analyzer = options.analyzer;
  o.block_cache = blocks;
  return std::make_unique<IndexingChain>(std::move(o));
}

}  // namespace

std::unique_ptr<InMemorySegment> InMemorySegment::Create(const InMemorySegmentOptions& options) {
  return std::make_unique<InMemorySegmentImpl>(options);
}

InMemorySegment::~InMemorySegment() = default;

InMemorySegmentImpl::InMemorySegmentImpl(const InMemorySegmentOptions& options)
    : options_(options), chain_(MakeChain(options, &blocks_)) {}

absl::Status InMemorySegmentImpl::AddDocument(const Document& doc) {
  return chain_->AddDocument(doc);
}

uint32_t InMemorySegmentImpl::num_docs() const { return chain_->num_docs(); }

int64_t InMemorySegmentImpl::ram_bytes_used() const { return chain_->ram_bytes_used(); }

uint32_t InMemorySegmentImpl::unique_terms(std::string_view field) const {
  return chain_->unique_terms(field);
}

absl::Status InMemorySegmentImpl::FlushTo(const std::string& path, std::string_view name) {
  if (chain_->num_docs() == 0) return absl::FailedPreconditionError("no documents to flush");
  absl::StatusOr<std::unique_ptr<FSDirectory>> dir = FSDirectory::Open(path, /*create=*/true);
  if (!dir.ok()) return dir.status();
  absl::StatusOr<SegmentInfo> info = FlushSegment(*chain_, dir->get(), name);
  // The new chain takes no block before its first document, so it gets all
  // of the old chain's (up to kCachedBlocks).
  chain_ = MakeChain(options_, &blocks_);
  return info.status();
}

}  // namespace invert

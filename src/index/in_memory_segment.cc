// InMemorySegment: the public face of IndexingChain.
#include "invert/in_memory_segment.h"

#include "index/indexing_chain.h"
#include "index/segment_flush.h"
#include "invert/directory.h"

namespace invert {

namespace {

std::unique_ptr<IndexingChain> MakeChain(const InMemorySegmentOptions& options) {
  IndexingChainOptions o;
  o.layout = options.layout;
  o.analyzer = options.analyzer;
  return std::make_unique<IndexingChain>(std::move(o));
}

}  // namespace

InMemorySegment::InMemorySegment(const InMemorySegmentOptions& options)
    : options_(options), chain_(MakeChain(options)) {}

InMemorySegment::~InMemorySegment() = default;

absl::Status InMemorySegment::AddDocument(const Document& doc) { return chain_->AddDocument(doc); }

uint32_t InMemorySegment::num_docs() const { return chain_->num_docs(); }

int64_t InMemorySegment::ram_bytes_used() const { return chain_->ram_bytes_used(); }

uint32_t InMemorySegment::unique_terms(std::string_view field) const {
  return chain_->unique_terms(field);
}

absl::Status InMemorySegment::FlushTo(const std::string& path, std::string_view name) {
  if (chain_->num_docs() == 0) return absl::FailedPreconditionError("no documents to flush");
  absl::StatusOr<std::unique_ptr<FSDirectory>> dir = FSDirectory::Open(path, /*create=*/true);
  if (!dir.ok()) return dir.status();
  absl::StatusOr<SegmentInfo> info = FlushSegment(*chain_, dir->get(), name);
  chain_ = MakeChain(options_);
  return info.status();
}

}  // namespace invert

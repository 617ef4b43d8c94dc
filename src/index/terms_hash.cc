// TermsHash: pool ownership for the two layouts and for chaining.
#include "index/terms_hash.h"

namespace invert {

TermsHash::TermsHash(BlockAllocator* allocator, TermBytesLayout layout)
    : allocator_(allocator), layout_(layout), byte_pool_(allocator), int_pool_(allocator) {
  if (layout == TermBytesLayout::kSeparate) {
    own_term_pool_ = std::make_unique<ByteBlockPool>(allocator);
    term_byte_pool_ = own_term_pool_.get();
  } else {
    term_byte_pool_ = &byte_pool_;
  }
}

TermsHash::TermsHash(BlockAllocator* allocator, TermsHash* primary)
    : allocator_(allocator),
      layout_(primary->layout()),
      primary_(primary),
      byte_pool_(allocator),
      int_pool_(allocator),
      term_byte_pool_(&primary->term_byte_pool()) {}

void TermsHash::Reset(bool keep_first) {
  byte_pool_.Reset(keep_first);
  int_pool_.Reset(keep_first);
  if (own_term_pool_ != nullptr) own_term_pool_->Reset(keep_first);
}

}  // namespace invert

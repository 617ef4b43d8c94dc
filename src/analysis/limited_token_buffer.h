// LimitedTokenBuffer: the indexing chain's TokenBuffer. It adds what only the
// buffer's owner in the chain needs and analyzers must not depend on: a byte
// limit per document, the memory held for RAM accounting, and Release. The
// limit's semantics are in include/invert/token_buffer.h ("Byte limit").
// Internal: not part of the public API.
#ifndef INVERT_ANALYSIS_LIMITED_TOKEN_BUFFER_H_
#define INVERT_ANALYSIS_LIMITED_TOKEN_BUFFER_H_

#include "invert/token_buffer.h"

namespace invert {

class LimitedTokenBuffer : public TokenBuffer {
 public:
  LimitedTokenBuffer() = default;

  // Clear(), and frees all memory: bytes_used() becomes 0. Keeps the limit.
  using TokenBuffer::Release;

  // Caps bytes_used() at `bytes` from the next growth on; SIZE_MAX (the
  // default) is no limit. Memory already held is kept even if it exceeds the
  // new limit, but it will not grow. Clear() keeps the limit.
  using TokenBuffer::byte_limit;
  using TokenBuffer::set_byte_limit;
  // Returns true iff a growth since the last Clear() would have exceeded the
  // byte limit: tokens were dropped and the buffer's content is incomplete.
  using TokenBuffer::over_limit;

  // Bytes of memory held (arena, token array and side buffer).
  using TokenBuffer::bytes_used;
  // Bytes of term and payload data of the current tokens.
  using TokenBuffer::arena_bytes;
  // Bookkeeping bytes per token (beside its term and payload bytes).
  using TokenBuffer::kBytesPerToken;
};

}  // namespace invert

#endif  // INVERT_ANALYSIS_LIMITED_TOKEN_BUFFER_H_

// InMemorySegment: one indexing thread's in-memory inverted index, for
// pipelines that want the indexing chain without the IndexWriter's threads
// and commits: add documents, watch the numbers, flush to a segment.
//
//   auto segment = invert::InMemorySegment::Create({.layout = invert::TermBytesLayout::kShared});
//   if (absl::Status s = segment->AddDocument(doc); !s.ok()) { /* nothing was added */ }
//   segment->num_docs(); segment->ram_bytes_used(); segment->unique_terms("body");
//
// A document that fails (invalid UTF-8, an immense term, too many positions,
// offsets going backwards, a field type conflicting with the field's first
// use) leaves the segment exactly as it was.
//
// Thread safety: none; use one per thread (IndexWriter does that for you).
//
// InMemorySegment is an interface; Create() returns the library's
// implementation.
#ifndef INVERT_IN_MEMORY_SEGMENT_H_
#define INVERT_IN_MEMORY_SEGMENT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "invert/analysis.h"
#include "invert/document.h"
#include "invert/export.h"
#include "invert/term_bytes_layout.h"

namespace invert {

struct InMemorySegmentOptions {
  TermBytesLayout layout = kDefaultTermBytesLayout;
  // Analyzer for tokenized text fields; the standard analyzer if unset.
  AnalyzerFactory analyzer = {};
};

class INVERT_EXPORT InMemorySegment {
 public:
  static std::unique_ptr<InMemorySegment> Create(const InMemorySegmentOptions& options = {});

  virtual ~InMemorySegment();
  InMemorySegment(const InMemorySegment&) = delete;
  InMemorySegment& operator=(const InMemorySegment&) = delete;

  virtual absl::Status AddDocument(const Document& doc) = 0;

  virtual uint32_t num_docs() const = 0;
  // Exact bytes held: every pool block, hash table, per-term record, norm,
  // stored value and term vector, as counted by the block allocator and the
  // counted arrays.
  virtual int64_t ram_bytes_used() const = 0;
  // Unique terms of `field` so far (0 if unknown or not indexed).
  virtual uint32_t unique_terms(std::string_view field) const = 0;

  // Writes the segment into the index directory `path` as segment `name`
  // (e.g. "_0"; files only, no commit point) and empties this object. The
  // flushed segment's memory (pool blocks, large hash tables and per-term
  // arrays; up to 512 MiB) stays with this object, outside ram_bytes_used(),
  // for the documents that follow: reusing one InMemorySegment is cheaper
  // than creating one per segment.
  virtual absl::Status FlushTo(const std::string& path, std::string_view name) = 0;

 protected:
  InMemorySegment() = default;
};

}  // namespace invert

#endif  // INVERT_IN_MEMORY_SEGMENT_H_

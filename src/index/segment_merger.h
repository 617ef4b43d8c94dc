// MergeSegments: writes one new segment holding the live documents of
// several segments, in order (segment 0's live docs first, each segment's in
// doc-id order), streaming: a k-way merge of the inputs' sorted term
// dictionaries, postings re-encoded with remapped doc ids (deleted docs
// dropped) with their positions, offsets and payloads; norms; stored fields
// (compressed blocks copied without recompressing when a segment has no
// deletions and its field numbers agree with the merged segment's;
// recompressed otherwise); term vectors. Memory is bounded (a few blocks per
// input plus one term's postings state, never a whole segment) and counted
// in MergeStats.
//
// Like FlushSegment: every file is fsynced; on error (or cancellation) every
// file this call created is deleted and the error returned.
#ifndef INVERT_INDEX_SEGMENT_MERGER_H_
#define INVERT_INDEX_SEGMENT_MERGER_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "codec/field_info.h"
#include "codec/live_docs_format.h"
#include "codec/segment_info_format.h"
#include "codec/segment_reader.h"
#include "invert/directory.h"

namespace invert {

struct MergeInput {
  const SegmentReader* segment = nullptr;
  // Null: every document is live.
  const LiveDocs* live = nullptr;
};

struct MergeOptions {
  // The merged segment's fields (numbers 0..n-1): every field of every input
  // must be here by name, with the same type. Typically the index schema.
  std::vector<FieldInfo> fields;
  // Polled between terms and documents: when it becomes true the merge stops
  // with kCancelled (and deletes what it wrote). May be null.
  const std::atomic<bool>* cancel = nullptr;
  // Throttle: the most bytes per second the merge writes (0: unlimited).
  // Writes sleep (in slices of at most 50 ms, so a cancel is seen) until the
  // merge's average write rate since its start is under the limit.
  double max_write_bytes_per_second = 0;
  // Verify every input file's checksum before merging (as Lucene does), so
  // that a damaged input fails the merge with kDataLoss naming the segment
  // and file, instead of being copied into the merged segment: raw-copied
  // stored-field and term-vector blocks and documents are never decoded.
  // Costs one XXH64 pass over the inputs (memory speed; it also pages them
  // in). false is for tests of the decoding paths' own checks.
  bool verify_checksums = true;
};

struct MergeStats {
  uint64_t bytes_read = 0;     // of the inputs' files, roughly
  uint64_t bytes_written = 0;  // files of the merged segment, .si included
  uint64_t docs = 0;           // documents of the merged segment
  uint64_t terms = 0;          // terms written, all fields
  uint64_t terms_dropped = 0;  // terms whose every document was deleted
  // Blocks of the merged .fdt copied from an input as they were, and blocks
  // compressed anew from re-added documents; the same for .tvd.
  uint64_t stored_blocks_copied = 0;
  uint64_t stored_blocks_recompressed = 0;
  uint64_t vector_blocks_copied = 0;
  uint64_t vector_blocks_recompressed = 0;
  // The most memory the merge held at once, estimated from its buffers
  // (cursors, writers' blocks, the doc maps, per-field bitsets, decoded
  // input blocks), not measured: docs/merges.md lists what it counts.
  int64_t peak_memory_bytes = 0;
  double seconds = 0;
  double throttled_seconds = 0;  // spent sleeping for max_write_bytes_per_second
};

struct MergeResult {
  SegmentInfo info;
  // doc_maps[i][d]: the merged doc id of input i's doc d, or kDeletedDoc.
  std::vector<std::vector<uint32_t>> doc_maps;
};
inline constexpr uint32_t kDeletedDoc = 0xffffffffu;

// SegmentInfo::term_bytes_layout of a merged segment whose inputs were built
// with different layouts (else it keeps theirs). Informational, like the
// other values: no reader interprets it.
inline constexpr std::string_view kMixedTermBytesLayout = "mixed";

// The merged segment is named `segment_name`, its id NewSegmentId(index_id).
// Its term_bytes_layout is the inputs' if they all agree, else "mixed".
// Errors (every file this call created is deleted first):
//   kInvalidArgument  an input field missing from options.fields or of
//                     another type there (the message names field and
//                     segment); options.fields not numbered 0..n-1; no live
//                     document at all (drop such segments instead); more
//                     than 2^31 - 1 documents.
//   kDataLoss         a damaged input (the message names its segment).
//   kCancelled        options.cancel became true.
//   others            from the directory (I/O).
// Never throws: std::bad_alloc is kResourceExhausted.
absl::StatusOr<MergeResult> MergeSegments(const std::vector<MergeInput>& inputs, Directory* dir,
                                          std::string_view segment_name, const SegmentId& index_id,
                                          const MergeOptions& options, MergeStats* stats = nullptr);

}  // namespace invert

#endif  // INVERT_INDEX_SEGMENT_MERGER_H_

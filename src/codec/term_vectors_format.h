// Term vectors: the file pair of a segment that keeps, per document, a small
// inverted index of each field that records term vectors (terms, freqs and,
// as the field asks, positions, offsets and payloads). Built on the blocked
// document container of codec/stored_fields_format.h; byte layout in
// docs/format-docfiles.md.
//
// Files (segment "_0"): _0.tvd (data: blocks of documents) and _0.tvx (index:
// block -> first doc, file offset), laid out exactly as .fdt / .fdx. One
// document's entry (before block compression):
//
//   doc   := field_count:VInt32 field[field_count]      (field numbers increasing)
//   field := field_number:VInt32 flags:byte term_count:VInt32 term[term_count]
//            flags: bit 0 positions, bit 1 offsets, bit 2 payloads; others 0
//   term  := prefix_len:VInt32 suffix_len:VInt32 suffix:bytes freq:VInt32
//            [position_delta:VInt32 [payload_len:VInt32 payload:bytes]] x freq
//                                                        iff positions (payload iff payloads)
//            [start_delta:VInt32 length:VInt32] x freq   iff offsets
//
// prefix_len is shared with the previous term of the same field (0 for the
// first); deltas restart at 0 in every term: position - previous position,
// start_offset - previous start_offset, then end_offset - start_offset.
//
// Validation and thread safety: as stored fields (the top of
// stored_fields_format.h). The decoder also checks what the writer requires:
// increasing field numbers, known flags, strictly increasing terms, freq >= 1,
// and positions and offsets that fit 32 bits.
#ifndef INVERT_CODEC_TERM_VECTORS_FORMAT_H_
#define INVERT_CODEC_TERM_VECTORS_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "codec/block_compressor.h"
#include "codec/stored_fields_format.h"
#include "invert/directory.h"
#include "store/codec_util.h"
#include "store/index_input.h"

namespace invert {

// Frozen: do not change these values; they are part of the persistent format.
inline constexpr std::string_view kTermVectorsDataCodec = "InvertTermVectorsData";
inline constexpr std::string_view kTermVectorsIndexCodec = "InvertTermVectorsIndex";
inline constexpr std::string_view kTermVectorsDataExtension = "tvd";
inline constexpr std::string_view kTermVectorsIndexExtension = "tvx";
inline constexpr uint32_t kTermVectorsVersionStart = 1;
inline constexpr uint32_t kTermVectorsVersionCurrent = 1;
// Field flags. Frozen.
inline constexpr uint8_t kTermVectorHasPositions = 1;
inline constexpr uint8_t kTermVectorHasOffsets = 2;
inline constexpr uint8_t kTermVectorHasPayloads = 4;

namespace internal {
inline constexpr DocFileFormat kTermVectorsFileFormat = {"term vectors",
                                                         kTermVectorsDataExtension,
                                                         kTermVectorsIndexExtension,
                                                         kTermVectorsDataCodec,
                                                         kTermVectorsIndexCodec,
                                                         kTermVectorsVersionStart,
                                                         kTermVectorsVersionCurrent};
}  // namespace internal

// One term of one field's vector in one document.
struct TermVectorTermData {
  std::string term;
  uint32_t freq = 0;  // >= 1
  // Each has freq entries when its field flag is set, else none. Positions
  // non-decreasing; start offsets non-decreasing, end_offsets[i] >=
  // start_offsets[i]; payloads may be empty strings.
  std::vector<uint32_t> positions, start_offsets, end_offsets;
  std::vector<std::string> payloads;
  bool operator==(const TermVectorTermData&) const = default;
};

// One field's vector in one document.
struct TermVectorFieldData {
  uint32_t field_number = 0;
  bool has_positions = false;
  bool has_offsets = false;
  bool has_payloads = false;  // REQUIRES has_positions
  // Strictly increasing in unsigned-byte order; may be empty.
  std::vector<TermVectorTermData> terms;
  bool operator==(const TermVectorFieldData&) const = default;
};

struct TermVectorsWriterOptions {
  // Block compression of the document entries. kNone (default): the VInt
  // entries as they are, read in place without a copy. On the sample corpus
  // (body vectors with positions and offsets, docs/format-docfiles.md) LZ4
  // saves only ~7% of the bytes (the entries are dense VInts with few
  // repeats) and nearly doubles the cost of a random Get(); kZstd (level 1)
  // saves ~27% for ~3x the Get() cost.
  CompressionCodec codec = CompressionCodec::kNone;
  // Target uncompressed bytes per block, 1 .. kMaxBlockBytesOption.
  size_t block_bytes = 60 * 1024;
};

// Writes <segment>.tvd and <segment>.tvx. Usage as StoredFieldsWriter.
class TermVectorsWriter {
 public:
  static absl::StatusOr<std::unique_ptr<TermVectorsWriter>> Create(
      Directory* dir, std::string_view segment_name, const SegmentId& id,
      const TermVectorsWriterOptions& options = {});

  // Adds the next document's vectors (empty: a document without vectors),
  // fields in strictly increasing field_number order. InvalidArgument
  // (nothing written) if a REQUIRES of the structs above is broken or the
  // encoded entry exceeds kMaxDocumentBytes.
  absl::Status AddDocument(std::span<const TermVectorFieldData> fields);
  absl::Status Finish();
  std::vector<std::string> file_names() const { return blocks_->file_names(); }
  uint32_t num_docs() const { return blocks_->num_docs(); }

  // ---- Copying from another segment (merges), as StoredFieldsWriter

  // An entry as TermVectorsReader::ReadSerialized gave it; its field numbers
  // must be this segment's.
  absl::Status AddSerializedDocument(std::span<const uint8_t> entry) {
    return blocks_->AddDocument(entry);
  }
  absl::Status AddRawBlock(const internal::RawDocBlock& block) {
    return blocks_->AddRawBlock(block);
  }
  CompressionCodec codec() const { return blocks_->codec(); }
  size_t block_count() const { return blocks_->block_count(); }
  size_t buffered_bytes() const { return blocks_->buffered_bytes() + scratch_.capacity(); }

 private:
  explicit TermVectorsWriter(std::unique_ptr<internal::DocBlockWriter> blocks)
      : blocks_(std::move(blocks)) {}
  std::unique_ptr<internal::DocBlockWriter> blocks_;
  std::string scratch_;
};

class TermVectorsReader {
 public:
  static absl::StatusOr<std::unique_ptr<TermVectorsReader>> Open(
      Directory* dir, std::string_view segment_name, const SegmentId& id, uint32_t num_docs,
      const DocFilesReaderOptions& options = {});

  // The vectors of `doc` (empty if it has none). kOutOfRange if doc >=
  // num_docs(), kDataLoss for corrupt data.
  absl::StatusOr<std::vector<TermVectorFieldData>> Get(uint32_t doc) const;
  // The same for K documents: prefetches every block needed, then decodes
  // each block once. Result i is docs[i].
  absl::StatusOr<std::vector<std::vector<TermVectorFieldData>>> Get(
      std::span<const uint32_t> docs) const;

  absl::Status CheckIntegrity() const { return blocks_->CheckIntegrity(); }
  uint32_t num_docs() const { return blocks_->num_docs(); }
  size_t block_count() const { return blocks_->block_count(); }

  // ---- Reading for a merge, as StoredFieldsReader
  absl::Status ReadSerialized(std::span<const uint32_t> docs,
                              internal::DocBlockReader::DocFn fn) const {
    return blocks_->ReadDocuments(docs, fn);
  }
  absl::StatusOr<internal::RawDocBlock> RawBlock(size_t b) const { return blocks_->RawBlock(b); }
  CompressionCodec codec() const { return blocks_->codec(); }
  uint32_t block_first_doc(size_t b) const { return blocks_->block_first_doc(b); }
  // The data file's input: prefetch policy and counters (not while other
  // threads read).
  IndexInput& data_input() { return blocks_->data_input(); }
  const IndexInput& data_input() const { return blocks_->data_input(); }

 private:
  explicit TermVectorsReader(std::unique_ptr<internal::DocBlockReader> blocks)
      : blocks_(std::move(blocks)) {}
  std::unique_ptr<internal::DocBlockReader> blocks_;
};

namespace internal {
// The entry of one document (the `doc` production above), appended to *out.
// InvalidArgument, with *out in an unspecified state, if the input breaks a
// REQUIRES. Exposed for tests and benchmarks.
absl::Status EncodeTermVectors(std::span<const TermVectorFieldData> fields, std::string* out);
// Decodes one document's entry; kDataLoss if it is malformed.
absl::Status DecodeTermVectors(std::span<const uint8_t> bytes,
                               std::vector<TermVectorFieldData>* out);
}  // namespace internal

}  // namespace invert

#endif  // INVERT_CODEC_TERM_VECTORS_FORMAT_H_

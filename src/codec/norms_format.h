// Norms file (_N.nvd): one byte per document for every field with norms
// (encoding in src/codec/norm_encoding.h). Layout (docs/format.md):
//   header(kNormsCodec, version)
//   VInt doc_count, VInt field_count
//   field_count x { VInt field_number, doc_count bytes }
//   footer
// Fields appear in increasing number. The version says how a byte encodes a
// length: 2 (written now) is Lucene 8.8's SmallFloat.intToByte4, 1 invert's
// earlier log scale. The reader of a version-1 file translates its bytes to
// version 2 (old byte -> decoded length -> new byte), so readers, the
// checker and merges only ever see version-2 bytes. Do not change:
// persistent format.
#ifndef INVERT_CODEC_NORMS_FORMAT_H_
#define INVERT_CODEC_NORMS_FORMAT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "invert/directory.h"
#include "store/codec_util.h"
#include "store/index_input.h"

namespace invert {

inline constexpr uint32_t kNormsFormatVersion = 2;     // written
inline constexpr uint32_t kNormsFormatVersionMin = 1;  // still read (translated)

// Writes _N.nvd with the norms of `fields` (increasing numbers);
// norm(field, doc) gives each byte. Returns the file name.
absl::StatusOr<std::string> WriteNorms(Directory* dir, std::string_view segment,
                                       const SegmentId& id, uint32_t doc_count,
                                       const std::vector<uint32_t>& fields,
                                       const std::function<uint8_t(uint32_t, uint32_t)>& norm);

// The same, for callers that copy norms in bulk (a merge): fill(field,
// first_doc, out) writes the norms of docs [first_doc, first_doc +
// out.size()) of `field`, called for each field in order and, within a
// field, for consecutive ranges of at most kNormsFillChunk docs from doc 0
// on. So the writer holds one chunk, not a whole field.
inline constexpr uint32_t kNormsFillChunk = 64 * 1024;
absl::StatusOr<std::string> WriteNorms(
    Directory* dir, std::string_view segment, const SegmentId& id, uint32_t doc_count,
    const std::vector<uint32_t>& fields,
    absl::FunctionRef<void(uint32_t field, uint32_t first_doc, std::span<uint8_t> out)> fill,
    uint32_t version = kNormsFormatVersion);
// `version` other than kNormsFormatVersion exists for tests that make
// version-1 files (whose bytes `fill` must then give in the old encoding).

// Norms of an open segment: a view of the mapped file.
class NormsReader {
 public:
  // Opens and checks structure (not the checksum; see CheckIntegrity).
  static absl::StatusOr<NormsReader> Open(Directory* dir, std::string_view segment,
                                          const SegmentId& id, uint32_t doc_count);
  // Norm of `field` in `doc`; 0 if the field has no norms or doc is out of range.
  uint8_t Get(uint32_t field, uint32_t doc) const;
  bool HasNorms(uint32_t field) const { return fields_.contains(field); }
  // All doc_count norms of `field` (a view of the mapping, or of the
  // translated copy of a version-1 file); empty if the field has no norms.
  std::span<const uint8_t> Field(uint32_t field) const {
    auto it = fields_.find(field);
    return it == fields_.end() ? std::span<const uint8_t>() : it->second;
  }
  absl::Status CheckIntegrity() const;
  // The file's header version (1 or 2); its bytes read as version 2 either way.
  uint32_t file_version() const { return file_version_; }

 private:
  std::optional<IndexInput> input_;
  uint32_t file_version_ = kNormsFormatVersion;
  // Version 1: the translated bytes the spans in fields_ point into (shared,
  // so copies of the reader stay valid).
  std::shared_ptr<const std::vector<uint8_t>> translated_;
  uint32_t doc_count_ = 0;
  absl::flat_hash_map<uint32_t, std::span<const uint8_t>> fields_;
};

}  // namespace invert

#endif  // INVERT_CODEC_NORMS_FORMAT_H_

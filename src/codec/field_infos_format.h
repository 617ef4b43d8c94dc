// Field infos file (_N.fnm): the fields of a segment. Layout (docs/format.md):
//   header(kFieldInfosCodec)
//   VInt field_count
//   field_count x { VInt number, String name, byte index_options, byte flags }
//     flags bit 0 tokenized, 1 stored, 2 norms, 3 payloads, 4 term_vectors,
//           5 term_vector_positions, 6 term_vector_offsets, 7 term_vector_payloads
//   footer
// Numbers are 0..field_count-1 in order. Do not change: persistent format.
#ifndef INVERT_CODEC_FIELD_INFOS_FORMAT_H_
#define INVERT_CODEC_FIELD_INFOS_FORMAT_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "codec/field_info.h"
#include "invert/directory.h"
#include "store/codec_util.h"

namespace invert {

// The two bytes a FieldType is stored as (index_options, flags above), also
// used by the commit point's schema.
uint8_t FieldTypeFlags(const FieldType& type);
// The FieldType of those two bytes; nullopt if they are not a valid type.
std::optional<FieldType> DecodeFieldType(uint8_t index_options, uint8_t flags);

// Writes _N.fnm; returns its file name.
absl::StatusOr<std::string> WriteFieldInfos(Directory* dir, std::string_view segment,
                                            const SegmentId& id,
                                            const std::vector<FieldInfo>& fields);

// Reads and verifies _N.fnm (checksum included).
absl::StatusOr<std::vector<FieldInfo>> ReadFieldInfos(Directory* dir, std::string_view segment,
                                                      const SegmentId& id);

}  // namespace invert

#endif  // INVERT_CODEC_FIELD_INFOS_FORMAT_H_

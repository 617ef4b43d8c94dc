// FieldInfo: a field of a segment: its name, its number (order of first use)
// and the FieldType it was fixed to. Shared by the indexing chain (which
// assigns numbers) and the segment formats (which persist them).
#ifndef INVERT_CODEC_FIELD_INFO_H_
#define INVERT_CODEC_FIELD_INFO_H_

#include <cstdint>
#include <string>

#include "invert/field_type.h"

namespace invert {

struct FieldInfo {
  std::string name;
  uint32_t number;
  FieldType type;
  bool operator==(const FieldInfo&) const = default;
};

}  // namespace invert

#endif  // INVERT_CODEC_FIELD_INFO_H_

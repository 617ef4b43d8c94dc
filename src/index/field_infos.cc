// FieldInfos: two-phase field registration.
#include "index/field_infos.h"

#include "absl/strings/str_cat.h"
#include "index/index_schema.h"
#include "util/absl_compat.h"

namespace invert {

absl::StatusOr<uint32_t> FieldInfos::Resolve(std::string_view name, const FieldType& type) {
  if (auto it = by_name_.find(name); it != by_name_.end()) {
    const FieldInfo& info = fields_[it->second];
    if (info.type != type) {
      return absl::InvalidArgumentError(FieldTypeConflict(name, info.type, type));
    }
    return info.number;
  }
  if (absl::Status s = ValidateFieldName(name); !s.ok()) return s;
  if (absl::Status s = type.Validate(); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("field \"", Sv(name), "\": ", s.message()));
  }
  const uint32_t number = static_cast<uint32_t>(fields_.size());
  fields_.push_back(FieldInfo{std::string(name), number, type});
  by_name_.emplace(std::string(name), number);
  return number;
}

void FieldInfos::Commit() { committed_ = fields_.size(); }

void FieldInfos::Rollback() {
  for (size_t i = committed_; i < fields_.size(); ++i) by_name_.erase(fields_[i].name);
  fields_.resize(committed_);
}

int64_t FieldInfos::Find(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? -1 : static_cast<int64_t>(it->second);
}

}  // namespace invert

// IndexSchema: register-all-or-nothing under one mutex.
#include "index/index_schema.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "analysis/utf8.h"
#include "invert/index_writer.h"
#include "util/absl_compat.h"

namespace invert {

absl::Status ValidateFieldName(std::string_view name) {
  if (name.empty()) {
    return absl::InvalidArgumentError("a field name must not be empty");
  }
  if (name.size() > kMaxFieldNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("field name \"", absl::CHexEscape(Sv(name.substr(0, 40))), "...\" is ",
                     name.size(), " bytes long; the limit is ", kMaxFieldNameBytes));
  }
  internal::Utf8Error error;
  if (!internal::ValidateUtf8(name, &error)) {
    return absl::InvalidArgumentError(absl::StrCat("field name \"", absl::CHexEscape(Sv(name)),
                                                   "\" is not valid UTF-8 (at byte ", error.offset,
                                                   ")"));
  }
  return absl::OkStatus();
}

std::string FieldTypeConflict(std::string_view name, const FieldType& existing,
                              const FieldType& wanted) {
  return absl::StrCat(
      "field \"", absl::CHexEscape(Sv(name)), "\" is ", existing.Describe(),
      " in this index, but this document adds it as ", wanted.Describe(),
      ". A field name keeps the type of its first use for the whole index: give the field "
      "that type, or use another name (to change a field's type, build a new index)");
}

absl::Status IndexSchema::Register(std::span<const NewField> fields) {
  MutexLock lock(&mu_);
  // Check everything first (names repeated within `fields` included). Few
  // fields per document: a vector is the cheapest set here.
  std::vector<const NewField*> adding;
  for (const NewField& f : fields) {
    const FieldType* existing = nullptr;
    if (auto it = by_name_.find(f.name); it != by_name_.end()) {
      existing = &fields_[it->second].type;
    } else {
      for (const NewField* a : adding) {
        if (a->name == f.name) existing = a->type;
      }
    }
    if (existing != nullptr) {
      if (*existing != *f.type) {
        return absl::InvalidArgumentError(FieldTypeConflict(f.name, *existing, *f.type));
      }
      continue;
    }
    if (absl::Status s = ValidateFieldName(f.name); !s.ok()) return s;
    adding.push_back(&f);
  }
  // Then add them all; an exception (out of memory) undoes what was added.
  const size_t before = fields_.size();
  try {
    for (const NewField* f : adding) {
      const uint32_t number = static_cast<uint32_t>(fields_.size());
      fields_.push_back(FieldInfo{std::string(f->name), number, *f->type});
      by_name_.emplace(std::string(f->name), number);
    }
  } catch (...) {
    for (size_t i = before; i < fields_.size(); ++i) by_name_.erase(fields_[i].name);
    fields_.resize(before);
    throw;
  }
  return absl::OkStatus();
}

std::optional<FieldType> IndexSchema::Find(std::string_view name) const {
  MutexLock lock(&mu_);
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return fields_[it->second].type;
}

std::vector<FieldInfo> IndexSchema::Snapshot() const {
  MutexLock lock(&mu_);
  return fields_;
}

size_t IndexSchema::size() const {
  MutexLock lock(&mu_);
  return fields_.size();
}

void IndexSchema::Reset(const std::vector<FieldInfo>& fields) {
  MutexLock lock(&mu_);
  fields_.clear();
  by_name_.clear();
  for (const FieldInfo& f : fields) {
    const uint32_t number = static_cast<uint32_t>(fields_.size());
    fields_.push_back(FieldInfo{f.name, number, f.type});
    by_name_.emplace(f.name, number);
  }
}

}  // namespace invert

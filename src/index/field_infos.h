// FieldInfos: the fields a segment has seen, numbered in order of first use,
// with the FieldType each name was fixed to.
//
// Registration is two-phase so that a failing document leaves no trace:
// Resolve() looks a name up or assigns the number it *would* get, without
// changing anything; Commit() makes pending fields permanent once the whole
// document has been validated.
//
// Thread safety: none.
#ifndef INVERT_INDEX_FIELD_INFOS_H_
#define INVERT_INDEX_FIELD_INFOS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "codec/field_info.h"
#include "invert/field_type.h"

namespace invert {

class FieldInfos {
 public:
  // Returns the number of field `name` with `type`: its existing number, or
  // a pending one (registered by Commit). Fails if the name exists with
  // another type, or the type is invalid.
  absl::StatusOr<uint32_t> Resolve(std::string_view name, const FieldType& type);

  // Makes every pending field permanent / forgets them.
  void Commit();
  void Rollback();

  // Committed fields, by number.
  size_t size() const { return committed_; }
  const FieldInfo& operator[](uint32_t number) const { return fields_[number]; }
  // Committed or pending field number of `name`, or -1.
  int64_t Find(std::string_view name) const;
  const std::vector<FieldInfo>& all() const { return fields_; }

 private:
  std::vector<FieldInfo> fields_;  // committed first, then pending
  size_t committed_ = 0;
  // A node map, not a flat_hash_map: its insert leaves the map as it was
  // when allocating throws (absl's raw_hash_set is left corrupt), which the
  // chain's rollback after std::bad_alloc relies on.
  std::map<std::string, uint32_t, std::less<>> by_name_;
};

}  // namespace invert

#endif  // INVERT_INDEX_FIELD_INFOS_H_

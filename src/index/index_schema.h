// IndexSchema: the one type of every field name across the whole index: all
// indexing threads, all segments, all commits. The writer keeps one; every
// indexing chain registers the new fields of a document here before the
// document is inverted, and the commit point persists the schema.
//
// The first registration of a name fixes its type; registering the name with
// another type fails and changes nothing. Register() checks and adds all of
// a document's new fields at once, so a rejected document leaves no field
// behind. Order of first use = order of successful Register() calls, which
// follows the order in which AddDocument calls pass validation (for one
// thread, the order of its calls). Reset() restores a committed schema
// (Rollback).
//
// Thread safety: every method may be called from any thread.
#ifndef INVERT_INDEX_INDEX_SCHEMA_H_
#define INVERT_INDEX_INDEX_SCHEMA_H_

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "codec/field_info.h"
#include "invert/field_type.h"
#include "util/mutex.h"

namespace invert {

// OK iff `name` can name a field: 1 to kMaxFieldNameBytes (1,024) bytes of
// well-formed UTF-8. kInvalidArgument saying why otherwise.
absl::Status ValidateFieldName(std::string_view name);

// The message for `name` used as `wanted` while the index has it as
// `existing`.
std::string FieldTypeConflict(std::string_view name, const FieldType& existing,
                              const FieldType& wanted);

class IndexSchema {
 public:
  struct NewField {
    std::string_view name;
    const FieldType* type;
  };

  IndexSchema() = default;
  explicit IndexSchema(const std::vector<FieldInfo>& committed) { Reset(committed); }
  IndexSchema(const IndexSchema&) = delete;
  IndexSchema& operator=(const IndexSchema&) = delete;

  // Registers every field of `fields` (names may repeat): each must be new
  // or already have the same type. On the first conflict returns
  // kInvalidArgument (FieldTypeConflict) and registers none of them. An
  // exception (std::bad_alloc) propagates and registers none of them either
  // (std containers here: Abseil's hash tables are not exception-safe).
  absl::Status Register(std::span<const NewField> fields) ABSL_LOCKS_EXCLUDED(mu_);

  // The type of `name`, if registered.
  std::optional<FieldType> Find(std::string_view name) const ABSL_LOCKS_EXCLUDED(mu_);

  // Every field in order of first use (FieldInfo::number = position).
  std::vector<FieldInfo> Snapshot() const ABSL_LOCKS_EXCLUDED(mu_);
  size_t size() const ABSL_LOCKS_EXCLUDED(mu_);

  // Replaces the schema with `fields` (numbers are taken from the order).
  void Reset(const std::vector<FieldInfo>& fields) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  mutable Mutex mu_;
  std::vector<FieldInfo> fields_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, size_t, std::less<>> by_name_ ABSL_GUARDED_BY(mu_);
};

}  // namespace invert

#endif  // INVERT_INDEX_INDEX_SCHEMA_H_

// invert-dump INDEX --docs / --ids: every document's stored fields, or the
// sorted set of stored ids.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/cli.h"
#include "common/display.h"
#include "dump.h"
#include "util/absl_compat.h"

namespace invert::tools {
namespace {

constexpr char kIdField[] = "id";

// Calls fn(global doc, segment, stored fields or error) for every document
// in order while fn returns true.
template <typename Fn>
void ForEachDocument(const CommitReader& reader, Fn&& fn) {
  for (size_t s = 0; s < reader.segment_count(); ++s) {
    const SegmentReader& seg = reader.segment(s);
    for (uint32_t d = 0; d < seg.doc_count(); ++d) {
      if (!fn(reader.doc_base(s) + d, seg, seg.stored_fields().Document(d))) return;
    }
  }
}

}  // namespace

std::string FieldName(const SegmentReader& seg, uint32_t number) {
  if (number < seg.fields().size()) return EscapeForDisplay(seg.fields()[number].name);
  return absl::StrCat("#", number);
}

int DumpDocs(const CommitReader& reader, uint64_t limit) {
  uint64_t shown = 0, unreadable = 0;
  std::string line;
  ForEachDocument(reader, [&](uint64_t doc, const SegmentReader& seg,
                              const absl::StatusOr<std::vector<StoredField>>& stored) {
    if (shown >= limit) return false;
    line = absl::StrCat("doc ", doc);
    if (stored.ok()) {
      for (const StoredField& f : *stored) {
        absl::StrAppend(&line, "\t", FieldName(seg, f.field_number), "=",
                        EscapeForDisplay(f.value));
      }
    } else {
      ++unreadable;
      absl::StrAppend(&line, "\t<stored fields unreadable: ",
                      EscapeForDisplay(StdSv(stored.status().message())), ">");
    }
    line += '\n';
    std::fputs(line.c_str(), stdout);
    ++shown;
    return true;
  });
  if (unreadable > 0) {
    std::fprintf(stderr, "invert-dump: the stored fields of %llu document(s) could not be read\n",
                 static_cast<unsigned long long>(unreadable));
    return kExitFailure;
  }
  return kExitOk;
}

int DumpIds(const CommitReader& reader) {
  std::vector<std::string> ids;
  uint64_t unreadable = 0, without_id = 0;
  ForEachDocument(reader, [&](uint64_t doc, const SegmentReader& seg,
                              const absl::StatusOr<std::vector<StoredField>>& stored) {
    if (!stored.ok()) {
      if (unreadable++ == 0) {
        std::fprintf(stderr, "invert-dump: doc %llu: stored fields unreadable: %s\n",
                     static_cast<unsigned long long>(doc),
                     EscapeForDisplay(StdSv(stored.status().message())).c_str());
      }
      return true;
    }
    const FieldInfo* id = seg.FieldByName(kIdField);
    bool found = false;
    for (const StoredField& f : *stored) {
      if (id != nullptr && f.field_number == id->number) {
        ids.push_back(EscapeForDisplay(f.value));
        found = true;
      }
    }
    without_id += !found;
    return true;
  });
  std::sort(ids.begin(), ids.end());
  std::string out;
  for (const std::string& id : ids) absl::StrAppend(&out, id, "\n");
  std::fputs(out.c_str(), stdout);
  if (without_id > 0) {
    std::fprintf(stderr, "invert-dump: %llu document(s) have no stored \"id\"\n",
                 static_cast<unsigned long long>(without_id));
  }
  if (unreadable > 0) {
    std::fprintf(stderr, "invert-dump: the stored fields of %llu document(s) could not be read\n",
                 static_cast<unsigned long long>(unreadable));
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace invert::tools

// invert-dump INDEX --docs / --ids: every document's stored fields, or the
// sorted set of stored ids.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/absl_compat.h"
#include "common/cli.h"
#include "common/display.h"
#include "dump.h"

namespace invert::tools {
namespace {

constexpr char kIdField[] = "id";

// Calls fn(global doc, stored document or error) for every document in
// order while fn returns true; for a deleted document (whose stored fields
// a reader no longer returns) the second argument is null.
template <typename Fn>
void ForEachDocument(const IndexReader& reader, Fn&& fn) {
  for (const LeafReader* leaf : reader.leaves()) {
    for (uint32_t d = 0; d < leaf->max_doc(); ++d) {
      if (leaf->IsDeleted(d)) {
        if (!fn(leaf->doc_base() + d, nullptr)) return;
        continue;
      }
      const absl::StatusOr<StoredDocument> stored = leaf->Document(d);
      if (!fn(leaf->doc_base() + d, &stored)) return;
    }
  }
}

}  // namespace

int DumpDocs(const IndexReader& reader, uint64_t limit) {
  uint64_t shown = 0, unreadable = 0;
  std::string line;
  ForEachDocument(reader, [&](uint64_t doc, const absl::StatusOr<StoredDocument>* stored) {
    if (shown >= limit) return false;
    line = absl::StrCat("doc ", doc);
    if (stored == nullptr) {
      line += "\t<deleted>";
    } else if (stored->ok()) {
      for (const StoredValue& v : (*stored)->values) {
        absl::StrAppend(&line, "\t", EscapeForDisplay(v.field), "=", EscapeForDisplay(v.value));
      }
    } else {
      ++unreadable;
      absl::StrAppend(&line, "\t<stored fields unreadable: ",
                      EscapeForDisplay(StdSv(stored->status().message())), ">");
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

int DumpIds(const IndexReader& reader) {
  std::vector<std::string> ids;
  uint64_t unreadable = 0, without_id = 0;
  ForEachDocument(reader, [&](uint64_t doc, const absl::StatusOr<StoredDocument>* stored) {
    if (stored == nullptr) return true;  // deleted
    if (!stored->ok()) {
      if (unreadable++ == 0) {
        std::fprintf(stderr, "invert-dump: doc %llu: stored fields unreadable: %s\n",
                     static_cast<unsigned long long>(doc),
                     EscapeForDisplay(StdSv(stored->status().message())).c_str());
      }
      return true;
    }
    bool found = false;
    for (std::string_view id : (*stored)->GetAll(kIdField)) {
      ids.push_back(EscapeForDisplay(id));
      found = true;
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

// invert-dump INDEX --field F --term T: one term's statistics and postings.
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/absl_compat.h"
#include "common/cli.h"
#include "common/display.h"
#include "dump.h"

namespace invert::tools {
namespace {

// The type of the field called `name` in `leaf`, or null when the segment
// has no values of it.
const FieldType* FieldTypeIn(const LeafReader& leaf, const std::string& name) {
  for (const FieldSchema& f : leaf.fields()) {
    if (f.name == name) return &f.type;
  }
  return nullptr;
}

// Everything the field's postings record up to positions (the dump shows no
// offsets or payloads).
uint32_t PostingsFlags(const FieldType& type) {
  if (HasPositions(type.index_options)) return kPostingsPositions;
  if (HasFreqs(type.index_options)) return kPostingsFreqs;
  return kPostingsDocs;
}

// Reports a failure the library's status describes in full (it names the
// segment and the field); returns kExitFailure.
int Failed(const absl::Status& status) {
  std::fprintf(stderr, "invert-dump: %s\n", EscapeForDisplay(StdSv(status.message())).c_str());
  return kExitFailure;
}

}  // namespace

int DumpTerm(const IndexReader& reader, const std::string& field, const std::string& term,
             uint64_t limit, const std::string& show) {
  uint64_t doc_freq = 0, total_term_freq = 0, shown = 0;
  bool unreadable = false;
  std::string lines;
  for (const LeafReader* leaf : reader.leaves()) {
    const FieldType* type = FieldTypeIn(*leaf, field);
    if (type == nullptr || !type->indexed()) continue;
    const bool show_stored = FieldTypeIn(*leaf, show) != nullptr;
    absl::StatusOr<std::unique_ptr<TermsEnum>> terms = leaf->Terms(field);
    if (!terms.ok()) return Failed(terms.status());
    absl::StatusOr<bool> found = (*terms)->SeekExact(term);
    if (!found.ok()) return Failed(found.status());
    if (!*found) continue;
    doc_freq += (*terms)->doc_freq();
    total_term_freq += (*terms)->total_term_freq();
    absl::StatusOr<std::unique_ptr<PostingsEnum>> postings =
        (*terms)->Postings(PostingsFlags(*type));
    if (!postings.ok()) return Failed(postings.status());
    PostingsEnum& it = **postings;
    while (shown < limit && it.NextDoc() != PostingsEnum::kNoMoreDocs) {
      absl::StrAppend(&lines, "  doc ", leaf->doc_base() + it.doc(), " freq ", it.freq());
      if (HasPositions(type->index_options)) {
        lines += " positions";
        for (uint32_t i = 0; i < it.freq() && i < 8 && it.NextPosition(); ++i) {
          absl::StrAppend(&lines, " ", it.position());
        }
        if (it.freq() > 8) lines += " ...";
      }
      if (show_stored) {
        absl::StatusOr<StoredDocument> doc = leaf->Document(it.doc());
        if (doc.ok()) {
          for (std::string_view value : doc->GetAll(show)) {
            absl::StrAppend(&lines, "  ", EscapeForDisplay(show), ": ", EscapeForDisplay(value));
          }
        } else {
          unreadable = true;
          absl::StrAppend(&lines, "  <stored fields unreadable: ",
                          EscapeForDisplay(StdSv(doc.status().message())), ">");
        }
      }
      lines += "\n";
      ++shown;
    }
    if (!it.status().ok()) {
      std::fprintf(stderr, "invert-dump: segment %s: %s\n", EscapeForDisplay(leaf->name()).c_str(),
                   EscapeForDisplay(StdSv(it.status().message())).c_str());
      return kExitFailure;
    }
  }
  std::printf("field %s term \"%s\": doc freq %llu, total term freq %llu\n",
              EscapeForDisplay(field).c_str(), EscapeForDisplay(term).c_str(),
              static_cast<unsigned long long>(doc_freq),
              static_cast<unsigned long long>(total_term_freq));
  if (reader.num_docs() < reader.max_doc()) {
    std::printf(
        "(the statistics count the index's %llu deleted documents; the postings skip them)\n",
        static_cast<unsigned long long>(reader.max_doc() - reader.num_docs()));
  }
  std::fputs(lines.c_str(), stdout);
  if (unreadable) {
    std::fprintf(stderr, "invert-dump: some stored fields could not be read\n");
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace invert::tools

// invert-dump INDEX --field F --term T: one term's statistics and postings.
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "common/cli.h"
#include "common/display.h"
#include "dump.h"
#include "util/absl_compat.h"

namespace invert::tools {

int DumpTerm(const CommitReader& reader, const std::string& field, const std::string& term,
             uint64_t limit, const std::string& show) {
  uint64_t doc_freq = 0, total_term_freq = 0, shown = 0;
  bool unreadable = false;
  std::string lines;
  for (size_t s = 0; s < reader.segment_count(); ++s) {
    const SegmentReader& seg = reader.segment(s);
    const FieldInfo* f = seg.FieldByName(field);
    if (f == nullptr || seg.Terms(f->number) == nullptr) continue;
    const FieldInfo* stored = seg.FieldByName(show);
    TermDictCursor cursor = seg.Terms(f->number)->NewCursor();
    absl::StatusOr<bool> found = cursor.SeekExact(term);
    if (!found.ok()) {
      std::fprintf(stderr, "invert-dump: segment %s: %s\n",
                   EscapeForDisplay(seg.info().name).c_str(),
                   EscapeForDisplay(StdSv(found.status().message())).c_str());
      return kExitFailure;
    }
    if (!*found) continue;
    doc_freq += cursor.stats().doc_freq;
    total_term_freq += cursor.stats().total_term_freq;
    PostingsCursor it = seg.Postings(f->number, cursor.stats());
    while (shown < limit && it.NextDoc()) {
      absl::StrAppend(&lines, "  doc ", reader.doc_base(s) + it.doc(), " freq ", it.freq());
      if (HasPositions(f->type.index_options)) {
        lines += " positions";
        for (uint32_t i = 0; i < it.freq() && i < 8 && it.NextPosition(); ++i) {
          absl::StrAppend(&lines, " ", it.position());
        }
        if (it.freq() > 8) lines += " ...";
      }
      if (stored != nullptr) {
        absl::StatusOr<std::vector<StoredField>> doc = seg.stored_fields().Document(it.doc());
        if (doc.ok()) {
          for (const StoredField& v : *doc) {
            if (v.field_number == stored->number) {
              absl::StrAppend(&lines, "  ", EscapeForDisplay(show), ": ",
                              EscapeForDisplay(v.value));
            }
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
      std::fprintf(stderr, "invert-dump: segment %s: %s\n",
                   EscapeForDisplay(seg.info().name).c_str(),
                   EscapeForDisplay(StdSv(it.status().message())).c_str());
      return kExitFailure;
    }
  }
  std::printf("field %s term \"%s\": doc freq %llu, total term freq %llu\n",
              EscapeForDisplay(field).c_str(), EscapeForDisplay(term).c_str(),
              static_cast<unsigned long long>(doc_freq),
              static_cast<unsigned long long>(total_term_freq));
  std::fputs(lines.c_str(), stdout);
  if (unreadable) {
    std::fprintf(stderr, "invert-dump: some stored fields could not be read\n");
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace invert::tools

// DumpSegment: mirrors IndexingChain::DebugDump().
#include "testing/segment_dump.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "util/absl_compat.h"

namespace invert {

absl::StatusOr<std::string> DumpSegment(const SegmentReader& segment, const LiveDocs* live,
                                        uint64_t del_gen) {
  if (live != nullptr && live->doc_count() != segment.doc_count()) {
    return absl::InvalidArgumentError(absl::StrCat("live docs of ", live->doc_count(),
                                                   " documents for segment ", segment.info().name,
                                                   " of ", segment.doc_count()));
  }
  if (live != nullptr && live->del_count() == 0) live = nullptr;
  std::string out = absl::StrCat("docs ", segment.doc_count(), "\n");
  if (live != nullptr) {
    absl::StrAppend(&out, "deleted: ", live->del_count(), " (del_gen ", del_gen, ")\n");
  }
  for (const FieldInfo& info : segment.fields()) {
    const FieldType& t = info.type;
    absl::StrAppend(&out, "field ", info.number, " ", info.name,
                    " idx=", static_cast<int>(t.index_options), " tok=", t.tokenized,
                    " st=", t.stored, " norms=", t.norms, " pay=", t.payloads,
                    " tv=", t.term_vectors, t.term_vector_positions, t.term_vector_offsets,
                    t.term_vector_payloads, "\n");
    if (const TermDictReader* dict = segment.Terms(info.number); dict != nullptr) {
      TermDictCursor cursor = dict->NewCursor();
      for (;;) {
        absl::StatusOr<bool> next = cursor.Next();
        if (!next.ok()) return next.status();
        if (!*next) break;
        absl::StrAppend(&out, "  term \"", absl::CEscape(Sv(cursor.term())), "\"\n");
        PostingsCursor it = segment.Postings(info.number, cursor.stats());
        while (it.NextDoc()) {
          absl::StrAppend(&out, "    doc ", it.doc(), " freq ", it.freq());
          if (HasPositions(t.index_options)) {
            for (uint32_t i = 0; i < it.freq(); ++i) {
              if (!it.NextPosition()) break;
              absl::StrAppend(&out, " ", it.position());
              if (HasOffsets(t.index_options)) {
                absl::StrAppend(&out, "[", it.start_offset(), ",", it.end_offset(), ")");
              }
              if (!it.payload().empty()) {
                absl::StrAppend(&out, "<", absl::CEscape(Sv(it.payload())), ">");
              }
            }
          }
          out += "\n";
        }
        if (!it.status().ok()) return it.status();
      }
    }
    if (t.has_norms()) {
      absl::StrAppend(&out, "  norms");
      for (uint32_t doc = 0; doc < segment.doc_count(); ++doc) {
        absl::StrAppend(&out, " ", segment.Norm(info.number, doc));
      }
      out += "\n";
    }
  }
  for (uint32_t doc = 0; doc < segment.doc_count(); ++doc) {
    absl::StrAppend(&out, "doc ", doc, live != nullptr && !live->IsLive(doc) ? " (deleted)" : "",
                    "\n");
    absl::StatusOr<std::vector<StoredField>> stored = segment.stored_fields().Document(doc);
    if (!stored.ok()) return stored.status();
    for (const StoredField& v : *stored) {
      absl::StrAppend(&out, "  stored ", v.field_number, " \"", absl::CEscape(v.value), "\"\n");
    }
    absl::StatusOr<std::vector<TermVectorFieldData>> vectors = segment.term_vectors().Get(doc);
    if (!vectors.ok()) return vectors.status();
    for (const TermVectorFieldData& f : *vectors) {
      absl::StrAppend(&out, "  vector ", f.field_number, "\n");
      for (const TermVectorTermData& term : f.terms) {
        absl::StrAppend(&out, "    \"", absl::CEscape(term.term), "\" ", term.freq);
        for (uint32_t p : term.positions) absl::StrAppend(&out, " p", p);
        for (size_t i = 0; i < term.start_offsets.size(); ++i) {
          absl::StrAppend(&out, " o", term.start_offsets[i], "-", term.end_offsets[i]);
        }
        for (const std::string& payload : term.payloads) {
          absl::StrAppend(&out, " <", absl::CEscape(payload), ">");
        }
        out += "\n";
      }
    }
  }
  return out;
}

}  // namespace invert

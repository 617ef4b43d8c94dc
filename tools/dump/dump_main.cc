// invert-dump INDEX --field F --term T [--limit N] [--show FIELD]
// Prints the term's doc freq and total term freq over the whole index and its
// first postings (global doc id, freq, first positions) with a stored field
// of each document (default: title) — the simplest proof that an index says
// what went in. The term is looked up as given (analyzed terms are lower
// case).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/escaping.h"
#include "index/index_reader.h"
#include "util/absl_compat.h"

namespace {

int Usage() {
  std::fprintf(stderr,
               "usage: invert-dump INDEX --field F --term T [--limit N] [--show STORED_FIELD]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string index, field, term, show = "title";
  long limit = 10;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (a == "--field") {
      const char* v = value();
      if (v == nullptr) return Usage();
      field = v;
    } else if (a == "--term") {
      const char* v = value();
      if (v == nullptr) return Usage();
      term = v;
    } else if (a == "--limit") {
      const char* v = value();
      if (v == nullptr) return Usage();
      limit = std::strtol(v, nullptr, 10);
    } else if (a == "--show") {
      const char* v = value();
      if (v == nullptr) return Usage();
      show = v;
    } else if (!a.empty() && a[0] != '-' && index.empty()) {
      index = a;
    } else {
      return Usage();
    }
  }
  if (index.empty() || field.empty()) return Usage();
  auto reader = invert::IndexReader::Open(index);
  if (!reader.ok()) {
    std::fprintf(stderr, "invert-dump: %s\n", std::string(reader.status().message()).c_str());
    return 1;
  }
  uint64_t doc_freq = 0, total_term_freq = 0;
  long shown = 0;
  std::string lines;
  for (size_t s = 0; s < (*reader)->segment_count(); ++s) {
    const invert::SegmentReader& seg = (*reader)->segment(s);
    const invert::FieldInfo* f = seg.FieldByName(field);
    if (f == nullptr || seg.Terms(f->number) == nullptr) continue;
    const invert::FieldInfo* stored = seg.FieldByName(show);
    invert::TermDictCursor cursor = seg.Terms(f->number)->NewCursor();
    auto found = cursor.SeekExact(term);
    if (!found.ok()) {
      std::fprintf(stderr, "invert-dump: %s\n", std::string(found.status().message()).c_str());
      return 1;
    }
    if (!*found) continue;
    doc_freq += cursor.stats().doc_freq;
    total_term_freq += cursor.stats().total_term_freq;
    invert::PostingsEnum it = seg.Postings(f->number, cursor.stats());
    while (shown < limit && it.NextDoc()) {
      char buf[128];
      std::snprintf(buf, sizeof(buf), "  doc %llu freq %u",
                    static_cast<unsigned long long>((*reader)->doc_base(s) + it.doc()), it.freq());
      lines += buf;
      if (invert::HasPositions(f->type.index_options)) {
        lines += " positions";
        for (uint32_t i = 0; i < it.freq() && i < 8 && it.NextPosition(); ++i) {
          lines += " " + std::to_string(it.position());
        }
        if (it.freq() > 8) lines += " ...";
      }
      if (stored != nullptr) {
        auto doc = seg.stored_fields().Document(it.doc());
        if (doc.ok()) {
          for (const auto& v : *doc) {
            if (v.field_number == stored->number) lines += "  " + show + ": " + v.value;
          }
        }
      }
      lines += "\n";
      ++shown;
    }
    if (!it.status().ok()) {
      std::fprintf(stderr, "invert-dump: %s\n", std::string(it.status().message()).c_str());
      return 1;
    }
  }
  std::printf("field %s term \"%s\": doc freq %llu, total term freq %llu\n", field.c_str(),
              absl::CEscape(invert::Sv(term)).c_str(), static_cast<unsigned long long>(doc_freq),
              static_cast<unsigned long long>(total_term_freq));
  std::fputs(lines.c_str(), stdout);
  return 0;
}

// make_golden_index: writes the golden tiny index that
// tests/index/golden_index_test.cc opens (tests/data/golden_index/). Test
// support, built only with the tests, run by hand; uses only the public API.
//
// Four documents in two commits, one segment each, so that every file type
// and every field option appears:
//   id     keyword, docs only, stored, no norms
//   lang   keyword, docs only, not stored
//   title  text, freqs + positions, norms, stored, term vectors (terms only)
//   body   text, freqs + positions + offsets, norms, term vectors with
//          positions and offsets
//   tags   pre-analyzed tokens: positions + offsets + payloads, norms,
//          stored value, term vectors with positions, offsets and payloads
//   note   stored only
// Commit 1 (segments_1): segment _0 = docs 0, 1. Commit 2 (segments_2):
// segment _1 = docs 2, 3. Doc 2 has no title, so segment _1 numbers its
// fields in another order than _0 and the schema (field numbers are per
// segment). write.lock is removed afterwards: it is the writer's lock, not
// part of the index's format.
//
// Regenerating is a deliberate format change: the ids in every header are
// random, so every byte of the golden files changes, and the byte-level
// examples in docs/format.md are taken from these files. Do it only when the
// format changes on purpose, then update the test's expectations and the
// examples:
//   cmake --build <build> --target invert_make_golden_index
//   rm -rf tests/data/golden_index
//   <build>/tests/golden/invert_make_golden_index tests/data/golden_index
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "invert/document.h"
#include "invert/field_type.h"
#include "invert/index_options.h"
#include "invert/index_writer.h"

namespace {

using invert::Document;
using invert::Field;
using invert::FieldType;
using invert::IndexOptions;
using invert::PreAnalyzedToken;

FieldType IdType() { return FieldType::Keyword(/*stored=*/true); }
FieldType LangType() { return FieldType::Keyword(/*stored=*/false); }

FieldType TitleType() {
  FieldType t = FieldType::Text(/*stored=*/true);
  t.term_vectors = true;
  return t;
}

FieldType BodyType() {
  FieldType t = FieldType::Text(/*stored=*/false);
  t.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
  t.term_vectors = true;
  t.term_vector_positions = true;
  t.term_vector_offsets = true;
  return t;
}

FieldType TagsType() {
  FieldType t;
  t.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
  t.tokenized = true;
  t.stored = true;
  t.norms = true;
  t.payloads = true;
  t.term_vectors = true;
  t.term_vector_positions = true;
  t.term_vector_offsets = true;
  t.term_vector_payloads = true;
  return t;
}

struct Doc {
  const char* id;
  const char* lang;
  const char* title;  // nullptr: absent
  const char* body;   // nullptr: absent
  std::vector<PreAnalyzedToken> tags;
  const char* tags_stored;  // nullptr: absent
  const char* note;         // nullptr: absent
};

absl::Status Add(invert::IndexWriter& writer, const Doc& d) {
  Document doc;
  doc.Add(Field::Keyword("id", d.id, IdType())).Add(Field::Keyword("lang", d.lang, LangType()));
  if (d.title != nullptr) doc.Add(Field::Text("title", d.title, TitleType()));
  if (d.body != nullptr) doc.Add(Field::Text("body", d.body, BodyType()));
  if (!d.tags.empty()) doc.Add(Field::Tokens("tags", d.tags, TagsType(), d.tags_stored));
  if (d.note != nullptr) doc.Add(Field::Stored("note", d.note));
  return writer.AddDocument(doc);
}

absl::Status Run(const std::string& path) {
  invert::IndexWriterOptions options;
  options.open_mode = invert::OpenMode::kCreate;
  options.threads = 1;
  options.ram_buffer_mb = 16;
  absl::StatusOr<std::unique_ptr<invert::IndexWriter>> writer =
      invert::IndexWriter::Open(path, options);
  if (!writer.ok()) return writer.status();
  // Segment _0.
  const std::vector<Doc> first = {
      {"a1",
       "en",
       "Quick brown fox",
       "the fox jumps over the dog",
       {{"red", 1, 0, 3, "\x01"}, {"blue", 1, 4, 8, ""}},
       "red blue",
       "first"},
      {"b2", "en", "Lazy dog", "dog eat dog", {{"red", 1, 0, 3, "p2"}}, "red", nullptr},
  };
  // Segment _1.
  const std::vector<Doc> second = {
      {"c3",
       "de",
       nullptr,
       "fox fox fox",
       {{"green", 1, 0, 5, "g"}, {"red", 2, 7, 10, ""}},
       "green  red",
       "third"},
      {"d4", "de", "brown dog", nullptr, {}, nullptr, nullptr},
  };
  for (const Doc& d : first) {
    if (absl::Status s = Add(**writer, d); !s.ok()) return s;
  }
  if (absl::Status s = (*writer)->Commit(); !s.ok()) return s;
  for (const Doc& d : second) {
    if (absl::Status s = Add(**writer, d); !s.ok()) return s;
  }
  if (absl::Status s = (*writer)->Close(); !s.ok()) return s;
  std::error_code error;
  std::filesystem::remove(std::filesystem::path(path) / "write.lock", error);
  if (error) return absl::InternalError("removing write.lock: " + error.message());
  return absl::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR (must not exist yet)\n", argv[0]);
    return 2;
  }
  if (std::filesystem::exists(argv[1])) {
    std::fprintf(stderr, "%s exists: remove it first (regenerating changes every byte)\n", argv[1]);
    return 2;
  }
  if (absl::Status s = Run(argv[1]); !s.ok()) {
    std::fprintf(stderr, "make_golden_index: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  return 0;
}

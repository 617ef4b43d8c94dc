// invert_basic: indexes three documents with IndexWriter, closes the writer
// (a durable commit), then opens the index with IndexReader and reads it
// back: every term of the "body" field with its postings and positions, and
// the stored "title" of each document a term occurs in.
//
//   invert_basic INDEX_DIR     (the directory is created, or appended to)
#include <cstdio>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "invert/document.h"
#include "invert/field_type.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "invert/version.h"

namespace {

struct Doc {
  const char* id;
  const char* title;
  const char* body;
};

constexpr Doc kDocs[] = {
    {"1", "Inverted index", "An inverted index maps each term to the documents holding it."},
    {"2", "Segments", "The writer flushes segments; a commit point lists the segments."},
    {"3", "Readers", "A reader opens the newest commit and iterates terms and postings."},
};

absl::Status Write(const std::string& path) {
  invert::IndexWriterOptions options;
  options.ram_buffer_mb = 16;
  absl::StatusOr<std::unique_ptr<invert::IndexWriter>> writer =
      invert::IndexWriter::Open(path, options);
  if (!writer.ok()) return writer.status();
  for (const Doc& d : kDocs) {
    invert::Document doc;
    doc.Add(invert::Field::Keyword("id", d.id, invert::FieldType::Keyword(/*stored=*/true)))
        .Add(invert::Field::Text("title", d.title, invert::FieldType::Text(/*stored=*/true)))
        .Add(invert::Field::Text("body", d.body));
    if (absl::Status s = (*writer)->AddDocument(doc); !s.ok()) return s;
  }
  return (*writer)->Close();  // commits durably
}

absl::Status Read(const std::string& path) {
  absl::StatusOr<std::unique_ptr<invert::IndexReader>> reader = invert::IndexReader::Open(path);
  if (!reader.ok()) return reader.status();
  std::printf("commit %llu: %llu documents in %zu segment(s)\n",
              static_cast<unsigned long long>((*reader)->generation()),
              static_cast<unsigned long long>((*reader)->num_docs()), (*reader)->leaves().size());
  for (const invert::LeafReader* leaf : (*reader)->leaves()) {
    absl::StatusOr<std::unique_ptr<invert::TermsEnum>> terms = leaf->Terms("body");
    if (!terms.ok()) return terms.status();
    while (true) {
      absl::StatusOr<bool> more = (*terms)->Next();
      if (!more.ok()) return more.status();
      if (!*more) break;
      std::printf("%-10.*s df=%u:", static_cast<int>((*terms)->term().size()),
                  (*terms)->term().data(), (*terms)->doc_freq());
      absl::StatusOr<std::unique_ptr<invert::PostingsEnum>> postings =
          (*terms)->Postings(invert::kPostingsPositions);
      if (!postings.ok()) return postings.status();
      invert::PostingsEnum& p = **postings;
      for (uint32_t doc = p.NextDoc(); doc != invert::PostingsEnum::kNoMoreDocs;
           doc = p.NextDoc()) {
        absl::StatusOr<invert::StoredDocument> stored = leaf->Document(doc);
        if (!stored.ok()) return stored.status();
        std::printf(" \"%s\" at", std::string(stored->Get("title").value_or("?")).c_str());
        while (p.NextPosition()) std::printf(" %u", p.position());
        std::printf(";");
      }
      if (!p.status().ok()) return p.status();
      std::printf("\n");
    }
  }
  return absl::OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: invert_basic INDEX_DIR\n");
    return 2;
  }
  std::printf("invert %s (headers %s)\n", invert::Version(), INVERT_VERSION_STRING);
  absl::Status s = Write(argv[1]);
  if (s.ok()) s = Read(argv[1]);
  if (!s.ok()) {
    std::fprintf(stderr, "invert_basic: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}

// make_postings_v2_index: wrote tests/data/postings_v2_index, the documents
// of postings_v2_docs.h in one segment, with the build of issue 13 before
// .doc version 3 (so its .doc is version 2). Test support, built only with
// the tests, run by hand; uses only the public API.
//
// Run by today's build it writes the current .doc version, so it cannot
// regenerate the committed index; it is kept to show how that index was
// made (and to write a current-version twin to compare with):
//   cmake --build <build> --target invert_make_postings_v2_index
//   <build>/tests/golden/invert_make_postings_v2_index <dir>
#include <cstdio>
#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "invert/document.h"
#include "invert/index_writer.h"
#include "postings_v2_docs.h"

namespace {

absl::Status Run(const std::string& path) {
  invert::IndexWriterOptions options;
  options.open_mode = invert::OpenMode::kCreate;
  options.threads = 1;
  options.ram_buffer_mb = 64;
  absl::StatusOr<std::unique_ptr<invert::IndexWriter>> writer =
      invert::IndexWriter::Open(path, options);
  if (!writer.ok()) return writer.status();
  for (uint32_t d = 0; d < invert::testing::kPostingsV2Docs; ++d) {
    const invert::testing::PostingsV2Doc text = invert::testing::PostingsV2Document(d);
    invert::Document doc;
    doc.Add(invert::Field::Text("body", text.body, invert::testing::PostingsV2BodyType()))
        .Add(invert::Field::Text("title", text.title, invert::testing::PostingsV2TitleType()))
        .Add(invert::Field::Keyword("tag", text.tag, invert::testing::PostingsV2TagType()));
    if (absl::Status s = (*writer)->AddDocument(doc); !s.ok()) return s;
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
    std::fprintf(stderr, "usage: %s DIR (a new index is written there)\n", argv[0]);
    return 2;
  }
  const absl::Status s = Run(argv[1]);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  return 0;
}

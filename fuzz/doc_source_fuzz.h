// The body of the line-docs and JSON-lines targets (include/invert/
// line_docs.h): both readers take a path, so the input goes to a temporary
// file first.
//
// Input: flags:u8, then the file's bytes. flags & 7 picks the read size (1,
// 2, 3, 7, 16, 61, 256 or 4096 bytes, so lines straddle reads and the buffer
// grows), bit 3 a max_line_bytes of 64 (so the over-long-line path runs). Every document's
// views are read; Next() runs to the end of the input (at most 2^16 lines).
// Checked contracts: bytes_read() never decreases nor passes the file's
// size, line numbers increase, and after OutOfRange every Next() returns
// OutOfRange again.
#ifndef INVERT_FUZZ_DOC_SOURCE_FUZZ_H_
#define INVERT_FUZZ_DOC_SOURCE_FUZZ_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_common.h"
#include "invert/line_docs.h"

namespace invert::fuzz {

inline void DocSourceCheck(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "doc source fuzzer: %s\n", what);
    std::abort();
  }
}

template <typename OpenFn>
int FuzzDocSource(const uint8_t* data, size_t size, OpenFn open) {
  static TempFile file;  // removed at exit
  FuzzInput in(data, size);
  const uint8_t flags = in.U8();
  const std::string_view text = in.Rest();
  file.Write(text);
  DocSourceOptions options;
  static constexpr size_t kReadBytes[8] = {1, 2, 3, 7, 16, 61, 256, 4096};
  options.read_bytes = kReadBytes[flags & 7];
  if (flags & 8) options.max_line_bytes = 64;
  absl::StatusOr<std::unique_ptr<DocSource>> source = open(file.path(), options);
  if (!source.ok()) return 0;
  volatile size_t sink = 0;
  uint64_t last_bytes = 0;
  uint64_t last_line = 0;
  for (int i = 0; i < (1 << 16); ++i) {
    absl::StatusOr<SourceDoc> doc = (*source)->Next();
    const uint64_t bytes = (*source)->bytes_read();
    DocSourceCheck(bytes >= last_bytes, "bytes_read() went backwards");
    DocSourceCheck(bytes <= text.size(), "bytes_read() past the end of the file");
    last_bytes = bytes;
    if (doc.ok()) {
      DocSourceCheck(doc->line_number > last_line, "line numbers not increasing");
      last_line = doc->line_number;
      for (std::string_view v : {doc->id, doc->title, doc->date, doc->body}) {
        for (char c : v) sink = sink + static_cast<unsigned char>(c);
      }
      continue;
    }
    if (absl::IsOutOfRange(doc.status())) {
      DocSourceCheck(absl::IsOutOfRange((*source)->Next().status()),
                     "Next() after the end did not return OutOfRange");
      break;
    }
    if (!absl::IsInvalidArgument(doc.status())) break;  // I/O error: the source stays failed
  }
  (void)sink;
  return 0;
}

}  // namespace invert::fuzz

#endif  // INVERT_FUZZ_DOC_SOURCE_FUZZ_H_

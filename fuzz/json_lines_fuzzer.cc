// Fuzz target: the JSON-lines reader (OpenJsonLines, include/invert/
// line_docs.h). Input and checks: fuzz/doc_source_fuzz.h.
#include "doc_source_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return invert::fuzz::FuzzDocSource(
      data, size, [](const std::string& path, const invert::DocSourceOptions& options) {
        return invert::OpenJsonLines(path, options);
      });
}

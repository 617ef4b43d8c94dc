// invert-check INDEX: verifies every checksum and every invariant of the
// index's newest commit and prints per-field statistics. Exit status 0 iff
// the index is sound, 1 if it is not, 2 on a usage error.
#include <cstdio>
#include <string>

#include "index/index_checker.h"
#include "invert/directory.h"

int main(int argc, char** argv) {
  if (argc != 2 || std::string(argv[1]) == "--help") {
    std::fprintf(stderr, "usage: invert-check INDEX\n");
    return 2;
  }
  auto dir = invert::FSDirectory::Open(argv[1], /*create=*/false);
  if (!dir.ok()) {
    std::fprintf(stderr, "invert-check: %s\n", std::string(dir.status().message()).c_str());
    return 1;
  }
  const invert::CheckReport report = invert::CheckIndex(dir->get());
  std::fputs(invert::FormatCheckReport(report).c_str(), stdout);
  return report.ok ? 0 : 1;
}

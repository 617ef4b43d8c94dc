// invert-check INDEX [--json]: verifies every checksum and every invariant of
// the index's newest commit and prints per-field statistics and deletions
// (or, with --json, one JSON object: "docs" counts live documents,
// "deleted_docs" the deleted ones still in the segments). When the index cannot be opened (no
// commit point, or the newest one cannot be read) it prints the library's cause in full. Exit
// status 0 iff the index is sound, 1 if it is not, 2 on a usage error.
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/absl_compat.h"
#include "common/cli.h"
#include "common/display.h"
#include "invert/check_index.h"
#include "invert/directory.h"

namespace invert::tools {
namespace {

std::string JsonStrings(const std::vector<std::string>& list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) absl::StrAppend(&out, i ? "," : "", JsonString(list[i]));
  return out + "]";
}

void PrintJson(const CheckReport& r) {
  std::string out = absl::StrCat(
      "{\"ok\":", r.ok ? "true" : "false", ",\"generation\":", r.generation,
      ",\"segments\":", r.segments, ",\"docs\":", r.docs, ",\"deleted_docs\":", r.deleted_docs,
      ",\"index_bytes\":", r.index_bytes, ",\"problems\":", JsonStrings(r.problems),
      ",\"notes\":", JsonStrings(r.notes), ",\"fields\":{");
  bool first = true;
  for (const auto& [name, f] : r.fields) {
    absl::StrAppend(&out, first ? "" : ",", JsonString(name), ":{\"terms\":", f.terms,
                    ",\"postings\":", f.postings, ",\"positions\":", f.positions, "}");
    first = false;
  }
  out += "}}\n";
  std::fputs(out.c_str(), stdout);
}

int Run(int argc, char** argv) {
  std::string index;
  bool json = false;
  CLI::App app(
      "Verifies every checksum and every invariant of the index's newest commit and\n"
      "prints per-field statistics.",
      "invert-check");
  app.footer("Exit status: 0 the index is sound, 1 it is not (or cannot be read), 2 usage error.");
  app.add_option("INDEX", index, "index directory")->required();
  app.add_flag("--json", json, "print the report as one JSON object");
  if (std::optional<int> exit = ParseCommandLine(app, argc, argv)) return *exit;

  absl::StatusOr<std::unique_ptr<FSDirectory>> dir = FSDirectory::Open(index, /*create=*/false);
  if (!dir.ok()) {
    const std::string message = EscapeForDisplay(StdSv(dir.status().message()));
    std::fprintf(stderr, "invert-check: %s\n", message.c_str());
    if (json) {
      CheckReport failed;
      failed.ok = false;
      failed.problems.push_back(std::string(StdSv(dir.status().message())));
      PrintJson(failed);
    }
    return kExitFailure;
  }
  const CheckReport report = CheckIndex(dir->get());
  if (json) {
    PrintJson(report);
  } else {
    std::fputs(FormatCheckReport(report).c_str(), stdout);
  }
  // No commit was opened: the first problem is why (the reader's status).
  if (!report.ok && report.generation == 0 && !report.problems.empty()) {
    std::fprintf(stderr, "invert-check: cannot read the index in %s: %s\n", index.c_str(),
                 EscapeForDisplay(report.problems.front()).c_str());
  }
  return report.ok ? kExitOk : kExitFailure;
}

}  // namespace
}  // namespace invert::tools

int main(int argc, char** argv) { return invert::tools::Run(argc, argv); }

// invert-merge: combines indexes into one. The segments of the newest
// commit of every input index are copied into OUT under new names
// (IndexWriter::AddIndexes: their deletions come along, and their field
// schemas must agree with OUT's and with each other), then optionally
// merged down to N segments, then committed; a report says what happened.
//
//   invert-merge OUT IN... [--force-merge N] [--merge-policy tiered|none]
//                [--append | --overwrite] [--json]
//
// This is how sharded builds are combined: index each shard on its own
// machine, then `invert-merge --force-merge 1 final shard0 shard1 ...`.
// The inputs are only read (no lock is taken: they must not change
// meanwhile). OUT is created if missing; an index already in OUT is left
// alone unless --append (add to it) or --overwrite (replace it, when this
// run commits) says how, as with invert-index.
//
// Exit status: 0 done (committed), 1 error (nothing committed: OUT holds
// what it held before), 2 usage error. Flags: --help.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/absl_compat.h"
#include "common/cli.h"
#include "common/display.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "invert/merge_policy.h"

namespace invert::tools {
namespace {

struct MergeArgs {
  std::string out;
  std::vector<std::string> inputs;
  int force_merge = 0;  // 0: no ForceMerge
  std::string merge_policy = "tiered";
  bool append = false;
  bool overwrite = false;
  bool json = false;
};

struct InputIndex {
  uint64_t docs = 0;     // live documents
  uint64_t max_doc = 0;  // deleted ones included
  uint64_t segments = 0;
  uint64_t bytes = 0;  // files in its directory
};

struct Report {
  const MergeArgs* args = nullptr;
  std::vector<InputIndex> inputs;
  IndexWriterOpenInfo opened;
  uint64_t segments_before = 0;
  IndexWriterStats stats;  // after Close()
  double add_seconds = 0, force_merge_seconds = 0, commit_seconds = 0, seconds = 0;
  uint64_t index_bytes = 0;
  absl::Status status;
};

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

uint64_t DirectoryBytes(const std::string& path) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    if (entry.is_regular_file(ec)) total += entry.file_size(ec);
  }
  return total;
}

std::optional<int> ParseArgs(int argc, char** argv, MergeArgs* a) {
  CLI::App app(
      "Copies the segments of the newest commit of every input index (deletions\n"
      "included) into OUT, optionally merges them down to N segments, and commits.\n"
      "The field schemas of the inputs and OUT must agree.",
      "invert-merge");
  app.option_defaults()->always_capture_default();
  app.footer(
      "An index already in OUT is left alone unless --append or --overwrite says how.\n"
      "The inputs are only read and must not change while invert-merge runs.\n"
      "Exit status: 0 done, 1 error (nothing committed; OUT holds what it held before),\n"
      "2 usage error.");
  app.add_option("OUT", a->out, "the index to add to (created if missing; its parent must exist)")
      ->required();
  app.add_option("IN", a->inputs, "input index directories (one or more)")->required();
  app.add_option("--force-merge", a->force_merge,
                 "merge the result down to at most N segments before committing")
      ->transform(UnsignedIn(1, 1'000'000))
      ->default_str("no forced merge");
  app.add_option("--merge-policy", a->merge_policy,
                 "natural merges while the writer is open: tiered (Lucene's default) or none")
      ->check(CLI::IsMember({"tiered", "none"}));
  CLI::Option* append =
      app.add_flag("--append", a->append, "add to the index already in OUT (must exist)");
  CLI::Option* overwrite =
      app.add_flag("--overwrite", a->overwrite,
                   "replace the index in OUT (the old one stays until this run commits)");
  append->excludes(overwrite);
  app.add_flag("--json", a->json, "print the report as one JSON object");
  return ParseCommandLine(app, argc, argv);
}

// Reads every input (so that a missing or unreadable one, or OUT itself
// given as an input, is refused before OUT is touched).
absl::Status ReadInputs(const MergeArgs& args, std::vector<InputIndex>* inputs) {
  std::error_code ec;
  for (const std::string& in : args.inputs) {
    if (!std::filesystem::is_directory(in, ec)) {
      return absl::NotFoundError(absl::StrCat("input index ", in, " is not a directory"));
    }
    if (std::filesystem::equivalent(in, args.out, ec)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "input ", in, " is OUT itself: an index cannot be added to itself; copy it first"));
    }
    absl::StatusOr<std::unique_ptr<IndexReader>> reader = IndexReader::Open(in);
    if (!reader.ok()) {
      return absl::Status(reader.status().code(), absl::StrCat("cannot read the input index ", in,
                                                               ": ", reader.status().message()));
    }
    InputIndex info;
    info.docs = (*reader)->num_docs();
    info.max_doc = (*reader)->max_doc();
    info.segments = (*reader)->leaves().size();
    info.bytes = DirectoryBytes(in);
    inputs->push_back(info);
  }
  return absl::OkStatus();
}

std::string Mb(uint64_t bytes) { return absl::StrFormat("%.2f MB", bytes / 1e6); }

void PrintText(const Report& r) {
  const MergeArgs& args = *r.args;
  uint64_t docs = 0, max_doc = 0, segments = 0, bytes = 0;
  for (const InputIndex& in : r.inputs) {
    docs += in.docs;
    max_doc += in.max_doc;
    segments += in.segments;
    bytes += in.bytes;
  }
  const IndexWriterStats& st = r.stats;
  std::printf("inputs       %s %s: %s in %s (%s deleted), %s\n",
              FormatCount(r.inputs.size()).c_str(), r.inputs.size() == 1 ? "index" : "indexes",
              CountOf(docs, "document").c_str(), CountOf(segments, "segment").c_str(),
              FormatCount(max_doc - docs).c_str(), Mb(bytes).c_str());
  if (r.opened.created) {
    std::printf("before       %s: new index\n", args.out.c_str());
  } else {
    std::printf("before       %s: generation %llu, %s in %s\n", args.out.c_str(),
                static_cast<unsigned long long>(r.opened.generation),
                CountOf(r.opened.docs, "document").c_str(),
                CountOf(r.segments_before, "segment").c_str());
  }
  std::printf("added        %s in %.2f s\n", CountOf(segments, "segment").c_str(), r.add_seconds);
  if (args.force_merge > 0) {
    std::printf("force-merge  to at most %s in %.2f s\n",
                CountOf(static_cast<uint64_t>(args.force_merge), "segment").c_str(),
                r.force_merge_seconds);
  }
  std::printf(
      "merges       %llu done (%s policy): %s read, %s written, %.2f s merging (%.2f s CPU)\n",
      static_cast<unsigned long long>(st.merges_done), args.merge_policy.c_str(),
      Mb(st.merge_bytes_read).c_str(), Mb(st.merge_bytes_written).c_str(), st.merge_seconds,
      st.merge_cpu_seconds);
  std::printf("after        generation %llu: %s in %s, %s in %s (commit %.2f s)\n",
              static_cast<unsigned long long>(st.commit_generation),
              CountOf(st.committed_docs, "document").c_str(),
              CountOf(st.segments, "segment").c_str(), Mb(r.index_bytes).c_str(), args.out.c_str(),
              r.commit_seconds);
  std::printf("time         %.2f s in all\n", r.seconds);
}

void PrintJson(const Report& r) {
  uint64_t docs = 0, max_doc = 0, segments = 0, bytes = 0;
  for (const InputIndex& in : r.inputs) {
    docs += in.docs;
    max_doc += in.max_doc;
    segments += in.segments;
    bytes += in.bytes;
  }
  const IndexWriterStats& st = r.stats;
  std::string out = absl::StrFormat(
      "{\"ok\":%s,\"inputs\":%d,\"input_docs\":%d,\"input_deleted_docs\":%d,"
      "\"input_segments\":%d,\"input_bytes\":%d,\"created\":%s,\"docs_before\":%d,"
      "\"segments_before\":%d,",
      r.status.ok() ? "true" : "false", r.inputs.size(), docs, max_doc - docs, segments, bytes,
      r.opened.created ? "true" : "false", r.opened.docs, r.segments_before);
  absl::StrAppendFormat(
      &out,
      "\"add_seconds\":%.3f,\"force_merge_seconds\":%.3f,\"commit_seconds\":%.3f,"
      "\"seconds\":%.3f,\"merges\":%d,\"merge_bytes_read\":%d,\"merge_bytes_written\":%d,"
      "\"merge_seconds\":%.3f,\"merge_cpu_seconds\":%.3f,\"commit_generation\":%d,\"docs\":%d,"
      "\"segments\":%d,"
      "\"index_bytes\":%d,\"error\":%s}\n",
      r.add_seconds, r.force_merge_seconds, r.commit_seconds, r.seconds, st.merges_done,
      st.merge_bytes_read, st.merge_bytes_written, st.merge_seconds, st.merge_cpu_seconds,
      st.commit_generation, st.committed_docs, st.segments, r.index_bytes,
      r.status.ok() ? "null" : JsonString(StdSv(r.status.message())));
  std::fputs(out.c_str(), stdout);
}

int Fail(const MergeArgs& args, const absl::Status& status) {
  std::fprintf(stderr, "invert-merge: %s\n", EscapeForDisplay(StdSv(status.message())).c_str());
  if (args.json) {
    std::printf("{\"ok\":false,\"error\":%s}\n", JsonString(StdSv(status.message())).c_str());
  }
  return kExitFailure;
}

int Run(const MergeArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  Report r;
  r.args = &args;
  if (absl::Status s = ReadInputs(args, &r.inputs); !s.ok()) return Fail(args, s);

  IndexWriterOptions options;
  options.open_mode = args.append      ? OpenMode::kAppend
                      : args.overwrite ? OpenMode::kCreate
                                       : OpenMode::kCreateOrAppend;
  if (args.merge_policy == "none") options.merge_policy = std::make_shared<NoMergePolicy>();
  absl::StatusOr<std::unique_ptr<IndexWriter>> opened = IndexWriter::Open(args.out, options);
  if (!opened.ok()) {
    return Fail(args, absl::Status(opened.status().code(),
                                   absl::StrCat("cannot open the index in ", args.out, ": ",
                                                opened.status().message())));
  }
  IndexWriter& writer = **opened;
  for (const std::string& w : writer.warnings()) {
    std::fprintf(stderr, "invert-merge: warning: %s\n", EscapeForDisplay(w).c_str());
  }
  r.opened = writer.open_info();
  r.segments_before = writer.stats().segments;
  if (options.open_mode == OpenMode::kCreateOrAppend && !r.opened.created) {
    (void)writer.Rollback();
    return Fail(args, absl::AlreadyExistsError(absl::StrCat(
                          args.out, " already holds an index (generation ", r.opened.generation,
                          ", ", CountOf(r.opened.docs, "document"),
                          "); use --append to add to it or --overwrite to replace it")));
  }

  auto step = std::chrono::steady_clock::now();
  r.status = writer.AddIndexes(args.inputs);
  r.add_seconds = Since(step);
  if (!r.status.ok()) {
    r.status = absl::Status(r.status.code(), absl::StrCat("cannot add the indexes to ", args.out,
                                                          ": ", r.status.message()));
  }
  if (r.status.ok() && args.force_merge > 0) {
    step = std::chrono::steady_clock::now();
    r.status = writer.ForceMerge(args.force_merge);
    r.force_merge_seconds = Since(step);
    if (!r.status.ok()) {
      r.status = absl::Status(r.status.code(), absl::StrCat("--force-merge ", args.force_merge,
                                                            ": ", r.status.message()));
    }
  }
  bool committed = false;
  if (r.status.ok()) {
    step = std::chrono::steady_clock::now();
    const uint64_t generation_before = writer.stats().commit_generation;
    r.status = writer.Close();
    r.commit_seconds = Since(step);
    // A Close() that fails after its commit point became durable still
    // committed; the generation tells.
    committed = r.status.ok() || writer.stats().commit_generation != generation_before;
  }
  if (!committed) (void)writer.Rollback();
  r.stats = writer.stats();
  r.seconds = Since(start);
  r.index_bytes = DirectoryBytes(args.out);
  if (!committed) {
    return Fail(args, absl::Status(r.status.code(),
                                   absl::StrCat(r.status.message(), "; nothing was committed: ",
                                                args.out, " holds what it held before")));
  }
  if (args.json) {
    PrintJson(r);
  } else {
    PrintText(r);
  }
  if (!r.status.ok()) {
    std::fprintf(stderr, "invert-merge: %s\n", EscapeForDisplay(StdSv(r.status.message())).c_str());
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace
}  // namespace invert::tools

int main(int argc, char** argv) {
  invert::tools::MergeArgs args;
  if (std::optional<int> exit = invert::tools::ParseArgs(argc, argv, &args)) return *exit;
  return invert::tools::Run(args);
}

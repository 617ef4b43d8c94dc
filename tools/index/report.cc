// invert-index's final report (see report.h).
#include "report.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/absl_compat.h"
#include "common/display.h"

namespace invert::tools {
namespace {

uint64_t RolledBackDocs(const RunReport& r) { return r.committed ? 0 : r.feed.added; }

// "the index still holds its last commit (generation 3, 4,000 documents)".
std::string WhatTheIndexHolds(const RunReport& r) {
  if (r.stats.commit_generation > 0) {
    return absl::StrCat("the index still holds its last commit (generation ",
                        r.stats.commit_generation, ", ",
                        CountOf(r.stats.committed_docs, "document"), ")");
  }
  if (r.args->overwrite) {
    return "the directory keeps what it held before this run (--overwrite replaces an index "
           "only when it commits)";
  }
  return "no index was committed";
}

std::string ErrorJson(const absl::Status& status) {
  return status.ok() ? "null" : JsonString(StdSv(status.message()));
}

// (flushed + merged bytes written) / final index bytes; 0 when the index
// directory is empty.
double WriteAmplification(const RunReport& r) {
  if (r.index_bytes == 0) return 0;
  return static_cast<double>(r.stats.flushed_bytes + r.stats.merge_bytes_written) /
         static_cast<double>(r.index_bytes);
}

// The lines on merges, deletes and the final index (after "segments").
void PrintMergeLines(const RunReport& r) {
  const IndexArgs& args = *r.args;
  const IndexWriterStats& st = r.stats;
  std::printf(
      "merges       %s done (%s policy): %.2f MB read, %.2f MB written, %.2f s merging (%.2f s "
      "CPU)\n",
      FormatCount(st.merges_done).c_str(), args.merge_policy.c_str(), st.merge_bytes_read / 1e6,
      st.merge_bytes_written / 1e6, st.merge_seconds, st.merge_cpu_seconds);
  if (args.force_merge > 0) {
    std::printf("force-merge  to at most %s in %.2f s\n",
                CountOf(static_cast<uint64_t>(args.force_merge), "segment").c_str(),
                r.force_merge_seconds);
  }
  std::string how;
  if (args.delete_mode()) {
    how = absl::StrCat(" (--delete-ids: ", CountOf(r.delete_ids, "value"), " of ", args.key_field(),
                       ")");
  } else if (!args.update_key.empty()) {
    how = absl::StrCat(" (replaced by --update-key ", args.update_key, ")");
  }
  std::printf("deletes      %s deleted%s%s\n", CountOf(st.docs_deleted, "document").c_str(),
              how.c_str(), r.committed ? "" : " (discarded)");
  if (r.committed) {
    std::printf(
        "final        %s, %.2f MB; write amplification %.2f (%.2f MB flushed + %.2f MB merged, "
        "over the final size)\n",
        CountOf(st.segments, "segment").c_str(), r.index_bytes / 1e6, WriteAmplification(r),
        st.flushed_bytes / 1e6, st.merge_bytes_written / 1e6);
  }
}

}  // namespace

void PrintTextReport(const RunReport& r) {
  const IndexArgs& args = *r.args;
  const IndexWriterStats& st = r.stats;
  const double gb_per_hour = r.input_bytes / 1e9 / r.seconds * 3600;
  if (r.committed && args.delete_mode()) {
    std::printf("deleted      %s matching %s read from %s in %.2f s\n",
                CountOf(st.docs_deleted, "document").c_str(),
                CountOf(r.delete_ids, "value").c_str(), args.delete_ids.c_str(), r.seconds);
    std::printf("commit       generation %llu: the index holds %s\n",
                static_cast<unsigned long long>(st.commit_generation),
                CountOf(st.committed_docs, "document").c_str());
  } else if (r.committed) {
    std::printf("indexed      %s docs in %.2f s: %.0f docs/s, %.2f GB/hour (%.1f MB of input)%s\n",
                FormatCount(r.feed.added).c_str(), r.seconds, r.feed.added / r.seconds, gb_per_hour,
                r.input_bytes / 1e6, r.feed.reached_max_docs ? "; stopped at --max-docs" : "");
    std::printf("commit       generation %llu: the index holds %s%s\n",
                static_cast<unsigned long long>(st.commit_generation),
                CountOf(st.committed_docs, "document").c_str(),
                r.opened.created ? " (new index)" : " (appended)");
  } else if (args.delete_mode()) {
    std::printf("rolled back: the deletes of this run (%s) were discarded; %s\n",
                CountOf(r.delete_ids, "value").c_str(), WhatTheIndexHolds(r).c_str());
  } else {
    const uint64_t discarded = RolledBackDocs(r);
    std::printf("rolled back: %s added in this run %s discarded; %s\n",
                CountOf(discarded, "document").c_str(), discarded == 1 ? "was" : "were",
                WhatTheIndexHolds(r).c_str());
    std::printf("read         %.1f MB of input in %.2f s\n", r.input_bytes / 1e6, r.seconds);
  }
  std::printf(
      "segments     %llu flushed (%.2f s flushing), %llu unique terms over all segments%s\n",
      static_cast<unsigned long long>(st.segments_flushed), st.flush_seconds,
      static_cast<unsigned long long>(st.flushed_terms), r.committed ? "" : " (discarded)");
  PrintMergeLines(r);
  std::printf("index        %.2f MB in %s\n", r.index_bytes / 1e6, args.index.c_str());
  std::printf(
      "memory       peak RSS %.1f MB; in-memory segments peaked at %.1f MB of a %.0f MB buffer\n",
      r.peak_rss_bytes / 1048576.0, st.peak_ram_bytes / 1048576.0, args.ram_mb);
  std::printf("settings     %d thread(s), layout %s%s%s\n", r.threads,
              std::string(TermBytesLayoutName(args.layout)).c_str(),
              args.term_vectors ? ", body term vectors" : "",
              args.store_body ? ", body stored" : "");
  std::printf("skipped      %s malformed line(s)\n", FormatCount(r.feed.bad_lines).c_str());
  for (const std::string& b : r.feed.first_bad) {
    std::printf("  %s\n", EscapeForDisplay(b).c_str());
  }
  if (r.feed.bad_lines > r.feed.first_bad.size()) {
    std::printf("  ... and %s more\n",
                FormatCount(r.feed.bad_lines - r.feed.first_bad.size()).c_str());
  }
}

void PrintJsonReport(const RunReport& r) {
  const IndexArgs& args = *r.args;
  const IndexWriterStats& st = r.stats;
  const uint64_t docs = r.committed ? r.feed.added : 0;
  std::string out = absl::StrFormat(
      "{\"docs\":%d,\"seconds\":%.3f,\"docs_per_s\":%.1f,\"gb_per_hour\":%.3f,"
      "\"input_bytes\":%d,\"segments\":%d,\"unique_terms\":%d,\"index_bytes\":%d,"
      "\"peak_rss_bytes\":%d,\"peak_ram_buffer_bytes\":%d,\"skipped\":%d,\"threads\":%d,"
      "\"ram_mb\":%.0f,\"layout\":\"%s\",\"term_vectors\":%s,\"flush_seconds\":%.3f,\"ok\":%s,",
      docs, r.seconds, docs / r.seconds, r.input_bytes / 1e9 / r.seconds * 3600, r.input_bytes,
      st.segments_flushed, st.flushed_terms, r.index_bytes, r.peak_rss_bytes, st.peak_ram_bytes,
      r.feed.bad_lines, r.threads, args.ram_mb, TermBytesLayoutName(args.layout),
      args.term_vectors ? "true" : "false", st.flush_seconds, r.status.ok() ? "true" : "false");
  absl::StrAppendFormat(
      &out,
      "\"merge_policy\":\"%s\",\"merges\":%d,\"merge_bytes_read\":%d,\"merge_bytes_written\":%d,"
      "\"merge_seconds\":%.3f,\"merge_cpu_seconds\":%.3f,\"force_merge\":%s,\"force_merge_"
      "seconds\":%.3f,"
      "\"final_segments\":%d,\"deleted_docs\":%d,\"flushed_bytes\":%d,"
      "\"write_amplification\":%s,\"update_key\":%s,\"delete_ids\":%s,",
      args.merge_policy, st.merges_done, st.merge_bytes_read, st.merge_bytes_written,
      st.merge_seconds, st.merge_cpu_seconds,
      args.force_merge > 0 ? absl::StrCat(args.force_merge) : "null", r.force_merge_seconds,
      st.segments, st.docs_deleted, st.flushed_bytes,
      r.index_bytes > 0 ? absl::StrFormat("%.3f", WriteAmplification(r)) : "null",
      args.update_key.empty() ? "null" : JsonString(args.update_key),
      args.delete_mode() ? absl::StrCat(r.delete_ids) : "null");
  absl::StrAppendFormat(&out,
                        "\"committed\":%s,\"rolled_back_docs\":%d,\"commit_generation\":%d,"
                        "\"index_docs\":%d,\"created\":%s,\"error\":%s}\n",
                        r.committed ? "true" : "false", RolledBackDocs(r), st.commit_generation,
                        st.committed_docs, r.opened.created ? "true" : "false",
                        ErrorJson(r.status));
  std::fputs(out.c_str(), stdout);
}

void PrintJsonFailure(const IndexArgs& args, const absl::Status& status) {
  if (!args.json) return;
  std::printf("{\"docs\":0,\"ok\":false,\"committed\":false,\"rolled_back_docs\":0,\"error\":%s}\n",
              ErrorJson(status).c_str());
}

}  // namespace invert::tools

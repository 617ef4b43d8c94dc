// invert-index: indexes a file (or stdin) of line documents
// (title<TAB>date<TAB>body, luceneutil's format, optional header) or JSON
// lines into an index directory, and prints a report like luceneutil's.
//
//   invert-index INPUT --index DIR [--threads N] [--ram-mb M]
//                [--layout shared|separate] [--term-vectors] [--store-body]
//                [--max-docs N] [--format lines|json] [--strict] [--json]
//
// INPUT "-" is stdin; the format defaults to JSON lines for *.json/*.jsonl.
// A malformed line (wrong field count, bad JSON, invalid UTF-8, an immense
// term ...) is skipped and counted with its line number, or stops the run
// with --strict; either way the index only ever holds whole documents.
// Exit status: 0 done, 1 error (or a bad line with --strict), 2 usage.
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "index/line_doc_schema.h"
#include "invert/index_writer.h"
#include "invert/line_docs.h"
#include "progress.h"

namespace invert {
namespace {

struct Args {
  std::string input;
  std::string index;
  int threads = 1;
  double ram_mb = 256;
  TermBytesLayout layout = TermBytesLayout::kSeparate;
  bool term_vectors = false;
  bool store_body = false;
  uint64_t max_docs = UINT64_MAX;
  std::string format;  // "", "lines", "json"
  bool strict = false;
  bool json = false;
};

int Usage(const char* why = nullptr) {
  if (why != nullptr) std::fprintf(stderr, "invert-index: %s\n", why);
  std::fprintf(stderr,
               "usage: invert-index INPUT --index DIR [--threads N] [--ram-mb M]\n"
               "                    [--layout shared|separate] [--term-vectors] [--store-body]\n"
               "                    [--max-docs N] [--format lines|json] [--strict] [--json]\n");
  return 2;
}

bool Parse(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (arg == "--index") {
      if ((v = next()) == nullptr) return false;
      a->index = v;
    } else if (arg == "--threads") {
      if ((v = next()) == nullptr) return false;
      a->threads = std::atoi(v);
    } else if (arg == "--ram-mb") {
      if ((v = next()) == nullptr) return false;
      a->ram_mb = std::atof(v);
    } else if (arg == "--layout") {
      if ((v = next()) == nullptr) return false;
      auto layout = ParseTermBytesLayout(v);
      if (!layout) return false;
      a->layout = *layout;
    } else if (arg == "--max-docs") {
      if ((v = next()) == nullptr) return false;
      a->max_docs = std::strtoull(v, nullptr, 10);
    } else if (arg == "--format") {
      if ((v = next()) == nullptr) return false;
      a->format = v;
      if (a->format != "lines" && a->format != "json") return false;
    } else if (arg == "--term-vectors") {
      a->term_vectors = true;
    } else if (arg == "--store-body") {
      a->store_body = true;
    } else if (arg == "--strict") {
      a->strict = true;
    } else if (arg == "--json") {
      a->json = true;
    } else if ((arg == "-" || arg.empty() || arg[0] != '-') && a->input.empty()) {
      a->input = arg;
    } else {
      return false;
    }
  }
  return !a->input.empty() && !a->index.empty() && a->threads >= 1;
}

uint64_t DirectoryBytes(const std::string& path) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    if (entry.is_regular_file(ec)) total += entry.file_size(ec);
  }
  return total;
}

uint64_t PeakRssBytes() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

// One document copied out of the source (its views die at the next Next()).
struct OwnedDoc {
  std::string id, title, date, body;
  uint64_t line = 0;
};

struct Shared {
  std::mutex source_mu;
  DocSource* source = nullptr;
  uint64_t taken = 0;
  bool stop = false;
  std::vector<std::string> bad;  // first bad lines, described
  std::atomic<uint64_t> bad_count{0};
  std::atomic<uint64_t> docs{0};
  absl::Status fatal;  // guarded by source_mu
};

constexpr size_t kListedBadLines = 10;

void RecordBad(Shared& shared, const std::string& what) {
  shared.bad_count.fetch_add(1);
  std::lock_guard lock(shared.source_mu);
  if (shared.bad.size() < kListedBadLines) shared.bad.push_back(what);
}

int Run(const Args& args) {
  const bool json_input =
      args.format == "json" ||
      (args.format.empty() && (args.input.ends_with(".json") || args.input.ends_with(".jsonl")));
  absl::StatusOr<std::unique_ptr<DocSource>> source =
      json_input ? OpenJsonLines(args.input) : OpenLineDocs(args.input);
  if (!source.ok()) {
    std::fprintf(stderr, "invert-index: %s\n", std::string(source.status().message()).c_str());
    return 1;
  }
  IndexWriterOptions options;
  options.ram_buffer_mb = args.ram_mb;
  options.threads = args.threads;
  options.layout = args.layout;
  absl::StatusOr<std::unique_ptr<IndexWriter>> writer = IndexWriter::Open(args.index, options);
  if (!writer.ok()) {
    std::fprintf(stderr, "invert-index: %s\n", std::string(writer.status().message()).c_str());
    return 1;
  }
  for (const std::string& w : (*writer)->warnings()) {
    std::fprintf(stderr, "invert-index: warning: %s\n", w.c_str());
  }
  LineDocSchemaOptions schema_options;
  schema_options.body_term_vectors = args.term_vectors;
  schema_options.store_body = args.store_body;
  const LineDocSchema schema(schema_options);

  Shared shared;
  shared.source = source->get();
  Progress progress(!args.json);
  const auto start = std::chrono::steady_clock::now();
  auto work = [&] {
    OwnedDoc d;
    Document doc;
    for (;;) {
      {
        std::lock_guard lock(shared.source_mu);
        if (shared.stop || shared.taken >= args.max_docs) return;
        absl::StatusOr<SourceDoc> next = shared.source->Next();
        if (absl::IsOutOfRange(next.status())) {
          shared.stop = true;
          return;
        }
        if (absl::IsInvalidArgument(next.status())) {
          if (shared.bad.size() < kListedBadLines) {
            shared.bad.push_back(std::string(next.status().message()));
          }
          shared.bad_count.fetch_add(1);
          if (args.strict) {
            shared.fatal = next.status();
            shared.stop = true;
            return;
          }
          continue;
        }
        if (!next.ok()) {
          shared.fatal = next.status();
          shared.stop = true;
          return;
        }
        ++shared.taken;
        d.id.assign(next->id);
        d.title.assign(next->title);
        d.date.assign(next->date);
        d.body.assign(next->body);
        d.line = next->line_number;
      }
      schema.Build(d.id, d.title, d.date, d.body, &doc);
      absl::Status s = (*writer)->AddDocument(doc);
      if (s.ok()) {
        shared.docs.fetch_add(1, std::memory_order_relaxed);
      } else if (absl::IsInvalidArgument(s)) {
        RecordBad(shared, "line " + std::to_string(d.line) + ": " + std::string(s.message()));
        if (args.strict) {
          std::lock_guard lock(shared.source_mu);
          shared.fatal = s;
          shared.stop = true;
          return;
        }
      } else {
        std::lock_guard lock(shared.source_mu);
        shared.fatal = s;
        shared.stop = true;
        return;
      }
      progress.Tick([&] {
        const IndexWriterStats st = (*writer)->stats();
        return ProgressSnapshot{shared.docs.load(), shared.source->bytes_read(),
                                shared.source->total_bytes(), st.ram_bytes, st.segments_flushed};
      });
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < (*writer)->threads(); ++t) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  progress.Finish();

  absl::Status status = shared.fatal;
  if (status.ok()) {
    status = (*writer)->Close();
  } else {
    (void)(*writer)->Rollback();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const IndexWriterStats st = (*writer)->stats();
  const uint64_t input_bytes = shared.source->bytes_read();
  const uint64_t docs = shared.docs.load();
  const uint64_t index_bytes = DirectoryBytes(args.index);
  const double gb_per_hour = input_bytes / 1e9 / seconds * 3600;
  if (args.json) {
    std::printf(
        "{\"docs\":%llu,\"seconds\":%.3f,\"docs_per_s\":%.1f,\"gb_per_hour\":%.3f,\"input_bytes\":%"
        "llu,"
        "\"segments\":%llu,\"unique_terms\":%llu,\"index_bytes\":%llu,\"peak_rss_bytes\":%llu,"
        "\"peak_ram_buffer_bytes\":%lld,\"skipped\":%llu,\"threads\":%d,\"ram_mb\":%.0f,"
        "\"layout\":\"%s\",\"term_vectors\":%s,\"flush_seconds\":%.3f,\"ok\":%s}\n",
        static_cast<unsigned long long>(docs), seconds, docs / seconds, gb_per_hour,
        static_cast<unsigned long long>(input_bytes),
        static_cast<unsigned long long>(st.segments_flushed),
        static_cast<unsigned long long>(st.flushed_terms),
        static_cast<unsigned long long>(index_bytes),
        static_cast<unsigned long long>(PeakRssBytes()), static_cast<long long>(st.peak_ram_bytes),
        static_cast<unsigned long long>(shared.bad_count.load()), (*writer)->threads(), args.ram_mb,
        std::string(TermBytesLayoutName(args.layout)).c_str(), args.term_vectors ? "true" : "false",
        st.flush_seconds, status.ok() ? "true" : "false");
  } else {
    std::printf("indexed      %llu docs in %.2f s: %.0f docs/s, %.2f GB/hour (%.1f MB of input)\n",
                static_cast<unsigned long long>(docs), seconds, docs / seconds, gb_per_hour,
                input_bytes / 1e6);
    std::printf(
        "segments     %llu flushed (%.2f s flushing), %llu unique terms over all segments\n",
        static_cast<unsigned long long>(st.segments_flushed), st.flush_seconds,
        static_cast<unsigned long long>(st.flushed_terms));
    std::printf("index        %.2f MB in %s\n", index_bytes / 1e6, args.index.c_str());
    std::printf(
        "memory       peak RSS %.1f MB; in-memory segments peaked at %.1f MB of a %.0f MB buffer\n",
        PeakRssBytes() / 1048576.0, st.peak_ram_bytes / 1048576.0, args.ram_mb);
    std::printf("settings     %d thread(s), layout %s%s\n", (*writer)->threads(),
                std::string(TermBytesLayoutName(args.layout)).c_str(),
                args.term_vectors ? ", body term vectors" : "");
    std::printf("skipped      %llu malformed line(s)\n",
                static_cast<unsigned long long>(shared.bad_count.load()));
    for (const std::string& b : shared.bad) std::printf("  %s\n", b.c_str());
  }
  if (!status.ok()) {
    std::fprintf(stderr, "invert-index: %s\n", std::string(status.message()).c_str());
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace invert

int main(int argc, char** argv) {
  invert::Args args;
  if (!invert::Parse(argc, argv, &args)) return invert::Usage();
  return invert::Run(args);
}

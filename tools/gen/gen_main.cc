// invert-gen: writes deterministic Wikipedia-like line documents
// (`title<TAB>date<TAB>body`, luceneutil's enwiki lines format) to stdout or a
// file, streaming with bounded memory, and reports the corpus' statistics.
// The model is in src/corpus/wiki_gen.h; measurements in docs/corpus.md.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "common/cli.h"
#include "corpus/corpus_stats.h"
#include "corpus/wiki_gen.h"

namespace {

// Buffered writes to a file descriptor.
class Output {
 public:
  explicit Output(int fd) : fd_(fd) { buffer_.reserve(kFlushBytes + (1 << 16)); }
  std::string* buffer() { return &buffer_; }
  bool MaybeFlush() { return buffer_.size() < kFlushBytes || Flush(); }
  bool Flush() {
    const char* p = buffer_.data();
    size_t left = buffer_.size();
    while (left > 0) {
      const ssize_t n = ::write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return false;
      p += n;
      left -= static_cast<size_t>(n);
    }
    buffer_.clear();
    return true;
  }

 private:
  static constexpr size_t kFlushBytes = size_t{4} << 20;
  int fd_;
  std::string buffer_;
};

int Fail(const char* what) {
  std::fprintf(stderr, "invert-gen: %s: %s\n", what, std::strerror(errno));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using invert::tools::CountIn;
  using invert::tools::FiniteIn;
  using invert::tools::UnsignedIn;
  invert::GenOptions options;
  uint64_t docs = 1000;
  std::optional<uint64_t> max_bytes;
  std::string output_path;
  bool header = true, stats = false, quiet = false;
  // CLI11 (see tools/common/cli.h for why not Abseil Flags): strict numbers
  // whose errors name the flag and its range, generated --help, exit 2.
  CLI::App app(
      "Writes Wikipedia-like line documents, title<TAB>date<TAB>body, one per line\n"
      "(luceneutil's enwiki lines format; model in src/corpus/wiki_gen.h).",
      "invert-gen");
  app.option_defaults()->always_capture_default();
  app.footer("Exit status: 0 done, 1 write error, 2 usage error.");
  CLI::Option* docs_opt =
      app.add_option("--docs", docs, "number of documents")->transform(CountIn(0, UINT64_MAX));
  uint64_t bytes = 0;
  CLI::Option* bytes_opt =
      app.add_option("--bytes", bytes,
                     "stop after the document that reaches SIZE bytes of output (instead of "
                     "--docs)")
          ->transform(CountIn(1, UINT64_MAX))
          ->default_str("")
          ->excludes(docs_opt);
  app.add_option("--seed", options.seed, "random seed; the same seed writes the same bytes")
      ->transform(UnsignedIn(0, UINT64_MAX));
  app.add_option("-o,--output", output_path, "output file (default: standard output)");
  app.add_flag("!--no-header", header, "omit the FIELDS_HEADER_INDICATOR### first line");
  app.add_flag("--stats", stats,
               "count terms and report Zipf/Heaps statistics on stderr (memory grows with the "
               "vocabulary, ~110 bytes a term)");
  app.add_flag("--quiet", quiet, "no report on stderr");
  app.add_option("--zipf-head-ranks", options.zipf.head_ranks, "model: last rank of the head")
      ->transform(UnsignedIn(1, (uint64_t{1} << 30) - 1));
  app.add_option("--zipf-tail-exponent", options.zipf.tail_exponent, "model: tail exponent b > 1")
      ->transform(FiniteIn(1, 100, /*min_exclusive=*/true));
  app.add_option("--body-median", options.body_median_bytes, "model: median body bytes")
      ->transform(FiniteIn(0, 1e9, /*min_exclusive=*/true));
  app.add_option("--body-sigma", options.body_sigma, "model: log-normal sigma of body length")
      ->transform(FiniteIn(0, 100));
  if (std::optional<int> exit = invert::tools::ParseCommandLine(app, argc, argv)) return *exit;
  if (bytes_opt->count() > 0) max_bytes = bytes;

  int fd = STDOUT_FILENO;
  if (!output_path.empty()) {
    fd = ::open(output_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return Fail(output_path.c_str());
  }

  const auto start = std::chrono::steady_clock::now();
  invert::WikiGenerator generator(options);
  invert::CorpusStats corpus_stats(stats);
  Output output(fd);
  std::string* out = output.buffer();
  uint64_t written = 0;
  if (header) {
    out->append(invert::WikiGenerator::kHeader);
    out->push_back('\n');
    written += invert::WikiGenerator::kHeader.size() + 1;
    corpus_stats.AddBytes(invert::WikiGenerator::kHeader.size() + 1);
  }
  invert::GenDoc doc;
  for (uint64_t n = 0; max_bytes.has_value() ? written < *max_bytes : n < docs; ++n) {
    generator.Next(&doc);
    const size_t before = out->size();
    invert::WikiGenerator::AppendLine(doc, out);
    const size_t line_bytes = out->size() - before;
    written += line_bytes;
    corpus_stats.AddDocument(line_bytes, doc.body);
    if (!output.MaybeFlush()) return Fail("write");
  }
  if (!output.Flush()) return Fail("write");
  if (!output_path.empty() && ::close(fd) != 0) return Fail("close");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (!quiet) {
    const invert::CorpusReport report = corpus_stats.Report();
    std::fprintf(stderr, "invert-gen: seed %llu, %.1f MB in %.2f s (%.1f MB/s%s)\n",
                 static_cast<unsigned long long>(options.seed), written / 1e6, seconds,
                 written / 1e6 / seconds, stats ? ", counting terms" : "");
    std::fputs(invert::CorpusStats::Format(report, stats).c_str(), stderr);
  }
  return 0;
}

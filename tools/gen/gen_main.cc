// invert-gen: writes deterministic Wikipedia-like line documents
// (`title<TAB>date<TAB>body`, luceneutil's enwiki lines format) to stdout or a
// file, streaming with bounded memory, and reports the corpus' statistics.
// The model is in src/corpus/wiki_gen.h; measurements in docs/corpus.md.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "corpus/corpus_stats.h"
#include "corpus/wiki_gen.h"

namespace {

constexpr char kUsage[] =
    "usage: invert-gen [--docs N | --bytes SIZE] [--seed S] [-o FILE] [--no-header]\n"
    "                  [--stats] [--quiet]\n"
    "Writes Wikipedia-like line documents, title<TAB>date<TAB>body, one per line.\n"
    "  --docs N       number of documents (default 1000)\n"
    "  --bytes SIZE   stop after the document that reaches SIZE bytes of output;\n"
    "                 SIZE takes a suffix K, M or G (powers of 1000)\n"
    "  --seed S       random seed (default 1); the same seed writes the same bytes\n"
    "  -o FILE        output file (default: standard output)\n"
    "  --no-header    omit the FIELDS_HEADER_INDICATOR### first line\n"
    "  --stats        count terms and report Zipf/Heaps statistics on stderr\n"
    "                 (memory grows with the vocabulary, ~110 bytes a term)\n"
    "  --quiet        no report on stderr\n"
    "Model parameters (defaults in src/corpus/wiki_gen.h):\n"
    "  --zipf-head-ranks N  --zipf-tail-exponent B  --body-median BYTES\n"
    "  --body-sigma S\n";

bool ParseUint(std::string_view text, uint64_t* value) {
  uint64_t multiplier = 1;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K':
      case 'k':
        multiplier = 1000;
        break;
      case 'M':
      case 'm':
        multiplier = 1000000;
        break;
      case 'G':
      case 'g':
        multiplier = 1000000000;
        break;
    }
    if (multiplier != 1) text.remove_suffix(1);
  }
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return false;
  *value *= multiplier;
  return true;
}

bool ParseDouble(std::string_view text, double* value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

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
  invert::GenOptions options;
  uint64_t docs = 1000;
  std::optional<uint64_t> max_bytes;
  const char* output_path = nullptr;
  bool header = true, stats = false, quiet = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "invert-gen: %s needs a value\n%s", argv[i], kUsage);
        std::exit(2);
      }
      return argv[++i];
    };
    bool ok = true;
    uint64_t number = 0;
    if (arg == "--docs") {
      ok = ParseUint(value(), &docs);
    } else if (arg == "--bytes") {
      ok = ParseUint(value(), &number);
      max_bytes = number;
    } else if (arg == "--seed") {
      ok = ParseUint(value(), &options.seed);
    } else if (arg == "-o" || arg == "--output") {
      output_path = argv[i + 1];
      value();
    } else if (arg == "--no-header") {
      header = false;
    } else if (arg == "--stats") {
      stats = true;
    } else if (arg == "--quiet") {
      quiet = true;
    } else if (arg == "--zipf-head-ranks") {
      ok = ParseUint(value(), &number) && number >= 1 && number < (1u << 30);
      options.zipf.head_ranks = static_cast<uint32_t>(number);
    } else if (arg == "--zipf-tail-exponent") {
      ok = ParseDouble(value(), &options.zipf.tail_exponent) && options.zipf.tail_exponent > 1;
    } else if (arg == "--body-median") {
      ok = ParseDouble(value(), &options.body_median_bytes) && options.body_median_bytes > 0;
    } else if (arg == "--body-sigma") {
      ok = ParseDouble(value(), &options.body_sigma) && options.body_sigma >= 0;
    } else if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else {
      std::fprintf(stderr, "invert-gen: unknown argument %s\n%s", argv[i], kUsage);
      return 2;
    }
    if (!ok) {
      std::fprintf(stderr, "invert-gen: bad value for %s\n%s", argv[i - 1], kUsage);
      return 2;
    }
  }

  int fd = STDOUT_FILENO;
  if (output_path != nullptr) {
    fd = ::open(output_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return Fail(output_path);
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
  if (output_path != nullptr && ::close(fd) != 0) return Fail("close");
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

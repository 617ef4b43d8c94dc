// Progress: the terminal status line.
#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace invert {

Progress::Progress(bool enabled)
    : enabled_(enabled && ::isatty(STDERR_FILENO) == 1),
      start_ms_(NowMillis()),
      last_ms_(start_ms_) {}

int64_t Progress::NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Progress::Draw(const ProgressSnapshot& s, int64_t now_ms) {
  std::lock_guard lock(draw_mu_);
  const double seconds = (now_ms - start_ms_) / 1000.0;
  char line[256];
  int n = std::snprintf(
      line, sizeof(line), "\r%llu docs  %.0f docs/s  %.1f MB/s  RAM %.0f MB  %llu segments",
      static_cast<unsigned long long>(s.docs), s.docs / seconds, s.input_bytes / 1e6 / seconds,
      s.ram_bytes / 1048576.0, static_cast<unsigned long long>(s.segments));
  if (s.total_bytes.has_value() && *s.total_bytes > 0 && n > 0) {
    const double fraction = std::min(1.0, static_cast<double>(s.input_bytes) / *s.total_bytes);
    const int width = 24;
    std::string bar(static_cast<size_t>(fraction * width), '#');
    bar.resize(width, '.');
    const double eta = fraction > 0 ? seconds * (1 - fraction) / fraction : 0;
    std::snprintf(line + n, sizeof(line) - n, "  [%s] %3.0f%%  ETA %.0fs", bar.c_str(),
                  fraction * 100, eta);
  }
  std::fprintf(stderr, "%s\033[K", line);
  std::fflush(stderr);
}

void Progress::Finish() {
  if (!enabled_) return;
  std::lock_guard lock(draw_mu_);
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace invert

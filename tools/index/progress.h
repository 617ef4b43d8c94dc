// Progress: one status line on a terminal, redrawn at most once a second:
// docs, docs/s, input MB/s, RAM of the in-memory segments, segments flushed,
// and a bar with an ETA when the input size is known. Silent when stderr is
// not a terminal (logs and pipes get the final report only).
#ifndef INVERT_TOOLS_INDEX_PROGRESS_H_
#define INVERT_TOOLS_INDEX_PROGRESS_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>

namespace invert {

struct ProgressSnapshot {
  uint64_t docs = 0;
  uint64_t input_bytes = 0;
  std::optional<uint64_t> total_bytes;
  int64_t ram_bytes = 0;
  uint64_t segments = 0;
};

class Progress {
 public:
  explicit Progress(bool enabled);
  // Cheap when called often: redraws only if a second has passed.
  template <typename SnapshotFn>
  void Tick(SnapshotFn&& snapshot) {
    if (!enabled_) return;
    const int64_t now = NowMillis();
    int64_t last = last_ms_.load(std::memory_order_relaxed);
    if (now - last < 1000 || !last_ms_.compare_exchange_strong(last, now)) return;
    Draw(snapshot(), now);
  }
  // Clears the status line.
  void Finish();

 private:
  static int64_t NowMillis();
  void Draw(const ProgressSnapshot& s, int64_t now_ms);

  bool enabled_;
  int64_t start_ms_;
  std::atomic<int64_t> last_ms_;
  std::mutex draw_mu_;
};

}  // namespace invert

#endif  // INVERT_TOOLS_INDEX_PROGRESS_H_

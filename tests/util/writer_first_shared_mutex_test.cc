// WriterFirstSharedMutex: an exclusive locker gets in while shared lockers
// keep overlapping (glibc's std::shared_mutex would let them starve it), and
// it excludes every shared holder.
#include <atomic>
#include <chrono>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "util/mutex.h"

namespace invert {
namespace {

// Two threads take the mutex shared in overlapping turns of ~1 ms for
// `kTurns` turns each: the shared count never drops to zero while they run.
// The exclusive locker must get in long before they are done.
TEST(WriterFirstSharedMutexTest, AnExclusiveLockerIsNotStarvedByThreadsHoldingItShared) {
  constexpr int kTurns = 3000;  // ~3 s of overlapping shared holds
  WriterFirstSharedMutex mu;
  std::atomic<int> turns_done{0};
  std::atomic<bool> started[2] = {false, false};
  std::atomic<int> holders{0};
  std::atomic<bool> holder_seen_while_exclusive{false};
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; ++t) {
    readers.emplace_back([&, t] {
      for (int i = 0; i < kTurns; ++i) {
        std::shared_lock lock(mu);
        holders.fetch_add(1);
        started[t].store(true);
        std::this_thread::sleep_for(std::chrono::microseconds(1000));
        holders.fetch_sub(1);
        turns_done.fetch_add(1);
      }
    });
  }
  while (!started[0].load() || !started[1].load()) std::this_thread::yield();
  int turns_before_exclusive = 0;
  {
    std::unique_lock lock(mu);
    turns_before_exclusive = turns_done.load();
    if (holders.load() != 0) holder_seen_while_exclusive.store(true);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (holders.load() != 0) holder_seen_while_exclusive.store(true);
  }
  for (std::thread& r : readers) r.join();
  EXPECT_FALSE(holder_seen_while_exclusive.load());
  // Each reader finishes at most the turn it was in (and one it started
  // before the exclusive locker reached the turnstile); a starved locker
  // would get in only after all 2 * kTurns.
  EXPECT_LT(turns_before_exclusive, 200)
      << "the exclusive locker waited for " << turns_before_exclusive << " shared turns";
}

}  // namespace
}  // namespace invert

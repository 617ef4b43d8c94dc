// Mutex, MutexLock and CondVar: a std::mutex carrying Clang's thread-safety
// annotations (GUARDED_BY and friends work on it as on absl::Mutex), and a
// condition variable waiting on it; and WriterFirstSharedMutex, a shared
// mutex whose exclusive lockers cannot be starved by shared ones.
//
// Why not absl::Mutex: Debian's Abseil is a prebuilt library, not built with
// ThreadSanitizer, so TSan cannot see absl::Mutex's synchronization and
// reports every access it orders as a race. std::mutex's lock and unlock go
// through pthread calls that TSan intercepts.
//
// Thread safety: as std::mutex.
#ifndef INVERT_UTIL_MUTEX_H_
#define INVERT_UTIL_MUTEX_H_

#include <condition_variable>
#include <mutex>
#include <shared_mutex>

#include "absl/base/thread_annotations.h"

namespace invert {

class ABSL_LOCKABLE Mutex {
 public:
  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }

 private:
  friend class CondVar;
  std::mutex mu_;
};

class CondVar {
 public:
  // Releases `mu` while waiting; holds it again on return. Spurious wakeups
  // happen: wait in a loop over the condition.
  void Wait(Mutex* mu) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    std::unique_lock<std::mutex> lock(mu->mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
  }
  void SignalAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

class ABSL_SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) { mu_->Lock(); }
  ~MutexLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* mu_;
};

// A shared mutex that lets a waiting exclusive locker in before shared
// lockers that come after it. glibc's std::shared_mutex prefers readers: a
// stream of overlapping shared holders (indexing threads) can keep an
// exclusive locker (Commit) waiting for ever. Here every locker passes a
// turnstile first; an exclusive locker holds it until it owns the mutex, so
// shared lockers arriving meanwhile queue behind it, and only those already
// past the turnstile finish first.
//
// Not recursive in shared mode: a thread that already holds it shared must
// not lock it shared again (a waiting exclusive locker would deadlock it).
// Usable with std::unique_lock and std::shared_lock.
class WriterFirstSharedMutex {
 public:
  void lock() {
    std::lock_guard turn(turnstile_);
    mu_.lock();
  }
  void unlock() { mu_.unlock(); }
  void lock_shared() {
    { std::lock_guard turn(turnstile_); }
    mu_.lock_shared();
  }
  void unlock_shared() { mu_.unlock_shared(); }

 private:
  std::mutex turnstile_;
  std::shared_mutex mu_;
};

}  // namespace invert

#endif  // INVERT_UTIL_MUTEX_H_

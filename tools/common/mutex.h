// Mutex, MutexLock and CondVar for the tools: a std::mutex carrying Clang's
// thread-safety annotations (GUARDED_BY and friends work on it), and a
// condition variable waiting on it. The library's src/util/mutex.h, which
// the tools may not include (they use the public API only); the same
// reasons hold (std::mutex, so ThreadSanitizer sees the synchronization).
//
// Thread safety: as std::mutex.
#ifndef INVERT_TOOLS_COMMON_MUTEX_H_
#define INVERT_TOOLS_COMMON_MUTEX_H_

#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"

namespace invert::tools {

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

}  // namespace invert::tools

#endif  // INVERT_TOOLS_COMMON_MUTEX_H_

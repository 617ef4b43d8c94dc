// Mutex and MutexLock: a std::mutex carrying Clang's thread-safety
// annotations (GUARDED_BY and friends work on it as on absl::Mutex).
//
// Why not absl::Mutex: Debian's Abseil is a prebuilt library, not built with
// ThreadSanitizer, so TSan cannot see absl::Mutex's synchronization and
// reports every access it orders as a race. std::mutex's lock and unlock go
// through pthread calls that TSan intercepts.
//
// Thread safety: as std::mutex.
#ifndef INVERT_UTIL_MUTEX_H_
#define INVERT_UTIL_MUTEX_H_

#include <mutex>

#include "absl/base/thread_annotations.h"

namespace invert {

class ABSL_LOCKABLE Mutex {
 public:
  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }

 private:
  std::mutex mu_;
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

}  // namespace invert

#endif  // INVERT_UTIL_MUTEX_H_

// Buffered deletes: the writer's queue of delete-by-term operations, and
// their resolution against a flushed segment's term dictionary.
//
// Order ("before"): every document added and every delete gets a sequence
// number from one counter. A delete with number S removes the documents
// holding its term whose number is below S. Documents draw theirs when they
// are in their in-memory segment (after inversion succeeded), deletes draw
// theirs under the queue's mutex and enter the queue at once, so:
//   * the queue is in sequence order;
//   * a snapshot of the queue taken when an in-memory segment is flushed
//     holds every delete numbered below any later one; every delete that
//     enters afterwards is numbered above all of the segment's documents
//     (they drew theirs before the flush began) and so applies to all of
//     them. A flushed segment therefore needs no per-document numbers: it
//     remembers how far into the queue it is resolved (a queue position),
//     and every delete past that position deletes in it unconditionally.
// Positions are absolute (they keep counting when the queue is trimmed).
//
// Thread safety: DeleteQueue is internally locked; ApplyDeletes is a pure
// function of its arguments.
#ifndef INVERT_INDEX_BUFFERED_DELETES_H_
#define INVERT_INDEX_BUFFERED_DELETES_H_

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "codec/live_docs_format.h"
#include "codec/segment_reader.h"
#include "util/mutex.h"
#include "util/ram_counter.h"

namespace invert {

struct DeleteTerm {
  std::string field;
  std::string term;
  uint64_t seq = 0;  // deletes documents numbered below it
};

class DeleteQueue {
 public:
  // Queue bytes are counted into `ram` (the writer's total).
  explicit DeleteQueue(RamCounter* ram) : ram_(ram) {}
  ~DeleteQueue() { ram_->Add(-bytes_); }
  DeleteQueue(const DeleteQueue&) = delete;
  DeleteQueue& operator=(const DeleteQueue&) = delete;

  // A number for a document that entered its in-memory segment.
  uint64_t NextDocSeq() {
    MutexLock lock(&mu_);
    return next_seq_++;
  }
  // Queues a delete; if `doc_seq` is not null, also numbers a document
  // right after it (UpdateDocument: the delete precedes its document).
  // Returns the delete's queue position. May throw std::bad_alloc (then
  // nothing was queued).
  uint64_t Add(std::string_view field, std::string_view term, uint64_t* doc_seq = nullptr);

  // Absolute position one past the newest delete.
  uint64_t end() const {
    MutexLock lock(&mu_);
    return base_ + queue_.size();
  }
  // Copies the deletes at positions [from, end()) (from >= the oldest kept)
  // and returns them with end() at the time of the copy in *upto.
  std::vector<DeleteTerm> Snapshot(uint64_t from, uint64_t* upto) const;
  // Drops the deletes at positions below `upto`: nothing needs them any more.
  void TrimBelow(uint64_t upto);
  // Drops every delete (Rollback, DeleteAll): positions continue.
  void Clear();
  int64_t bytes() const {
    MutexLock lock(&mu_);
    return bytes_;
  }
  // Oldest position still kept.
  uint64_t base() const {
    MutexLock lock(&mu_);
    return base_;
  }

 private:
  static int64_t BytesOf(const DeleteTerm& d) {
    return static_cast<int64_t>(sizeof(DeleteTerm) + d.field.capacity() + d.term.capacity());
  }

  RamCounter* ram_;
  mutable Mutex mu_;
  std::deque<DeleteTerm> queue_ ABSL_GUARDED_BY(mu_);
  uint64_t base_ ABSL_GUARDED_BY(mu_) = 0;  // position of queue_.front()
  uint64_t next_seq_ ABSL_GUARDED_BY(mu_) = 1;
  int64_t bytes_ ABSL_GUARDED_BY(mu_) = 0;
};

// Applies `deletes` to `segment`: every document holding one of their terms
// is marked deleted in *live, if its number (doc_seqs[doc]) is below the
// delete's; with doc_seqs empty, unconditionally. Returns how many
// documents became deleted. Terms are looked up in sorted order per field.
// kDataLoss (naming the segment) if its dictionary or postings are damaged;
// *live may then be partly updated (the caller discards it).
absl::StatusOr<uint32_t> ApplyDeletes(const SegmentReader& segment,
                                      std::span<const DeleteTerm> deletes,
                                      std::span<const uint64_t> doc_seqs, LiveDocs* live);

}  // namespace invert

#endif  // INVERT_INDEX_BUFFERED_DELETES_H_

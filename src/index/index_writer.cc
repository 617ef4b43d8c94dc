// IndexWriterImpl, the IndexWriter that Open() returns: the write lock, open
// modes, threads, the RAM-driven flush policy, commits, rollback, and the
// rules for deleting files.
#include "invert/index_writer.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <thread>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "codec/commit_format.h"
#include "codec/live_docs_format.h"
#include "codec/segment_files.h"
#include "codec/segment_info_format.h"
#include "index/buffered_deletes.h"
#include "index/commit_reader.h"
#include "index/index_file_deleter.h"
#include "index/index_schema.h"
#include "index/indexing_chain.h"
#include "index/segment_copy.h"
#include "index/segment_flush.h"
#include "index/segment_merger.h"
#include "store/index_input.h"
#include "util/absl_compat.h"
#include "util/mutex.h"
#include "util/ram_counter.h"

namespace invert {

namespace {

constexpr double kMaxRamPerThreadMb = 3000;  // pools address 4 GiB

std::string IdHex(const SegmentId& id) {
  return absl::BytesToHexString(
      Sv(std::string_view(reinterpret_cast<const char*>(id.data()), id.size())));
}

std::string ExceptionText(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::bad_alloc&) {
    return "out of memory (std::bad_alloc)";
  } catch (const std::exception& x) {
    return absl::StrCat("exception: ", x.what());
  } catch (...) {
    return "unknown exception";
  }
}

absl::Status ValidateOptions(const IndexWriterOptions& o) {
  if (!std::isfinite(o.ram_buffer_mb) || o.ram_buffer_mb < kMinRamPerThreadMb ||
      o.ram_buffer_mb > kMaxRamBufferMb) {
    return absl::InvalidArgumentError(
        absl::StrFormat("ram_buffer_mb = %g is out of range: it must be between %g and %g MB",
                        o.ram_buffer_mb, kMinRamPerThreadMb, kMaxRamBufferMb));
  }
  if (o.threads < 1 || o.threads > kMaxThreads) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "threads = %d is out of range: it must be between 1 and %d", o.threads, kMaxThreads));
  }
  if (o.max_concurrent_merges < 1 || o.max_concurrent_merges > kMaxThreads) {
    return absl::InvalidArgumentError(
        absl::StrFormat("max_concurrent_merges = %d is out of range: it must be between 1 and %d",
                        o.max_concurrent_merges, kMaxThreads));
  }
  if (o.merge_thread_nice < 0 || o.merge_thread_nice > 19) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "merge_thread_nice = %d is out of range: it must be between 0 (unchanged) and 19",
        o.merge_thread_nice));
  }
  if (!std::isfinite(o.max_merge_write_mb_per_sec) || o.max_merge_write_mb_per_sec < 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "max_merge_write_mb_per_sec = %g must be a finite number >= 0 (0: unlimited)",
        o.max_merge_write_mb_per_sec));
  }
  if (!std::isfinite(o.max_document_mb) || o.max_document_mb < 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "max_document_mb = %g must be a finite number >= 0 (0: the default)", o.max_document_mb));
  }
  return absl::OkStatus();
}

}  // namespace

class IndexWriterImpl final : public IndexWriter {
 public:
  IndexWriterImpl() = default;
  ~IndexWriterImpl() override;

  absl::Status AddDocument(const Document& doc) override;
  absl::Status Commit() override;
  absl::Status Close() override;
  absl::Status Rollback() override;
  absl::Status DeleteDocuments(std::string_view field, std::string_view term) override;
  absl::Status UpdateDocument(std::string_view field, std::string_view term,
                              const Document& doc) override;
  absl::Status DeleteAll() override;
  absl::Status ForceMerge(int max_segments) override;
  absl::Status ForceMergeDeletes() override;
  absl::Status WaitForMerges() override;
  absl::Status AddIndexes(const std::vector<std::string>& paths) override;
  IndexWriterStats stats() const override;

 private:
  struct UpdateTerm;
  absl::Status AddOrUpdate(const Document& doc, const UpdateTerm* update);
  absl::Status AddIndexesLocked(const std::vector<std::string>& paths);
  absl::Status ForceMergeWith(
      const std::function<std::vector<OneMerge>(const std::vector<MergeCandidate>&)>& find);

 public:
  const IndexWriterOpenInfo& open_info() const override { return open_info_; }
  std::vector<FieldSchema> schema() const override;
  const std::vector<std::string>& warnings() const override { return warnings_; }
  int threads() const override { return threads_; }

  // IndexWriter::Open: over `dir`, which `owned_dir` owns when the writer
  // opened it (or null when the caller owns it).
  static absl::StatusOr<std::unique_ptr<IndexWriter>> Open(Directory* dir,
                                                           std::unique_ptr<Directory> owned_dir,
                                                           IndexWriterOptions options);

 private:
  struct Slot {
    Slot(RamCounter* total, size_t cached_blocks) : ram(total), blocks(cached_blocks) {}
    // The RAM of this slot's chain, whichever chain it is now: chains count
    // into it, and it into the writer's total. Safe to read from any thread.
    RamCounter ram;
    // The pool blocks and large per-term arrays of the slot's flushed chains,
    // for its next chains (not in `ram`: idle, reported as
    // IndexWriterStats::idle_block_bytes). Declared before `chain`, which
    // gives its memory back here.
    BlockCache blocks;
    std::unique_ptr<IndexingChain> chain;
    // The sequence number (buffered_deletes.h) of each document of `chain`,
    // ascending; and a delete-queue position at or before the first delete
    // numbered after its first document (kNoDocs while it has none). Both
    // belong to the slot's holder; queue_start is also read by trimming.
    std::vector<uint64_t> doc_seqs;
    std::atomic<uint64_t> queue_start{kNoDocs};
    bool busy = false;  // guarded by slots_mu
    std::atomic<bool> flush_requested{false};
  };

  // Holds a slot for one document; gives it back however the document ends
  // (an exception included), so no slot stays busy forever.
  class SlotLease {
   public:
    explicit SlotLease(IndexWriterImpl* impl) : impl_(impl), slot_(impl->Acquire()) {}
    ~SlotLease() { impl_->Release(slot_); }
    SlotLease(const SlotLease&) = delete;
    SlotLease& operator=(const SlotLease&) = delete;
    Slot* slot() const { return slot_; }

   private:
    IndexWriterImpl* impl_;
    Slot* slot_;
  };

  static constexpr uint64_t kNoDocs = ~uint64_t{0};

  // CPU time of the calling thread (0 where the clock is not available).
  static double ThreadCpuSeconds() {
    timespec t{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
  }

  // One segment of the index as the writer holds it now (committed, or
  // flushed or merged since).
  struct SegState {
    // del_gen/del_count: of the newest .liv written for it (by a commit).
    CommitSegment info;
    // Its deletions now; null when it has none, or (info.del_gen > 0) when
    // they were not loaded yet. Copied on write: a snapshot taken by a
    // merge never changes.
    std::shared_ptr<const LiveDocs> live;
    bool live_dirty = false;    // `live` holds deletions no .liv file holds yet
    uint64_t next_del_gen = 1;  // never reuse a .liv name, even after a failed commit
    // Deletes at queue positions below it are applied (buffered_deletes.h).
    uint64_t resolved_upto = 0;
    std::shared_ptr<SegmentReader> reader;  // opened on demand
    bool merging = false;
    uint64_t size_bytes = 0;  // its files (0: not known yet)

    uint32_t del_count() const { return live != nullptr ? live->del_count() : info.del_count; }
  };

  // Declared first, destroyed last: the lock outlives every file operation.
  std::unique_ptr<Directory> owned_dir_;
  bool opened_ = false;  // Open() succeeded: the destructor rolls back
  std::unique_ptr<DirectoryLock> write_lock_;
  Directory* dir_ = nullptr;
  IndexWriterOptions options_;
  std::vector<std::string> warnings_;
  IndexWriterOpenInfo open_info_;
  int threads_ = 1;
  int64_t ram_limit_ = 0;
  int64_t max_document_bytes_ = 0;
  RamCounter total_ram_;
  DeleteQueue deletes_{&total_ram_};
  std::atomic<int64_t> peak_ram_{0};
  SegmentId index_id_{};
  IndexSchema schema_;

  std::vector<std::unique_ptr<Slot>> slots_;
  std::mutex slots_mu_;
  std::condition_variable slot_free_;

  // AddDocument holds it shared; Commit/Rollback/Close exclusively. A
  // waiting Commit goes before documents that come after it (never locked
  // shared twice by one thread).
  WriterFirstSharedMutex commit_mu_;

  mutable Mutex state_mu_;  // guards everything below
  // The newest commit point in the directory: its files must stay intact
  // until a newer commit replaces it.
  CommitPoint disk_commit_ ABSL_GUARDED_BY(state_mu_);
  // What the next commit builds on: disk_commit, or (OpenMode::kCreate
  // before the first commit) an empty index.
  CommitPoint last_commit_ ABSL_GUARDED_BY(state_mu_);
  // Commit points whose files are kept, newest first: disk_commit and the
  // one before it (kKeptCommits), so that a damaged newest commit point can
  // be recovered from.
  std::vector<CommitPoint> kept_ ABSL_GUARDED_BY(state_mu_);
  // The index now, in document order: last_commit's segments as changed by
  // deletes and merges since, then the segments flushed since.
  std::vector<SegState> segments_ ABSL_GUARDED_BY(state_mu_);
  uint64_t next_segment_number_ ABSL_GUARDED_BY(state_mu_) = 0;
  uint64_t max_generation_ ABSL_GUARDED_BY(state_mu_) = 0;  // of every commit-like file name seen
  // A new index (or kCreate) not committed yet.
  bool must_commit_ ABSL_GUARDED_BY(state_mu_) = false;
  bool committed_since_open_ ABSL_GUARDED_BY(state_mu_) = false;
  // Per segment name, the highest .liv generation in the directory at Open.
  std::map<std::string, uint64_t, std::less<>> max_del_gen_seen_ ABSL_GUARDED_BY(state_mu_);
  // Names of merged segments being written (their files must stay).
  std::vector<std::string> merging_outputs_ ABSL_GUARDED_BY(state_mu_);

  // ---- Merges (docs/merges.md)
  struct Merge {
    std::vector<std::string> inputs;  // segment names, marked merging
    std::string output;               // the merged segment's name
    std::atomic<bool> cancel{false};
  };
  std::shared_ptr<const MergePolicy> policy_;
  std::deque<std::shared_ptr<Merge>> pending_merges_ ABSL_GUARDED_BY(state_mu_);
  std::vector<std::shared_ptr<Merge>> running_merges_ ABSL_GUARDED_BY(state_mu_);
  std::mutex merge_threads_mu_;  // guards merge_threads_
  std::vector<std::thread> merge_threads_;
  std::atomic<size_t> merge_threads_count_{0};
  int idle_merge_threads_ ABSL_GUARDED_BY(state_mu_) = 0;
  bool stop_merge_threads_ ABSL_GUARDED_BY(state_mu_) = false;
  // No new merges are registered (Close, Rollback, DeleteAll under way).
  bool merges_paused_ ABSL_GUARDED_BY(state_mu_) = false;
  // The first merge error since the last ForceMerge/WaitForMerges call.
  absl::Status merge_error_ ABSL_GUARDED_BY(state_mu_);
  CondVar merges_changed_;                       // a merge was queued, started or finished
  std::atomic<bool> merge_check_needed_{false};  // a flush since the policy was last asked
  std::unique_ptr<IndexFileDeleter> deleter_ ABSL_GUARDED_BY(state_mu_);
  // Sticky: an I/O error or exception lost documents.
  absl::Status fatal_ ABSL_GUARDED_BY(state_mu_);
  bool closed_ ABSL_GUARDED_BY(state_mu_) = false;
  IndexWriterStats stats_ ABSL_GUARDED_BY(state_mu_);

  // The bound of each slot's BlockCache: the slot's share of the RAM buffer
  // (at most the largest segment), so that idle memory never exceeds the
  // buffer, summed over the slots.
  size_t CachedBlocksPerSlot() const {
    const int64_t largest_segment = static_cast<int64_t>(kMaxRamPerThreadMb * 1024 * 1024);
    return static_cast<size_t>(std::min(ram_limit_ / threads_, largest_segment)) /
           BlockAllocator::kBlockSize;
  }

  std::unique_ptr<IndexingChain> NewChain(Slot* slot) {
    IndexingChainOptions o;
    o.layout = options_.layout;
    o.analyzer = options_.analyzer;
    o.field_analyzers = options_.field_analyzers;
    o.position_increment_gap = options_.position_increment_gap;
    o.offset_gap = options_.offset_gap;
    o.max_document_bytes = max_document_bytes_;
    o.max_document_bytes_note = options_.max_document_mb > 0
                                    ? "(IndexWriterOptions::max_document_mb)"
                                    : "(by default, half of each thread's share of the RAM buffer)";
    o.schema = &schema_;
    o.block_cache = &slot->blocks;
    return std::make_unique<IndexingChain>(std::move(o), &slot->ram);
  }

  // Claims a free slot, preferring the one this thread had last: a thread
  // that keeps its in-memory segment keeps its hash, pools and chain warm in
  // its core's caches (taking whichever is free first made two threads swap
  // segments every few dozen documents).
  Slot* Acquire() {
    // A hint only: checked against this writer and the slot count, and the
    // slot is claimed under the lock like any other.
    thread_local const IndexWriterImpl* last_writer = nullptr;
    thread_local size_t last_slot = 0;
    std::unique_lock lock(slots_mu_);
    for (;;) {
      size_t chosen = slots_.size();
      if (last_writer == this && last_slot < slots_.size() && !slots_[last_slot]->busy) {
        chosen = last_slot;
      } else {
        for (size_t i = 0; i < slots_.size(); ++i) {
          if (!slots_[i]->busy) {
            chosen = i;
            break;
          }
        }
      }
      if (chosen < slots_.size()) {
        slots_[chosen]->busy = true;
        last_writer = this;
        last_slot = chosen;
        return slots_[chosen].get();
      }
      slot_free_.wait(lock);
    }
  }

  // Claims `slot` if it is free; returns true iff claimed.
  bool TryClaim(Slot* slot) {
    std::lock_guard lock(slots_mu_);
    if (slot->busy) return false;
    slot->busy = true;
    return true;
  }

  void Release(Slot* slot) {
    {
      std::lock_guard lock(slots_mu_);
      slot->busy = false;
    }
    slot_free_.notify_one();
  }

  absl::Status CheckUsable() {
    MutexLock lock(&state_mu_);
    if (closed_) return absl::FailedPreconditionError("the index writer is closed");
    if (!fatal_.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the index writer lost the documents added since the last commit and must be rolled "
          "back (Rollback()) before further use: ",
          fatal_.message()));
    }
    return absl::OkStatus();
  }

  // Records a failure that lost in-memory or flushed documents.
  absl::Status SetFatal(absl::Status error) {
    MutexLock lock(&state_mu_);
    return SetFatalLocked(std::move(error));
  }
  absl::Status SetFatalLocked(absl::Status error) ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    if (fatal_.ok()) fatal_ = error;
    return error;
  }

  // Flushes the chain of `slot`, which the caller holds. Never throws.
  absl::Status FlushSlot(Slot* slot) {
    try {
      return FlushSlotOrThrow(slot);
    } catch (...) {
      return SetFatal(absl::ResourceExhaustedError(absl::StrCat(
          "flushing an in-memory segment failed: ", ExceptionText(std::current_exception()),
          "; its documents are lost")));
    }
  }

  absl::Status FlushSlotOrThrow(Slot* slot) {
    slot->flush_requested.store(false);
    if (slot->chain->num_docs() == 0) return absl::OkStatus();
    std::string name;
    {
      MutexLock lock(&state_mu_);
      name = SegmentName(next_segment_number_++);
      deleter_->AddOwnSegment(name);
    }
    std::unique_ptr<IndexingChain> chain = std::move(slot->chain);
    std::vector<uint64_t> doc_seqs = std::move(slot->doc_seqs);
    slot->doc_seqs.clear();
    const uint64_t queue_start = slot->queue_start.load();
    slot->chain = NewChain(slot);
    const auto start = std::chrono::steady_clock::now();
    FlushStats flush_stats;
    absl::StatusOr<SegmentInfo> info = FlushSegment(*chain, dir_, name, &flush_stats, index_id_);
    const uint32_t docs = chain->num_docs();
    chain.reset();  // frees its RAM
    absl::StatusOr<uint64_t> si_checksum = absl::UnknownError("unset");
    if (info.ok()) {
      absl::StatusOr<IndexInput> si = OpenInput(dir_, SegmentFileName(name, "si"));
      si_checksum = si.ok() ? ReadFooterChecksum(*si) : si.status();
    }
    SegState segment;
    absl::Status resolved = absl::OkStatus();
    if (info.ok() && si_checksum.ok()) {
      segment.info = CommitSegment{name, info->id, info->doc_count, *si_checksum};
      resolved = ResolveFlushedDeletes(&segment, doc_seqs, queue_start);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MutexLock lock(&state_mu_);
    stats_.flush_seconds += seconds;
    if (!info.ok() || !si_checksum.ok() || !resolved.ok()) {
      const absl::Status error =
          !info.ok() ? info.status() : (!si_checksum.ok() ? si_checksum.status() : resolved);
      if (fatal_.ok()) {
        fatal_ = absl::Status(error.code(), absl::StrCat("flushing segment ", name, " (", docs,
                                                         " documents) failed: ", error.message()));
      }
      return fatal_;
    }
    stats_.docs_deleted += segment.del_count();
    segment.size_bytes = flush_stats.bytes_written;
    segments_.push_back(std::move(segment));
    // Only now, under the lock TrimDeletes holds: until the segment is in
    // segments_ (with its queue position), the slot's start keeps the
    // deletes it has not seen from being trimmed.
    slot->queue_start.store(kNoDocs);
    ++stats_.segments_flushed;
    merge_check_needed_.store(true, std::memory_order_relaxed);
    stats_.flushed_bytes += flush_stats.bytes_written;
    stats_.flushed_terms += flush_stats.terms;
    // Many buffered deletes (an update-heavy load between commits): apply
    // them to the flushed segments now, so the queue's RAM is given back.
    if (deletes_.bytes() > ram_limit_ / 8) {
      if (absl::Status s = ApplyQueuedDeletes(); !s.ok()) {
        return SetFatalLocked(
            absl::Status(s.code(), absl::StrCat("applying deletes failed: ", s.message())));
      }
      TrimDeletes();
    }
    return absl::OkStatus();
  }

  // Applies to a just-flushed segment the queued deletes numbered after its
  // first document, each to the documents numbered below it; the segment is
  // then resolved up to the end of the queue as it was copied.
  absl::Status ResolveFlushedDeletes(SegState* segment, const std::vector<uint64_t>& doc_seqs,
                                     uint64_t queue_start) {
    std::vector<DeleteTerm> deletes;
    if (queue_start == kNoDocs || doc_seqs.empty()) {
      segment->resolved_upto = deletes_.end();
      return absl::OkStatus();
    }
    deletes = deletes_.Snapshot(queue_start, &segment->resolved_upto);
    std::erase_if(deletes, [&](const DeleteTerm& d) { return d.seq <= doc_seqs.front(); });
    if (deletes.empty()) return absl::OkStatus();
    absl::StatusOr<std::unique_ptr<SegmentReader>> reader =
        SegmentReader::Open(dir_, segment->info.name, segment->info.id);
    if (!reader.ok()) return reader.status();
    auto live = std::make_shared<LiveDocs>(segment->info.doc_count);
    absl::StatusOr<uint32_t> deleted = ApplyDeletes(**reader, deletes, doc_seqs, live.get());
    if (!deleted.ok()) return deleted.status();
    segment->reader = std::move(*reader);
    if (*deleted > 0) {
      segment->live = std::move(live);
      segment->live_dirty = true;
    }
    return absl::OkStatus();
  }

  // Opens the reader of `segment` if it has none.
  absl::Status EnsureReader(SegState* segment) ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    if (segment->reader != nullptr) return absl::OkStatus();
    absl::StatusOr<std::unique_ptr<SegmentReader>> reader = OpenCommitSegment(dir_, segment->info);
    if (!reader.ok()) return reader.status();
    segment->reader = std::move(*reader);
    return absl::OkStatus();
  }

  // Loads the committed deletions of `segment` if they are not in memory.
  absl::Status EnsureLive(SegState* segment) ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    if (segment->live != nullptr || segment->info.del_gen == 0) return absl::OkStatus();
    absl::StatusOr<LiveDocs> live =
        ReadLiveDocs(dir_, segment->info.name, segment->info.id, segment->info.del_gen,
                     segment->info.doc_count, segment->info.del_count);
    if (!live.ok()) return live.status();
    segment->live = std::make_shared<const LiveDocs>(*std::move(live));
    return absl::OkStatus();
  }

  // Applies every queued delete a segment has not seen yet (to all of its
  // documents: they are all older, buffered_deletes.h).
  absl::Status ApplyQueuedDeletes() ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    for (SegState& segment : segments_) {
      if (absl::Status s = ApplyQueuedDeletesTo(&segment); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  absl::Status ApplyQueuedDeletesTo(SegState* segment) ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    uint64_t upto = 0;
    std::vector<DeleteTerm> deletes = deletes_.Snapshot(segment->resolved_upto, &upto);
    if (!deletes.empty()) {
      if (absl::Status s = EnsureReader(segment); !s.ok()) return s;
      if (absl::Status s = EnsureLive(segment); !s.ok()) return s;
      LiveDocs live = segment->live != nullptr ? *segment->live : LiveDocs(segment->info.doc_count);
      absl::StatusOr<uint32_t> deleted = ApplyDeletes(*segment->reader, deletes, {}, &live);
      if (!deleted.ok()) return deleted.status();
      if (*deleted > 0) {
        segment->live = std::make_shared<const LiveDocs>(std::move(live));
        segment->live_dirty = true;
        stats_.docs_deleted += *deleted;
      }
    }
    segment->resolved_upto = upto;
    return absl::OkStatus();
  }

  // Drops the queued deletes that no segment and no in-memory segment needs.
  void TrimDeletes() ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    uint64_t keep_from = deletes_.end();
    for (const SegState& segment : segments_) {
      keep_from = std::min(keep_from, segment.resolved_upto);
    }
    for (const auto& slot : slots_) keep_from = std::min(keep_from, slot->queue_start.load());
    deletes_.TrimBelow(keep_from);
  }

  // After a document: flush if the writer is over its RAM budget.
  absl::Status MaybeFlush(Slot* mine) {
    const int64_t ram = total_ram_.bytes();
    int64_t peak = peak_ram_.load();
    while (ram > peak && !peak_ram_.compare_exchange_weak(peak, ram)) {
    }
    if (mine->flush_requested.load()) return FlushSlot(mine);
    if (ram < ram_limit_) return absl::OkStatus();
    Slot* largest = nullptr;
    int64_t largest_bytes = -1;
    for (auto& s : slots_) {
      const int64_t bytes = s->ram.bytes();
      if (bytes > largest_bytes) {
        largest = s.get();
        largest_bytes = bytes;
      }
    }
    if (largest == nullptr) return absl::OkStatus();
    if (largest == mine) return FlushSlot(mine);
    if (TryClaim(largest)) {
      absl::Status s = FlushSlot(largest);
      Release(largest);
      return s;
    }
    largest->flush_requested.store(true);
    return absl::OkStatus();
  }

  // What UpdateDocument deletes before its document.
  struct UpdateTerm {
    std::string_view field;
    std::string_view term;
  };

  // Makes room for one more element, growing geometrically: reserving
  // size() + 1 each time would reallocate and copy the whole vector for
  // every document (quadratic in the documents of a segment).
  static void ReserveOneMore(std::vector<uint64_t>* v) {
    if (v->size() == v->capacity()) v->reserve(std::max<size_t>(64, 2 * v->capacity()));
  }

  // Adds `doc` through `slot` (held by the caller): flushes first when the
  // document would overshoot the buffer or the segment is full. With
  // `update`, queues its delete numbered right before the document, once
  // the document is in.
  absl::Status AddToSlot(Slot* slot, const Document& doc, const UpdateTerm* update) {
    const int64_t headroom = std::max<int64_t>(0, ram_limit_ - total_ram_.bytes());
    ReserveOneMore(&slot->doc_seqs);  // so recording the document cannot throw
    absl::Status status = slot->chain->AddDocument(doc, headroom);
    if (absl::IsResourceExhausted(status) && slot->chain->num_docs() > 0) {
      // Full, or the document would push the buffer over its limit: flush
      // this in-memory segment and add the document to a fresh one.
      status = FlushSlot(slot);
      if (status.ok()) {
        slot->doc_seqs.reserve(1);
        status = slot->chain->AddDocument(doc);
      }
    }
    if (absl::IsAborted(status)) {
      // The chain failed half-way through inverting (out of memory): its
      // documents cannot be written. Keep the writer consistent: drop them
      // and refuse work until Rollback().
      return SetFatal(absl::ResourceExhaustedError(
          absl::StrCat(status.message(),
                       "; the documents added since the last commit are lost: "
                       "Rollback() and add them again")));
    }
    if (!status.ok()) return status;
    // The document is in: number it (and its update's delete).
    if (slot->doc_seqs.empty()) slot->queue_start.store(deletes_.end());
    uint64_t seq = 0;
    if (update != nullptr) {
      try {
        deletes_.Add(update->field, update->term, &seq);
      } catch (...) {
        return SetFatal(absl::ResourceExhaustedError(absl::StrCat(
            "queuing the delete of an update failed: ", ExceptionText(std::current_exception()),
            "; the documents added since the last commit are lost")));
      }
    } else {
      seq = deletes_.NextDocSeq();
    }
    slot->doc_seqs.push_back(seq);
    return absl::OkStatus();
  }

  static constexpr size_t kKeptCommits = 2;

  // The writer's view of a commit's segments.
  std::vector<SegState> SegmentsOf(const CommitPoint& commit) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    std::vector<SegState> out;
    const uint64_t resolved = deletes_.end();
    for (const CommitSegment& c : commit.segments) {
      SegState segment;
      segment.info = c;
      segment.next_del_gen = c.del_gen + 1;
      if (auto it = max_del_gen_seen_.find(c.name); it != max_del_gen_seen_.end()) {
        segment.next_del_gen = std::max(segment.next_del_gen, it->second + 1);
      }
      segment.resolved_upto = resolved;
      out.push_back(std::move(segment));
    }
    return out;
  }

  // What a successful commit installs, built before the commit point is
  // written: once it is on disk nothing may fail (throw) any more.
  struct Installed {
    CommitPoint disk;
    CommitPoint last;
    std::vector<CommitPoint> kept;
    // segments_[i] got the .liv of generation `gen` (del_count `count`).
    struct LiveDocsWritten {
      size_t segment;
      uint64_t gen;
      uint32_t count;
      uint64_t checksum;
    };
    std::vector<LiveDocsWritten> live_docs;
  };
  Installed Prepare(const CommitPoint& commit) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    Installed next{commit, commit, {}};
    next.kept.reserve(kKeptCommits);
    next.kept.push_back(commit);
    for (size_t i = 0; i + 1 < kKeptCommits && i < kept_.size(); ++i) next.kept.push_back(kept_[i]);
    return next;
  }

  // The prepared commit is now the newest on disk. Caller holds state_mu.
  // Throws nothing: moves only, and the deletes are best effort.
  void Adopt(Installed next) noexcept ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    disk_commit_ = std::move(next.disk);
    last_commit_ = std::move(next.last);
    kept_ = std::move(next.kept);
    for (const Installed::LiveDocsWritten& w : next.live_docs) {
      SegState& segment = segments_[w.segment];
      segment.info.del_gen = w.gen;
      segment.info.del_count = w.count;
      segment.info.liv_checksum = w.checksum;
      segment.live_dirty = false;  // deletes apply under state_mu, held since the write
    }
    // Segments with every document deleted are gone from the commit; drop
    // them here too unless a merge reads them.
    std::erase_if(segments_, [](const SegState& segment) {
      return !segment.merging && segment.del_count() == segment.info.doc_count;
    });
    must_commit_ = false;
    committed_since_open_ = true;
    stats_.commit_generation = last_commit_.generation;
    stats_.committed_docs = last_commit_.live_doc_count();
    DeleteUnreferencedFiles();
  }

  // Deletes the files nothing needs (index_file_deleter.h): kept commits'
  // files stay, and so do those of every segment the writer holds now and
  // of merges being written. Best effort, throws nothing.
  void DeleteUnreferencedFiles() noexcept ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    if (closed_ || write_lock_ == nullptr) return;  // the directory may be another writer's now
    try {
      std::vector<CommitPoint> keep = kept_;
      // Not a commit: its generation must not make older commit points look
      // kept.
      CommitPoint now;
      now.generation = UINT64_MAX;
      for (const SegState& segment : segments_) now.segments.push_back(segment.info);
      for (const std::string& name : merging_outputs_) {
        now.segments.push_back(CommitSegment{name, {}, 0, 0});
      }
      keep.push_back(std::move(now));
      deleter_->DeleteUnreferenced(keep);
    } catch (...) {
      // Out of memory while deleting: the files go at the next commit.
    }
  }

  // CommitOrThrow, with any exception (out of memory) turned into a sticky
  // error: the documents since the last commit may be half flushed.
  absl::Status CommitLocked() {
    try {
      return CommitOrThrow();
    } catch (...) {
      return SetFatal(absl::ResourceExhaustedError(
          absl::StrCat("commit failed: ", ExceptionText(std::current_exception()),
                       "; the documents added since the last commit are lost")));
    }
  }

  absl::Status CommitOrThrow() {
    if (absl::Status s = FlushAllSlots(); !s.ok()) return s;
    return WriteCommitPoint();
  }

  // Flushes every in-memory segment, in parallel: no document is being added
  // (the caller holds commit_mu exclusively), so the slots are ours.
  absl::Status FlushAllSlots() {
    std::vector<Slot*> full;
    for (auto& s : slots_) {
      if (s->chain->num_docs() > 0) full.push_back(s.get());
    }
    std::vector<absl::Status> results(full.size());
    std::vector<std::thread> flushers;
    try {
      for (size_t i = 1; i < full.size(); ++i) {
        flushers.emplace_back([this, &full, &results, i] { results[i] = FlushSlot(full[i]); });
      }
    } catch (...) {
      // No thread for it: flush it on this one below.
    }
    for (size_t i = flushers.size() + 1; i < full.size(); ++i) results[i] = FlushSlot(full[i]);
    if (!full.empty()) results[0] = FlushSlot(full[0]);
    for (std::thread& t : flushers) t.join();
    for (const absl::Status& st : results) {
      if (!st.ok()) return st;
    }
    return absl::OkStatus();
  }

  // Writes a commit point of segments_ (and their new deletions).
  absl::Status WriteCommitPoint() {
    MutexLock lock(&state_mu_);
    if (!fatal_.ok()) return fatal_;
    // Every in-memory segment is flushed: every queued delete can be
    // applied, and then none is needed any more.
    if (absl::Status s = ApplyQueuedDeletes(); !s.ok()) {
      fatal_ = absl::Status(s.code(), absl::StrCat("applying deletes failed: ", s.message()));
      return fatal_;
    }
    TrimDeletes();
    try {
      CommitPoint commit;
      commit.generation = std::max(max_generation_, disk_commit_.generation) + 1;
      commit.index_id = index_id_;
      commit.next_segment_number = next_segment_number_;
      commit.schema = schema_.Snapshot();
      Installed next;
      // New deletions go to new .liv files, synced with the commit.
      std::vector<std::string> live_files;
      for (size_t i = 0; i < segments_.size(); ++i) {
        SegState& segment = segments_[i];
        CommitSegment entry = segment.info;
        const uint32_t del_count = segment.del_count();
        if (del_count == entry.doc_count) continue;  // all deleted: not in the commit
        if (segment.live_dirty && segment.live != nullptr) {
          const uint64_t gen = segment.next_del_gen++;
          uint64_t checksum = 0;
          absl::StatusOr<std::string> file =
              WriteLiveDocs(dir_, entry.name, entry.id, gen, *segment.live, &checksum);
          if (!file.ok()) return file.status();
          live_files.push_back(*file);
          entry.del_gen = gen;
          entry.del_count = del_count;
          entry.liv_checksum = checksum;
          next.live_docs.push_back({i, gen, del_count, checksum});
        }
        commit.segments.push_back(std::move(entry));
      }
      if (!must_commit_ && commit.segments == last_commit_.segments) {
        return absl::OkStatus();  // nothing changed
      }
      if (absl::Status s = dir_->Sync(live_files); !s.ok()) return s;
      if (absl::Status s = write_lock_->EnsureValid(); !s.ok()) {
        fatal_ = s;
        return s;
      }
      Installed prepared = Prepare(commit);
      prepared.live_docs = std::move(next.live_docs);
      if (absl::Status st = WriteCommit(dir_, commit); !st.ok()) {
        // Undo: if the rename happened (only the directory sync failed),
        // the new commit point is visible; delete it (this writer just made
        // it) so that the previous commit is the newest again, as the caller
        // is told. The flushed segments and deletions stay pending so that a
        // retried Commit() can still publish them, under a new generation.
        max_generation_ = commit.generation;
        if (dir_->FileLength(commit.file_name()).ok()) {
          if (absl::Status undo = dir_->DeleteFile(commit.file_name()); !undo.ok()) {
            // It stays visible, so it is the newest commit: its files must
            // stay too. Take it as done, and say it may not be durable.
            Adopt(std::move(prepared));
            return absl::Status(st.code(), absl::StrCat(st.message(),
                                                        " (the commit is in place; undoing it "
                                                        "failed: ",
                                                        undo.message(), ")"));
          }
        }
        return st;
      }
      max_generation_ = commit.generation;
      Adopt(std::move(prepared));
      return absl::OkStatus();
    } catch (...) {
      fatal_ = absl::ResourceExhaustedError(
          absl::StrCat("commit failed: ", ExceptionText(std::current_exception())));
      return fatal_;
    }
  }

  // ---- Merges

  SegState* FindSegment(std::string_view name) ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    for (SegState& segment : segments_) {
      if (segment.info.name == name) return &segment;
    }
    return nullptr;
  }

  // The size of a segment's files, read from its .si the first time.
  uint64_t SizeOf(SegState* segment) ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    if (segment->size_bytes > 0) return segment->size_bytes;
    absl::StatusOr<SegmentInfo> info = ReadSegmentInfo(dir_, segment->info.name, segment->info.id);
    uint64_t bytes = 1;  // unknown (unreadable): tiny, so a merge reports the damage
    if (info.ok()) {
      for (const SegmentFile& f : info->files) bytes += f.length;
      if (absl::StatusOr<uint64_t> si = dir_->FileLength(SegmentFileName(segment->info.name, "si"));
          si.ok()) {
        bytes += *si;
      }
    }
    segment->size_bytes = bytes;
    return bytes;
  }

  std::vector<MergeCandidate> Candidates() ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    std::vector<MergeCandidate> out;
    out.reserve(segments_.size());
    for (SegState& segment : segments_) {
      // A segment whose documents are all deleted leaves at the next
      // commit: nothing to merge.
      if (segment.del_count() == segment.info.doc_count && !segment.merging) continue;
      out.push_back(MergeCandidate{segment.info.name, SizeOf(&segment), segment.info.doc_count,
                                   segment.del_count(), segment.merging});
    }
    return out;
  }

  // Queues the merges a policy chose (skipping any that names a missing or
  // merging segment) and wakes or starts merge threads. Returns how many.
  size_t RegisterMerges(const std::vector<OneMerge>& merges)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    size_t registered = 0;
    for (const OneMerge& one : merges) {
      if (one.segments.empty()) continue;
      bool eligible = true;
      for (const std::string& name : one.segments) {
        const SegState* segment = FindSegment(name);
        if (segment == nullptr || segment->merging) eligible = false;
      }
      if (!eligible) continue;
      if (one.segments.size() == 1 && FindSegment(one.segments[0])->del_count() == 0) {
        continue;  // nothing to gain
      }
      auto merge = std::make_shared<Merge>();
      merge->inputs = one.segments;
      merge->output = SegmentName(next_segment_number_++);
      deleter_->AddOwnSegment(merge->output);
      merging_outputs_.push_back(merge->output);
      for (const std::string& name : one.segments) FindSegment(name)->merging = true;
      pending_merges_.push_back(std::move(merge));
      ++registered;
    }
    if (registered > 0) merges_changed_.SignalAll();
    return registered;
  }

  // Asks the policy for natural merges and starts them. Never throws.
  void MaybeMerge() {
    try {
      bool start_thread = false;
      {
        MutexLock lock(&state_mu_);
        if (merges_paused_ || closed_ || !fatal_.ok()) return;
        RegisterMerges(policy_->FindMerges(Candidates()));
        start_thread = NeedMergeThread();
      }
      if (start_thread) StartMergeThread();
    } catch (...) {
      // Out of memory choosing merges: the next flush or commit asks again.
    }
  }

  bool NeedMergeThread() ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    return !pending_merges_.empty() && idle_merge_threads_ == 0 &&
           static_cast<int>(merge_threads_count_.load()) < options_.max_concurrent_merges;
  }

  void StartMergeThread() {
    std::lock_guard lock(merge_threads_mu_);
    if (static_cast<int>(merge_threads_.size()) >= options_.max_concurrent_merges) return;
    merge_threads_.emplace_back([this] { MergeThreadMain(); });
    merge_threads_count_.store(merge_threads_.size());
  }

  // Stops and joins the merge threads: pending merges are dropped, running
  // ones cancelled if `abort`, otherwise finished.
  void StopMergeThreads(bool abort) {
    {
      MutexLock lock(&state_mu_);
      merges_paused_ = true;
      for (const std::shared_ptr<Merge>& m : pending_merges_) FinishMergeLocked(*m, false);
      pending_merges_.clear();
      if (abort) CancelMergesLocked();
      stop_merge_threads_ = true;
      merges_changed_.SignalAll();
    }
    std::lock_guard lock(merge_threads_mu_);
    for (std::thread& t : merge_threads_) t.join();
    merge_threads_.clear();
    merge_threads_count_.store(0);
    MutexLock state_lock(&state_mu_);
    stop_merge_threads_ = false;
    merges_paused_ = false;
    // What aborted merges left; a closed writer (the lock released: another
    // writer may own the directory now) deletes nothing.
    if (!closed_) DeleteUnreferencedFiles();
  }

  // Drops pending merges and asks running ones to stop.
  void CancelMergesLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    for (const std::shared_ptr<Merge>& m : pending_merges_) FinishMergeLocked(*m, false);
    pending_merges_.clear();
    for (const std::shared_ptr<Merge>& m : running_merges_) m->cancel.store(true);
  }

  // Cancels every merge and waits until none runs.
  void AbortMergesAndWait() ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    CancelMergesLocked();
    while (!running_merges_.empty()) merges_changed_.Wait(&state_mu_);
  }

  // A merge leaves the registry: its inputs are no longer merging (those
  // still here), its output no longer protected.
  void FinishMergeLocked(const Merge& merge, bool done) ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    for (const std::string& name : merge.inputs) {
      if (SegState* segment = FindSegment(name)) segment->merging = false;
    }
    std::erase(merging_outputs_, merge.output);
    if (!done) ++stats_.merges_aborted;
    merges_changed_.SignalAll();
  }

  void MergeThreadMain() {
    if (options_.merge_thread_nice != 0) {
      // Linux: the nice value of this thread alone. Best effort.
      (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)),
                        options_.merge_thread_nice);
    }
    MutexLock lock(&state_mu_);
    for (;;) {
      if (stop_merge_threads_ && (pending_merges_.empty() || merges_paused_)) return;
      if (pending_merges_.empty()) {
        ++idle_merge_threads_;
        merges_changed_.Wait(&state_mu_);
        --idle_merge_threads_;
        continue;
      }
      std::shared_ptr<Merge> merge = std::move(pending_merges_.front());
      pending_merges_.pop_front();
      running_merges_.push_back(merge);
      RunMergeLocked(merge);
      std::erase(running_merges_, merge);
      merges_changed_.SignalAll();
      // What the merge changed may call for more.
      if (!merges_paused_ && !closed_ && fatal_.ok()) {
        try {
          RegisterMerges(policy_->FindMerges(Candidates()));
        } catch (...) {
        }
      }
    }
  }

  // Runs one merge: gathers its inputs under the lock, merges without it,
  // and installs the result under it again. Never throws.
  void RunMergeLocked(const std::shared_ptr<Merge>& merge)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    absl::Status status = absl::OkStatus();
    try {
      status = RunMergeOrThrow(merge);
    } catch (...) {
      status = absl::ResourceExhaustedError(absl::StrCat(
          "merge into ", merge->output, " failed: ", ExceptionText(std::current_exception())));
    }
    if (!status.ok()) {
      FinishMergeLocked(*merge, false);
      if (!absl::IsCancelled(status) && merge_error_.ok()) merge_error_ = status;
      DeleteUnreferencedFiles();  // the merged segment's files, if any are left
    }
  }

  absl::Status RunMergeOrThrow(const std::shared_ptr<Merge>& merge)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    // Snapshot of the inputs: readers and deletions as they are now.
    std::vector<std::shared_ptr<SegmentReader>> readers;
    std::vector<std::shared_ptr<const LiveDocs>> lives;
    uint64_t live_docs = 0;
    for (const std::string& name : merge->inputs) {
      SegState* segment = FindSegment(name);
      if (segment == nullptr) return absl::CancelledError("an input segment is gone");
      if (absl::Status s = EnsureReader(segment); !s.ok()) return s;
      if (absl::Status s = EnsureLive(segment); !s.ok()) return s;
      // Resolve the inputs up to the same queue position first. The merged
      // segment inherits the lowest position of its inputs, and a delete
      // past a segment's position applies to every document of it: that
      // holds for an input only from the position it was resolved to at its
      // flush (before it, deletes applied per document number, and an
      // update's own document must not meet its delete again).
      if (absl::Status s = ApplyQueuedDeletesTo(segment); !s.ok()) return s;
      readers.push_back(segment->reader);
      lives.push_back(segment->live);
      live_docs += segment->info.doc_count - segment->del_count();
    }
    if (live_docs == 0) {
      // Nothing to write: the inputs go now (the next commit leaves them out
      // anyway).
      FinishMergeLocked(*merge, true);
      std::erase_if(segments_, [&merge](const SegState& segment) {
        return std::find(merge->inputs.begin(), merge->inputs.end(), segment.info.name) !=
               merge->inputs.end();
      });
      return absl::OkStatus();
    }
    MergeOptions options;
    options.fields = schema_.Snapshot();
    options.cancel = &merge->cancel;
    options.max_write_bytes_per_second = options_.max_merge_write_mb_per_sec * 1024 * 1024;
    std::vector<MergeInput> inputs;
    for (size_t i = 0; i < readers.size(); ++i) {
      inputs.push_back(MergeInput{readers[i].get(), lives[i].get()});
    }
    MergeStats merge_stats;
    double merge_cpu = 0;
    absl::StatusOr<MergeResult> result;
    absl::StatusOr<uint64_t> si_checksum = absl::UnknownError("unset");
    {
      // Merge without the lock.
      state_mu_.Unlock();
      const double cpu_start = ThreadCpuSeconds();
      result = MergeSegments(inputs, dir_, merge->output, index_id_, options, &merge_stats);
      if (result.ok()) {
        absl::StatusOr<IndexInput> si = OpenInput(dir_, SegmentFileName(merge->output, "si"));
        si_checksum = si.ok() ? ReadFooterChecksum(*si) : si.status();
      }
      merge_cpu = ThreadCpuSeconds() - cpu_start;
      state_mu_.Lock();
    }
    stats_.merge_seconds += merge_stats.seconds;
    stats_.merge_cpu_seconds += merge_cpu;
    if (!result.ok()) return result.status();
    if (!si_checksum.ok()) return si_checksum.status();
    if (merge->cancel.load()) return absl::CancelledError("merge cancelled");
    // Install: carry over the deletions made while merging.
    std::vector<size_t> positions;
    for (const std::string& name : merge->inputs) {
      SegState* segment = FindSegment(name);
      if (segment == nullptr) return absl::CancelledError("an input segment is gone");
      positions.push_back(static_cast<size_t>(segment - segments_.data()));
    }
    SegState merged;
    merged.info =
        CommitSegment{merge->output, result->info.id, result->info.doc_count, *si_checksum};
    merged.size_bytes = merge_stats.bytes_written;
    merged.resolved_upto = deletes_.end();
    std::optional<LiveDocs> live;
    for (size_t i = 0; i < positions.size(); ++i) {
      const SegState& input = segments_[positions[i]];
      merged.resolved_upto = std::min(merged.resolved_upto, input.resolved_upto);
      if (input.live == lives[i] || input.live == nullptr) continue;
      const std::vector<uint32_t>& map = result->doc_maps[i];
      for (uint32_t d = 0; d < input.info.doc_count; ++d) {
        const bool was_live = lives[i] == nullptr || lives[i]->IsLive(d);
        if (was_live && !input.live->IsLive(d) && map[d] != kDeletedDoc) {
          if (!live.has_value()) live.emplace(merged.info.doc_count);
          live->Delete(map[d]);
        }
      }
    }
    if (live.has_value()) {
      merged.live = std::make_shared<const LiveDocs>(*std::move(live));
      merged.live_dirty = true;
    }
    // The merged segment takes the place of its first input.
    const size_t at = *std::min_element(positions.begin(), positions.end());
    std::vector<SegState> next;
    next.reserve(segments_.size() - positions.size() + 1);
    for (size_t i = 0; i < segments_.size(); ++i) {
      if (i == at) next.push_back(std::move(merged));
      if (std::find(positions.begin(), positions.end(), i) == positions.end()) {
        next.push_back(std::move(segments_[i]));
      }
    }
    segments_ = std::move(next);
    FinishMergeLocked(*merge, true);
    ++stats_.merges_done;
    stats_.merged_docs += result->info.doc_count;
    stats_.merge_bytes_read += merge_stats.bytes_read;
    stats_.merge_bytes_written += merge_stats.bytes_written;
    return absl::OkStatus();
  }

  // Waits until no merge is pending or running; returns (and clears) the
  // first merge error since the last call.
  absl::Status WaitForMergesLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(state_mu_) {
    while (!pending_merges_.empty() || !running_merges_.empty()) merges_changed_.Wait(&state_mu_);
    absl::Status error = merge_error_;
    merge_error_ = absl::OkStatus();
    return error;
  }

  // Opens the directory's index as options.open_mode says. Holds the lock.
  absl::Status OpenIndex() {
    MutexLock lock(&state_mu_);  // no other thread yet; for the analysis
    absl::StatusOr<NewestCommit> newest = ReadNewestCommit(dir_, options_.recover);
    const OpenMode mode = options_.open_mode;
    if (!newest.ok() && !absl::IsNotFound(newest.status())) {
      return absl::Status(
          newest.status().code(),
          absl::StrCat(newest.status().message(), ". Nothing in ", dir_->DebugString(),
                       " was changed or deleted. To continue from the newest older commit point "
                       "that reads, open with the recover option (invert-index --recover)"));
    }
    if (!newest.ok()) {  // no index here
      if (mode == OpenMode::kAppend) {
        return absl::NotFoundError(
            absl::StrCat("there is no index to append to in ", dir_->DebugString(),
                         " (no commit point): open it with OpenMode::kCreate or kCreateOrAppend"));
      }
      index_id_ = NewIndexId();
      open_info_.created = true;
      must_commit_ = true;
    } else {
      for (const SkippedCommit& s : newest->skipped) {
        open_info_.skipped_commits.push_back(s.file);
        warnings_.push_back(absl::StrCat(
            "recover: skipped the unreadable commit point ", s.file, " (", s.cause.message(),
            "); it and the files only it may list are kept: inspect them, then delete them by "
            "hand"));
      }
      if (!newest->skipped.empty()) {
        warnings_.push_back(absl::StrCat("recover: continuing from commit point ",
                                         newest->commit.file_name(), " (",
                                         newest->commit.doc_count(), " documents)"));
      }
      for (const std::string& f : newest->foreign) {
        warnings_.push_back(
            absl::StrCat(f, " is named like a commit point but is not one; left untouched"));
      }
      index_id_ = newest->commit.index_id;
      max_generation_ = newest->max_generation;
      disk_commit_ = newest->commit;
      open_info_.generation = disk_commit_.generation;
      open_info_.docs = disk_commit_.doc_count();
      if (mode == OpenMode::kCreate) {
        // A new, empty index replaces this one at the first commit.
        last_commit_ = CommitPoint();
        last_commit_.generation = disk_commit_.generation;
        last_commit_.next_segment_number = disk_commit_.next_segment_number;
        open_info_.created = true;
        must_commit_ = true;
      } else {
        last_commit_ = disk_commit_;
        schema_.Reset(last_commit_.schema);
      }
      segments_ = SegmentsOf(last_commit_);
      stats_.commit_generation = disk_commit_.generation;
      stats_.committed_docs = disk_commit_.live_doc_count();
    }
    last_commit_.index_id = index_id_;
    open_info_.index_id = IdHex(index_id_);
    deleter_ = std::make_unique<IndexFileDeleter>(dir_, index_id_);
    absl::StatusOr<CommitInventory> inventory = deleter_->Scan();
    if (!inventory.ok()) return inventory.status();
    next_segment_number_ =
        std::max(last_commit_.next_segment_number, inventory->max_segment_number_seen);
    max_generation_ = std::max(max_generation_, inventory->max_generation_seen);
    // New .liv generations go above every one in the directory, leftovers
    // of a crashed writer included: a file name is never reused.
    max_del_gen_seen_ = inventory->max_del_gen_seen;
    for (SegState& segment : segments_) {
      if (auto it = max_del_gen_seen_.find(segment.info.name); it != max_del_gen_seen_.end()) {
        segment.next_del_gen = std::max(segment.next_del_gen, it->second + 1);
      }
    }
    for (const std::string& f : inventory->other_index) {
      warnings_.push_back(absl::StrCat(f, " is a commit point of another index; left untouched"));
    }
    if (!deleter_->deletes_leftovers() && newest.ok() && newest->skipped.empty()) {
      warnings_.push_back(
          "a damaged commit point is in the directory: files of unfinished segments are kept "
          "until it is removed by hand");
    }
    // The newest commit points (the one opened, and the newest older one).
    std::vector<CommitPoint>& readable = inventory->readable;
    std::sort(readable.begin(), readable.end(), [](const CommitPoint& a, const CommitPoint& b) {
      return a.generation > b.generation;
    });
    for (CommitPoint& c : readable) {
      if (kept_.size() < kKeptCommits && c.generation <= disk_commit_.generation) {
        kept_.push_back(std::move(c));
      }
    }
    // Leftovers of a crashed writer and temp files; the kept commits stay.
    DeleteUnreferencedFiles();
    return absl::OkStatus();
  }
};

IndexWriterImpl::~IndexWriterImpl() {
  if (!opened_) return;  // Open() failed: nothing to roll back
  bool closed;
  {
    MutexLock lock(&state_mu_);
    closed = closed_;
  }
  if (!closed) (void)Rollback();
  StopMergeThreads(/*abort=*/true);
}

absl::StatusOr<std::unique_ptr<IndexWriter>> IndexWriterImpl::Open(
    Directory* dir, std::unique_ptr<Directory> owned_dir, IndexWriterOptions options) {
  if (absl::Status s = ValidateOptions(options); !s.ok()) return s;
  auto impl = std::make_unique<IndexWriterImpl>();
  impl->owned_dir_ = std::move(owned_dir);
  impl->dir_ = dir;
  int threads = options.threads;
  const int affordable = static_cast<int>(options.ram_buffer_mb / kMinRamPerThreadMb);
  if (threads > affordable) {
    impl->warnings_.push_back(absl::StrFormat(
        "%d threads need at least %g MB of RAM buffer each; using %d threads for %g MB", threads,
        kMinRamPerThreadMb, affordable, options.ram_buffer_mb));
    threads = affordable;
  }
  if (options.ram_buffer_mb / threads > kMaxRamPerThreadMb) {
    impl->warnings_.push_back(
        absl::StrFormat("an in-memory segment holds at most %g MB; segments flush at that size",
                        kMaxRamPerThreadMb));
  }
  impl->threads_ = threads;
  impl->ram_limit_ = static_cast<int64_t>(options.ram_buffer_mb * 1024 * 1024);
  const double per_document_mb =
      options.max_document_mb > 0
          ? options.max_document_mb
          : std::min(options.ram_buffer_mb / threads, kMaxRamPerThreadMb) / 2;
  impl->max_document_bytes_ = static_cast<int64_t>(per_document_mb * 1024 * 1024);
  impl->options_ = std::move(options);
  impl->policy_ = impl->options_.merge_policy != nullptr ? impl->options_.merge_policy
                                                         : std::make_shared<TieredMergePolicy>();
  if (absl::Status s = impl->policy_->Validate(); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("IndexWriterOptions::merge_policy (",
                                                   impl->policy_->name(), "): ", s.message()));
  }

  absl::StatusOr<std::unique_ptr<DirectoryLock>> lock = dir->ObtainLock(kWriteLockName);
  if (!lock.ok()) return lock.status();
  impl->write_lock_ = std::move(*lock);
  try {
    if (absl::Status s = impl->OpenIndex(); !s.ok()) return s;
    for (int i = 0; i < threads; ++i) {
      auto slot = std::make_unique<Slot>(&impl->total_ram_, impl->CachedBlocksPerSlot());
      slot->chain = impl->NewChain(slot.get());
      impl->slots_.push_back(std::move(slot));
    }
  } catch (...) {
    return absl::ResourceExhaustedError(
        absl::StrCat("opening the index writer failed: ", ExceptionText(std::current_exception())));
  }
  impl->opened_ = true;
  return std::unique_ptr<IndexWriter>(std::move(impl));
}

absl::Status IndexWriterImpl::AddDocument(const Document& doc) { return AddOrUpdate(doc, nullptr); }

absl::Status IndexWriterImpl::UpdateDocument(std::string_view field, std::string_view term,
                                             const Document& doc) {
  const UpdateTerm update{field, term};
  return AddOrUpdate(doc, &update);
}

absl::Status IndexWriterImpl::DeleteDocuments(std::string_view field, std::string_view term) {
  std::shared_lock commit_lock(commit_mu_);
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  try {
    deletes_.Add(field, term);
  } catch (...) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "queuing the delete of field \"", Sv(field),
        "\" failed: ", ExceptionText(std::current_exception()), "; nothing was deleted"));
  }
  MutexLock lock(&state_mu_);
  ++stats_.delete_terms;
  return absl::OkStatus();
}

absl::Status IndexWriterImpl::DeleteAll() {
  std::unique_lock commit_lock(commit_mu_);
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  try {
    for (auto& s : slots_) {
      s->flush_requested.store(false);
      s->chain.reset();
      s->chain = NewChain(s.get());
      s->doc_seqs.clear();
      s->queue_start.store(kNoDocs);
    }
  } catch (...) {
    return SetFatal(absl::ResourceExhaustedError(
        absl::StrCat("DeleteAll failed: ", ExceptionText(std::current_exception()))));
  }
  MutexLock lock(&state_mu_);
  merges_paused_ = true;
  AbortMergesAndWait();
  merges_paused_ = false;
  deletes_.Clear();
  for (const SegState& segment : segments_) {
    stats_.docs_deleted += segment.info.doc_count - segment.del_count();
  }
  segments_.clear();
  must_commit_ = true;
  DeleteUnreferencedFiles();
  return absl::OkStatus();
}

absl::Status IndexWriterImpl::AddOrUpdate(const Document& doc, const UpdateTerm* update) {
  std::shared_lock commit_lock(commit_mu_);
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  absl::Status status;
  absl::Status flush;
  try {
    SlotLease lease(this);
    status = AddToSlot(lease.slot(), doc, update);
    if (status.ok()) flush = MaybeFlush(lease.slot());
    if (flush.ok() && merge_check_needed_.load(std::memory_order_relaxed) &&
        merge_check_needed_.exchange(false)) {
      MaybeMerge();
    }
  } catch (...) {
    // Only the slot bookkeeping can get here (the chain and the flush catch
    // their own): nothing of the document was added.
    status = absl::ResourceExhaustedError(
        absl::StrCat("adding the document failed: ", ExceptionText(std::current_exception()),
                     "; nothing of it was added"));
  }
  {
    MutexLock lock(&state_mu_);
    if (status.ok()) {
      ++stats_.docs_added;
    } else {
      ++stats_.docs_failed;
    }
  }
  return status.ok() ? flush : status;
}

absl::Status IndexWriterImpl::Commit() {
  std::unique_lock commit_lock(commit_mu_);
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  absl::Status status = CommitLocked();
  if (status.ok()) MaybeMerge();
  return status;
}

absl::Status IndexWriterImpl::Close() {
  std::unique_lock commit_lock(commit_mu_);
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  if (!options_.wait_for_merges_on_close) StopMergeThreads(/*abort=*/true);
  absl::Status status = CommitLocked();
  if (status.ok() && options_.wait_for_merges_on_close) {
    // Let running merges (and those they lead to) finish, then commit what
    // they made. A failed merge loses nothing: its inputs stay.
    {
      MutexLock lock(&state_mu_);
      (void)WaitForMergesLocked();
    }
    StopMergeThreads(/*abort=*/false);
    status = CommitLocked();
  }
  MutexLock lock(&state_mu_);
  closed_ = status.ok();
  if (status.ok()) {
    for (auto& s : slots_) s->chain.reset();
    write_lock_.reset();  // the next writer may open the index now
  }
  return status;
}

absl::Status IndexWriterImpl::Rollback() {
  std::unique_lock commit_lock(commit_mu_);
  {
    MutexLock lock(&state_mu_);
    if (closed_) return absl::FailedPreconditionError("the index writer is closed");
    // Merges read segments about to go: stop them first.
    merges_paused_ = true;
    AbortMergesAndWait();
    merges_paused_ = false;
  }
  try {
    for (auto& s : slots_) {
      s->flush_requested.store(false);
      s->chain.reset();  // first: its memory goes back before the new chain takes any
      s->chain = NewChain(s.get());
    }
  } catch (...) {
    return SetFatal(absl::ResourceExhaustedError(
        absl::StrCat("rollback failed: ", ExceptionText(std::current_exception()))));
  }
  MutexLock lock(&state_mu_);
  deletes_.Clear();
  for (auto& s : slots_) {
    s->doc_seqs.clear();
    s->queue_start.store(kNoDocs);
  }
  try {
    segments_ = SegmentsOf(last_commit_);
  } catch (...) {
    return SetFatalLocked(absl::ResourceExhaustedError(
        absl::StrCat("rollback failed: ", ExceptionText(std::current_exception()))));
  }
  // A new index (or kCreate) must still be committed if it never was; a
  // DeleteAll since the last commit is undone.
  must_commit_ = open_info_.created && !committed_since_open_;
  fatal_ = absl::OkStatus();
  schema_.Reset(last_commit_.schema);
  DeleteUnreferencedFiles();
  return absl::OkStatus();
}

absl::Status IndexWriterImpl::ForceMerge(int max_segments) {
  if (max_segments < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("ForceMerge(", max_segments, "): the segment count must be at least 1"));
  }
  return ForceMergeWith([this, max_segments](const std::vector<MergeCandidate>& c) {
    return policy_->FindForcedMerges(c, max_segments);
  });
}

absl::Status IndexWriterImpl::ForceMergeDeletes() {
  return ForceMergeWith(
      [this](const std::vector<MergeCandidate>& c) { return policy_->FindForcedDeletesMerges(c); });
}

absl::Status IndexWriterImpl::ForceMergeWith(
    const std::function<std::vector<OneMerge>(const std::vector<MergeCandidate>&)>& find) {
  {
    // Everything added so far is merged too: flush it, apply the deletes.
    std::unique_lock commit_lock(commit_mu_);
    if (absl::Status s = CheckUsable(); !s.ok()) return s;
    try {
      if (absl::Status s = FlushAllSlots(); !s.ok()) return s;
    } catch (...) {
      return SetFatal(absl::ResourceExhaustedError(absl::StrCat(
          "flushing before a forced merge failed: ", ExceptionText(std::current_exception()))));
    }
    MutexLock lock(&state_mu_);
    if (absl::Status s = ApplyQueuedDeletes(); !s.ok()) {
      return SetFatalLocked(
          absl::Status(s.code(), absl::StrCat("applying deletes failed: ", s.message())));
    }
    TrimDeletes();
  }
  for (;;) {
    bool start_thread = false;
    {
      MutexLock lock(&state_mu_);
      if (closed_) return absl::FailedPreconditionError("the index writer is closed");
      if (merges_paused_)
        return absl::AbortedError("the forced merge was aborted (Rollback, DeleteAll or Close)");
      if (!merge_error_.ok()) {
        absl::Status error = merge_error_;
        merge_error_ = absl::OkStatus();
        return error;
      }
      std::vector<MergeCandidate> candidates;
      try {
        candidates = Candidates();
        RegisterMerges(find(candidates));
      } catch (...) {
        return absl::ResourceExhaustedError(absl::StrCat("choosing a forced merge failed: ",
                                                         ExceptionText(std::current_exception())));
      }
      if (pending_merges_.empty() && running_merges_.empty()) return absl::OkStatus();
      start_thread = NeedMergeThread();
      if (!start_thread) merges_changed_.Wait(&state_mu_);
    }
    if (start_thread) StartMergeThread();
  }
}

absl::Status IndexWriterImpl::WaitForMerges() {
  MutexLock lock(&state_mu_);
  return WaitForMergesLocked();
}
absl::Status IndexWriterImpl::AddIndexes(const std::vector<std::string>& paths) {
  // Exclusively: no commit can publish half of the added segments.
  std::unique_lock commit_lock(commit_mu_);
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  try {
    return AddIndexesLocked(paths);
  } catch (...) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "AddIndexes failed: ", ExceptionText(std::current_exception()), "; nothing was added"));
  }
}

absl::Status IndexWriterImpl::AddIndexesLocked(const std::vector<std::string>& paths) {
  // First read every index's newest commit and check the schemas, so that a
  // mismatch adds nothing.
  struct Source {
    std::string path;
    std::unique_ptr<FSDirectory> dir;
    CommitPoint commit;
  };
  std::vector<Source> sources;
  std::vector<FieldInfo> schema = schema_.Snapshot();
  for (const std::string& path : paths) {
    absl::StatusOr<std::unique_ptr<FSDirectory>> dir = FSDirectory::Open(path, /*create=*/false);
    if (!dir.ok()) {
      return absl::Status(dir.status().code(),
                          absl::StrCat("AddIndexes: ", path, ": ", dir.status().message()));
    }
    absl::StatusOr<NewestCommit> newest = ReadNewestCommit(dir->get());
    if (!newest.ok()) {
      return absl::Status(newest.status().code(),
                          absl::StrCat("AddIndexes: ", path, ": ", newest.status().message()));
    }
    if (newest->commit.index_id == index_id_) {
      return absl::InvalidArgumentError(absl::StrCat(
          "AddIndexes: ", path,
          " is this index (or a copy of it): adding it would duplicate every document"));
    }
    for (const FieldInfo& f : newest->commit.schema) {
      auto it = std::find_if(schema.begin(), schema.end(),
                             [&f](const FieldInfo& mine) { return mine.name == f.name; });
      if (it == schema.end()) {
        FieldInfo added = f;
        added.number = static_cast<uint32_t>(schema.size());
        schema.push_back(std::move(added));
      } else if (!(it->type == f.type)) {
        return absl::InvalidArgumentError(absl::StrCat("AddIndexes: ", path, ": ",
                                                       FieldTypeConflict(f.name, it->type, f.type),
                                                       "; nothing was added"));
      }
    }
    sources.push_back(Source{path, *std::move(dir), newest->commit});
  }
  // Copy every segment under a new name and id of this index.
  std::vector<SegState> added;
  std::vector<std::string> names;  // every name taken, copied or not
  absl::Status status = absl::OkStatus();
  for (const Source& source : sources) {
    for (const CommitSegment& segment : source.commit.segments) {
      std::string name;
      {
        MutexLock lock(&state_mu_);
        name = SegmentName(next_segment_number_++);
        deleter_->AddOwnSegment(name);
        names.push_back(name);
        merging_outputs_.push_back(name);  // protected until installed
      }
      absl::StatusOr<CopiedSegment> copied =
          CopySegment(source.dir.get(), segment, dir_, name, NewSegmentId(index_id_), nullptr);
      if (!copied.ok()) {
        status = absl::Status(copied.status().code(),
                              absl::StrCat("AddIndexes: ", source.path, ", segment ", segment.name,
                                           ": ", copied.status().message(), "; nothing was added"));
        break;
      }
      SegState state;
      state.info = copied->segment;
      state.next_del_gen = state.info.del_gen + 1;
      state.resolved_upto = deletes_.end();  // earlier deletes do not apply to them
      added.push_back(std::move(state));
    }
    if (!status.ok()) break;
  }
  MutexLock lock(&state_mu_);
  for (const std::string& name : names) std::erase(merging_outputs_, name);
  if (!status.ok()) {
    DeleteUnreferencedFiles();  // the copies made so far
    return status;
  }
  // The new fields join the schema (in the order the indexes list them).
  std::vector<IndexSchema::NewField> new_fields;
  for (const FieldInfo& f : schema) new_fields.push_back({f.name, &f.type});
  if (absl::Status s = schema_.Register(new_fields); !s.ok()) {
    DeleteUnreferencedFiles();
    return s;  // a concurrent AddDocument took a name with another type
  }
  for (SegState& s : added) segments_.push_back(std::move(s));
  must_commit_ = true;
  merge_check_needed_.store(true);
  return absl::OkStatus();
}

IndexWriterStats IndexWriterImpl::stats() const {
  MutexLock lock(&state_mu_);
  IndexWriterStats s = stats_;
  s.ram_bytes = total_ram_.bytes();
  s.peak_ram_bytes = peak_ram_.load();
  for (const std::unique_ptr<Slot>& slot : slots_) s.idle_block_bytes += slot->blocks.bytes();
  s.segments = segments_.size();
  s.running_merges = static_cast<int>(running_merges_.size());
  return s;
}

std::vector<FieldSchema> IndexWriterImpl::schema() const {
  std::vector<FieldSchema> out;
  for (const FieldInfo& f : schema_.Snapshot()) out.push_back(FieldSchema{f.name, f.type});
  return out;
}

IndexWriter::~IndexWriter() = default;

absl::StatusOr<std::unique_ptr<IndexWriter>> IndexWriter::Open(const std::string& path,
                                                               IndexWriterOptions options) {
  if (absl::Status s = ValidateOptions(options); !s.ok()) return s;
  // Appending needs an index, so never a new directory.
  absl::StatusOr<std::unique_ptr<FSDirectory>> dir =
      FSDirectory::Open(path, options.create_directory && options.open_mode != OpenMode::kAppend);
  if (!dir.ok()) return dir.status();
  Directory* raw = dir->get();
  return IndexWriterImpl::Open(raw, *std::move(dir), std::move(options));
}

absl::StatusOr<std::unique_ptr<IndexWriter>> IndexWriter::Open(Directory* dir,
                                                               IndexWriterOptions options) {
  return IndexWriterImpl::Open(dir, nullptr, std::move(options));
}

}  // namespace invert

// IndexWriterImpl, the IndexWriter that Open() returns: the write lock, open
// modes, threads, the RAM-driven flush policy, commits, rollback, and the
// rules for deleting files.
#include "invert/index_writer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <thread>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "codec/commit_format.h"
#include "codec/segment_files.h"
#include "codec/segment_info_format.h"
#include "index/index_file_deleter.h"
#include "index/index_schema.h"
#include "index/indexing_chain.h"
#include "index/segment_flush.h"
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
    explicit Slot(RamCounter* total) : ram(total) {}
    // The RAM of this slot's chain, whichever chain it is now: chains count
    // into it, and it into the writer's total. Safe to read from any thread.
    RamCounter ram;
    std::unique_ptr<IndexingChain> chain;
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
  std::atomic<int64_t> peak_ram_{0};
  SegmentId index_id_{};
  IndexSchema schema_;

  std::vector<std::unique_ptr<Slot>> slots_;
  std::mutex slots_mu_;
  std::condition_variable slot_free_;

  // AddDocument holds it shared; Commit/Rollback/Close exclusively.
  std::shared_mutex commit_mu_;

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
  std::vector<CommitSegment> pending_ ABSL_GUARDED_BY(state_mu_);  // flushed since the last commit
  uint64_t next_segment_number_ ABSL_GUARDED_BY(state_mu_) = 0;
  uint64_t max_generation_ ABSL_GUARDED_BY(state_mu_) = 0;  // of every commit-like file name seen
  // A new index (or kCreate) not committed yet.
  bool must_commit_ ABSL_GUARDED_BY(state_mu_) = false;
  std::unique_ptr<IndexFileDeleter> deleter_ ABSL_GUARDED_BY(state_mu_);
  // Sticky: an I/O error or exception lost documents.
  absl::Status fatal_ ABSL_GUARDED_BY(state_mu_);
  bool closed_ ABSL_GUARDED_BY(state_mu_) = false;
  IndexWriterStats stats_ ABSL_GUARDED_BY(state_mu_);

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
    return std::make_unique<IndexingChain>(std::move(o), &slot->ram);
  }

  Slot* Acquire() {
    std::unique_lock lock(slots_mu_);
    for (;;) {
      for (auto& s : slots_) {
        if (!s->busy) {
          s->busy = true;
          return s.get();
        }
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
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MutexLock lock(&state_mu_);
    stats_.flush_seconds += seconds;
    if (!info.ok() || !si_checksum.ok()) {
      const absl::Status error = !info.ok() ? info.status() : si_checksum.status();
      if (fatal_.ok()) {
        fatal_ = absl::Status(error.code(), absl::StrCat("flushing segment ", name, " (", docs,
                                                         " documents) failed: ", error.message()));
      }
      return fatal_;
    }
    pending_.push_back(CommitSegment{name, info->id, info->doc_count, *si_checksum});
    ++stats_.segments_flushed;
    stats_.flushed_bytes += flush_stats.bytes_written;
    stats_.flushed_terms += flush_stats.terms;
    return absl::OkStatus();
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

  // Adds `doc` through `slot` (held by the caller): flushes first when the
  // document would overshoot the buffer or the segment is full.
  absl::Status AddToSlot(Slot* slot, const Document& doc) {
    const int64_t headroom = std::max<int64_t>(0, ram_limit_ - total_ram_.bytes());
    absl::Status status = slot->chain->AddDocument(doc, headroom);
    if (absl::IsResourceExhausted(status) && slot->chain->num_docs() > 0) {
      // Full, or the document would push the buffer over its limit: flush
      // this in-memory segment and add the document to a fresh one.
      status = FlushSlot(slot);
      if (status.ok()) status = slot->chain->AddDocument(doc);
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
    return status;
  }

  static constexpr size_t kKeptCommits = 2;

  // What a successful commit installs, built before the commit point is
  // written: once it is on disk nothing may fail (throw) any more.
  struct Installed {
    CommitPoint disk;
    CommitPoint last;
    std::vector<CommitPoint> kept;
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
    pending_.clear();
    must_commit_ = false;
    stats_.commit_generation = last_commit_.generation;
    stats_.committed_docs = last_commit_.doc_count();
    try {
      deleter_->DeleteUnreferenced(kept_);
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
    // Flush every in-memory segment, in parallel: no document is being added
    // (the caller holds commit_mu exclusively), so the slots are ours.
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
    MutexLock lock(&state_mu_);
    if (!fatal_.ok()) return fatal_;
    if (pending_.empty() && !must_commit_) return absl::OkStatus();  // nothing changed
    try {
      CommitPoint commit;
      commit.generation = std::max(max_generation_, disk_commit_.generation) + 1;
      commit.index_id = index_id_;
      commit.next_segment_number = next_segment_number_;
      commit.schema = schema_.Snapshot();
      commit.segments = last_commit_.segments;
      commit.segments.insert(commit.segments.end(), pending_.begin(), pending_.end());
      if (absl::Status s = write_lock_->EnsureValid(); !s.ok()) {
        fatal_ = s;
        return s;
      }
      Installed next = Prepare(commit);
      if (absl::Status st = WriteCommit(dir_, commit); !st.ok()) {
        // Undo: if the rename happened (only the directory sync failed),
        // the new commit point is visible; delete it (this writer just made
        // it) so that the previous commit is the newest again, as the caller
        // is told. The flushed segments stay pending so that a retried
        // Commit() can still publish them, under a new generation.
        max_generation_ = commit.generation;
        if (dir_->FileLength(commit.file_name()).ok()) {
          if (absl::Status undo = dir_->DeleteFile(commit.file_name()); !undo.ok()) {
            // It stays visible, so it is the newest commit: its files must
            // stay too. Take it as done, and say it may not be durable.
            Adopt(std::move(next));
            return absl::Status(st.code(), absl::StrCat(st.message(),
                                                        " (the commit is in place; undoing it "
                                                        "failed: ",
                                                        undo.message(), ")"));
          }
        }
        return st;
      }
      max_generation_ = commit.generation;
      Adopt(std::move(next));
      return absl::OkStatus();
    } catch (...) {
      fatal_ = absl::ResourceExhaustedError(
          absl::StrCat("commit failed: ", ExceptionText(std::current_exception())));
      return fatal_;
    }
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
      stats_.commit_generation = disk_commit_.generation;
      stats_.committed_docs = disk_commit_.doc_count();
    }
    last_commit_.index_id = index_id_;
    open_info_.index_id = IdHex(index_id_);
    deleter_ = std::make_unique<IndexFileDeleter>(dir_, index_id_);
    absl::StatusOr<CommitInventory> inventory = deleter_->Scan();
    if (!inventory.ok()) return inventory.status();
    next_segment_number_ =
        std::max(last_commit_.next_segment_number, inventory->max_segment_number_seen);
    max_generation_ = std::max(max_generation_, inventory->max_generation_seen);
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
    deleter_->DeleteUnreferenced(kept_);
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

  absl::StatusOr<std::unique_ptr<DirectoryLock>> lock = dir->ObtainLock(kWriteLockName);
  if (!lock.ok()) return lock.status();
  impl->write_lock_ = std::move(*lock);
  try {
    if (absl::Status s = impl->OpenIndex(); !s.ok()) return s;
    for (int i = 0; i < threads; ++i) {
      auto slot = std::make_unique<Slot>(&impl->total_ram_);
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

absl::Status IndexWriterImpl::AddDocument(const Document& doc) {
  std::shared_lock commit_lock(commit_mu_);
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  absl::Status status;
  absl::Status flush;
  try {
    SlotLease lease(this);
    status = AddToSlot(lease.slot(), doc);
    if (status.ok()) flush = MaybeFlush(lease.slot());
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
  return CommitLocked();
}

absl::Status IndexWriterImpl::Close() {
  std::unique_lock commit_lock(commit_mu_);
  if (absl::Status s = CheckUsable(); !s.ok()) return s;
  absl::Status status = CommitLocked();
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
  pending_.clear();
  fatal_ = absl::OkStatus();
  schema_.Reset(last_commit_.schema);
  deleter_->DeleteUnreferenced(kept_);
  return absl::OkStatus();
}

// Not implemented yet (issue 12 is in progress): they fail loudly.
absl::Status IndexWriterImpl::DeleteDocuments(std::string_view, std::string_view) {
  return absl::UnimplementedError("DeleteDocuments is not implemented yet");
}
absl::Status IndexWriterImpl::UpdateDocument(std::string_view, std::string_view, const Document&) {
  return absl::UnimplementedError("UpdateDocument is not implemented yet");
}
absl::Status IndexWriterImpl::DeleteAll() {
  return absl::UnimplementedError("DeleteAll is not implemented yet");
}
absl::Status IndexWriterImpl::ForceMerge(int) {
  return absl::UnimplementedError("ForceMerge is not implemented yet");
}
absl::Status IndexWriterImpl::ForceMergeDeletes() {
  return absl::UnimplementedError("ForceMergeDeletes is not implemented yet");
}
absl::Status IndexWriterImpl::WaitForMerges() { return absl::OkStatus(); }
absl::Status IndexWriterImpl::AddIndexes(const std::vector<std::string>&) {
  return absl::UnimplementedError("AddIndexes is not implemented yet");
}

IndexWriterStats IndexWriterImpl::stats() const {
  MutexLock lock(&state_mu_);
  IndexWriterStats s = stats_;
  s.ram_bytes = total_ram_.bytes();
  s.peak_ram_bytes = peak_ram_.load();
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

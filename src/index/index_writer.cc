// IndexWriter: threads, the RAM-driven flush policy, commits and rollback.
#include "invert/index_writer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "codec/commit_format.h"
#include "codec/segment_files.h"
#include "codec/segment_info_format.h"
#include "index/indexing_chain.h"
#include "index/segment_flush.h"
#include "store/atomic_file.h"
#include "store/index_input.h"
#include "util/absl_compat.h"
#include "util/ram_counter.h"

namespace invert {

namespace {

constexpr double kMaxRamPerThreadMb = 3000;  // pools address 4 GiB

std::string SegmentName(uint64_t number) {
  static const char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string out;
  do {
    out.insert(out.begin(), kDigits[number % 36]);
    number /= 36;
  } while (number > 0);
  return "_" + out;
}

// The segment name a file belongs to ("_3" for "_3.doc"), or "".
std::string_view SegmentOfFile(std::string_view file) {
  if (file.empty() || file[0] != '_') return {};
  const size_t dot = file.find('.');
  return dot == std::string_view::npos ? std::string_view() : file.substr(0, dot);
}

}  // namespace

class IndexWriter::Impl {
 public:
  struct Slot {
    explicit Slot(RamCounter* total) : ram(total) {}
    // The RAM of this slot's chain, whichever chain it is now: chains count
    // into it, and it into the writer's total. Safe to read from any thread.
    RamCounter ram;
    std::unique_ptr<IndexingChain> chain;
    bool busy = false;  // guarded by slots_mu
    std::atomic<bool> flush_requested{false};
  };

  std::unique_ptr<Directory> owned_dir;
  Directory* dir = nullptr;
  IndexWriterOptions options;
  std::vector<std::string> warnings;
  int threads = 1;
  int64_t ram_limit = 0;
  RamCounter total_ram;
  std::atomic<int64_t> peak_ram{0};

  std::vector<std::unique_ptr<Slot>> slots;
  std::mutex slots_mu;
  std::condition_variable slot_free;

  // AddDocument holds it shared; Commit/Rollback/Close exclusively.
  std::shared_mutex commit_mu;

  std::mutex state_mu;  // everything below
  CommitPoint last_commit;
  std::vector<CommitSegment> pending;  // flushed since the last commit
  uint64_t next_segment_number = 0;
  absl::Status fatal;  // sticky: an I/O error lost in-memory documents
  bool closed = false;
  IndexWriterStats stats;

  std::unique_ptr<IndexingChain> NewChain(Slot* slot) {
    IndexingChainOptions o;
    o.layout = options.layout;
    o.analyzer = options.analyzer;
    o.field_analyzers = options.field_analyzers;
    o.position_increment_gap = options.position_increment_gap;
    o.offset_gap = options.offset_gap;
    return std::make_unique<IndexingChain>(std::move(o), &slot->ram);
  }

  Slot* Acquire() {
    std::unique_lock lock(slots_mu);
    for (;;) {
      for (auto& s : slots) {
        if (!s->busy) {
          s->busy = true;
          return s.get();
        }
      }
      slot_free.wait(lock);
    }
  }

  // Claims `slot` if it is free; returns true iff claimed.
  bool TryClaim(Slot* slot) {
    std::lock_guard lock(slots_mu);
    if (slot->busy) return false;
    slot->busy = true;
    return true;
  }

  void Release(Slot* slot) {
    {
      std::lock_guard lock(slots_mu);
      slot->busy = false;
    }
    slot_free.notify_one();
  }

  absl::Status CheckUsable() {
    std::lock_guard lock(state_mu);
    if (closed) return absl::FailedPreconditionError("the index writer is closed");
    if (!fatal.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the index writer hit an I/O error and must be rolled back: ", fatal.message()));
    }
    return absl::OkStatus();
  }

  // Flushes the chain of `slot`, which the caller holds.
  absl::Status FlushSlot(Slot* slot) {
    slot->flush_requested.store(false);
    if (slot->chain->num_docs() == 0) return absl::OkStatus();
    std::string name;
    {
      std::lock_guard lock(state_mu);
      name = SegmentName(next_segment_number++);
    }
    std::unique_ptr<IndexingChain> chain = std::move(slot->chain);
    slot->chain = NewChain(slot);
    const auto start = std::chrono::steady_clock::now();
    FlushStats flush_stats;
    absl::StatusOr<SegmentInfo> info = FlushSegment(*chain, dir, name, &flush_stats);
    const uint32_t docs = chain->num_docs();
    chain.reset();  // frees its RAM
    absl::StatusOr<uint64_t> si_checksum = absl::UnknownError("unset");
    if (info.ok()) {
      absl::StatusOr<IndexInput> si = dir->OpenInput(SegmentFileName(name, "si"));
      si_checksum = si.ok() ? ReadFooterChecksum(*si) : si.status();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::lock_guard lock(state_mu);
    stats.flush_seconds += seconds;
    if (!info.ok() || !si_checksum.ok()) {
      const absl::Status error = !info.ok() ? info.status() : si_checksum.status();
      fatal = absl::Status(error.code(), absl::StrCat("flushing segment ", name, " (", docs,
                                                      " documents) failed: ", error.message()));
      return fatal;
    }
    pending.push_back(CommitSegment{name, info->id, info->doc_count, *si_checksum});
    ++stats.segments_flushed;
    stats.flushed_bytes += flush_stats.bytes_written;
    stats.flushed_terms += flush_stats.terms;
    return absl::OkStatus();
  }

  // After a document: flush if the writer is over its RAM budget.
  absl::Status MaybeFlush(Slot* mine) {
    const int64_t ram = total_ram.bytes();
    int64_t peak = peak_ram.load();
    while (ram > peak && !peak_ram.compare_exchange_weak(peak, ram)) {
    }
    if (mine->flush_requested.load()) return FlushSlot(mine);
    if (ram < ram_limit) return absl::OkStatus();
    Slot* largest = nullptr;
    int64_t largest_bytes = -1;
    for (auto& s : slots) {
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

  // Deletes every file not belonging to `commit` (segments of failed or
  // rolled-back flushes, older commit points, temp files).
  void DeleteUnreferenced(const CommitPoint& commit) {
    absl::StatusOr<std::vector<std::string>> names = dir->ListAll();
    if (!names.ok()) return;
    std::vector<std::string_view> live;
    for (const CommitSegment& s : commit.segments) live.push_back(s.name);
    for (const std::string& name : *names) {
      const int64_t generation = CommitGeneration(name);
      bool remove = false;
      if (generation >= 0) {
        remove = static_cast<uint64_t>(generation) != commit.generation;
      } else if (name.size() > kTempFileSuffix.size() &&
                 std::string_view(name).substr(name.size() - kTempFileSuffix.size()) ==
                     kTempFileSuffix) {
        remove = true;
      } else if (std::string_view segment = SegmentOfFile(name); !segment.empty()) {
        remove = std::find(live.begin(), live.end(), segment) == live.end();
      }
      if (remove) (void)dir->DeleteFile(name);
    }
  }

  absl::Status CommitLocked() {
    // Flush every in-memory segment, in parallel: no document is being added
    // (the caller holds commit_mu exclusively), so the slots are ours.
    std::vector<Slot*> full;
    for (auto& s : slots) {
      if (s->chain->num_docs() > 0) full.push_back(s.get());
    }
    std::vector<absl::Status> results(full.size());
    std::vector<std::thread> flushers;
    for (size_t i = 1; i < full.size(); ++i) {
      flushers.emplace_back([this, &full, &results, i] { results[i] = FlushSlot(full[i]); });
    }
    if (!full.empty()) results[0] = FlushSlot(full[0]);
    for (std::thread& t : flushers) t.join();
    for (const absl::Status& st : results) {
      if (!st.ok()) return st;
    }
    std::lock_guard lock(state_mu);
    if (!fatal.ok()) return fatal;
    CommitPoint commit;
    commit.generation = last_commit.generation + 1;
    commit.next_segment_number = next_segment_number;
    commit.segments = last_commit.segments;
    commit.segments.insert(commit.segments.end(), pending.begin(), pending.end());
    if (absl::Status st = WriteCommit(dir, commit); !st.ok()) {
      // The previous commit is intact; the flushed segments stay pending so
      // a retried Commit() can still publish them.
      return st;
    }
    last_commit = std::move(commit);
    pending.clear();
    DeleteUnreferenced(last_commit);
    return absl::OkStatus();
  }
};

IndexWriter::IndexWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

IndexWriter::~IndexWriter() {
  if (impl_ != nullptr && !impl_->closed) (void)Rollback();
}

absl::StatusOr<std::unique_ptr<IndexWriter>> IndexWriter::Open(const std::string& path,
                                                               IndexWriterOptions options) {
  absl::StatusOr<std::unique_ptr<FSDirectory>> dir = FSDirectory::Open(path, options.create);
  if (!dir.ok()) return dir.status();
  Directory* raw = dir->get();
  absl::StatusOr<std::unique_ptr<IndexWriter>> writer = Open(raw, std::move(options));
  if (!writer.ok()) return writer.status();
  (*writer)->impl_->owned_dir = std::move(*dir);
  return writer;
}

absl::StatusOr<std::unique_ptr<IndexWriter>> IndexWriter::Open(Directory* dir,
                                                               IndexWriterOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->dir = dir;
  if (!(options.ram_buffer_mb >= kMinRamPerThreadMb)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "ram_buffer_mb = %g is below the minimum of %g MB: every flushed segment would hold only "
        "a handful of documents",
        options.ram_buffer_mb, kMinRamPerThreadMb));
  }
  int threads = std::max(1, options.threads);
  const int affordable = static_cast<int>(options.ram_buffer_mb / kMinRamPerThreadMb);
  if (threads > affordable) {
    impl->warnings.push_back(absl::StrFormat(
        "%d threads need at least %g MB of RAM buffer each; using %d threads for %g MB", threads,
        kMinRamPerThreadMb, affordable, options.ram_buffer_mb));
    threads = affordable;
  }
  if (options.ram_buffer_mb / threads > kMaxRamPerThreadMb) {
    impl->warnings.push_back(
        absl::StrFormat("an in-memory segment holds at most %g MB; segments flush at that size",
                        kMaxRamPerThreadMb));
  }
  impl->threads = threads;
  impl->ram_limit = static_cast<int64_t>(options.ram_buffer_mb * 1024 * 1024);
  impl->options = std::move(options);

  std::vector<std::string> skipped;
  absl::StatusOr<CommitPoint> commit = ReadLatestCommit(dir, &skipped);
  if (commit.ok()) {
    impl->last_commit = std::move(*commit);
    impl->next_segment_number = impl->last_commit.next_segment_number;
    for (const std::string& name : skipped) {
      impl->warnings.push_back(absl::StrCat("ignored damaged commit point ", name));
    }
  } else if (!absl::IsNotFound(commit.status())) {
    return commit.status();
  }
  // Half-written segments and temp files of a crashed run.
  impl->DeleteUnreferenced(impl->last_commit);
  for (int i = 0; i < threads; ++i) {
    auto slot = std::make_unique<Impl::Slot>(&impl->total_ram);
    slot->chain = impl->NewChain(slot.get());
    impl->slots.push_back(std::move(slot));
  }
  return std::unique_ptr<IndexWriter>(new IndexWriter(std::move(impl)));
}

absl::Status IndexWriter::AddDocument(const Document& doc) {
  std::shared_lock commit_lock(impl_->commit_mu);
  if (absl::Status s = impl_->CheckUsable(); !s.ok()) return s;
  Impl::Slot* slot = impl_->Acquire();
  absl::Status status = slot->chain->AddDocument(doc);
  if (absl::IsResourceExhausted(status) && slot->chain->num_docs() > 0) {
    // The in-memory segment is full: flush it and try once more.
    status = impl_->FlushSlot(slot);
    if (status.ok()) status = slot->chain->AddDocument(doc);
  }
  absl::Status flush = status.ok() ? impl_->MaybeFlush(slot) : absl::OkStatus();
  impl_->Release(slot);
  {
    std::lock_guard lock(impl_->state_mu);
    if (status.ok()) {
      ++impl_->stats.docs_added;
    } else {
      ++impl_->stats.docs_failed;
    }
  }
  return status.ok() ? flush : status;
}

absl::Status IndexWriter::Commit() {
  std::unique_lock commit_lock(impl_->commit_mu);
  if (absl::Status s = impl_->CheckUsable(); !s.ok()) return s;
  return impl_->CommitLocked();
}

absl::Status IndexWriter::Close() {
  std::unique_lock commit_lock(impl_->commit_mu);
  if (absl::Status s = impl_->CheckUsable(); !s.ok()) return s;
  absl::Status status = impl_->CommitLocked();
  std::lock_guard lock(impl_->state_mu);
  impl_->closed = status.ok();
  if (status.ok()) {
    for (auto& s : impl_->slots) s->chain.reset();
  }
  return status;
}

absl::Status IndexWriter::Rollback() {
  std::unique_lock commit_lock(impl_->commit_mu);
  for (auto& s : impl_->slots) {
    s->flush_requested.store(false);
    s->chain = impl_->NewChain(s.get());
  }
  std::lock_guard lock(impl_->state_mu);
  impl_->pending.clear();
  impl_->fatal = absl::OkStatus();
  impl_->next_segment_number =
      std::max(impl_->next_segment_number, impl_->last_commit.next_segment_number);
  impl_->DeleteUnreferenced(impl_->last_commit);
  return absl::OkStatus();
}

IndexWriterStats IndexWriter::stats() const {
  std::lock_guard lock(impl_->state_mu);
  IndexWriterStats s = impl_->stats;
  s.ram_bytes = impl_->total_ram.bytes();
  s.peak_ram_bytes = impl_->peak_ram.load();
  return s;
}

const std::vector<std::string>& IndexWriter::warnings() const { return impl_->warnings; }

int IndexWriter::threads() const { return impl_->threads; }

}  // namespace invert

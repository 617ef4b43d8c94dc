// invert-index's indexing loop (see feeder.h).
#include "feeder.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/absl_compat.h"
#include "common/mutex.h"
#include "invert/utf8.h"
#include "progress.h"

namespace invert::tools {
namespace {

// The N of a "line N: reason" message; UINT64_MAX (listed last) without one.
uint64_t LineOf(std::string_view message) {
  constexpr std::string_view kPrefix = "line ";
  uint64_t line = UINT64_MAX;
  if (message.starts_with(kPrefix)) {
    const char* digits = message.data() + kPrefix.size();
    std::from_chars(digits, message.data() + message.size(), line);
  }
  return line;
}

// A document the writer refused without failing (it goes on): a bad line.
bool IsRejected(const absl::Status& s) {
  return absl::IsInvalidArgument(s) || absl::IsResourceExhausted(s);
}

class Feeder {
 public:
  Feeder(DocSource* source, IndexWriter* writer, const LineDocSchema& schema,
         const FeedOptions& options)
      : source_(source),
        writer_(writer),
        schema_(schema),
        options_(options),
        progress_(options.progress),
        total_bytes_(source->total_bytes()) {}

  FeedResult Run() {
    // Updates keep the input order: one thread (feeder.h).
    const int threads = options_.update_key.empty() ? std::max(1, options_.threads) : 1;
    std::vector<std::thread> workers;
    for (int t = 1; t < threads; ++t) workers.emplace_back([this] { Work(); });
    Work();
    for (std::thread& t : workers) t.join();
    progress_.Finish();
    MutexLock lock(&mu_);
    if (result_.fatal.ok()) result_.fatal = strict_bad_;
    for (auto& [line, message] : first_bad_) result_.first_bad.push_back(std::move(message));
    return std::move(result_);
  }

 private:
  // Fills *block with the next lines; false when this thread should stop.
  bool Take(DocBlock* block) {
    MutexLock lock(&mu_);
    for (;;) {
      if (stop_) return false;
      const uint64_t taken = result_.added + in_flight_;
      if (taken >= options_.max_docs) {
        if (in_flight_ == 0) {  // every slot holds an added document
          result_.reached_max_docs = true;
          return false;
        }
        done_.Wait(&mu_);  // a block in flight may free slots
        continue;
      }
      const absl::Status s =
          source_->NextBlock(options_.block_bytes, options_.max_docs - taken, block);
      input_bytes_.store(source_->bytes_read(), std::memory_order_relaxed);
      if (absl::IsOutOfRange(s)) {  // the blocks taken are still done
        stop_ = true;
        return false;
      }
      if (!s.ok()) {
        StopLocked(s);
        return false;
      }
      in_flight_ += block->lines();
      return true;
    }
  }

  void Work() {
    std::unique_ptr<DocBlock> block;
    {
      MutexLock lock(&mu_);
      block = source_->NewBlock();
    }
    Document doc;
    while (Take(block.get())) {
      uint64_t added = 0;
      while (!stopping_.load(std::memory_order_relaxed)) {
        absl::StatusOr<SourceDoc> next = block->Next();
        if (absl::IsOutOfRange(next.status())) break;
        absl::Status s = next.status();
        const uint64_t line = next.ok() ? next->line_number : LineOf(StdSv(s.message()));
        if (line > strict_stop_line_.load(std::memory_order_relaxed)) break;
        bool bad = absl::IsInvalidArgument(s);  // a malformed line
        if (next.ok()) {
          s = CheckFieldsUtf8(*next);
          if (s.ok()) {
            schema_.Build(*next, &doc);
            s = Add(doc);
          }
          bad = IsRejected(s);  // not added; the writer goes on
          if (bad) {
            s = absl::Status(s.code(), absl::StrCat("line ", line, ": ", s.message()));
          } else if (s.ok()) {
            ++added;
          }
        }
        if (!s.ok()) {
          MutexLock lock(&mu_);
          if (bad) {
            BadLocked(s);
          } else {
            StopLocked(s);
          }
        }
        progress_.Tick([&] {
          const IndexWriterStats st = writer_->stats();
          return ProgressSnapshot{added_.load(std::memory_order_relaxed),
                                  input_bytes_.load(std::memory_order_relaxed), total_bytes_,
                                  st.ram_bytes, st.segments_flushed};
        });
      }
      {
        MutexLock lock(&mu_);
        in_flight_ -= block->lines();
        result_.added += added;
        added_.store(result_.added, std::memory_order_relaxed);
      }
      done_.SignalAll();
    }
  }

  absl::Status Add(const Document& doc) {
    if (!options_.update_key.empty()) {
      for (const Field& f : doc.fields) {
        if (f.name() == options_.update_key) {
          return writer_->UpdateDocument(options_.update_key, f.text(), doc);
        }
      }
    }
    return writer_->AddDocument(doc);
  }

  // A bad line ("line N: reason"): counted, and listed if it is among the
  // first kListedBadLines of the input. With --strict it stops the run: no
  // more blocks, and the threads go on only up to the earliest bad line found
  // so far, so the run stops at the first bad line of the input, whatever the
  // threads' timing; that one line is reported.
  void BadLocked(const absl::Status& s) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const std::string_view message = StdSv(s.message());
    const uint64_t line = LineOf(message);
    if (options_.strict) {
      if (strict_bad_.ok() || line < strict_stop_line_.load(std::memory_order_relaxed)) {
        strict_bad_ = s;
        first_bad_.assign(1, {line, std::string(message)});
        strict_stop_line_.store(line, std::memory_order_relaxed);
      }
      result_.bad_lines = 1;
      stop_ = true;
      return;
    }
    ++result_.bad_lines;
    auto at = std::upper_bound(first_bad_.begin(), first_bad_.end(), line,
                               [](uint64_t l, const auto& listed) { return l < listed.first; });
    if (at - first_bad_.begin() < static_cast<std::ptrdiff_t>(kListedBadLines)) {
      first_bad_.insert(at, {line, std::string(message)});
      if (first_bad_.size() > kListedBadLines) first_bad_.pop_back();
    }
  }

  // Stops the run: no more blocks, and the blocks taken are left.
  void StopLocked(const absl::Status& why) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (result_.fatal.ok()) result_.fatal = why;
    stop_ = true;
    stopping_.store(true, std::memory_order_relaxed);
    done_.SignalAll();
  }

  Mutex mu_;  // the source, and the run's counts and outcome
  DocSource* const source_ ABSL_PT_GUARDED_BY(mu_);
  IndexWriter* const writer_;
  const LineDocSchema& schema_;
  const FeedOptions options_;
  Progress progress_;
  const std::optional<uint64_t> total_bytes_;  // the source's, for the progress line

  CondVar done_;                                 // a block was done or the run stopped
  bool stop_ ABSL_GUARDED_BY(mu_) = false;       // no more blocks (end of input, or stopped)
  uint64_t in_flight_ ABSL_GUARDED_BY(mu_) = 0;  // lines of blocks taken, not done
  FeedResult result_ ABSL_GUARDED_BY(mu_);
  // The first bad lines of the input (line number, message), sorted.
  std::vector<std::pair<uint64_t, std::string>> first_bad_ ABSL_GUARDED_BY(mu_);
  absl::Status strict_bad_ ABSL_GUARDED_BY(mu_);  // --strict: the earliest bad line found
  // --strict: the line of strict_bad_ (no document after it is taken on).
  std::atomic<uint64_t> strict_stop_line_{UINT64_MAX};
  // Read without the lock: whether the run was stopped (checked before each
  // document), and the figures of the progress line.
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> added_{0};
  std::atomic<uint64_t> input_bytes_{0};
};

}  // namespace

absl::Status CheckFieldsUtf8(const SourceDoc& doc) {
  const std::pair<const char*, std::string_view> fields[] = {
      {"id", doc.id}, {"title", doc.title}, {"date", doc.date}, {"body", doc.body}};
  for (const auto& [name, value] : fields) {
    Utf8Error error;
    if (!IsValidUtf8(value, &error)) {
      return absl::InvalidArgumentError(absl::StrCat("field \"", name,
                                                     "\" is not valid UTF-8 at byte ", error.offset,
                                                     " (", error.reason, ")"));
    }
  }
  return absl::OkStatus();
}

FeedResult Feed(DocSource* source, IndexWriter* writer, const LineDocSchema& schema,
                const FeedOptions& options) {
  return Feeder(source, writer, schema, options).Run();
}

}  // namespace invert::tools

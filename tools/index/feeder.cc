// invert-index's indexing loop (see feeder.h).
#include "feeder.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string_view>
#include <thread>

#include "absl/strings/str_cat.h"
#include "invert/utf8.h"
#include "progress.h"

namespace invert::tools {
namespace {

// One document copied out of the source (its views die at the next Next()).
struct OwnedDoc {
  std::string id, title, date, body;
  uint64_t line = 0;
  SourceDoc view() const { return SourceDoc{id, title, date, body, line}; }
};

class Feeder {
 public:
  Feeder(DocSource* source, IndexWriter* writer, const LineDocSchema& schema,
         const FeedOptions& options)
      : source_(source),
        writer_(writer),
        schema_(schema),
        options_(options),
        progress_(options.progress) {}

  FeedResult Run() {
    std::vector<std::thread> threads;
    for (int t = 1; t < options_.threads; ++t) threads.emplace_back([this] { Work(); });
    Work();
    for (std::thread& t : threads) t.join();
    progress_.Finish();
    return std::move(result_);
  }

 private:
  // Takes the next document into *d; false when this thread should stop.
  bool Take(OwnedDoc* d) {
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] {
        return stop_ || result_.added + in_flight_ < options_.max_docs || in_flight_ == 0;
      });
      if (stop_) return false;
      if (result_.added >= options_.max_docs) {
        result_.reached_max_docs = true;
        return false;
      }
      absl::StatusOr<SourceDoc> next = source_->Next();
      input_bytes_.store(source_->bytes_read(), std::memory_order_relaxed);
      if (absl::IsOutOfRange(next.status())) {
        StopLocked(absl::OkStatus());
        return false;
      }
      if (absl::IsInvalidArgument(next.status())) {
        BadLocked(next.status());
        if (stop_) return false;
        continue;
      }
      if (!next.ok()) {
        StopLocked(next.status());
        return false;
      }
      ++in_flight_;
      d->id.assign(next->id);
      d->title.assign(next->title);
      d->date.assign(next->date);
      d->body.assign(next->body);
      d->line = next->line_number;
      return true;
    }
  }

  void Work() {
    OwnedDoc d;
    Document doc;
    while (Take(&d)) {
      absl::Status s = CheckFieldsUtf8(d.view());
      if (s.ok()) {
        schema_.Build(d.id, d.title, d.date, d.body, &doc);
        s = Add(doc);
      }
      {
        std::lock_guard lock(mu_);
        --in_flight_;
        if (s.ok()) {
          ++result_.added;
        } else if (absl::IsInvalidArgument(s) || absl::IsResourceExhausted(s)) {
          // The document was not added; the writer goes on.
          BadLocked(absl::Status(s.code(), absl::StrCat("line ", d.line, ": ", s.message())));
        } else {
          StopLocked(s);
        }
        added_.store(result_.added, std::memory_order_relaxed);
      }
      cv_.notify_all();
      progress_.Tick([&] {
        const IndexWriterStats st = writer_->stats();
        return ProgressSnapshot{added_.load(std::memory_order_relaxed),
                                input_bytes_.load(std::memory_order_relaxed),
                                source_->total_bytes(), st.ram_bytes, st.segments_flushed};
      });
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

  // A bad line ("line N: reason"): counted and listed; stops the run with
  // --strict. REQUIRES: mu_ held.
  void BadLocked(const absl::Status& s) {
    ++result_.bad_lines;
    if (result_.first_bad.size() < kListedBadLines) {
      result_.first_bad.push_back(std::string(s.message()));
    }
    if (options_.strict) StopLocked(s);
  }

  // REQUIRES: mu_ held.
  void StopLocked(const absl::Status& why) {
    if (result_.fatal.ok()) result_.fatal = why;
    stop_ = true;
    cv_.notify_all();
  }

  DocSource* source_;
  IndexWriter* writer_;
  const LineDocSchema& schema_;
  const FeedOptions options_;
  Progress progress_;

  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;       // guarded by mu_
  uint64_t in_flight_ = 0;  // guarded by mu_
  FeedResult result_;       // guarded by mu_
  // For the progress line, read without the lock.
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

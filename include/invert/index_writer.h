// IndexWriter: the library's entry point for building an index on disk.
//
//   auto writer = invert::IndexWriter::Open("/path/to/index", options);
//   (*writer)->AddDocument(doc);          // from any number of threads
//   (*writer)->Commit();                  // durable: survives a crash
//   (*writer)->Close();                   // commits and releases
//
// Threads: up to options.threads documents are inverted at once, each into
// its own in-memory segment (an IndexingChain) with no lock on the hot path;
// a document takes whichever in-memory segment is free (a short critical
// section to pick one, none while inverting). RAM: every in-memory segment
// counts its bytes exactly into one writer-wide counter. When that total
// reaches ram_buffer_mb, the largest in-memory segment is flushed to a new
// segment: by the thread that just added a document if it holds it or it is
// idle, otherwise by its holder right after its current document. Flushing is
// done by indexing threads (no background thread): the flush then costs the
// thread that brought the segment over the limit, which throttles indexing to
// the disk's pace without queues of in-memory segments piling up (Lucene's
// choice too).
//
// Commit(): flushes every in-memory segment, fsyncs their files and writes a
// new commit point atomically. Rollback(): drops everything added since the
// last commit (in memory and flushed). A crash at any moment leaves the last
// commit intact; files of segments never committed are deleted on the next
// Open().
//
// Thread safety: every method may be called from any thread. Commit, Close
// and Rollback wait for documents being added to finish.
#ifndef INVERT_INDEX_WRITER_H_
#define INVERT_INDEX_WRITER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "invert/analysis.h"
#include "invert/directory.h"
#include "invert/document.h"
#include "invert/term_bytes_layout.h"

namespace invert {

struct IndexWriterOptions {
  // ---- Behaviour ----
  // Create the directory if it does not exist (its parent must).
  bool create = true;
  // Analyzer for tokenized text fields (the standard analyzer if unset), and
  // per-field overrides.
  std::function<std::unique_ptr<Analyzer>()> analyzer;
  absl::flat_hash_map<std::string, std::function<std::unique_ptr<Analyzer>()>> field_analyzers;
  // Positions and offsets skipped between the values of a multi-valued field.
  uint32_t position_increment_gap = 0;
  uint32_t offset_gap = 1;

  // ---- Performance ----
  // RAM for in-memory segments, all threads together (default 64 MB; Lucene's
  // default is 16 MB, luceneutil's Wikipedia runs use 2048). Each thread's
  // in-memory segment gets at most 3 GB (its pools address 4 GiB).
  double ram_buffer_mb = 64;
  // Documents inverted concurrently (in-memory segments). Each needs at least
  // kMinRamPerThreadMb of the buffer: with less, Open() lowers the count and
  // says so in warnings(); a buffer below that minimum is an error.
  int threads = 1;
  // Where term bytes live (see docs/benchmarks.md).
  TermBytesLayout layout = TermBytesLayout::kSeparate;
};

inline constexpr double kMinRamPerThreadMb = 4;

struct IndexWriterStats {
  uint64_t docs_added = 0;        // since Open
  uint64_t docs_failed = 0;       // rejected documents
  uint64_t segments_flushed = 0;  // since Open
  uint64_t flushed_bytes = 0;     // bytes of flushed segment files
  uint64_t flushed_terms = 0;     // sum over flushed segments and fields
  int64_t ram_bytes = 0;          // in-memory segments now
  int64_t peak_ram_bytes = 0;     // highest ram_bytes seen
  double flush_seconds = 0;       // time spent flushing, all threads
};

class IndexWriter {
 public:
  // Opens (or creates) the index at `path`. A missing parent or an
  // unwritable directory fails here, before any indexing work.
  static absl::StatusOr<std::unique_ptr<IndexWriter>> Open(const std::string& path,
                                                           IndexWriterOptions options);
  // The same over any Directory (e.g. one that injects faults), which must
  // outlive the writer.
  static absl::StatusOr<std::unique_ptr<IndexWriter>> Open(Directory* dir,
                                                           IndexWriterOptions options);
  ~IndexWriter();  // without Close(): rolls back to the last commit

  // Adds one document (atomically: a rejected document leaves no trace).
  // InvalidArgument for bad input; other codes for I/O errors during a
  // flush, after which the writer refuses further work (Rollback or reopen).
  absl::Status AddDocument(const Document& doc);

  absl::Status Commit();
  // Commit() and release. Further calls fail.
  absl::Status Close();
  // Discards all changes since the last commit (or Open).
  absl::Status Rollback();

  IndexWriterStats stats() const;
  // Adjustments Open() made to the options, in words.
  const std::vector<std::string>& warnings() const;
  // Effective number of concurrent in-memory segments.
  int threads() const;

  class Impl;

 private:
  explicit IndexWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace invert

#endif  // INVERT_INDEX_WRITER_H_

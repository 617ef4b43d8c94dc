// IndexWriter: the library's entry point for building an index on disk.
//
//   auto writer = invert::IndexWriter::Open("/path/to/index", options);
//   (*writer)->AddDocument(doc);          // from any number of threads
//   (*writer)->Commit();                  // durable: survives a crash
//   (*writer)->Close();                   // commits and releases
//
// Threads: up to options.threads documents are inverted at once, each into
// its own in-memory segment (an InMemorySegment) with no lock on the hot path;
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
// Safety (docs/safety.md):
//   * One writer per directory: Open() takes an exclusive OS lock on the
//     file "write.lock" and holds it until Close(), Rollback() or
//     destruction; a second writer (another process, or this one) fails at
//     Open() with kFailedPrecondition. The OS releases the lock if the
//     process dies. Readers take no lock.
//   * Never a silent wipe: a directory whose newest commit point cannot be
//     read makes Open() fail with the file and the cause; nothing is deleted.
//     Only with options.recover does the writer continue from the newest
//     older commit that reads (warnings() says which, and what was skipped).
//   * Only its own files: the writer deletes a file only if its name fits
//     invert's scheme and it provably belongs to this index (a segment this
//     writer created or a commit of this index listed, or a file whose header
//     carries this index's id). Everything else in the directory is left
//     alone.
//   * One schema per index: a field name keeps the type of its first use
//     (in the order AddDocument calls return) for the whole index, across
//     threads, segments and commits; the schema is stored in every commit
//     point and restored by Open().
//   * Exceptions (std::bad_alloc included) never escape: a document that
//     fails while being analyzed gets kResourceExhausted and is not added; a
//     failure while inverting or flushing loses the documents added since
//     the last commit, and the writer refuses further work until Rollback().
//
// Thread safety: every method may be called from any thread. Commit, Close
// and Rollback wait for documents being added to finish.
//
// IndexWriter is an interface (the implementation lives in the library, as
// leveldb::DB's does): Open() returns one, and a caller may implement it too,
// e.g. as a test double.
#ifndef INVERT_INDEX_WRITER_H_
#define INVERT_INDEX_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "invert/analysis.h"
#include "invert/directory.h"
#include "invert/document.h"
#include "invert/export.h"
#include "invert/field_type.h"
#include "invert/merge_policy.h"
#include "invert/term_bytes_layout.h"

namespace invert {

// What Open() does with the index already in the directory (Lucene's
// IndexWriterConfig.OpenMode).
enum class OpenMode : uint8_t {
  // Start a new, empty index. Over an existing index, the first commit
  // replaces it (its files are deleted only after that commit, and a writer
  // closed without committing leaves the old index as it was).
  kCreate,
  // Add to the existing index; kNotFound if the directory holds none.
  kAppend,
  // kAppend if the directory holds an index, else kCreate.
  kCreateOrAppend,
};

struct IndexWriterOptions {
  // ---- Behaviour ----
  OpenMode open_mode = OpenMode::kCreateOrAppend;
  // Create the directory if it does not exist (its parent must).
  bool create_directory = true;
  // When the newest commit point cannot be read (damaged, unreadable, or of
  // a newer format): false (default) fails Open() and deletes nothing; true
  // continues from the newest commit point that reads, and warnings() names
  // it and the ones skipped. Skipped commit points and the files only they
  // may list are kept (never deleted), for a person to inspect.
  bool recover = false;
  // Analyzer for tokenized text fields (the standard analyzer if unset), and
  // per-field overrides (field name -> factory). Each indexing thread calls a
  // factory once per field it meets, for an analyzer of its own.
  AnalyzerFactory analyzer = {};
  std::map<std::string, AnalyzerFactory, std::less<>> field_analyzers = {};
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
  TermBytesLayout layout = kDefaultTermBytesLayout;
  // The most memory one document may take while it is indexed (its tokens
  // and what it adds to the in-memory segment), in MB. Pre-analyzed tokens
  // are read in place but count as if copied (32 bytes each plus their term
  // and payload bytes), so the limit is the same for text and tokens. A
  // document that needs more is rejected with kInvalidArgument; one that
  // fits but would push the RAM buffer over its limit flushes first.
  // 0 (default): half of each thread's share of ram_buffer_mb.
  double max_document_mb = 0;

  // ---- Merges (docs/merges.md) ----
  // Which segments to merge (null: a TieredMergePolicy with its defaults).
  // Use NoMergePolicy to keep every flush as a segment.
  std::shared_ptr<const MergePolicy> merge_policy = nullptr;
  // Merges running at once, each on its own background thread. One suits a
  // small machine: indexing threads keep the other cores.
  int max_concurrent_merges = 1;
  // Background merges run at a lower CPU priority than indexing threads
  // (Linux thread nice value +merge_thread_nice; 0 leaves it alone) so they
  // take only CPU that indexing leaves idle ...
  int merge_thread_nice = 10;
  // ... and at most this many MB/s of merged-segment writes (0: unlimited).
  double max_merge_write_mb_per_sec = 0;
  // Close(): true waits for running merges (and those they lead to) to
  // finish; false aborts them (their partial files are deleted) and closes.
  bool wait_for_merges_on_close = true;
};

inline constexpr double kMinRamPerThreadMb = 4;
inline constexpr int kMaxThreads = 256;
// ram_buffer_mb must be at most this (1 TiB).
inline constexpr double kMaxRamBufferMb = 1024.0 * 1024;
// Field names: 1 to kMaxFieldNameBytes bytes of well-formed UTF-8.
inline constexpr size_t kMaxFieldNameBytes = 1024;

struct IndexWriterStats {
  uint64_t docs_added = 0;         // since Open
  uint64_t docs_failed = 0;        // rejected documents
  uint64_t segments_flushed = 0;   // since Open
  uint64_t flushed_bytes = 0;      // bytes of flushed segment files
  uint64_t flushed_terms = 0;      // sum over flushed segments and fields
  int64_t ram_bytes = 0;           // in-memory segments now
  int64_t peak_ram_bytes = 0;      // highest ram_bytes seen
  double flush_seconds = 0;        // time spent flushing, all threads
  uint64_t commit_generation = 0;  // of the last commit (0: none yet)
  uint64_t committed_docs = 0;     // documents in the last commit (deleted ones excluded)
  // Memory of flushed segments (pool blocks, large hash tables and per-term
  // arrays) kept for the segments that follow, per thread at most its share
  // of the RAM buffer: held beyond ram_bytes, reused instead of fresh pages.
  int64_t idle_block_bytes = 0;
  // Deletes and updates.
  uint64_t delete_terms = 0;  // DeleteDocuments / UpdateDocument terms buffered since Open
  uint64_t docs_deleted = 0;  // documents those deletes (and DeleteAll) removed, since Open
  // Merges.
  uint64_t merges_done = 0;     // since Open
  uint64_t merges_aborted = 0;  // cancelled by Close/Rollback/DeleteAll, or failed
  uint64_t merged_docs = 0;     // documents written by merges
  uint64_t merge_bytes_read = 0;
  uint64_t merge_bytes_written = 0;
  double merge_seconds = 0;      // time inside merges, all merge threads
  double merge_cpu_seconds = 0;  // CPU time of those threads inside merges
  int running_merges = 0;        // now
  // Segments (flushed or merged, committed or not) of the index now.
  uint64_t segments = 0;
};

// What Open() found.
struct IndexWriterOpenInfo {
  bool created = false;                           // true iff this writer starts a new index
  uint64_t generation = 0;                        // the commit opened (0 when created)
  uint64_t docs = 0;                              // documents in that commit
  std::string index_id = {};                      // 32 hex digits
  std::vector<std::string> skipped_commits = {};  // unreadable newer commit points (recover)
};

class INVERT_EXPORT IndexWriter {
 public:
  // Opens (or creates) the index at `path` as options.open_mode says. A
  // missing parent, an unwritable directory, a lock held by another writer
  // (kFailedPrecondition) or an unreadable newest commit point fails here,
  // before any indexing work and without deleting anything.
  static absl::StatusOr<std::unique_ptr<IndexWriter>> Open(const std::string& path,
                                                           IndexWriterOptions options);
  // The same over any Directory (e.g. one that injects faults), which must
  // outlive the writer.
  static absl::StatusOr<std::unique_ptr<IndexWriter>> Open(Directory* dir,
                                                           IndexWriterOptions options);

  // Without Close(): rolls back to the last commit (and releases the lock).
  virtual ~IndexWriter();
  IndexWriter(const IndexWriter&) = delete;
  IndexWriter& operator=(const IndexWriter&) = delete;

  // Adds one document (atomically: a rejected document leaves no trace).
  // InvalidArgument for bad input; other codes for I/O errors during a
  // flush, after which the writer refuses further work (Rollback or reopen).
  virtual absl::Status AddDocument(const Document& doc) = 0;

  virtual absl::Status Commit() = 0;
  // Commit() and release. Further calls fail.
  virtual absl::Status Close() = 0;
  // Discards all changes since the last commit (or Open): documents added,
  // deletes, and merges (running ones are aborted).
  virtual absl::Status Rollback() = 0;

  // ---- Deletes and updates (docs/deletes.md)
  //
  // A delete removes every document that holds `term` (exact bytes, as
  // indexed: a Keyword field's value, or a token of an analyzed field) in
  // `field`, among the documents added BEFORE it: those in memory, flushed
  // and committed alike; never one added after it. With several threads,
  // "before" is the order in which the calls took effect: an AddDocument
  // that returned before DeleteDocuments was called is deleted, one called
  // after DeleteDocuments returned is not, and one running concurrently may
  // fall on either side. Deletes take effect for readers at the next commit
  // (like added documents). A field or term that matches nothing is not an
  // error.
  virtual absl::Status DeleteDocuments(std::string_view field, std::string_view term) = 0;
  // Deletes `field`:`term` as above, then adds `doc`, atomically: a commit
  // (and so every reader) sees either both or neither, and `doc` itself is
  // not deleted. If `doc` is rejected (bad input), nothing is deleted.
  virtual absl::Status UpdateDocument(std::string_view field, std::string_view term,
                                      const Document& doc) = 0;
  // Removes every document (added, flushed or committed) and aborts running
  // merges; the schema stays. Like other changes, visible at the next
  // commit; Rollback() undoes it.
  virtual absl::Status DeleteAll() = 0;

  // ---- Merges (docs/merges.md)
  //
  // Merges until at most `max_segments` segments hold the index's
  // documents (deletes dropped) and waits for that; the result is visible at
  // the next commit. Documents added meanwhile may form new segments.
  virtual absl::Status ForceMerge(int max_segments) = 0;
  // Merges away the deletions of segments with enough of them (the merge
  // policy decides), and waits.
  virtual absl::Status ForceMergeDeletes() = 0;
  // Waits until no merge is running or pending.
  virtual absl::Status WaitForMerges() = 0;

  // ---- Adding other indexes (docs/merges.md)
  //
  // Copies the segments of the newest commit of each index at `paths` into
  // this one under new segment names, with their deletions; visible at the
  // next commit. Every file is rewritten (each carries its segment's id,
  // which must be one of this index: docs/safety.md), its checksum verified
  // on the way; then ForceMerge(1) gives one segment if wanted. Documents
  // and commits of this writer wait while it runs. Each index's schema must agree with this one's
  // (same field names with the same types; new fields are added): kInvalidArgument naming the field
  // otherwise, and nothing is added. The other indexes are only read (no lock taken): they must not
  // change meanwhile.
  virtual absl::Status AddIndexes(const std::vector<std::string>& paths) = 0;

  virtual IndexWriterStats stats() const = 0;
  virtual const IndexWriterOpenInfo& open_info() const = 0;
  // The index's fields and their types: those of the last commit, then those
  // added since, in order of first use.
  virtual std::vector<FieldSchema> schema() const = 0;
  // Adjustments Open() made to the options, and what recover skipped, in
  // words.
  virtual const std::vector<std::string>& warnings() const = 0;
  // Effective number of concurrent in-memory segments.
  virtual int threads() const = 0;

 protected:
  IndexWriter() = default;
};

}  // namespace invert

#endif  // INVERT_INDEX_WRITER_H_

// Document sources: read line documents (luceneutil's `title<TAB>date<TAB>body`
// files) and JSON lines into SourceDocs for the indexing pipeline, and
// LineDocSchema, which turns a SourceDoc into a Document the way invert-index
// and the benchmarks index it.
//
// Both readers skip a UTF-8 byte-order mark at the start of the input, and
// stream: large buffered reads, one line in memory at a time, no
// allocation per line once the buffer has grown to the longest line seen.
// A SourceDoc's views point into the source's own buffers and stay valid until
// the next call to Next() or the source's destruction.
//
// Line documents (OpenLineDocs):
//   * one document per line, fields separated by TAB; a line ends at LF, and a
//     CR right before the LF (CRLF) is dropped; the last line may lack its LF.
//   * optional first line starting `FIELDS_HEADER_INDICATOR###`, as Lucene's
//     WriteLineDocTask writes it: `FIELDS_HEADER_INDICATOR###<TAB>doctitle
//     <TAB>docdate<TAB>body`. When present it names the columns: title = `doctitle` or `title`;
//     date = `docdate`, `date` or `timestamp`; body = `body` or `text`; id = `id` (optional). Other
//     columns (luceneutil's `RandomLabel`, `username`, ...) are skipped; every
//     line must have exactly as many fields as the header. Without a header a
//     line has exactly three fields: title, date, body.
//   * id: the `id` column if the header names one, else the 1-based physical
//     line number in decimal (the header, when present, is line 1).
//
// JSON lines (OpenJsonLines):
//   * one JSON object per line: {"id": .., "title": .., "date": .., "body": ..}.
//     `body` (a string) is required; `title` and `date` are strings and may be
//     absent or null (then empty); `id` is a string or a number (written back
//     in decimal; non-integers in shortest round-trip form), and when absent or
//     null it is the line number, as for line documents. Unknown keys are
//     ignored; string escapes (including \uXXXX surrogate pairs) are decoded.
//   * blank lines (only spaces, tabs, CR) are skipped.
//
// Input that is not line documents (OpenLineDocs): before the first line is
// returned, the first 64 KiB (at most max_line_bytes + 2 bytes) and the first
// 8 lines are looked at, and OpenLineDocs fails with InvalidArgumentError
// "NAME does not look like line documents (REASON); ADVICE" (NAME is the
// path, or "standard input") when they hold
//   * a UTF-16 or UTF-32 byte-order mark, or UTF-16 without one (a NUL in
//     every other byte): "(UTF-16 little-endian byte order mark at byte 0);
//     convert it to UTF-8 ...";
//   * gzip, zstd, bzip2, xz or zip data: "(gzip-compressed data); decompress
//     it first";
//   * a NUL byte in one of the first 8 lines: "(NUL bytes in line 3); ...";
//   * mostly control bytes (binary data): "(binary data: ...)";
//   * no TAB in any of the first 8 lines (or in every line of a shorter
//     input), when the columns are two or more: "(no TAB in the first 8
//     lines); line
//     documents are title<TAB>date<TAB>body; for JSON lines use
//     OpenJsonLines (invert-index --format json)".
// A file of line documents with a few malformed lines among its first ones
// passes: one line with a TAB among the first 8 is enough.
//
// Errors from Next():
//   * absl::OutOfRangeError at the end of the input (and on every later call);
//   * absl::InvalidArgumentError for a malformed line, with "line N: reason":
//     wrong field count, invalid JSON, a missing or non-string body, or a line
//     longer than max_line_bytes (whose bytes are skipped without being held
//     in memory). The caller may call Next() again to go on with the following
//     line;
//   * any other code for an I/O error, after which the source stays failed.
// UTF-8 validity is not checked in line documents; the analyzer does that.
// A JSON line must be valid JSON, which includes valid UTF-8 (simdjson checks
// it while parsing, at no extra cost).
//
// Blocks (parsing on several threads): NextBlock() moves the next whole lines
// of the input into a DocBlock without parsing them, and the block's Next()
// parses them later, on any thread, into exactly what Next() would have
// returned for them: the same documents, line numbers, ids and "line N:
// reason" errors, in input order. Threads that share a source take blocks
// under one lock and parse them outside it:
//
//   std::unique_ptr<invert::DocBlock> block = source->NewBlock();  // per thread
//   for (;;) {
//     {
//       std::lock_guard lock(mu);
//       if (!source->NextBlock(size_t{1} << 20, UINT64_MAX, block.get()).ok()) break;
//     }
//     for (auto doc = block->Next(); !absl::IsOutOfRange(doc.status()); doc = block->Next()) {
//       ...  // a document, or InvalidArgument "line N: reason"
//     }
//   }
//
// The line-document and JSON-lines sources take a block's lines as the
// reader splits them (a copy of their bytes, nothing parsed: the field split,
// the JSON parse and the ids happen in DocBlock::Next()). Any other DocSource
// gets the default: NextBlock() calls Next() and copies the documents.
//
// Thread safety: none for a source; one thread reads it at a time. A
// DocBlock is used by one thread at a time and refers to nothing of its
// source, so it can be parsed while the source fills another block. A
// LineDocSchema is immutable: any number of threads may build documents with
// it.
#ifndef INVERT_LINE_DOCS_H_
#define INVERT_LINE_DOCS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "invert/document.h"
#include "invert/export.h"
#include "invert/field_type.h"

namespace invert {

// One document. The views are valid until the next call to Next().
struct SourceDoc {
  std::string_view id = {};
  std::string_view title = {};
  std::string_view date = {};
  std::string_view body = {};
  uint64_t line_number = 0;  // 1-based physical line of the input
};

// Whole lines taken from a DocSource by NextBlock(), parsed by Next().
class INVERT_EXPORT DocBlock {
 public:
  virtual ~DocBlock() = default;

  // The next document of the block, with DocSource::Next()'s contract over
  // the block's lines: InvalidArgumentError ("line N: reason") for a
  // malformed line, after which Next() goes on with the following line;
  // absl::OutOfRangeError after the block's last line; any other code for
  // an error of the source that ended the block (an I/O error). The views
  // are valid until the next call to Next() or NextBlock() with this block.
  virtual absl::StatusOr<SourceDoc> Next() = 0;

  // Lines (documents and malformed lines) the block holds: an upper bound on
  // the documents Next() will return.
  virtual uint64_t lines() const = 0;

  // The source's bytes_read() right after the block was filled: input bytes
  // through the end of its last line.
  virtual uint64_t bytes_read() const = 0;
};

class INVERT_EXPORT DocSource {
 public:
  virtual ~DocSource() = default;

  // Returns the next document, absl::OutOfRangeError at the end of the input,
  // or InvalidArgumentError ("line N: reason") for a malformed line, after
  // which Next() continues with the following line.
  virtual absl::StatusOr<SourceDoc> Next() = 0;

  // Input bytes consumed so far: through the end of the last line returned or
  // rejected (its line terminator included). For progress reports.
  virtual uint64_t bytes_read() const = 0;

  // The size of the input when it is a regular file; nullopt for stdin, pipes
  // and other streams.
  virtual std::optional<uint64_t> total_bytes() const = 0;

  // An empty block for NextBlock(); a thread keeps one and reuses it (its
  // buffers grow to the largest block and stay).
  virtual std::unique_ptr<DocBlock> NewBlock() const;

  // Replaces the contents of *block with the next lines of the input: at
  // least one, at most `max_lines`, and no more once the lines taken hold
  // `bytes` bytes (so a block exceeds `bytes` by less than one line). Blank
  // lines of JSON lines are skipped and not counted. Returns OK with a
  // non-empty block; absl::OutOfRangeError at the end of the input; another
  // code for an error before any line was taken (an error after that ends
  // the block, and block->Next() returns it). The lines are consumed:
  // bytes_read() counts them and Next() goes on after them.
  // REQUIRES: `block` came from this source's NewBlock(); max_lines > 0.
  virtual absl::Status NextBlock(size_t bytes, uint64_t max_lines, DocBlock* block);
};

struct DocSourceOptions {
  // A longer line is rejected as malformed (and skipped). Default 64 MiB.
  size_t max_line_bytes = size_t{64} << 20;
  // Size of each read(2) and the initial buffer. Default 1 MiB.
  size_t read_bytes = size_t{1} << 20;
};

// Opens a line-documents file, or standard input for "-". Reads the first line
// to detect the header and looks at the first lines (see above); fails with
// InvalidArgumentError if a header names no body column or the input does not
// look like line documents, and with the errno's status code if the file
// cannot be opened or read.
INVERT_EXPORT absl::StatusOr<std::unique_ptr<DocSource>> OpenLineDocs(
    const std::string& path_or_dash, const DocSourceOptions& options = {});

// Opens a JSON-lines file, or standard input for "-".
INVERT_EXPORT absl::StatusOr<std::unique_ptr<DocSource>> OpenJsonLines(
    const std::string& path_or_dash, const DocSourceOptions& options = {});

// ---- From a line document to a Document

struct LineDocSchemaOptions {
  // The body gets term vectors with positions and offsets. Default false.
  bool body_term_vectors = false;
  // The body is stored too (id, title and date always are). Default false.
  bool store_body = false;
};

// How a line document becomes a Document: the fields luceneutil's Wikipedia
// benchmark indexes, in this order:
//   id     keyword (one term, docs only, no norms), stored
//   title  analyzed text (docs, freqs, positions, norms), stored
//   date   stored only
//   body   analyzed text (docs, freqs, positions, norms); stored and with
//          term vectors (positions and offsets) as the options say
// invert-index and the benchmarks build their documents with it, so an index
// either makes can be appended to by the other.
//
//   const invert::LineDocSchema schema({.store_body = true});
//   invert::Document doc;
//   absl::StatusOr<invert::SourceDoc> next = source->Next();
//   if (next.ok()) {
//     schema.Build(*next, &doc);  // views into the source's buffer: add the
//     ...                         // document before the next Next()
//   }
class INVERT_EXPORT LineDocSchema {
 public:
  explicit LineDocSchema(const LineDocSchemaOptions& options = {});

  // Fills *doc (cleared first) with the four fields of one line document.
  // The document points at the given bytes, which must outlive its use.
  void Build(std::string_view id, std::string_view title, std::string_view date,
             std::string_view body, Document* doc) const;
  void Build(const SourceDoc& source, Document* doc) const {
    Build(source.id, source.title, source.date, source.body, doc);
  }

  // The body's type under these options.
  const FieldType& body_type() const { return body_; }

 private:
  FieldType body_;
};

}  // namespace invert

#endif  // INVERT_LINE_DOCS_H_

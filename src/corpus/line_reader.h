// LineReader: splits a file descriptor's bytes into lines with large read(2)
// calls into one growing buffer; the building block of the document sources
// (include/invert/line_docs.h).
//
// Buffer layout (capacity_ + kPadding bytes allocated):
//
//   [ consumed | unconsumed data           | free          | padding ]
//   0          begin_                      end_            capacity_   +kPadding
//                          scan_: no LF in [begin_, scan_)
//
// Invariants:
//   1. begin_ <= scan_ <= end_ <= capacity_.
//   2. A returned line lies in [begin_before, end_), so at least kPadding
//      allocated bytes follow its last byte (simdjson reads past the end of
//      its input). Their contents are unspecified.
//   3. The buffer grows only while one line does not fit; it never exceeds
//      max_line_bytes + read_bytes + 2 bytes (plus kPadding). Lines are never copied
//      except when the partial line at the end of the buffer is moved to the
//      front before the next read.
//
// Lines end at LF; one CR before it is dropped; the last line may lack its LF
// (a CR at the very end of the input is dropped too). A UTF-8 byte-order mark
// starting the input is dropped. A line longer than
// max_line_bytes (its bytes without the terminator) is reported as
// InvalidArgument and skipped without buffering its remainder.
//
// Thread safety: none.
#ifndef INVERT_CORPUS_LINE_READER_H_
#define INVERT_CORPUS_LINE_READER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "invert/line_docs.h"

namespace invert {

class LineReader {
 public:
  // Readable bytes guaranteed after the end of every returned line.
  static constexpr size_t kPadding = 64;

  // Reads `fd`, closing it on destruction iff `owns_fd`.
  // REQUIRES: max_line_bytes > 0, read_bytes > 0.
  LineReader(int fd, bool owns_fd, size_t max_line_bytes, size_t read_bytes);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Returns the next line without its terminator; the view is valid until
  // the next call. OutOfRangeError at the end of the input; InvalidArgument
  // ("line N: ...") for an over-long line, which is skipped; another code for
  // a read error, returned again on every later call.
  absl::StatusOr<std::string_view> NextLine();

  // Returns up to `n` bytes of the input that follow the last line returned
  // or rejected, reading as needed but consuming nothing: fewer at the end of
  // the input or when max_line_bytes + 2 bytes are buffered (the most a line
  // may need). The view is valid until the next call that reads. A read error
  // is returned, and again by every later call.
  absl::StatusOr<std::string_view> Peek(size_t n);

  // The bytes already read that follow the last line returned or rejected;
  // reads nothing. Valid until the next call that reads.
  std::string_view buffered() const {
    return std::string_view(buffer_.get() + begin_, end_ - begin_);
  }
  // Returns true iff the end of the input was reached: buffered() is all of
  // the input that is left.
  bool at_end() const { return eof_; }

  // The 1-based number of the line last returned or rejected (0 before any).
  uint64_t line_number() const { return line_number_; }

  // Bytes consumed: through the terminator of the line last returned or
  // rejected.
  uint64_t bytes_consumed() const { return bytes_consumed_; }

 private:
  // Makes room at the end of the buffer (moving the partial line to the front
  // and growing as needed) and reads once. Sets eof_ at the end of input.
  absl::Status Fill();
  // Discards the rest of an over-long line through its LF (or the end).
  absl::Status SkipRestOfLine();
  // Consumes [begin_, next) and returns [begin_, end) without a final CR.
  std::string_view TakeLine(size_t end, size_t next);
  absl::StatusOr<std::string_view> CheckedLine(std::string_view line) const;
  absl::Status TooLong() const;

  int fd_;
  bool owns_fd_;
  size_t max_line_bytes_;
  size_t read_bytes_;
  std::unique_ptr<char[]> buffer_;
  size_t capacity_;
  size_t begin_ = 0;
  size_t scan_ = 0;
  size_t end_ = 0;
  bool eof_ = false;
  absl::Status io_status_;  // sticky read error
  uint64_t line_number_ = 0;
  uint64_t bytes_consumed_ = 0;
};

// Opens `path_or_dash` ("-" = standard input) for a document source. Sets
// *total_bytes to the file's size for a regular file other than stdin, else
// nullopt. Fails with the errno's status code.
absl::StatusOr<std::unique_ptr<LineReader>> OpenLineReader(const std::string& path_or_dash,
                                                           const DocSourceOptions& options,
                                                           std::optional<uint64_t>* total_bytes);

}  // namespace invert

#endif  // INVERT_CORPUS_LINE_READER_H_

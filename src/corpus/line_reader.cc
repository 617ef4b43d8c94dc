// LineReader: buffered line splitting over read(2).
#include "corpus/line_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace invert {

LineReader::LineReader(int fd, bool owns_fd, size_t max_line_bytes, size_t read_bytes)
    : fd_(fd),
      owns_fd_(owns_fd),
      max_line_bytes_(max_line_bytes),
      read_bytes_(std::max<size_t>(read_bytes, 16)),
      buffer_(std::make_unique<char[]>(read_bytes_ + kPadding)),
      capacity_(read_bytes_) {}

LineReader::~LineReader() {
  if (owns_fd_) ::close(fd_);
}

absl::StatusOr<std::string_view> LineReader::NextLine() {
  if (!io_status_.ok()) return io_status_;
  for (;;) {
    if (scan_ < end_) {
      const char* data = buffer_.get();
      const void* lf = std::memchr(data + scan_, '\n', end_ - scan_);
      if (lf != nullptr) {
        const size_t pos = static_cast<const char*>(lf) - data;
        return CheckedLine(TakeLine(pos, pos + 1));
      }
      scan_ = end_;
    }
    // No LF in [begin_, end_): the line so far. One byte of slack for a CR.
    if (end_ - begin_ > max_line_bytes_ + 1) {
      ++line_number_;
      bytes_consumed_ += end_ - begin_;
      begin_ = scan_ = end_ = 0;
      if (absl::Status skipped = SkipRestOfLine(); !skipped.ok()) return skipped;
      return TooLong();
    }
    if (eof_) {
      if (begin_ == end_) return absl::OutOfRangeError("end of input");
      return CheckedLine(TakeLine(end_, end_));
    }
    if (absl::Status filled = Fill(); !filled.ok()) return filled;
  }
}

absl::StatusOr<std::string_view> LineReader::Peek(size_t n) {
  if (!io_status_.ok()) return io_status_;
  // NextLine() buffers at most this much of a line before it gives up on it,
  // so peeking never grows the buffer past what reading would.
  const size_t want = std::min(n, max_line_bytes_ + 2);
  while (end_ - begin_ < want && !eof_) {
    if (absl::Status filled = Fill(); !filled.ok()) return filled;
  }
  return std::string_view(buffer_.get() + begin_, std::min(end_ - begin_, n));
}

absl::StatusOr<std::string_view> LineReader::CheckedLine(std::string_view line) const {
  if (line.size() > max_line_bytes_) return TooLong();
  return line;
}

absl::Status LineReader::TooLong() const {
  return absl::InvalidArgumentError(
      absl::StrCat("line ", line_number_, ": longer than ", max_line_bytes_, " bytes"));
}

std::string_view LineReader::TakeLine(size_t end, size_t next) {
  ++line_number_;
  bytes_consumed_ += next - begin_;
  const char* start = buffer_.get() + begin_;
  size_t length = end - begin_;
  begin_ = scan_ = next;
  if (length > 0 && start[length - 1] == '\r') --length;
  if (line_number_ == 1 && length >= 3 && std::memcmp(start, "\xEF\xBB\xBF", 3) == 0) {
    start += 3;  // a UTF-8 byte-order mark
    length -= 3;
  }
  return std::string_view(start, length);
}

absl::Status LineReader::Fill() {
  if (capacity_ - end_ < read_bytes_ / 2) {
    if (begin_ > 0) {
      std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
      scan_ -= begin_;
      end_ -= begin_;
      begin_ = 0;
    }
    if (capacity_ - end_ < read_bytes_ / 2) {
      size_t capacity = std::max(2 * capacity_, end_ + read_bytes_);
      capacity = std::min(capacity, max_line_bytes_ + 2 + read_bytes_);
      capacity = std::max(capacity, end_ + read_bytes_ / 2);
      // Zeroed, padding included: simdjson reads past the end of a line.
      auto grown = std::make_unique<char[]>(capacity + kPadding);
      std::memcpy(grown.get(), buffer_.get(), end_);
      buffer_ = std::move(grown);
      capacity_ = capacity;
    }
  }
  for (;;) {
    const ssize_t n = ::read(fd_, buffer_.get() + end_, capacity_ - end_);
    if (n > 0) {
      end_ += static_cast<size_t>(n);
      return absl::OkStatus();
    }
    if (n == 0) {
      eof_ = true;
      return absl::OkStatus();
    }
    if (errno == EINTR) continue;
    io_status_ = absl::ErrnoToStatus(errno, "read");
    return io_status_;
  }
}

absl::Status LineReader::SkipRestOfLine() {
  while (!eof_) {
    if (absl::Status filled = Fill(); !filled.ok()) return filled;
    const void* lf = std::memchr(buffer_.get(), '\n', end_);
    if (lf != nullptr) {
      const size_t next = static_cast<const char*>(lf) - buffer_.get() + 1;
      bytes_consumed_ += next;
      begin_ = scan_ = next;
      return absl::OkStatus();
    }
    bytes_consumed_ += end_;
    begin_ = scan_ = end_ = 0;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<LineReader>> OpenLineReader(const std::string& path_or_dash,
                                                           const DocSourceOptions& options,
                                                           std::optional<uint64_t>* total_bytes) {
  *total_bytes = std::nullopt;
  if (path_or_dash == "-") {
    return std::make_unique<LineReader>(STDIN_FILENO, /*owns_fd=*/false, options.max_line_bytes,
                                        options.read_bytes);
  }
  int fd;
  do {
    fd = ::open(path_or_dash.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat("open ", path_or_dash));
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    *total_bytes = static_cast<uint64_t>(st.st_size);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  } else if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrCat(path_or_dash, " is a directory"));
  }
  return std::make_unique<LineReader>(fd, /*owns_fd=*/true, options.max_line_bytes,
                                      options.read_bytes);
}

}  // namespace invert

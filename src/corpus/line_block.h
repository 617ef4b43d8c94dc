// LineBlock: the lines a line-based document source moves into a DocBlock
// (include/invert/line_docs.h, "Blocks"): copied out of its LineReader as
// the reader splits them, each with its line number, or the error the reader
// gave in its place; parsed later, on another thread, by the block's parser.
//
// Layout of the bytes:
//
//   [ line 1 | line 2 | ... | line n | kPadding bytes ]
//
// Lines are stored back to back without terminators (the reader already
// dropped LF, CR and a byte-order mark), so at least LineReader::kPadding
// readable bytes follow every line, as in the reader's own buffer (simdjson
// reads past the end of its input).
//
// Thread safety: none.
#ifndef INVERT_CORPUS_LINE_BLOCK_H_
#define INVERT_CORPUS_LINE_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "corpus/line_reader.h"

namespace invert {

class LineBlock {
 public:
  struct Line {
    std::string_view text;
    uint64_t number = 0;  // 1-based physical line
  };

  // Replaces the block's lines with the next ones of `reader`, as
  // DocSource::NextBlock() describes: at least one, at most `max_lines`, no
  // more once `bytes` bytes are held; with `skip_blank`, lines of only
  // spaces, TABs and CRs are consumed but not kept. `*first`, when set, is a
  // line (or its error) the source read before and holds back: it goes first
  // and is reset. An over-long line (InvalidArgument) is kept as an error
  // line; another error ends the block as its last entry. Returns OK with a
  // non-empty block; OutOfRange at the end of the input (block empty); the
  // error, when no line was taken before it.
  absl::Status Fill(LineReader* reader, std::optional<absl::StatusOr<std::string_view>>* first,
                    size_t bytes, uint64_t max_lines, bool skip_blank);

  // The next line, or the error kept in its place; OutOfRange after the last.
  absl::StatusOr<Line> Next();

  // Lines held, error lines included (a final read error is not a line).
  uint64_t lines() const { return lines_; }
  // The reader's bytes_consumed() after Fill().
  uint64_t bytes_read() const { return bytes_read_; }

 private:
  struct Entry {
    size_t offset = 0;
    size_t size = 0;
    uint64_t number = 0;
    absl::Status error;  // not OK: the entry is this error, not a line
  };

  // Keeps `result` (a line read as line `number`, or its error); returns
  // false when the block must end after it.
  bool Add(const absl::StatusOr<std::string_view>& result, uint64_t number, bool skip_blank);

  std::string bytes_;
  std::vector<Entry> entries_;
  size_t next_ = 0;
  uint64_t lines_ = 0;
  uint64_t bytes_read_ = 0;
};

// Returns true iff `line` holds only spaces, TABs and CRs (a blank JSON line).
bool IsBlankLine(std::string_view line);

}  // namespace invert

#endif  // INVERT_CORPUS_LINE_BLOCK_H_

// LineBlock: lines moved out of a LineReader for a DocBlock (see line_block.h).
#include "corpus/line_block.h"

#include <utility>

namespace invert {

bool IsBlankLine(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

absl::Status LineBlock::Fill(LineReader* reader,
                             std::optional<absl::StatusOr<std::string_view>>* first, size_t bytes,
                             uint64_t max_lines, bool skip_blank) {
  bytes_.clear();
  entries_.clear();
  next_ = 0;
  lines_ = 0;
  bool more = true;
  if (first->has_value()) {
    const absl::StatusOr<std::string_view> line = std::move(**first);
    first->reset();
    more = Add(line, reader->line_number(), skip_blank);
  }
  // At least one line whatever `bytes` says (max_lines > 0 is required).
  while (more && (lines_ == 0 || (lines_ < max_lines && bytes_.size() < bytes))) {
    const absl::StatusOr<std::string_view> line = reader->NextLine();
    more = Add(line, reader->line_number(), skip_blank);
  }
  bytes_read_ = reader->bytes_consumed();
  if (entries_.empty()) return absl::OutOfRangeError("end of input");
  if (lines_ == 0) {  // only a read error: nothing was taken
    absl::Status error = std::move(entries_.back().error);
    entries_.clear();
    return error;
  }
  bytes_.append(LineReader::kPadding, '\0');
  return absl::OkStatus();
}

bool LineBlock::Add(const absl::StatusOr<std::string_view>& result, uint64_t number,
                    bool skip_blank) {
  if (result.ok()) {
    if (skip_blank && IsBlankLine(*result)) return true;
    entries_.push_back(Entry{bytes_.size(), result->size(), number, absl::OkStatus()});
    bytes_.append(*result);
    ++lines_;
    return true;
  }
  if (absl::IsOutOfRange(result.status())) return false;
  entries_.push_back(Entry{0, 0, number, result.status()});
  if (absl::IsInvalidArgument(result.status())) {  // an over-long line, skipped
    ++lines_;
    return true;
  }
  return false;  // a read error ends the block
}

absl::StatusOr<LineBlock::Line> LineBlock::Next() {
  if (next_ == entries_.size()) return absl::OutOfRangeError("end of block");
  const Entry& entry = entries_[next_++];
  if (!entry.error.ok()) return entry.error;
  return Line{std::string_view(bytes_.data() + entry.offset, entry.size), entry.number};
}

}  // namespace invert

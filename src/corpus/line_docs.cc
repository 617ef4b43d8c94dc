// OpenLineDocs: the line-documents source (format in include/invert/line_docs.h).
#include "invert/line_docs.h"

#include <charconv>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "corpus/line_reader.h"

namespace invert {
namespace {

// Debian's Abseil has its own absl::string_view (not std::string_view).
absl::string_view AbslSv(std::string_view s) { return absl::string_view(s.data(), s.size()); }

constexpr std::string_view kHeaderIndicator = "FIELDS_HEADER_INDICATOR###";

// Which field of a line holds what; -1 = absent.
struct Columns {
  size_t count = 3;
  int title = 0;
  int date = 1;
  int body = 2;
  int id = -1;
};

// Parses a header line (starting with kHeaderIndicator). Lucene writes a TAB
// after the indicator; some tools write the first name right after it.
absl::StatusOr<Columns> ParseHeader(std::string_view line) {
  std::string_view names = line.substr(kHeaderIndicator.size());
  if (!names.empty() && names.front() == '\t') names.remove_prefix(1);
  Columns columns;
  columns.count = 0;
  columns.title = columns.date = columns.body = -1;
  auto assign = [&](int* column, int index) {
    if (*column < 0) *column = index;
  };
  for (;;) {
    const size_t tab = names.find('\t');
    const std::string_view name = names.substr(0, tab);
    const int index = static_cast<int>(columns.count++);
    if (name == "doctitle" || name == "title") {
      assign(&columns.title, index);
    } else if (name == "docdate" || name == "date" || name == "timestamp") {
      assign(&columns.date, index);
    } else if (name == "body" || name == "text") {
      assign(&columns.body, index);
    } else if (name == "id") {
      assign(&columns.id, index);
    }
    if (tab == std::string_view::npos) break;
    names.remove_prefix(tab + 1);
  }
  if (columns.body < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("line 1: the header names no body column (body or text): ", AbslSv(line)));
  }
  return columns;
}

class LineDocSource final : public DocSource {
 public:
  LineDocSource(std::unique_ptr<LineReader> reader, std::optional<uint64_t> total_bytes)
      : reader_(std::move(reader)), total_bytes_(total_bytes) {}

  // Reads the first line: a header configures the columns, anything else is
  // kept for the first Next().
  absl::Status Start() {
    absl::StatusOr<std::string_view> first = reader_->NextLine();
    if (first.ok() && first->starts_with(kHeaderIndicator)) {
      absl::StatusOr<Columns> columns = ParseHeader(*first);
      if (!columns.ok()) return columns.status();
      columns_ = *columns;
      return absl::OkStatus();
    }
    if (!first.ok() && !absl::IsOutOfRange(first.status()) &&
        !absl::IsInvalidArgument(first.status())) {
      return first.status();  // I/O error
    }
    pending_ = std::move(first);
    return absl::OkStatus();
  }

  absl::StatusOr<SourceDoc> Next() override {
    absl::StatusOr<std::string_view> line;
    if (pending_.has_value()) {
      line = std::move(*pending_);
      pending_.reset();
    } else {
      line = reader_->NextLine();
    }
    if (!line.ok()) return line.status();
    const uint64_t number = reader_->line_number();
    if (!Split(*line)) {
      return absl::InvalidArgumentError(absl::StrCat("line ", number, ": expected ", columns_.count,
                                                     " tab-separated fields, found ",
                                                     CountFields(*line)));
    }
    SourceDoc doc;
    doc.title = Field(columns_.title);
    doc.date = Field(columns_.date);
    doc.body = Field(columns_.body);
    if (columns_.id >= 0) {
      doc.id = Field(columns_.id);
    } else {
      const auto [end, ec] = std::to_chars(id_buffer_, id_buffer_ + sizeof(id_buffer_), number);
      doc.id = std::string_view(id_buffer_, end - id_buffer_);
    }
    doc.line_number = number;
    return doc;
  }

  uint64_t bytes_read() const override { return reader_->bytes_consumed(); }
  std::optional<uint64_t> total_bytes() const override { return total_bytes_; }

 private:
  // Fills fields_ with exactly columns_.count fields; returns false if the
  // line has another number of fields.
  bool Split(std::string_view line) {
    fields_.clear();
    const char* p = line.data();
    const char* const end = p + line.size();
    for (size_t i = 0; i + 1 < columns_.count; ++i) {
      const char* tab = static_cast<const char*>(std::memchr(p, '\t', end - p));
      if (tab == nullptr) return false;
      fields_.emplace_back(p, tab - p);
      p = tab + 1;
    }
    if (std::memchr(p, '\t', end - p) != nullptr) return false;
    fields_.emplace_back(p, end - p);
    return true;
  }

  static size_t CountFields(std::string_view line) {
    size_t count = 1;
    for (char c : line) count += c == '\t';
    return count;
  }

  std::string_view Field(int column) const {
    return column < 0 ? std::string_view() : fields_[column];
  }

  std::unique_ptr<LineReader> reader_;
  std::optional<uint64_t> total_bytes_;
  Columns columns_;
  std::optional<absl::StatusOr<std::string_view>> pending_;
  std::vector<std::string_view> fields_;  // reused; no allocation per line
  char id_buffer_[24];
};

}  // namespace

absl::StatusOr<std::unique_ptr<DocSource>> OpenLineDocs(const std::string& path_or_dash,
                                                        const DocSourceOptions& options) {
  std::optional<uint64_t> total_bytes;
  absl::StatusOr<std::unique_ptr<LineReader>> reader =
      OpenLineReader(path_or_dash, options, &total_bytes);
  if (!reader.ok()) return reader.status();
  auto source = std::make_unique<LineDocSource>(std::move(*reader), total_bytes);
  if (absl::Status started = source->Start(); !started.ok()) return started;
  return source;
}

}  // namespace invert

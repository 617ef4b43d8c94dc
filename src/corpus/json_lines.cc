// OpenJsonLines: the JSON-lines source (format in include/invert/line_docs.h),
// parsed with simdjson's DOM parser straight from the LineReader's buffer
// (which keeps the SIMDJSON_PADDING bytes after each line readable), so that
// parsing a line allocates nothing once the parser has grown to the longest
// line. simdjson validates the whole line, UTF-8 included: a line that is not
// valid JSON (RFC 8259 requires UTF-8) is rejected as malformed. A block
// (NextBlock) holds copies of the lines with the same padding, parsed by the
// block's own parser.
#include <charconv>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "corpus/line_block.h"
#include "corpus/line_reader.h"
#include "invert/line_docs.h"
#include "simdjson.h"

namespace invert {
namespace {

// Debian's Abseil has its own absl::string_view (not std::string_view).
absl::string_view AbslSv(std::string_view s) { return absl::string_view(s.data(), s.size()); }
std::string_view StdSv(absl::string_view s) { return std::string_view(s.data(), s.size()); }

static_assert(LineReader::kPadding >= simdjson::SIMDJSON_PADDING,
              "simdjson reads up to SIMDJSON_PADDING bytes past the end of a line");

// Parses one JSON line into a SourceDoc (Next()'s results, errors included).
// The document's views point into the line and the parser. REQUIRES:
// LineReader::kPadding readable bytes follow the line.
class JsonLineParser {
 public:
  absl::StatusOr<SourceDoc> Parse(std::string_view line, uint64_t number) {
    simdjson::dom::element root;
    if (const auto error = parser_.parse(line.data(), line.size(), false).get(root); error) {
      if (error == simdjson::MEMALLOC) {
        return absl::ResourceExhaustedError(absl::StrCat("line ", number, ": out of memory"));
      }
      return Malformed(number, absl::StrCat("invalid JSON: ", simdjson::error_message(error)));
    }
    simdjson::dom::object object;
    if (root.get_object().get(object)) return Malformed(number, "not a JSON object");

    SourceDoc doc;
    doc.line_number = number;
    bool has_body = false;
    bool has_id = false;
    for (const simdjson::dom::key_value_pair field : object) {
      const std::string_view key = field.key;
      const simdjson::dom::element value = field.value;
      if (key == "body") {
        if (value.get_string().get(doc.body)) return Malformed(number, "\"body\" is not a string");
        has_body = true;
      } else if (key == "title") {
        if (!StringOrNull(value, &doc.title)) {
          return Malformed(number, "\"title\" is not a string");
        }
      } else if (key == "date") {
        if (!StringOrNull(value, &doc.date)) return Malformed(number, "\"date\" is not a string");
      } else if (key == "id") {
        absl::StatusOr<bool> id = Id(value, &doc.id);
        if (!id.ok()) return Malformed(number, StdSv(id.status().message()));
        has_id = *id;
      }
    }
    if (!has_body) return Malformed(number, "missing \"body\"");
    if (!has_id) doc.id = Decimal(number);
    return doc;
  }

 private:
  static absl::Status Malformed(uint64_t number, std::string_view reason) {
    return absl::InvalidArgumentError(absl::StrCat("line ", number, ": ", AbslSv(reason)));
  }

  // A string, or null (= empty).
  static bool StringOrNull(simdjson::dom::element value, std::string_view* out) {
    if (value.is_null()) {
      *out = std::string_view();
      return true;
    }
    return !value.get_string().get(*out);
  }

  // Sets *out from a string or number; returns false for null (no id).
  absl::StatusOr<bool> Id(simdjson::dom::element value, std::string_view* out) {
    switch (value.type()) {
      case simdjson::dom::element_type::STRING:
        *out = value.get_string().value_unsafe();
        return true;
      case simdjson::dom::element_type::INT64:
        *out = Decimal(value.get_int64().value_unsafe());
        return true;
      case simdjson::dom::element_type::UINT64:
        *out = Decimal(value.get_uint64().value_unsafe());
        return true;
      case simdjson::dom::element_type::DOUBLE:
        *out = Decimal(value.get_double().value_unsafe());
        return true;
      case simdjson::dom::element_type::NULL_VALUE:
        return false;
      default:
        return absl::InvalidArgumentError("\"id\" is not a string or a number");
    }
  }

  // Shortest decimal form of `number`, in id_buffer_.
  template <typename Number>
  std::string_view Decimal(Number number) {
    const auto [end, ec] = std::to_chars(id_buffer_, id_buffer_ + sizeof(id_buffer_), number);
    return std::string_view(id_buffer_, end - id_buffer_);
  }

  simdjson::dom::parser parser_;
  char id_buffer_[32];  // enough for any double's shortest form (<= 24)
};

// Lines of a JsonLinesSource, parsed by the block's own simdjson parser.
class JsonLinesBlock final : public DocBlock {
 public:
  absl::StatusOr<SourceDoc> Next() override {
    absl::StatusOr<LineBlock::Line> line = lines_.Next();
    if (!line.ok()) return line.status();
    return parser_.Parse(line->text, line->number);
  }
  uint64_t lines() const override { return lines_.lines(); }
  uint64_t bytes_read() const override { return lines_.bytes_read(); }

  LineBlock* mutable_lines() { return &lines_; }

 private:
  JsonLineParser parser_;
  LineBlock lines_;
};

class JsonLinesSource final : public DocSource {
 public:
  JsonLinesSource(std::unique_ptr<LineReader> reader, std::optional<uint64_t> total_bytes)
      : reader_(std::move(reader)), total_bytes_(total_bytes) {}

  absl::StatusOr<SourceDoc> Next() override {
    absl::StatusOr<std::string_view> line;
    do {
      line = reader_->NextLine();
      if (!line.ok()) return line.status();
    } while (IsBlankLine(*line));
    return parser_.Parse(*line, reader_->line_number());
  }

  uint64_t bytes_read() const override { return reader_->bytes_consumed(); }
  std::optional<uint64_t> total_bytes() const override { return total_bytes_; }

  std::unique_ptr<DocBlock> NewBlock() const override { return std::make_unique<JsonLinesBlock>(); }

  absl::Status NextBlock(size_t bytes, uint64_t max_lines, DocBlock* block) override {
    auto* mine = dynamic_cast<JsonLinesBlock*>(block);
    if (mine == nullptr) {
      return absl::InvalidArgumentError(
          "NextBlock: the block is not from this source's NewBlock()");
    }
    std::optional<absl::StatusOr<std::string_view>> none;
    return mine->mutable_lines()->Fill(reader_.get(), &none, bytes, max_lines,
                                       /*skip_blank=*/true);
  }

 private:
  std::unique_ptr<LineReader> reader_;
  std::optional<uint64_t> total_bytes_;
  JsonLineParser parser_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<DocSource>> OpenJsonLines(const std::string& path_or_dash,
                                                         const DocSourceOptions& options) {
  std::optional<uint64_t> total_bytes;
  absl::StatusOr<std::unique_ptr<LineReader>> reader =
      OpenLineReader(path_or_dash, options, &total_bytes);
  if (!reader.ok()) return reader.status();
  return std::make_unique<JsonLinesSource>(std::move(*reader), total_bytes);
}

}  // namespace invert

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
#include "corpus/line_block.h"
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

// How much of the input OpenLineDocs looks at to tell whether it is line
// documents at all (see line_docs.h), and how many lines.
constexpr size_t kSniffBytes = size_t{64} << 10;
constexpr int kSniffLines = 8;

// Why the input starting with `prefix` is not UTF-8 text (a byte-order mark
// of another encoding, compressed data, UTF-16 without a mark, NUL bytes or
// control bytes in the first lines), as "(reason); advice"; empty if it may
// be.
std::string EncodingProblem(std::string_view prefix) {
  auto starts = [&](std::string_view magic) { return prefix.starts_with(magic); };
  if (starts("\xEF\xBB\xBF")) prefix.remove_prefix(3);  // UTF-8's own mark
  constexpr char kConvert[] = "; convert it to UTF-8 (e.g. with iconv)";
  if (starts(std::string_view("\xFF\xFE\0\0", 4))) {
    return absl::StrCat("(UTF-32 little-endian byte order mark at byte 0)", kConvert);
  }
  if (starts(std::string_view("\0\0\xFE\xFF", 4))) {
    return absl::StrCat("(UTF-32 big-endian byte order mark at byte 0)", kConvert);
  }
  if (starts("\xFF\xFE")) {
    return absl::StrCat("(UTF-16 little-endian byte order mark at byte 0)", kConvert);
  }
  if (starts("\xFE\xFF")) {
    return absl::StrCat("(UTF-16 big-endian byte order mark at byte 0)", kConvert);
  }
  struct Magic {
    std::string_view bytes;
    const char* what;
  };
  static constexpr Magic kCompressed[] = {{"\x1F\x8B", "gzip"},
                                          {"\x28\xB5\x2F\xFD", "zstd"},
                                          {"BZh", "bzip2"},
                                          {"\xFD"
                                           "7zXZ",
                                           "xz"},
                                          {"PK\x03\x04", "zip"}};
  for (const Magic& m : kCompressed) {
    if (starts(m.bytes) &&
        (m.bytes != "BZh" || (prefix.size() > 3 && prefix[3] >= '1' && prefix[3] <= '9'))) {
      return absl::StrCat("(", m.what, "-compressed data); decompress it first");
    }
  }
  // UTF-16 without a mark: ASCII text has a NUL in every other byte.
  size_t nul_at[2] = {0, 0};
  for (size_t i = 0; i < prefix.size(); ++i) nul_at[i % 2] += prefix[i] == '\0';
  const size_t nuls = nul_at[0] + nul_at[1];
  if (prefix.size() >= 4 && nuls * 4 >= prefix.size()) {
    if (nul_at[0] * 10 <= nuls) {
      return absl::StrCat("(looks like UTF-16 little-endian: a NUL in every other byte)", kConvert);
    }
    if (nul_at[1] * 10 <= nuls) {
      return absl::StrCat("(looks like UTF-16 big-endian: a NUL in every other byte)", kConvert);
    }
  }
  // NUL and other control bytes in the first lines.
  size_t controls = 0, scanned = 0;
  std::string_view rest = prefix;
  for (int line = 1; line <= kSniffLines && !rest.empty(); ++line) {
    const size_t lf = rest.find('\n');
    const std::string_view text = rest.substr(0, lf);
    if (text.find('\0') != std::string_view::npos) {
      return absl::StrCat("(NUL bytes in line ", line, "); line documents are UTF-8 text");
    }
    for (char c : text) {
      const auto u = static_cast<unsigned char>(c);
      controls += (u < 0x20 && u != '\t' && u != '\r' && u != '\f' && u != '\v') || u == 0x7f;
    }
    scanned += text.size();
    if (lf == std::string_view::npos) break;
    rest.remove_prefix(lf + 1);
  }
  if (controls >= 16 && controls * 20 >= scanned) {  // 5%: text has next to none
    return absl::StrCat("(binary data: ", controls, " control bytes in the first ", scanned,
                        " bytes); line documents are UTF-8 text");
  }
  return "";
}

// Why the first lines, none of which has a TAB, cannot be line documents
// with two or more columns: "(reason); advice", or empty if a line has a TAB
// or too little was seen to tell. `first` is the first data line if it was
// read already, `rest` the bytes after it, which hold the rest of the input
// iff `rest_is_all`. Only whole lines count: kSniffLines of them, or all of
// a shorter input.
std::string TabProblem(std::optional<std::string_view> first, std::string_view rest,
                       bool rest_is_all) {
  int lines = 0;
  bool looks_json = false;
  auto has_tab = [&](std::string_view line) {
    if (lines++ == 0) {
      const size_t start = line.find_first_not_of(" \t\r");
      looks_json = start != std::string_view::npos && (line[start] == '{' || line[start] == '[');
    }
    return line.find('\t') != std::string_view::npos;
  };
  if (first.has_value() && has_tab(*first)) return "";
  while (lines < kSniffLines && !rest.empty()) {
    const size_t lf = rest.find('\n');
    if (lf == std::string_view::npos && !rest_is_all) return "";  // a line not read whole
    if (has_tab(rest.substr(0, lf))) return "";
    if (lf == std::string_view::npos) break;
    rest.remove_prefix(lf + 1);
  }
  if (lines == 0 || (lines < kSniffLines && !(rest.empty() && rest_is_all))) return "";
  return absl::StrCat(
      "(no TAB in ", lines == 1 ? "its only line" : absl::StrCat("the first ", lines, " lines"),
      "); line documents are title<TAB>date<TAB>body",
      looks_json ? "; this looks like JSON lines: read it with OpenJsonLines "
                   "(invert-index --format json)"
                 : "; for JSON lines use OpenJsonLines (invert-index --format json)");
}

// Splits one line into a SourceDoc by the columns (Next()'s results, errors
// included). The document's views point into the line and the parser.
class LineDocParser {
 public:
  explicit LineDocParser(const Columns& columns) : columns_(columns) {}

  absl::StatusOr<SourceDoc> Parse(std::string_view line, uint64_t number) {
    if (!Split(line)) {
      return absl::InvalidArgumentError(absl::StrCat("line ", number, ": expected ", columns_.count,
                                                     " tab-separated fields, found ",
                                                     CountFields(line)));
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

  const Columns& columns() const { return columns_; }

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

  Columns columns_;
  std::vector<std::string_view> fields_;  // reused; no allocation per line
  char id_buffer_[24] = {};
};

// Lines of a LineDocSource, parsed by their own copy of its columns.
class LineDocBlock final : public DocBlock {
 public:
  explicit LineDocBlock(const Columns& columns) : parser_(columns) {}

  absl::StatusOr<SourceDoc> Next() override {
    absl::StatusOr<LineBlock::Line> line = lines_.Next();
    if (!line.ok()) return line.status();
    return parser_.Parse(line->text, line->number);
  }
  uint64_t lines() const override { return lines_.lines(); }
  uint64_t bytes_read() const override { return lines_.bytes_read(); }

  LineBlock* mutable_lines() { return &lines_; }

 private:
  LineDocParser parser_;
  LineBlock lines_;
};

class LineDocSource final : public DocSource {
 public:
  LineDocSource(std::unique_ptr<LineReader> reader, std::optional<uint64_t> total_bytes)
      : reader_(std::move(reader)), total_bytes_(total_bytes) {}

  // Checks that the input looks like line documents, then reads the first
  // line: a header configures the columns, anything else is kept for the
  // first Next(). `name` names the input in errors.
  absl::Status Start(std::string_view name) {
    absl::StatusOr<std::string_view> prefix = reader_->Peek(kSniffBytes);
    if (!prefix.ok()) return prefix.status();
    if (std::string problem = EncodingProblem(*prefix); !problem.empty()) {
      return NotLineDocuments(name, problem);
    }
    if (absl::Status s = ReadFirstLine(); !s.ok()) return s;
    if (parser_.columns().count < 2) return absl::OkStatus();  // one column: no TABs expected
    std::optional<std::string_view> first;
    if (pending_.has_value() && pending_->ok()) first = **pending_;
    const std::string problem = TabProblem(first, reader_->buffered(), reader_->at_end());
    if (!problem.empty()) return NotLineDocuments(name, problem);
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
    return parser_.Parse(*line, reader_->line_number());
  }

  uint64_t bytes_read() const override { return reader_->bytes_consumed(); }
  std::optional<uint64_t> total_bytes() const override { return total_bytes_; }

  std::unique_ptr<DocBlock> NewBlock() const override {
    return std::make_unique<LineDocBlock>(parser_.columns());
  }

  absl::Status NextBlock(size_t bytes, uint64_t max_lines, DocBlock* block) override {
    auto* mine = dynamic_cast<LineDocBlock*>(block);
    if (mine == nullptr) {
      return absl::InvalidArgumentError(
          "NextBlock: the block is not from this source's NewBlock()");
    }
    return mine->mutable_lines()->Fill(reader_.get(), &pending_, bytes, max_lines,
                                       /*skip_blank=*/false);
  }

 private:
  static absl::Status NotLineDocuments(std::string_view name, std::string_view problem) {
    return absl::InvalidArgumentError(
        absl::StrCat(AbslSv(name), " does not look like line documents ", AbslSv(problem)));
  }

  // Reads the first line: a header sets the columns; anything else (a line, a
  // malformed line, the end) is kept in pending_ for the first Next().
  absl::Status ReadFirstLine() {
    absl::StatusOr<std::string_view> first = reader_->NextLine();
    if (first.ok() && first->starts_with(kHeaderIndicator)) {
      absl::StatusOr<Columns> columns = ParseHeader(*first);
      if (!columns.ok()) return columns.status();
      parser_ = LineDocParser(*columns);
      return absl::OkStatus();
    }
    if (!first.ok() && !absl::IsOutOfRange(first.status()) &&
        !absl::IsInvalidArgument(first.status())) {
      return first.status();  // I/O error
    }
    pending_ = std::move(first);
    return absl::OkStatus();
  }

  std::unique_ptr<LineReader> reader_;
  std::optional<uint64_t> total_bytes_;
  LineDocParser parser_{Columns()};  // the header's columns, once Start() read it
  std::optional<absl::StatusOr<std::string_view>> pending_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<DocSource>> OpenLineDocs(const std::string& path_or_dash,
                                                        const DocSourceOptions& options) {
  std::optional<uint64_t> total_bytes;
  absl::StatusOr<std::unique_ptr<LineReader>> reader =
      OpenLineReader(path_or_dash, options, &total_bytes);
  if (!reader.ok()) return reader.status();
  auto source = std::make_unique<LineDocSource>(std::move(*reader), total_bytes);
  const std::string name = path_or_dash == "-" ? "standard input" : path_or_dash;
  if (absl::Status started = source->Start(name); !started.ok()) return started;
  return source;
}

}  // namespace invert

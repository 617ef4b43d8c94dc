// DocSource's default blocks (include/invert/line_docs.h, "Blocks"): for a
// source that only implements Next(), NextBlock() calls it and copies each
// document (or its error) into the block, whose Next() hands them back.
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "invert/line_docs.h"

namespace invert {
namespace {

class CopiedDocBlock final : public DocBlock {
 public:
  absl::StatusOr<SourceDoc> Next() override {
    if (next_ == entries_.size()) return absl::OutOfRangeError("end of block");
    const Entry& entry = entries_[next_++];
    if (!entry.error.ok()) return entry.error;
    SourceDoc doc;
    const char* p = bytes_.data() + entry.offset;
    std::string_view* fields[] = {&doc.id, &doc.title, &doc.date, &doc.body};
    for (int i = 0; i < 4; ++i) {
      *fields[i] = std::string_view(p, entry.sizes[i]);
      p += entry.sizes[i];
    }
    doc.line_number = entry.line_number;
    return doc;
  }
  uint64_t lines() const override { return lines_; }
  uint64_t bytes_read() const override { return bytes_read_; }

  void Clear() {
    bytes_.clear();
    entries_.clear();
    next_ = 0;
    lines_ = 0;
  }
  // Keeps a document or the error Next() returned in its place.
  void Add(const absl::StatusOr<SourceDoc>& doc) {
    Entry entry;
    if (doc.ok()) {
      entry.offset = bytes_.size();
      const std::string_view fields[] = {doc->id, doc->title, doc->date, doc->body};
      for (int i = 0; i < 4; ++i) {
        entry.sizes[i] = fields[i].size();
        bytes_.append(fields[i]);
      }
      entry.line_number = doc->line_number;
    } else {
      entry.error = doc.status();
    }
    lines_ += doc.ok() || absl::IsInvalidArgument(doc.status());
    entries_.push_back(std::move(entry));
  }
  size_t bytes() const { return bytes_.size(); }
  bool empty() const { return entries_.empty(); }
  void set_bytes_read(uint64_t bytes_read) { bytes_read_ = bytes_read; }

 private:
  struct Entry {
    size_t offset = 0;
    size_t sizes[4] = {0, 0, 0, 0};  // id, title, date, body, back to back
    uint64_t line_number = 0;
    absl::Status error;  // not OK: the entry is this error
  };

  std::string bytes_;
  std::vector<Entry> entries_;
  size_t next_ = 0;
  uint64_t lines_ = 0;
  uint64_t bytes_read_ = 0;
};

}  // namespace

std::unique_ptr<DocBlock> DocSource::NewBlock() const { return std::make_unique<CopiedDocBlock>(); }

absl::Status DocSource::NextBlock(size_t bytes, uint64_t max_lines, DocBlock* block) {
  auto* copied = dynamic_cast<CopiedDocBlock*>(block);
  if (copied == nullptr) {
    return absl::InvalidArgumentError("NextBlock: the block is not from this source's NewBlock()");
  }
  copied->Clear();
  while (copied->lines() == 0 || (copied->lines() < max_lines && copied->bytes() < bytes)) {
    absl::StatusOr<SourceDoc> doc = Next();
    if (absl::IsOutOfRange(doc.status())) break;
    if (!doc.ok() && !absl::IsInvalidArgument(doc.status()) && copied->empty()) {
      return doc.status();  // an error before anything was taken
    }
    copied->Add(doc);
    if (!doc.ok() && !absl::IsInvalidArgument(doc.status())) break;  // ends the block
  }
  copied->set_bytes_read(bytes_read());
  if (copied->empty()) return absl::OutOfRangeError("end of input");
  return absl::OkStatus();
}

}  // namespace invert

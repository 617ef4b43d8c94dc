// Shared pieces of the fuzz targets: see fuzz_common.h.
#include "fuzz_common.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "codec/segment_reader.h"
#include "index/indexing_chain.h"
#include "index/segment_flush.h"
#include "invert/analysis.h"
#include "invert/document.h"
#include "testing/segment_dump.h"
#include "util/absl_compat.h"
#include "util/random.h"
#include "xxhash.h"

namespace invert::fuzz {

// ------------------------------------------------------------ MemDirectory

class MemDirectory::File final : public MappedFile {
 public:
  static std::shared_ptr<const MappedFile> Make(std::string_view bytes) {
    auto data = std::make_unique<uint8_t[]>(bytes.size());
    if (!bytes.empty()) std::memcpy(data.get(), bytes.data(), bytes.size());
    return std::shared_ptr<const MappedFile>(new File(std::move(data), bytes.size()));
  }

 private:
  File(std::unique_ptr<uint8_t[]> data, size_t size)
      : MappedFile(std::span<const uint8_t>(data.get(), size)), data_(std::move(data)) {}
  std::unique_ptr<uint8_t[]> data_;
};

class MemDirectory::Writer final : public WritableFile {
 public:
  Writer(MemDirectory* dir, std::string name) : dir_(dir), name_(std::move(name)) {}
  ~Writer() override { (void)Close(); }

  absl::Status Append(std::span<const uint8_t> data) override {
    if (closed_) return absl::FailedPreconditionError(absl::StrCat("append to closed ", name_));
    bytes_.append(reinterpret_cast<const char*>(data.data()), data.size());
    return absl::OkStatus();
  }
  absl::Status Close() override {
    if (closed_) return absl::OkStatus();
    closed_ = true;
    dir_->Put(name_, bytes_);
    return absl::OkStatus();
  }

 private:
  MemDirectory* dir_;
  std::string name_;
  std::string bytes_;
  bool closed_ = false;
};

void MemDirectory::Put(std::string_view name, std::string_view bytes) {
  std::shared_ptr<const MappedFile> file = File::Make(bytes);
  std::lock_guard<std::mutex> lock(mutex_);
  files_.insert_or_assign(std::string(name), std::move(file));
}

absl::StatusOr<std::string> MemDirectory::Get(std::string_view name) const {
  absl::StatusOr<std::shared_ptr<const MappedFile>> file =
      const_cast<MemDirectory*>(this)->OpenFile(name);
  if (!file.ok()) return file.status();
  const std::span<const uint8_t> bytes = (*file)->bytes();
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

absl::StatusOr<std::unique_ptr<WritableFile>> MemDirectory::CreateFile(std::string_view name) {
  if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (files_.contains(name)) {
      return absl::AlreadyExistsError(absl::StrCat("create ", Sv(name), ": file exists"));
    }
    files_.emplace(std::string(name), File::Make({}));
  }
  return std::make_unique<Writer>(this, std::string(name));
}

absl::StatusOr<std::shared_ptr<const MappedFile>> MemDirectory::OpenFile(std::string_view name) {
  if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = files_.find(name);
  if (it == files_.end()) return absl::NotFoundError(absl::StrCat("open ", Sv(name), ": no file"));
  return it->second;
}

absl::StatusOr<std::vector<std::string>> MemDirectory::ListAll() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  names.reserve(files_.size());
  for (const auto& [name, file] : files_) names.push_back(name);
  return names;
}

absl::StatusOr<uint64_t> MemDirectory::FileLength(std::string_view name) const {
  if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = files_.find(name);
  if (it == files_.end())
    return absl::NotFoundError(absl::StrCat("length ", Sv(name), ": no file"));
  return it->second->size();
}

absl::Status MemDirectory::DeleteFile(std::string_view name) {
  if (absl::Status s = ValidateFileName(name); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = files_.find(name);
  if (it == files_.end())
    return absl::NotFoundError(absl::StrCat("delete ", Sv(name), ": no file"));
  files_.erase(it);
  return absl::OkStatus();
}

absl::Status MemDirectory::Rename(std::string_view from, std::string_view to) {
  if (absl::Status s = ValidateFileName(from); !s.ok()) return s;
  if (absl::Status s = ValidateFileName(to); !s.ok()) return s;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = files_.find(from);
  if (it == files_.end())
    return absl::NotFoundError(absl::StrCat("rename ", Sv(from), ": no file"));
  std::shared_ptr<const MappedFile> file = std::move(it->second);
  files_.erase(it);
  files_.insert_or_assign(std::string(to), std::move(file));
  return absl::OkStatus();
}

absl::Status MemDirectory::Sync(const std::vector<std::string>& names) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::string& name : names) {
    if (!files_.contains(name))
      return absl::NotFoundError(absl::StrCat("sync ", name, ": no file"));
  }
  return absl::OkStatus();
}

absl::Status MemDirectory::SyncMetaData() { return absl::OkStatus(); }

class MemDirectory::Lock final : public DirectoryLock {
 public:
  Lock(MemDirectory* dir, std::string name) : dir_(dir), name_(std::move(name)) {}
  ~Lock() override {
    std::lock_guard lock(dir_->mutex_);
    dir_->locks_.erase(name_);
  }
  absl::Status EnsureValid() const override { return absl::OkStatus(); }

 private:
  MemDirectory* dir_;
  std::string name_;
};

absl::StatusOr<std::unique_ptr<DirectoryLock>> MemDirectory::ObtainLock(std::string_view name) {
  std::lock_guard lock(mutex_);
  if (!locks_.emplace(name).second) {
    return absl::FailedPreconditionError(
        absl::StrCat("MemDirectory: ", std::string(name), " is held"));
  }
  return std::unique_ptr<DirectoryLock>(new Lock(this, std::string(name)));
}

// ---------------------------------------------------------------- helpers

void FixFooterChecksum(std::string* file) {
  if (file->size() < kFooterLength) return;
  const size_t at = file->size() - 8;
  uint64_t checksum = XXH64(file->data(), at, 0);
  for (int i = 0; i < 8; ++i) {
    (*file)[at + i] = static_cast<char>(checksum & 0xff);
    checksum >>= 8;
  }
}

bool ReplaceHeaderId(std::string* file, const SegmentId& id) {
  if (file->size() < 5) return false;
  const size_t name_length = static_cast<uint8_t>((*file)[4]);
  if (name_length > kMaxCodecNameLength) return false;
  const size_t at = 4 + 1 + name_length + 4;
  if (file->size() < at + kSegmentIdLength + kFooterLength) return false;
  std::memcpy(file->data() + at, id.data(), id.size());
  FixFooterChecksum(file);
  return true;
}

uint8_t FuzzInput::U8() {
  if (p_ == end_) return 0;
  return *p_++;
}

uint32_t FuzzInput::U32() {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{U8()} << (8 * i);
  return v;
}

uint64_t FuzzInput::U64() {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{U8()} << (8 * i);
  return v;
}

std::string_view FuzzInput::Bytes(size_t n) {
  if (n > remaining()) n = remaining();
  std::string_view v(reinterpret_cast<const char*>(p_), n);
  p_ += n;
  return v;
}

void PutU8(std::string* out, uint8_t v) { out->push_back(static_cast<char>(v)); }

void PutU32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) PutU8(out, static_cast<uint8_t>(v >> (8 * i)));
}

void PutU64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) PutU8(out, static_cast<uint8_t>(v >> (8 * i)));
}

ExactBytes::ExactBytes(std::string_view bytes)
    : data_(std::make_unique<uint8_t[]>(bytes.size())), size_(bytes.size()) {
  if (!bytes.empty()) std::memcpy(data_.get(), bytes.data(), bytes.size());
}

// ---------------------------------------------------------- sample segment

namespace {

constexpr const char* kWords[] = {
    "the",    "of",     "and",   "in",       "to",      "was",     "is",        "for",
    "on",     "as",     "by",    "with",     "he",      "at",      "from",      "his",
    "an",     "were",   "are",   "which",    "river",   "rivers",  "riverbank", "city",
    "county", "region", "north", "northern", "station", "state",   "states",    "album",
    "band",   "music",  "école", "straße",   "東京",    "σίσυφος", "zebra",     "zzz"};
constexpr size_t kWordCount = sizeof(kWords) / sizeof(kWords[0]);

// Zipf-like: low indexes are much more frequent.
std::string_view PickWord(Random& rng) { return kWords[rng.Uniform(rng.Uniform(kWordCount) + 1)]; }

std::string Sentence(Random& rng, int min_words, int max_words) {
  std::string s;
  const int n = static_cast<int>(rng.Range(min_words, max_words));
  for (int i = 0; i < n; ++i) {
    if (i > 0) s += ' ';
    s += PickWord(rng);
  }
  return s;
}

}  // namespace

absl::StatusOr<SegmentInfo> BuildSampleSegment(Directory* dir, std::string* dump) {
  IndexingChainOptions options;
  options.analyzer = [] { return NewWhitespaceAnalyzer(); };
  IndexingChain chain(options);

  FieldType title = FieldType::Text(/*stored=*/true);
  title.term_vectors = true;
  title.term_vector_positions = true;
  title.term_vector_offsets = true;
  FieldType body;
  body.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
  FieldType tags;
  tags.index_options = IndexOptions::kDocsAndFreqs;
  tags.norms = false;
  FieldType category;
  category.index_options = IndexOptions::kDocs;
  FieldType tokens;
  tokens.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
  tokens.payloads = true;
  tokens.stored = true;
  tokens.term_vectors = true;
  tokens.term_vector_positions = true;
  tokens.term_vector_offsets = true;
  tokens.term_vector_payloads = true;

  Random rng(20240601);
  // 140 documents: few enough to read back quickly, and with "the" twice in
  // every body and every token stream, one term fills a whole 128-doc block
  // and two 128-position blocks (with payloads in "tokens").
  constexpr int kDocs = 140;
  for (int d = 0; d < kDocs; ++d) {
    const std::string id = absl::StrCat("doc-", d);
    const std::string title_text = Sentence(rng, 1, 4);
    const std::string body_text = absl::StrCat("the ", Sentence(rng, 2, 12), " the");
    const std::string tags_text = Sentence(rng, 0, 3);
    const std::string category_text = Sentence(rng, 1, 2);
    const std::string more_body = d % 3 == 0 ? Sentence(rng, 1, 5) : std::string();
    std::string raw(rng.Uniform(24), '\0');
    for (char& c : raw) c = static_cast<char>(rng.Uniform(256));
    std::vector<std::string> terms;
    std::vector<std::string> payloads;
    const int token_count = static_cast<int>(rng.Range(2, 5));
    for (int t = 0; t < token_count; ++t) {
      terms.emplace_back(t == 0 || t == token_count - 1 ? "the" : PickWord(rng));
      payloads.emplace_back(rng.Uniform(3) == 0 ? "" : absl::StrCat("p", rng.Uniform(1000)));
    }
    std::vector<PreAnalyzedToken> pre;
    uint32_t offset = 0;
    for (int t = 0; t < token_count; ++t) {
      const uint32_t length = static_cast<uint32_t>(terms[t].size());
      pre.push_back(PreAnalyzedToken{terms[t], static_cast<uint32_t>(rng.Range(1, 2)), offset,
                                     offset + length, payloads[t]});
      offset += length + 1;
    }
    Document doc;
    doc.Add(Field::Keyword("id", id, FieldType::Keyword(/*stored=*/true)));
    doc.Add(Field::Text("title", title_text, title));
    doc.Add(Field::Text("body", body_text, body));
    if (d % 3 == 0) doc.Add(Field::Text("body", more_body, body));  // multi-valued
    if (!tags_text.empty()) doc.Add(Field::Text("tags", tags_text, tags));
    doc.Add(Field::Text("category", category_text, category));
    doc.Add(Field::Tokens("tokens", pre, tokens, std::string_view(id)));
    if (d % 2 == 0) doc.Add(Field::Stored("raw", raw));
    if (absl::Status s = chain.AddDocument(doc); !s.ok()) return s;
  }

  absl::StatusOr<SegmentInfo> info = FlushSegment(chain, dir, "_0");
  if (!info.ok()) return info.status();

  // Re-stamp every file with the fixed id, then rewrite the segment info
  // (which records the other files' checksums) under that id.
  auto rewrite = [&](const std::string& name) -> absl::Status {
    absl::StatusOr<std::shared_ptr<const MappedFile>> file = dir->OpenFile(name);
    if (!file.ok()) return file.status();
    std::string bytes(reinterpret_cast<const char*>((*file)->bytes().data()), (*file)->size());
    file->reset();
    if (!ReplaceHeaderId(&bytes, kFuzzSegmentId)) {
      return absl::InternalError(absl::StrCat(name, ": no header to re-stamp"));
    }
    if (absl::Status s = dir->DeleteFile(name); !s.ok()) return s;
    absl::StatusOr<std::unique_ptr<WritableFile>> out = dir->CreateFile(name);
    if (!out.ok()) return out.status();
    if (absl::Status s =
            (*out)->Append({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
        !s.ok()) {
      return s;
    }
    return (*out)->Close();
  };
  for (const SegmentFile& f : info->files) {
    if (absl::Status s = rewrite(f.name); !s.ok()) return s;
  }
  if (absl::Status s = dir->DeleteFile("_0.si"); !s.ok()) return s;
  info->id = kFuzzSegmentId;
  if (absl::StatusOr<std::string> si = WriteSegmentInfo(dir, &*info); !si.ok()) return si.status();

  absl::StatusOr<std::unique_ptr<SegmentReader>> reader =
      SegmentReader::Open(dir, "_0", kFuzzSegmentId);
  if (!reader.ok()) return reader.status();
  if (absl::Status s = (*reader)->CheckIntegrity(); !s.ok()) return s;
  absl::StatusOr<std::string> text = DumpSegment(**reader);
  if (!text.ok()) return text.status();
  if (dump != nullptr) *dump = std::move(*text);
  return info;
}

// ---------------------------------------------------------------- TempFile

TempFile::TempFile() {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) dir = ".";
  std::string pattern = (dir / "invert_fuzz_XXXXXX").string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) {
    std::perror("mkstemp");
    std::abort();
  }
  ::close(fd);
  path_ = pattern;
}

TempFile::~TempFile() { ::unlink(path_.c_str()); }

void TempFile::Write(std::string_view bytes) {
  std::FILE* f = std::fopen(path_.c_str(), "wb");
  if (f == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() ||
      std::fclose(f) != 0) {
    std::perror(path_.c_str());
    std::abort();
  }
}

}  // namespace invert::fuzz

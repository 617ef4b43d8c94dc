// IndexReader::Open and the implementation of the public IndexReader: one
// commit's segments as leaves, each with that commit's live docs, sharing
// opened segments (and live docs of the same generation) with the reader it
// was reopened from (OpenIfChanged).
#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"
#include "codec/commit_format.h"
#include "index/commit_reader.h"
#include "index/leaf_reader_impl.h"
#include "invert/index_reader.h"
#include "util/absl_compat.h"

namespace invert {

IndexReader::~IndexReader() = default;

namespace {

class IndexReaderImpl final : public IndexReader {
 public:
  // Opens commit options.generation of `dir` (owned by `owned` when the
  // reader opened the directory itself). Segments `previous` has open are
  // shared rather than opened again.
  static absl::StatusOr<std::unique_ptr<IndexReaderImpl>> Open(std::shared_ptr<Directory> owned,
                                                               Directory* dir,
                                                               const IndexReaderOptions& options,
                                                               const IndexReaderImpl* previous);

  absl::StatusOr<std::unique_ptr<IndexReader>> OpenIfChanged() const override;
  uint64_t generation() const override { return generation_; }
  const std::string& index_id() const override { return index_id_; }
  uint64_t max_doc() const override { return max_doc_; }
  uint64_t num_docs() const override { return num_docs_; }
  bool IsDeleted(uint64_t doc) const override;
  const std::vector<const LeafReader*>& leaves() const override { return leaf_views_; }
  size_t LeafIndexOf(uint64_t doc) const override;
  const std::vector<FieldSchema>& fields() const override { return schema_->fields(); }
  absl::StatusOr<TermsStatistics> FieldStatistics(std::string_view field) const override;
  absl::StatusOr<TermStatistics> TermStats(std::string_view field,
                                           std::string_view term) const override;
  absl::StatusOr<StoredDocument> Document(uint64_t doc) const override;
  absl::StatusOr<std::vector<StoredDocument>> Documents(
      std::span<const uint64_t> docs) const override;
  absl::StatusOr<std::vector<TermVector>> TermVectors(uint64_t doc) const override;
  const std::vector<std::string>& warnings() const override { return warnings_; }

 private:
  IndexReaderImpl() = default;
  absl::Status CheckDoc(uint64_t doc) const;

  std::shared_ptr<Directory> owned_;  // shared with readers reopened from this one
  Directory* dir_ = nullptr;
  IndexReaderOptions options_;
  uint64_t generation_ = 0;
  std::string index_id_;
  std::shared_ptr<const ReaderSchema> schema_;
  std::vector<std::unique_ptr<LeafReaderImpl>> leaves_;
  std::vector<CommitSegment> entries_;         // the commit's entry of each leaf
  std::vector<const LeafReader*> leaf_views_;  // leaves_, as the interface returns them
  std::vector<uint64_t> bases_;                // leaves_[i]->doc_base()
  uint64_t max_doc_ = 0;
  uint64_t num_docs_ = 0;
  std::vector<std::string> warnings_;
};

absl::StatusOr<std::unique_ptr<IndexReaderImpl>> IndexReaderImpl::Open(
    std::shared_ptr<Directory> owned, Directory* dir, const IndexReaderOptions& options,
    const IndexReaderImpl* previous) {
  // Segments are shared only when name and id match: the id is random per
  // segment, so a segment of another index (or a rewritten one) never is.
  // Their live docs are shared only when the generation and the .liv's
  // checksum match too; otherwise the new commit's are read.
  struct Previous {
    const CommitSegment* entry;
    const LeafReaderImpl* leaf;
  };
  std::map<std::string, Previous> open;
  if (previous != nullptr) {
    for (size_t i = 0; i < previous->leaves_.size(); ++i) {
      open.emplace(previous->leaves_[i]->name(),
                   Previous{&previous->entries_[i], previous->leaves_[i].get()});
    }
  }
  SegmentReuse reuse = [&open](const CommitSegment& s) -> OpenedSegment {
    auto it = open.find(s.name);
    if (it == open.end() || it->second.leaf->segment()->info().id != s.id) return {};
    OpenedSegment reused{it->second.leaf->segment(), nullptr};
    const CommitSegment& before = *it->second.entry;
    if (s.del_gen == before.del_gen && s.liv_checksum == before.liv_checksum) {
      reused.live_docs = it->second.leaf->live_docs();
    }
    return reused;
  };
  absl::StatusOr<OpenedCommit> opened =
      OpenCommitAndSegments(dir, options.generation, options.recover, reuse);
  if (!opened.ok()) return opened.status();

  std::unique_ptr<IndexReaderImpl> r(new IndexReaderImpl());
  r->owned_ = std::move(owned);
  r->dir_ = dir;
  r->options_ = options;
  const CommitPoint& commit = opened->found.commit;
  r->generation_ = commit.generation;
  r->index_id_ = SegmentIdHex(commit.index_id);
  r->schema_ = std::make_shared<ReaderSchema>(commit.schema);
  for (const SkippedCommit& s : opened->found.skipped) {
    r->warnings_.push_back(absl::StrCat(s.file, ": ", s.cause.message()));
  }
  for (const std::string& f : opened->found.foreign) {
    r->warnings_.push_back(absl::StrCat(f, ": named like a commit point but is not one"));
  }
  for (size_t i = 0; i < opened->segments.size(); ++i) {
    std::shared_ptr<SegmentReader>& segment = opened->segments[i].reader;
    auto shared = open.find(segment->info().name);
    const bool fresh = shared == open.end() || shared->second.leaf->segment() != segment;
    if (fresh) {
      // Not yet shared with any other thread: the policy may be set.
      segment->SetPrefetchPolicy(options.prefetch);
      if (options.read_advice != ReadAdvice::kNormal) {
        if (absl::Status s = segment->SetReadAdvice(options.read_advice); !s.ok()) return s;
      }
    }
    r->bases_.push_back(r->max_doc_);
    r->leaves_.push_back(std::make_unique<LeafReaderImpl>(
        segment, std::move(opened->segments[i].live_docs), r->schema_, r->max_doc_));
    r->entries_.push_back(commit.segments[i]);
    r->leaf_views_.push_back(r->leaves_.back().get());
    r->max_doc_ += segment->doc_count();
    r->num_docs_ += r->leaves_.back()->num_docs();
  }
  return r;
}

absl::StatusOr<std::unique_ptr<IndexReader>> IndexReaderImpl::OpenIfChanged() const {
  absl::StatusOr<NewestCommit> newest = ReadNewestCommit(dir_, options_.recover);
  if (!newest.ok()) return newest.status();
  if (newest->commit.generation == generation_) return std::unique_ptr<IndexReader>();
  IndexReaderOptions options = options_;
  options.generation = 0;
  absl::StatusOr<std::unique_ptr<IndexReaderImpl>> reader = Open(owned_, dir_, options, this);
  if (!reader.ok()) return reader.status();
  if ((*reader)->generation_ == generation_) return std::unique_ptr<IndexReader>();
  return std::unique_ptr<IndexReader>(std::move(*reader));
}

size_t IndexReaderImpl::LeafIndexOf(uint64_t doc) const {
  // The last leaf whose base is <= doc; an empty leaf shares its base with
  // the next one, so it is never the last such.
  const auto after = std::upper_bound(bases_.begin(), bases_.end(), doc);
  return static_cast<size_t>(after - bases_.begin()) - 1;
}

bool IndexReaderImpl::IsDeleted(uint64_t doc) const {
  if (doc >= max_doc_) return false;
  const size_t leaf = LeafIndexOf(doc);
  return leaves_[leaf]->IsDeleted(static_cast<uint32_t>(doc - bases_[leaf]));
}

absl::Status IndexReaderImpl::CheckDoc(uint64_t doc) const {
  if (doc < max_doc_) return absl::OkStatus();
  return absl::OutOfRangeError(
      absl::StrCat("doc ", doc, " out of range: the index holds ", max_doc_, " documents"));
}

absl::StatusOr<TermsStatistics> IndexReaderImpl::FieldStatistics(std::string_view field) const {
  if (absl::Status s = schema_->Check(field, /*need_indexed=*/true); !s.ok()) return s;
  TermsStatistics total;
  for (const std::unique_ptr<LeafReaderImpl>& leaf : leaves_) {
    absl::StatusOr<TermsStatistics> stats = leaf->TermsStats(field);
    if (!stats.ok()) return stats.status();
    total.sum_doc_freq += stats->sum_doc_freq;
    total.sum_total_term_freq += stats->sum_total_term_freq;
    total.doc_count += stats->doc_count;
  }
  return total;
}

absl::StatusOr<TermStatistics> IndexReaderImpl::TermStats(std::string_view field,
                                                          std::string_view term) const {
  if (absl::Status s = schema_->Check(field, /*need_indexed=*/true); !s.ok()) return s;
  TermStatistics total;
  for (const std::unique_ptr<LeafReaderImpl>& leaf : leaves_) {
    absl::StatusOr<TermStatistics> stats = leaf->TermStats(field, term);
    if (!stats.ok()) return stats.status();
    total.doc_freq += stats->doc_freq;
    total.total_term_freq += stats->total_term_freq;
  }
  return total;
}

absl::StatusOr<StoredDocument> IndexReaderImpl::Document(uint64_t doc) const {
  if (absl::Status s = CheckDoc(doc); !s.ok()) return s;
  const size_t leaf = LeafIndexOf(doc);
  return leaves_[leaf]->Document(static_cast<uint32_t>(doc - bases_[leaf]));
}

absl::StatusOr<std::vector<StoredDocument>> IndexReaderImpl::Documents(
    std::span<const uint64_t> docs) const {
  for (uint64_t doc : docs) {
    if (absl::Status s = CheckDoc(doc); !s.ok()) return s;
  }
  // Every deleted doc is refused before anything is read.
  for (uint64_t doc : docs) {
    if (IsDeleted(doc)) {
      const LeafReader& leaf = *leaves_[LeafIndexOf(doc)];
      return absl::NotFoundError(absl::StrCat("doc ", doc, " (doc ", doc - leaf.doc_base(),
                                              " of segment ", leaf.name(), ") is deleted"));
    }
  }
  std::vector<StoredDocument> result(docs.size());
  // Positions in docs, sorted by doc: each leaf's are then one run.
  std::vector<size_t> order(docs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return docs[a] < docs[b]; });
  std::vector<uint32_t> local;
  for (size_t begin = 0; begin < order.size();) {
    const size_t leaf = LeafIndexOf(docs[order[begin]]);
    const uint64_t end_doc = bases_[leaf] + leaves_[leaf]->max_doc();
    size_t end = begin;
    local.clear();
    while (end < order.size() && docs[order[end]] < end_doc) {
      local.push_back(static_cast<uint32_t>(docs[order[end]] - bases_[leaf]));
      ++end;
    }
    absl::StatusOr<std::vector<StoredDocument>> stored = leaves_[leaf]->Documents(local);
    if (!stored.ok()) return stored.status();
    for (size_t i = begin; i < end; ++i) result[order[i]] = std::move((*stored)[i - begin]);
    begin = end;
  }
  return result;
}

absl::StatusOr<std::vector<TermVector>> IndexReaderImpl::TermVectors(uint64_t doc) const {
  if (absl::Status s = CheckDoc(doc); !s.ok()) return s;
  const size_t leaf = LeafIndexOf(doc);
  return leaves_[leaf]->TermVectors(static_cast<uint32_t>(doc - bases_[leaf]));
}

}  // namespace

absl::StatusOr<std::unique_ptr<IndexReader>> IndexReader::Open(const std::string& path,
                                                               const IndexReaderOptions& options) {
  absl::StatusOr<std::unique_ptr<FSDirectory>> dir = FSDirectory::Open(path, /*create=*/false);
  if (!dir.ok()) return dir.status();
  std::shared_ptr<Directory> owned(std::move(*dir));
  Directory* raw = owned.get();
  absl::StatusOr<std::unique_ptr<IndexReaderImpl>> reader =
      IndexReaderImpl::Open(std::move(owned), raw, options, nullptr);
  if (!reader.ok()) return reader.status();
  return std::unique_ptr<IndexReader>(std::move(*reader));
}

absl::StatusOr<std::unique_ptr<IndexReader>> IndexReader::Open(Directory* dir,
                                                               const IndexReaderOptions& options) {
  absl::StatusOr<std::unique_ptr<IndexReaderImpl>> reader =
      IndexReaderImpl::Open(nullptr, dir, options, nullptr);
  if (!reader.ok()) return reader.status();
  return std::unique_ptr<IndexReader>(std::move(*reader));
}

}  // namespace invert

// CommitReader: open the newest commit and its segments.
#include "index/commit_reader.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "store/index_input.h"
#include "util/absl_compat.h"

namespace invert {

absl::StatusOr<std::unique_ptr<CommitReader>> CommitReader::Open(
    const std::string& path, const CommitReaderOptions& options) {
  absl::StatusOr<std::unique_ptr<FSDirectory>> dir = FSDirectory::Open(path, /*create=*/false);
  if (!dir.ok()) return dir.status();
  Directory* raw = dir->get();
  absl::StatusOr<std::unique_ptr<CommitReader>> reader = Open(raw, options);
  if (!reader.ok()) return reader.status();
  (*reader)->owned_ = std::move(*dir);
  return reader;
}

absl::StatusOr<std::unique_ptr<SegmentReader>> OpenCommitSegment(Directory* dir,
                                                                 const CommitSegment& s) {
  absl::StatusOr<std::unique_ptr<SegmentReader>> segment = SegmentReader::Open(dir, s.name, s.id);
  if (!segment.ok()) {
    return absl::Status(segment.status().code(),
                        absl::StrCat("segment ", s.name, ": ", segment.status().message()));
  }
  if ((*segment)->doc_count() != s.doc_count) {
    return absl::DataLossError(absl::StrCat("segment ", s.name, " has ", (*segment)->doc_count(),
                                            " documents; the commit says ", s.doc_count));
  }
  absl::StatusOr<IndexInput> si = OpenInput(dir, s.name + ".si");
  if (!si.ok()) return si.status();
  absl::StatusOr<uint64_t> checksum = ReadFooterChecksum(*si);
  if (!checksum.ok()) return checksum.status();
  if (*checksum != s.si_checksum) {
    return absl::DataLossError(
        absl::StrCat("segment ", s.name, ": its .si is not the one the commit recorded"));
  }
  return segment;
}

absl::StatusOr<std::shared_ptr<const LiveDocs>> OpenCommitLiveDocs(Directory* dir,
                                                                   const CommitSegment& s) {
  if (s.del_gen == 0) return nullptr;
  const std::string name = LiveDocsFileName(s.name, s.del_gen);
  absl::StatusOr<IndexInput> in = OpenInput(dir, name);
  absl::StatusOr<uint64_t> checksum = in.ok() ? ReadFooterChecksum(*in) : in.status();
  if (!checksum.ok()) {
    return absl::Status(
        checksum.status().code(),
        absl::StrCat("segment ", s.name, "'s live docs ", name, ": ", checksum.status().message()));
  }
  if (*checksum != s.liv_checksum) {
    return absl::DataLossError(absl::StrCat("segment ", s.name, ": its live docs ", name,
                                            " are not the ones the commit recorded (checksum 0x",
                                            absl::Hex(*checksum), ", the commit says 0x",
                                            absl::Hex(s.liv_checksum), ")"));
  }
  absl::StatusOr<LiveDocs> live =
      ReadLiveDocs(dir, s.name, s.id, s.del_gen, s.doc_count, s.del_count);
  if (!live.ok()) {
    return absl::Status(live.status().code(),
                        absl::StrCat("segment ", s.name, ": ", live.status().message()));
  }
  return std::make_shared<const LiveDocs>(std::move(*live));
}

absl::StatusOr<OpenedCommit> OpenCommitAndSegments(Directory* dir, uint64_t generation,
                                                   bool recover, const SegmentReuse& reuse,
                                                   bool live_docs) {
  constexpr int kMaxAttempts = 100;
  absl::Status error;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    OpenedCommit opened;
    if (generation == 0) {
      absl::StatusOr<NewestCommit> newest = ReadNewestCommit(dir, recover);
      if (!newest.ok()) return newest.status();
      opened.found = std::move(*newest);
    } else {
      const std::string name = absl::StrCat(Sv(kCommitPrefix), generation);
      absl::StatusOr<CommitPoint> commit = ReadCommit(dir, name);
      if (!commit.ok()) return commit.status();
      opened.found.commit = std::move(*commit);
    }
    error = absl::OkStatus();
    for (const CommitSegment& s : opened.found.commit.segments) {
      OpenedSegment segment = reuse ? reuse(s) : OpenedSegment{};
      if (segment.reader == nullptr) {
        absl::StatusOr<std::unique_ptr<SegmentReader>> fresh = OpenCommitSegment(dir, s);
        if (!fresh.ok()) {
          error = fresh.status();
          break;
        }
        segment.reader = std::move(*fresh);
      }
      if (!live_docs || s.del_gen == 0) {
        segment.live_docs = nullptr;
      } else if (segment.live_docs == nullptr) {
        absl::StatusOr<std::shared_ptr<const LiveDocs>> live = OpenCommitLiveDocs(dir, s);
        if (!live.ok()) {
          error = live.status();
          break;
        }
        segment.live_docs = std::move(*live);
      }
      opened.segments.push_back(std::move(segment));
    }
    if (error.ok()) return opened;
    if (!absl::IsNotFound(error)) return error;
    if (generation != 0) {
      return absl::NotFoundError(
          absl::StrCat(error.message(), " (commit ", generation,
                       " is no longer complete: a writer keeps only its newest commits)"));
    }
    // A file of the commit is gone: if a newer commit replaced this one
    // (and its writer deleted what only the old one used), follow it.
    absl::StatusOr<NewestCommit> now = ReadNewestCommit(dir, recover);
    if (!now.ok() || now->commit.generation == opened.found.commit.generation) return error;
  }
  return absl::UnavailableError(absl::StrCat("the index in ", dir->DebugString(),
                                             " kept changing while being opened (", kMaxAttempts,
                                             " attempts): ", error.message()));
}

absl::StatusOr<std::unique_ptr<CommitReader>> CommitReader::Open(
    Directory* dir, const CommitReaderOptions& options) {
  absl::StatusOr<OpenedCommit> opened =
      OpenCommitAndSegments(dir, /*generation=*/0, options.recover, nullptr, options.live_docs);
  if (!opened.ok()) return opened.status();
  std::unique_ptr<CommitReader> r(new CommitReader());
  r->dir_ = dir;
  r->commit_ = std::move(opened->found.commit);
  for (const SkippedCommit& s : opened->found.skipped) {
    r->skipped_.push_back(absl::StrCat(s.file, ": ", s.cause.message()));
  }
  r->foreign_ = std::move(opened->found.foreign);
  for (OpenedSegment& s : opened->segments) {
    r->segments_.push_back(std::move(s.reader));
    r->live_docs_.push_back(std::move(s.live_docs));
  }
  for (const CommitSegment& s : r->commit_.segments) {
    r->bases_.push_back(r->doc_count_);
    r->doc_count_ += s.doc_count;
  }
  return r;
}

void CommitReader::SetPrefetchPolicy(PrefetchPolicy policy) {
  for (std::shared_ptr<SegmentReader>& segment : segments_) segment->SetPrefetchPolicy(policy);
}

absl::Status CommitReader::SetReadAdvice(ReadAdvice advice) const {
  for (const std::shared_ptr<SegmentReader>& segment : segments_) {
    if (absl::Status s = segment->SetReadAdvice(advice); !s.ok()) return s;
  }
  return absl::OkStatus();
}

namespace {

void Add(const PrefetchStats& from, PrefetchStats* to) {
  to->calls += from.calls;
  to->madvise += from.madvise;
  to->mincore += from.mincore;
}

}  // namespace

SegmentReader::DocFilesPrefetchStats CommitReader::doc_files_prefetch_stats() const {
  SegmentReader::DocFilesPrefetchStats total;
  for (const std::shared_ptr<SegmentReader>& segment : segments_) {
    const SegmentReader::DocFilesPrefetchStats s = segment->doc_files_prefetch_stats();
    Add(s.stored, &total.stored);
    Add(s.vectors, &total.vectors);
  }
  return total;
}

size_t CommitReader::SegmentOf(uint64_t doc) const {
  // The last segment whose base is <= doc; an empty segment shares its base
  // with the next one, so it is never the last such.
  const auto after = std::upper_bound(bases_.begin(), bases_.end(), doc);
  return static_cast<size_t>(after - bases_.begin()) - 1;
}

absl::StatusOr<std::vector<CommitReader::FetchedDocument>> CommitReader::FetchDocuments(
    std::span<const uint64_t> docs, const FetchOptions& options) const {
  for (uint64_t doc : docs) {
    if (doc >= doc_count_) {
      return absl::OutOfRangeError(
          absl::StrCat("doc ", doc, " out of range: the index holds ", doc_count_));
    }
  }
  std::vector<FetchedDocument> result(docs.size());
  // Indexes into docs, grouped by segment (in doc order within one).
  std::vector<uint32_t> order(docs.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return docs[a] < docs[b]; });
  std::vector<uint32_t> local;
  for (size_t begin = 0; begin < order.size();) {
    const size_t s = SegmentOf(docs[order[begin]]);
    const uint64_t base = bases_[s];
    const uint64_t end_doc = base + segments_[s]->doc_count();
    size_t end = begin;
    local.clear();
    while (end < order.size() && docs[order[end]] < end_doc) {
      local.push_back(static_cast<uint32_t>(docs[order[end]] - base));
      ++end;
    }
    const SegmentReader& segment = *segments_[s];
    if (options.stored_fields) {
      auto stored = segment.StoredDocuments(local);
      if (!stored.ok()) return stored.status();
      for (size_t i = begin; i < end; ++i)
        result[order[i]].stored = std::move((*stored)[i - begin]);
    }
    if (options.term_vectors) {
      auto vectors = segment.TermVectorDocuments(local);
      if (!vectors.ok()) return vectors.status();
      for (size_t i = begin; i < end; ++i) {
        result[order[i]].term_vectors = std::move((*vectors)[i - begin]);
      }
    }
    begin = end;
  }
  return result;
}

IndexTermLookup::IndexTermLookup(const CommitReader* reader) : reader_(reader) {
  lookups_.reserve(reader->segment_count());
  for (size_t s = 0; s < reader->segment_count(); ++s) lookups_.emplace_back(&reader->segment(s));
}

const FieldInfo* IndexTermLookup::field(size_t s, std::string_view field) const {
  return reader_->segment(s).FieldByName(field);
}

absl::StatusOr<std::vector<std::vector<std::optional<TermStats>>>> IndexTermLookup::Lookup(
    std::string_view field, std::span<const std::string_view> terms) {
  for (size_t s = 0; s < lookups_.size(); ++s) {
    if (const FieldInfo* info = this->field(s, field); info != nullptr) {
      lookups_[s].PrefetchBlocks(info->number, terms);
    }
  }
  std::vector<std::vector<std::optional<TermStats>>> result(lookups_.size());
  for (size_t s = 0; s < lookups_.size(); ++s) {
    const FieldInfo* info = this->field(s, field);
    if (info == nullptr) {
      result[s].resize(terms.size());
      continue;
    }
    auto found = lookups_[s].SeekAndPrefetch(info->number, terms);
    if (!found.ok()) return found.status();
    result[s] = std::move(*found);
  }
  return result;
}

PrefetchStats IndexTermLookup::prefetch_stats() const {
  PrefetchStats total;
  for (const TermLookup& lookup : lookups_) Add(lookup.prefetch_stats(), &total);
  return total;
}

uint64_t IndexTermLookup::prefetch_failures() const {
  uint64_t total = 0;
  for (const TermLookup& lookup : lookups_) total += lookup.prefetch_failures();
  return total;
}

void IndexTermLookup::set_prefetch_policy(PrefetchPolicy policy) {
  for (TermLookup& lookup : lookups_) lookup.set_prefetch_policy(policy);
}

}  // namespace invert

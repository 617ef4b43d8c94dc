// MergeSegments: the streaming merge of several segments into one
// (segment_merger.h; docs/merges.md, "The merge itself").
//
// Order of work, each part streaming from the inputs' mappings to the
// merged segment's files:
//   1. map every input's field numbers to the merged ones by name (types
//      must agree); build the doc maps (doc base per input, deleted docs
//      squeezed out); verify the inputs' checksums;
//   2. .fnm;
//   3. postings, field by field: a k-way merge (binary heap ordered by term
//      bytes, then input) of the inputs' term dictionaries; each term's
//      postings copied input after input with remapped doc ids;
//   4. norms, a 64K-doc chunk at a time;
//   5. stored fields, 6. term vectors: per input, compressed blocks copied as
//      they are when the input has no deletions and its field numbers are
//      the merged ones; else the live documents re-added;
//   7. .si, fsync.
// Every file is created through MergeOutput, which remembers it (so a
// failure deletes exactly what this merge created), counts the bytes and
// throttles.
#include "index/segment_merger.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <thread>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "codec/field_infos_format.h"
#include "codec/norms_format.h"
#include "codec/postings_format.h"
#include "codec/segment_files.h"
#include "codec/stored_fields_format.h"
#include "codec/term_vectors_format.h"
#include "index/segment_flush.h"
#include "invert/version.h"
#include "store/index_output.h"
#include "util/absl_compat.h"

namespace invert {

namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The merge's view of the target directory: remembers the files it created,
// counts the bytes appended to them and sleeps to keep under the write rate.
class MergeOutput final : public Directory {
 public:
  MergeOutput(Directory* base, double max_bytes_per_second, const std::atomic<bool>* cancel)
      : base_(base), rate_(max_bytes_per_second), cancel_(cancel), start_(Clock::now()) {}

  absl::StatusOr<std::unique_ptr<WritableFile>> CreateFile(std::string_view name) override {
    absl::StatusOr<std::unique_ptr<WritableFile>> file = base_->CreateFile(name);
    if (!file.ok()) return file.status();
    created_.emplace_back(name);
    return std::unique_ptr<WritableFile>(new File(this, *std::move(file)));
  }
  absl::StatusOr<std::shared_ptr<const MappedFile>> OpenFile(std::string_view name) override {
    return base_->OpenFile(name);
  }
  absl::StatusOr<std::vector<std::string>> ListAll() const override { return base_->ListAll(); }
  absl::StatusOr<uint64_t> FileLength(std::string_view name) const override {
    return base_->FileLength(name);
  }
  absl::Status DeleteFile(std::string_view name) override { return base_->DeleteFile(name); }
  absl::Status Rename(std::string_view from, std::string_view to) override {
    return base_->Rename(from, to);
  }
  absl::Status Sync(const std::vector<std::string>& names) override { return base_->Sync(names); }
  absl::Status SyncMetaData() override { return base_->SyncMetaData(); }
  absl::StatusOr<std::unique_ptr<DirectoryLock>> ObtainLock(std::string_view name) override {
    return base_->ObtainLock(name);
  }
  std::string DebugString() const override { return base_->DebugString(); }

  // Deletes every file created through this object (best effort).
  void DeleteCreated() {
    for (const std::string& name : created_) (void)base_->DeleteFile(name);
    created_.clear();
  }
  uint64_t bytes_written() const { return bytes_; }
  double throttled_seconds() const { return throttled_; }

 private:
  class File final : public WritableFile {
   public:
    File(MergeOutput* owner, std::unique_ptr<WritableFile> base)
        : owner_(owner), base_(std::move(base)) {}
    absl::Status Append(std::span<const uint8_t> data) override {
      absl::Status s = base_->Append(data);
      if (s.ok()) owner_->Wrote(data.size());
      return s;
    }
    absl::Status Close() override { return base_->Close(); }

   private:
    MergeOutput* owner_;
    std::unique_ptr<WritableFile> base_;
  };

  // Sleeps until the bytes written so far fit the rate since the start, in
  // naps of at most 50 ms so a cancellation is noticed soon.
  void Wrote(size_t n) {
    bytes_ += n;
    if (rate_ <= 0) return;
    for (;;) {
      const double ahead = static_cast<double>(bytes_) / rate_ - SecondsSince(start_);
      if (ahead <= 0 || (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed))) return;
      const auto nap_start = Clock::now();
      std::this_thread::sleep_for(std::chrono::duration<double>(std::min(ahead, 0.05)));
      throttled_ += SecondsSince(nap_start);
    }
  }

  Directory* base_;
  double rate_;
  const std::atomic<bool>* cancel_;
  Clock::time_point start_;
  std::vector<std::string> created_;
  uint64_t bytes_ = 0;
  double throttled_ = 0;
};

uint64_t KeyOf(std::string_view term) {
  uint64_t key = 0;
  const size_t n = std::min<size_t>(term.size(), 8);
  for (size_t i = 0; i < n; ++i) key |= uint64_t{static_cast<uint8_t>(term[i])} << (56 - 8 * i);
  return key;
}

// For MergeStats::peak_memory_bytes: an IndexOutput's buffer, and what an
// input's reader holds decoded when documents are re-added (one block of the
// default size).
constexpr int64_t kOutputBufferBytes = IndexOutput::kDefaultBufferSize;
constexpr int64_t kInputBlockBytes = 60 * 1024;

// Live documents handed to a reader at once when documents are re-added.
constexpr size_t kDocChunk = 128;

struct Input {
  const SegmentReader* segment = nullptr;
  const LiveDocs* live = nullptr;  // null unless some document is deleted
  std::string name;                // for messages
  uint32_t doc_count = 0;
  uint32_t live_count = 0;
  uint32_t doc_base = 0;  // merged id of its first live doc
  // Field numbers: local -> merged, and merged -> local (-1: absent).
  std::vector<uint32_t> to_merged;
  std::vector<int64_t> from_merged;
  // Whether every stored (term-vector) field keeps its number, so that the
  // serialized documents (entries) hold the merged numbers already.
  bool stored_identity = true;
  bool vectors_identity = true;
};

// One input's side of the k-way merge of a field's terms.
struct TermSource {
  uint32_t input;
  uint32_t local_field;
  // The current term's first 8 bytes, zero-padded, big-endian: keys compare
  // as the terms do, except that equal keys need the terms compared.
  uint64_t key = 0;
  TermDictCursor terms;
  PostingsCursor postings;  // Reset() for each term
  // Documents of this input having the field, when it has deletions (else
  // the input's own field statistics count them).
  std::vector<uint64_t> has_field;
  // The input's norms of the field (what the merged norms copy), for the
  // postings' impacts; empty when it has none: then every doc's norm is
  // `default_norm` (0 as in the merged norms, or 1 if the field has none).
  std::span<const uint8_t> norms;
  uint8_t default_norm = 1;
};

class Merger {
 public:
  Merger(const std::vector<MergeInput>& inputs, MergeOutput* out, std::string_view segment,
         const SegmentId& id, const MergeOptions& options, MergeStats* stats)
      : raw_inputs_(inputs),
        out_(out),
        segment_(segment),
        id_(id),
        options_(options),
        fields_(options.fields),
        stats_(stats) {}

  // Steps 1-6; `files` gets the data files in the segment info's order.
  absl::Status Run(std::vector<std::string>* files, MergeResult* result);

 private:
  absl::Status Prepare(MergeResult* result);
  absl::Status MapFields(Input& in);
  absl::Status MergePostings(std::vector<std::string>* files);
  absl::Status MergeField(PostingsWriter& pw, const FieldInfo& field);
  absl::Status CopyPostings(PostingsWriter& pw, TermSource& s, bool positions, uint32_t* added);
  absl::Status MergeNorms(std::vector<std::string>* files);
  absl::Status MergeStored(std::vector<std::string>* files);
  absl::Status MergeVectors(std::vector<std::string>* files);

  bool cancelled() const {
    return options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed);
  }
  static absl::Status Cancelled() { return absl::CancelledError("merge cancelled"); }
  // An error of reading input `in`, with its segment in front.
  absl::Status InputError(const Input& in, const absl::Status& s) const {
    return absl::Status(s.code(), absl::StrCat("merging segment ", in.name, ": ", s.message()));
  }
  absl::Status Corrupt(const Input& in, std::string_view what) const {
    return absl::DataLossError(absl::StrCat("merging segment ", in.name, ": ", Sv(what)));
  }
  // Raises the peak memory estimate to `bytes` if higher.
  void Held(int64_t bytes) {
    if (stats_ != nullptr) stats_->peak_memory_bytes = std::max(stats_->peak_memory_bytes, bytes);
  }
  // Live documents of `in` from `*next` on, at most kDocChunk; false when none are left.
  bool NextChunk(const Input& in, uint32_t* next, std::vector<uint32_t>* chunk) const;

  const std::vector<MergeInput>& raw_inputs_;
  MergeOutput* out_;
  std::string segment_;
  SegmentId id_;
  const MergeOptions& options_;
  const std::vector<FieldInfo>& fields_;
  MergeStats* stats_;

  std::vector<Input> inputs_;
  // The merged fields by name, sorted.
  std::vector<std::pair<std::string_view, uint32_t>> by_name_;
  const std::vector<std::vector<uint32_t>>* doc_maps_ = nullptr;
  uint32_t merged_docs_ = 0;
  int64_t base_memory_ = 0;  // held for the whole merge: the doc maps, the inputs' tables
};

absl::Status Merger::MapFields(Input& in) {
  const std::vector<FieldInfo>& local = in.segment->fields();
  in.to_merged.assign(local.size(), 0);
  in.from_merged.assign(fields_.size(), -1);
  for (size_t i = 0; i < local.size(); ++i) {
    const FieldInfo& f = local[i];
    if (f.number != i) {
      return Corrupt(in, absl::StrCat("field \"", f.name, "\" has number ", f.number, ", not ", i));
    }
    auto it = std::lower_bound(by_name_.begin(), by_name_.end(), std::string_view(f.name),
                               [](const std::pair<std::string_view, uint32_t>& a,
                                  std::string_view b) { return a.first < b; });
    if (it == by_name_.end() || it->first != f.name) {
      return absl::InvalidArgumentError(
          absl::StrCat("merging segment ", in.name, ": field \"", f.name,
                       "\" is not among the merged segment's fields"));
    }
    const FieldInfo& merged = fields_[it->second];
    if (!(merged.type == f.type)) {
      return absl::InvalidArgumentError(
          absl::StrCat("merging segment ", in.name, ": field \"", f.name,
                       "\" has another type there than in the merged segment"));
    }
    in.to_merged[i] = merged.number;
    in.from_merged[merged.number] = static_cast<int64_t>(i);
    if (merged.number != i) {
      if (f.type.stored) in.stored_identity = false;
      if (f.type.term_vectors) in.vectors_identity = false;
    }
  }
  return absl::OkStatus();
}

absl::Status Merger::Prepare(MergeResult* result) {
  if (raw_inputs_.empty()) return absl::InvalidArgumentError("a merge needs at least one segment");
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].number != i) {
      return absl::InvalidArgumentError(absl::StrCat("merged field \"", fields_[i].name,
                                                     "\" has number ", fields_[i].number,
                                                     "; fields must be numbered 0..n-1 in order"));
    }
    by_name_.emplace_back(fields_[i].name, static_cast<uint32_t>(i));
  }
  std::sort(by_name_.begin(), by_name_.end());
  for (size_t i = 1; i < by_name_.size(); ++i) {
    if (by_name_[i].first == by_name_[i - 1].first) {
      return absl::InvalidArgumentError(
          absl::StrCat("merged field \"", Sv(by_name_[i].first), "\" is listed twice"));
    }
  }

  inputs_.resize(raw_inputs_.size());
  result->doc_maps.resize(raw_inputs_.size());
  uint64_t next_doc = 0;
  for (size_t i = 0; i < raw_inputs_.size(); ++i) {
    const MergeInput& raw = raw_inputs_[i];
    Input& in = inputs_[i];
    if (raw.segment == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("merge input ", i, " has no segment"));
    }
    in.segment = raw.segment;
    in.name = raw.segment->info().name;
    in.doc_count = raw.segment->doc_count();
    if (raw.live != nullptr && raw.live->doc_count() != in.doc_count) {
      return absl::InvalidArgumentError(absl::StrCat("merging segment ", in.name,
                                                     ": live docs for ", raw.live->doc_count(),
                                                     " documents, not ", in.doc_count));
    }
    if (absl::Status s = MapFields(in); !s.ok()) return s;
    in.doc_base = static_cast<uint32_t>(std::min<uint64_t>(next_doc, UINT32_MAX));
    std::vector<uint32_t>& map = result->doc_maps[i];
    map.resize(in.doc_count);
    uint32_t live = 0;
    for (uint32_t d = 0; d < in.doc_count; ++d) {
      if (raw.live == nullptr || raw.live->IsLive(d)) {
        map[d] = static_cast<uint32_t>(std::min<uint64_t>(next_doc + live, UINT32_MAX - 1));
        ++live;
      } else {
        map[d] = kDeletedDoc;
      }
    }
    in.live_count = live;
    if (live < in.doc_count) in.live = raw.live;
    next_doc += live;
    if (next_doc > uint64_t{INT32_MAX}) {
      return absl::InvalidArgumentError(
          absl::StrCat("the merged segment would hold more than 2^31 - 1 documents (", next_doc,
                       " by segment ", in.name, ")"));
    }
    base_memory_ += static_cast<int64_t>(map.capacity() * sizeof(uint32_t) +
                                         in.from_merged.capacity() * sizeof(int64_t) +
                                         in.to_merged.capacity() * sizeof(uint32_t));
  }
  if (next_doc == 0) {
    return absl::InvalidArgumentError(
        "no live document in the segments to merge (drop fully deleted segments instead)");
  }
  merged_docs_ = static_cast<uint32_t>(next_doc);
  doc_maps_ = &result->doc_maps;
  Held(base_memory_);

  for (Input& in : inputs_) {
    for (const SegmentFile& f : in.segment->info().files) {
      if (stats_ != nullptr) stats_->bytes_read += f.length;
    }
    if (options_.verify_checksums) {
      if (cancelled()) return Cancelled();
      if (absl::Status s = in.segment->CheckIntegrity(); !s.ok()) return InputError(in, s);
    }
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------- postings

absl::Status Merger::MergePostings(std::vector<std::string>* files) {
  absl::StatusOr<std::unique_ptr<PostingsWriter>> created =
      PostingsWriter::Create(out_, segment_, id_);
  if (!created.ok()) return created.status();
  PostingsWriter& pw = **created;
  for (const std::string& name : pw.file_names()) files->push_back(name);
  for (const FieldInfo& field : fields_) {
    if (!field.type.indexed()) continue;
    if (absl::Status s = MergeField(pw, field); !s.ok()) return s;
  }
  return pw.Finish();
}

absl::Status Merger::MergeField(PostingsWriter& pw, const FieldInfo& field) {
  // One source per input with terms in the field. Reserved up front: the
  // heap points into the vector.
  std::vector<TermSource> sources;
  sources.reserve(inputs_.size());
  uint32_t doc_count = 0;  // of inputs without deletions, from their statistics
  int64_t held = base_memory_;
  for (uint32_t i = 0; i < inputs_.size(); ++i) {
    const Input& in = inputs_[i];
    const int64_t local = in.from_merged[field.number];
    if (local < 0 || in.live_count == 0) continue;
    const uint32_t lf = static_cast<uint32_t>(local);
    const TermDictReader* dict = in.segment->Terms(lf);
    const FieldTermsStats* stats = in.segment->TermsStats(lf);
    if (dict == nullptr || stats == nullptr) continue;
    sources.push_back(
        TermSource{i, lf, 0, dict->NewCursor(), in.segment->Postings(lf, TermStats{}), {}});
    if (field.type.has_norms()) {
      const std::span<const uint8_t> norms = in.segment->NormBytes(lf);
      if (norms.size() == in.doc_count) sources.back().norms = norms;
      sources.back().default_norm = 0;
    }
    if (in.live == nullptr) {
      doc_count += stats->doc_count;
    } else {
      sources.back().has_field.assign((size_t{in.doc_count} + 63) / 64, 0);
      held += static_cast<int64_t>(sources.back().has_field.capacity() * sizeof(uint64_t));
    }
    held += static_cast<int64_t>(sizeof(TermSource)) + dict->block_terms() * 64;
  }
  if (sources.empty()) return absl::OkStatus();
  held += static_cast<int64_t>(sizeof(PostingsWriter) + 3 * kOutputBufferBytes);
  Held(held);

  // Min-heap on (term, input): equal terms come out in input order, which
  // is merged doc id order.
  auto after = [](const TermSource* a, const TermSource* b) {
    if (a->key != b->key) return a->key > b->key;
    const int c = a->terms.term().compare(b->terms.term());
    return c > 0 || (c == 0 && a->input > b->input);
  };
  std::vector<TermSource*> heap;
  heap.reserve(sources.size());
  auto advance = [&](TermSource& s) -> absl::Status {
    absl::StatusOr<bool> next = s.terms.Next();
    if (!next.ok()) {
      return InputError(
          inputs_[s.input],
          absl::Status(next.status().code(),
                       absl::StrCat("field \"", field.name, "\": ", next.status().message())));
    }
    if (*next) {
      s.key = KeyOf(s.terms.term());
      heap.push_back(&s);
      std::push_heap(heap.begin(), heap.end(), after);
    }
    return absl::OkStatus();
  };
  for (TermSource& s : sources) {
    if (absl::Status st = advance(s); !st.ok()) return st;
  }

  const bool positions = HasPositions(field.type.index_options);
  pw.StartField(field);
  std::vector<TermSource*> group;
  group.reserve(sources.size());
  while (!heap.empty()) {
    if (cancelled()) return Cancelled();
    group.clear();
    std::pop_heap(heap.begin(), heap.end(), after);
    group.push_back(heap.back());
    heap.pop_back();
    const std::string_view term = group[0]->terms.term();
    const uint64_t key = group[0]->key;
    while (!heap.empty() && heap.front()->key == key && heap.front()->terms.term() == term) {
      std::pop_heap(heap.begin(), heap.end(), after);
      group.push_back(heap.back());
      heap.pop_back();
    }
    pw.StartTerm();
    uint32_t added = 0;
    for (TermSource* s : group) {
      if (absl::Status st = CopyPostings(pw, *s, positions, &added); !st.ok()) {
        return InputError(
            inputs_[s->input],
            absl::Status(st.code(),
                         absl::StrCat("field \"", field.name, "\", term \"",
                                      absl::CHexEscape(Sv(term)), "\": ", st.message())));
      }
    }
    if (added > 0) {
      if (absl::Status st = pw.FinishTerm(term); !st.ok()) return st;
      if (stats_ != nullptr) ++stats_->terms;
    } else if (stats_ != nullptr) {
      ++stats_->terms_dropped;  // every document deleted: the term is not written
    }
    for (TermSource* s : group) {
      if (absl::Status st = advance(*s); !st.ok()) return st;
    }
  }
  for (const TermSource& s : sources) {
    for (uint64_t word : s.has_field) doc_count += static_cast<uint32_t>(std::popcount(word));
  }
  Held(held + static_cast<int64_t>(pw.buffered_bytes()));  // the dictionary at its largest
  return pw.FinishField(doc_count);
}

// Appends the live postings of s's current term to the writer's term.
absl::Status Merger::CopyPostings(PostingsWriter& pw, TermSource& s, bool positions,
                                  uint32_t* added) {
  const Input& in = inputs_[s.input];
  PostingsCursor& c = s.postings;
  c.Reset(s.terms.stats());
  const uint32_t doc_count = in.doc_count;
  if (in.live == nullptr) {
    const uint32_t base = in.doc_base;
    while (c.NextDoc()) {
      const uint32_t doc = c.doc();
      if (doc >= doc_count) {
        return absl::DataLossError(absl::StrCat("corrupt postings: doc ", doc, " of ", doc_count));
      }
      const uint32_t freq = c.freq();
      pw.AddDoc(base + doc, freq, s.norms.empty() ? s.default_norm : s.norms[doc]);
      ++*added;
      if (positions && !c.CopyPositions(pw)) break;
    }
  } else {
    const uint32_t* map = (*doc_maps_)[s.input].data();
    uint64_t* has_field = s.has_field.data();
    while (c.NextDoc()) {
      const uint32_t doc = c.doc();
      if (doc >= doc_count) {
        return absl::DataLossError(absl::StrCat("corrupt postings: doc ", doc, " of ", doc_count));
      }
      const uint32_t merged = map[doc];
      if (merged == kDeletedDoc) continue;  // its positions are skipped by the cursor
      has_field[doc >> 6] |= uint64_t{1} << (doc & 63);
      const uint32_t freq = c.freq();
      pw.AddDoc(merged, freq, s.norms.empty() ? s.default_norm : s.norms[doc]);
      ++*added;
      if (positions && !c.CopyPositions(pw)) break;
    }
  }
  if (!c.status().ok()) return c.status();
  if (c.doc() != PostingsCursor::kNoMoreDocs) {
    return absl::DataLossError("corrupt postings: fewer positions than the frequency says");
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------- norms

absl::Status Merger::MergeNorms(std::vector<std::string>* files) {
  std::vector<uint32_t> norm_fields;
  for (const FieldInfo& field : fields_) {
    if (field.type.has_norms()) norm_fields.push_back(field.number);
  }
  Held(base_memory_ + int64_t{kNormsFillChunk} + kOutputBufferBytes);
  // Where the next merged doc comes from; fill() is called with
  // consecutive ranges of each field from doc 0.
  size_t input = 0;
  uint32_t local_doc = 0;
  auto fill = [&](uint32_t field, uint32_t first, std::span<uint8_t> out) {
    if (first == 0) {
      input = 0;
      local_doc = 0;
    }
    size_t k = 0;
    while (k < out.size()) {
      while (input < inputs_.size() && local_doc >= inputs_[input].doc_count) {
        ++input;
        local_doc = 0;
      }
      if (input == inputs_.size()) {  // cannot happen: out covers live docs only
        std::fill(out.begin() + static_cast<ptrdiff_t>(k), out.end(), uint8_t{0});
        return;
      }
      const Input& in = inputs_[input];
      const int64_t local = in.from_merged[field];
      const std::span<const uint8_t> src =
          local < 0 ? std::span<const uint8_t>()
                    : in.segment->NormBytes(static_cast<uint32_t>(local));
      const bool has = src.size() == in.doc_count;
      if (in.live == nullptr) {
        const size_t n = std::min<size_t>(out.size() - k, in.doc_count - local_doc);
        if (has) {
          std::memcpy(out.data() + k, src.data() + local_doc, n);
        } else {
          std::memset(out.data() + k, 0, n);
        }
        k += n;
        local_doc += static_cast<uint32_t>(n);
      } else {
        for (; k < out.size() && local_doc < in.doc_count; ++local_doc) {
          if (in.live->IsLive(local_doc)) out[k++] = has ? src[local_doc] : 0;
        }
      }
    }
  };
  absl::StatusOr<std::string> nvd =
      WriteNorms(out_, segment_, id_, merged_docs_, norm_fields, fill);
  if (!nvd.ok()) return nvd.status();
  files->push_back(*nvd);
  return absl::OkStatus();
}

// ---------------------------------------------------------------- stored fields, term vectors

bool Merger::NextChunk(const Input& in, uint32_t* next, std::vector<uint32_t>* chunk) const {
  chunk->clear();
  for (; *next < in.doc_count && chunk->size() < kDocChunk; ++*next) {
    if (in.live == nullptr || in.live->IsLive(*next)) chunk->push_back(*next);
  }
  return !chunk->empty();
}

absl::Status Merger::MergeStored(std::vector<std::string>* files) {
  absl::StatusOr<std::unique_ptr<StoredFieldsWriter>> created =
      StoredFieldsWriter::Create(out_, segment_, id_);
  if (!created.ok()) return created.status();
  StoredFieldsWriter& w = **created;
  for (const std::string& name : w.file_names()) files->push_back(name);
  uint64_t copied = 0;
  std::vector<uint32_t> chunk;
  std::vector<StoredFieldValue> remapped;
  Held(base_memory_ + static_cast<int64_t>(w.buffered_bytes()) + 2 * kOutputBufferBytes);
  absl::Status write_error;
  for (const Input& in : inputs_) {
    if (in.live_count == 0) continue;
    const StoredFieldsReader& r = in.segment->stored_fields();
    if (in.live == nullptr && in.stored_identity && r.codec() == w.codec()) {
      // The blocks as they are: only their first_doc changes.
      for (size_t b = 0; b < r.block_count(); ++b) {
        if (cancelled()) return Cancelled();
        absl::StatusOr<internal::RawDocBlock> raw = r.RawBlock(b);
        if (!raw.ok()) return InputError(in, raw.status());
        if (absl::Status s = w.AddRawBlock(*raw); !s.ok()) return s;
        ++copied;
      }
      continue;
    }
    uint32_t next = 0;
    while (NextChunk(in, &next, &chunk)) {
      if (cancelled()) return Cancelled();
      Held(base_memory_ + static_cast<int64_t>(w.buffered_bytes()) + kInputBlockBytes +
           2 * kOutputBufferBytes);
      absl::Status s;
      if (in.stored_identity) {
        // Numbers agree: the serialized documents go in unparsed (their
        // bytes are covered by the checksum verified in Prepare).
        s = r.ReadSerialized(chunk, [&](size_t, std::span<const uint8_t> doc) {
          write_error = w.AddSerializedDocument(doc);
          return write_error;
        });
      } else {
        s = r.VisitDocuments(chunk, [&](size_t i, std::span<const StoredFieldValue> fields) {
          remapped.assign(fields.begin(), fields.end());
          for (StoredFieldValue& v : remapped) {
            if (v.field_number >= in.to_merged.size()) {
              return absl::DataLossError(absl::StrCat(
                  "stored document ", chunk[i], " has unknown field number ", v.field_number));
            }
            v.field_number = in.to_merged[v.field_number];
          }
          write_error = w.AddDocument(remapped);
          return write_error;
        });
      }
      if (!write_error.ok()) return write_error;
      if (!s.ok()) return InputError(in, s);
    }
  }
  if (absl::Status s = w.Finish(); !s.ok()) return s;
  if (stats_ != nullptr) {
    stats_->stored_blocks_copied += copied;
    stats_->stored_blocks_recompressed += w.block_count() - copied;
  }
  return absl::OkStatus();
}

absl::Status Merger::MergeVectors(std::vector<std::string>* files) {
  absl::StatusOr<std::unique_ptr<TermVectorsWriter>> created =
      TermVectorsWriter::Create(out_, segment_, id_);
  if (!created.ok()) return created.status();
  TermVectorsWriter& w = **created;
  for (const std::string& name : w.file_names()) files->push_back(name);
  uint64_t copied = 0;
  std::vector<uint32_t> chunk;
  absl::Status write_error;
  Held(base_memory_ + static_cast<int64_t>(w.buffered_bytes()) + 2 * kOutputBufferBytes);
  for (const Input& in : inputs_) {
    if (in.live_count == 0) continue;
    const TermVectorsReader& r = in.segment->term_vectors();
    if (in.live == nullptr && in.vectors_identity && r.codec() == w.codec()) {
      for (size_t b = 0; b < r.block_count(); ++b) {
        if (cancelled()) return Cancelled();
        absl::StatusOr<internal::RawDocBlock> raw = r.RawBlock(b);
        if (!raw.ok()) return InputError(in, raw.status());
        if (absl::Status s = w.AddRawBlock(*raw); !s.ok()) return s;
        ++copied;
      }
      continue;
    }
    uint32_t next = 0;
    while (NextChunk(in, &next, &chunk)) {
      if (cancelled()) return Cancelled();
      Held(base_memory_ + static_cast<int64_t>(w.buffered_bytes()) + kInputBlockBytes +
           2 * kOutputBufferBytes);
      if (in.vectors_identity) {
        absl::Status s = r.ReadSerialized(chunk, [&](size_t, std::span<const uint8_t> entry) {
          write_error = w.AddSerializedDocument(entry);
          return write_error;
        });
        if (!write_error.ok()) return write_error;
        if (!s.ok()) return InputError(in, s);
        continue;
      }
      absl::StatusOr<std::vector<std::vector<TermVectorFieldData>>> docs = r.Get(chunk);
      if (!docs.ok()) return InputError(in, docs.status());
      for (std::vector<TermVectorFieldData>& doc : *docs) {
        for (TermVectorFieldData& f : doc) {
          if (f.field_number >= in.to_merged.size()) {
            return Corrupt(in,
                           absl::StrCat("term vectors of unknown field number ", f.field_number));
          }
          f.field_number = in.to_merged[f.field_number];
        }
        std::sort(doc.begin(), doc.end(),
                  [](const TermVectorFieldData& a, const TermVectorFieldData& b) {
                    return a.field_number < b.field_number;
                  });
        if (absl::Status s = w.AddDocument(doc); !s.ok()) {
          // The writer checks what the decoder let through.
          return absl::IsInvalidArgument(s) ? InputError(in, absl::DataLossError(s.message())) : s;
        }
      }
    }
  }
  if (absl::Status s = w.Finish(); !s.ok()) return s;
  if (stats_ != nullptr) {
    stats_->vector_blocks_copied += copied;
    stats_->vector_blocks_recompressed += w.block_count() - copied;
  }
  return absl::OkStatus();
}

absl::Status Merger::Run(std::vector<std::string>* files, MergeResult* result) {
  if (absl::Status s = Prepare(result); !s.ok()) return s;
  result->info.doc_count = merged_docs_;
  if (stats_ != nullptr) stats_->docs = merged_docs_;
  std::string layout;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const std::string& l = inputs_[i].segment->info().term_bytes_layout;
    layout = i == 0 || l == layout ? l : std::string(kMixedTermBytesLayout);
  }
  result->info.term_bytes_layout = layout;

  if (cancelled()) return Cancelled();
  absl::StatusOr<std::string> fnm = WriteFieldInfos(out_, segment_, id_, fields_);
  if (!fnm.ok()) return fnm.status();
  files->push_back(*fnm);
  if (absl::Status s = MergePostings(files); !s.ok()) return s;
  if (cancelled()) return Cancelled();
  if (absl::Status s = MergeNorms(files); !s.ok()) return s;
  if (absl::Status s = MergeStored(files); !s.ok()) return s;
  return MergeVectors(files);
}

absl::StatusOr<MergeResult> MergeSegmentsUnchecked(const std::vector<MergeInput>& inputs,
                                                   Directory* dir, std::string_view segment_name,
                                                   const SegmentId& index_id,
                                                   const MergeOptions& options, MergeStats* stats,
                                                   MergeOutput& out) {
  MergeResult result;
  result.info.name = std::string(segment_name);
  result.info.id = NewSegmentId(index_id);
  result.info.created_by = std::string("invert ") + Version();
  std::vector<std::string> files;
  Merger merger(inputs, &out, segment_name, result.info.id, options, stats);
  absl::Status status = merger.Run(&files, &result);
  if (status.ok()) {
    for (const std::string& f : files) result.info.files.push_back(SegmentFile{f, 0, 0});
    absl::StatusOr<std::string> si = WriteSegmentInfo(&out, &result.info);
    if (si.ok()) {
      files.push_back(*si);
      status = options.cancel != nullptr && options.cancel->load()
                   ? absl::CancelledError("merge cancelled")
                   : dir->Sync(files);
    } else {
      status = si.status();
    }
  }
  if (!status.ok()) return status;
  return result;
}

}  // namespace

absl::StatusOr<MergeResult> MergeSegments(const std::vector<MergeInput>& inputs, Directory* dir,
                                          std::string_view segment_name, const SegmentId& index_id,
                                          const MergeOptions& options, MergeStats* stats) {
  const auto start = Clock::now();
  MergeStats local_stats;
  MergeStats* s = stats != nullptr ? stats : &local_stats;
  MergeOutput out(dir, options.max_write_bytes_per_second, options.cancel);
  absl::StatusOr<MergeResult> result;
  try {
    result = MergeSegmentsUnchecked(inputs, dir, segment_name, index_id, options, s, out);
  } catch (const std::bad_alloc&) {
    result = absl::ResourceExhaustedError(
        absl::StrCat("out of memory merging into segment ", Sv(segment_name)));
  } catch (...) {
    result = absl::InternalError(
        absl::StrCat("unexpected exception merging into segment ", Sv(segment_name)));
  }
  if (!result.ok()) out.DeleteCreated();
  s->bytes_written = out.bytes_written();
  s->throttled_seconds = out.throttled_seconds();
  s->seconds = SecondsSince(start);
  return result;
}

}  // namespace invert

// IndexingChain: validation, inversion and the read-back view.
#include "index/indexing_chain.h"

#include <algorithm>
#include <cinttypes>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "index/in_memory_postings.h"
#include "index/norm_encoding.h"
#include "util/absl_compat.h"
#include "util/radix_sort.h"
#include "util/varint.h"

namespace invert {

struct IndexingChain::PerField {
  explicit PerField(RamCounter* counter) : norms(counter) {}
  uint32_t number = 0;
  FieldType type;
  std::unique_ptr<PostingsWriterPerField> postings;
  std::unique_ptr<TermVectorsWriterPerField> vectors;
  CountedArray<uint8_t> norms;  // by doc; docs past the end have norm 0
};

struct IndexingChain::DocField {
  uint32_t number = 0;
  std::vector<const Field*> values;
  size_t token_begin = 0;  // tokens [token_begin, token_end) of tokens_
  size_t token_end = 0;
  uint64_t length = 0;  // tokens that advance the position
};

IndexingChain::IndexingChain(IndexingChainOptions options, RamCounter* parent)
    : options_(std::move(options)),
      counter_(parent),
      allocator_(&counter_, options_.recycled_blocks),
      stored_bytes_(&counter_),
      stored_starts_(&counter_),
      vector_bytes_(&counter_),
      vector_starts_(&counter_) {
  primary_ = std::make_unique<TermsHash>(&allocator_, options_.layout);
  vectors_ = std::make_unique<TermsHash>(&allocator_, primary_.get());
  keyword_analyzer_ = NewKeywordAnalyzer();
}

IndexingChain::~IndexingChain() {
  // Per-field hashes first, then the pools they point into.
  fields_.clear();
  vectors_.reset();
  primary_.reset();
}

Analyzer* IndexingChain::AnalyzerFor(std::string_view field) {
  auto it = analyzers_.find(Sv(field));
  if (it != analyzers_.end()) return it->second.get();
  std::unique_ptr<Analyzer> analyzer;
  if (auto f = options_.field_analyzers.find(Sv(field)); f != options_.field_analyzers.end()) {
    analyzer = f->second();
  } else if (options_.analyzer) {
    analyzer = options_.analyzer();
  } else {
    analyzer = NewStandardAnalyzer();
  }
  Analyzer* raw = analyzer.get();
  analyzers_.emplace(std::string(field), std::move(analyzer));
  return raw;
}

absl::Status IndexingChain::AddDocument(const Document& doc) {
  if (num_docs_ == UINT32_MAX - 1) {
    return absl::ResourceExhaustedError("segment holds the maximum number of documents");
  }
  if (absl::Status s = Prepare(doc); !s.ok()) {
    field_infos_.Rollback();
    return s;
  }
  Invert();
  return absl::OkStatus();
}

absl::Status IndexingChain::Prepare(const Document& doc) {
  doc_fields_.clear();
  doc_field_index_.clear();
  tokens_.Clear();
  placements_.clear();
  stored_scratch_.clear();
  for (const Field& f : doc.fields) {
    absl::StatusOr<uint32_t> number = field_infos_.Resolve(f.name(), f.type());
    if (!number.ok()) return number.status();
    auto [it, inserted] = doc_field_index_.emplace(*number, doc_fields_.size());
    if (inserted) doc_fields_.push_back(DocField{*number, {}, 0, 0, 0});
    doc_fields_[it->second].values.push_back(&f);
    if (f.type().stored) {
      if (std::optional<std::string_view> value = f.stored_value()) {
        stored_scratch_.push_back({*number, *value});
      }
    }
  }
  for (DocField& df : doc_fields_) {
    const FieldInfo& info = field_infos_.all()[df.number];
    if (!info.type.indexed()) continue;
    if (absl::Status s = AnalyzeField(df, info.type, info.name); !s.ok()) return s;
  }
  // Room in the pools: a generous bound on what this document can add.
  const uint64_t bound =
      uint64_t{tokens_.arena_bytes()} * 3 + uint64_t{tokens_.size()} * 32 + (uint64_t{1} << 20);
  const uint64_t high =
      std::max(primary_->byte_pool().end_address(), primary_->term_byte_pool().end_address());
  if (high + bound > kMaxPoolAddress) {
    return absl::ResourceExhaustedError(
        "the in-memory segment is full (pool addresses near 4 GiB); flush before adding more");
  }
  return absl::OkStatus();
}

absl::Status IndexingChain::AnalyzeField(DocField& df, const FieldType& type,
                                         std::string_view name) {
  const bool check_offsets = HasOffsets(type.index_options) || type.term_vector_offsets;
  int64_t position = -1;
  uint64_t offset_base = 0;
  uint64_t last_start = 0;
  bool any_token = false;
  df.token_begin = tokens_.size();
  for (size_t v = 0; v < df.values.size(); ++v) {
    const Field& f = *df.values[v];
    if (v > 0) position += options_.position_increment_gap;
    const size_t before = tokens_.size();
    uint64_t value_end = 0;
    if (f.kind() == Field::Kind::kText) {
      Analyzer* analyzer = type.tokenized ? AnalyzerFor(name) : keyword_analyzer_.get();
      if (absl::Status s = analyzer->Analyze(f.text(), &tokens_); !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("field \"", Sv(name), "\": ", s.message()));
      }
      value_end = f.text().size();
    } else {
      for (const PreAnalyzedToken& t : f.tokens()) {
        tokens_.Add(t.term, t.position_increment, t.start_offset, t.end_offset, t.payload);
        value_end = std::max<uint64_t>(value_end, t.end_offset);
      }
    }
    for (size_t i = before; i < tokens_.size(); ++i) {
      const AnalyzedToken t = tokens_[i];
      if (t.term.size() > BytesRefHash::kMaxTermLength) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "field \"%s\": immense term of %d bytes (longer than the maximum of %d), starting "
            "with \"%s\"",
            name, t.term.size(), BytesRefHash::kMaxTermLength,
            absl::CEscape(Sv(t.term.substr(0, 30)))));
      }
      if (!any_token && t.position_increment == 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "field \"", Sv(name), "\": the first token's position increment must be > 0"));
      }
      position += t.position_increment;
      if (position > static_cast<int64_t>(kMaxPosition)) {
        return absl::InvalidArgumentError(
            absl::StrCat("field \"", Sv(name), "\": too many positions: position ", position,
                         " exceeds the maximum of ", kMaxPosition));
      }
      if (t.position_increment > 0) ++df.length;
      const uint64_t start = offset_base + t.start_offset;
      const uint64_t end = offset_base + t.end_offset;
      if (check_offsets) {
        if (t.end_offset < t.start_offset) {
          return absl::InvalidArgumentError(absl::StrCat("field \"", Sv(name), "\": end offset ",
                                                         t.end_offset, " is before start offset ",
                                                         t.start_offset));
        }
        if (start < last_start) {
          return absl::InvalidArgumentError(absl::StrCat("field \"", Sv(name),
                                                         "\": offsets go backwards (start offset ",
                                                         start, " after ", last_start, ")"));
        }
        if (end > UINT32_MAX) {
          return absl::InvalidArgumentError(
              absl::StrCat("field \"", Sv(name), "\": offset ", end, " exceeds 2^32 - 1"));
        }
        last_start = start;
      }
      placements_.push_back(
          TokenPlacement{static_cast<uint32_t>(position),
                         static_cast<uint32_t>(std::min<uint64_t>(start, UINT32_MAX)),
                         static_cast<uint32_t>(std::min<uint64_t>(end, UINT32_MAX))});
      any_token = true;
    }
    offset_base += value_end + options_.offset_gap;
  }
  df.token_end = tokens_.size();
  return absl::OkStatus();
}

IndexingChain::PerField& IndexingChain::GetOrCreatePerField(uint32_t number) {
  if (fields_.size() <= number) fields_.resize(number + 1);
  std::unique_ptr<PerField>& slot = fields_[number];
  if (slot == nullptr) {
    const FieldInfo& info = field_infos_[number];
    slot = std::make_unique<PerField>(&counter_);
    slot->number = number;
    slot->type = info.type;
    if (info.type.indexed()) {
      slot->postings = std::make_unique<PostingsWriterPerField>(
          primary_.get(), info.type.index_options, info.type.payloads, &counter_);
    }
    if (info.type.term_vectors) {
      slot->vectors =
          std::make_unique<TermVectorsWriterPerField>(vectors_.get(), info.type, &counter_);
    }
  }
  return *slot;
}

void IndexingChain::Invert() {
  field_infos_.Commit();
  const uint32_t doc = num_docs_;
  size_t vector_fields = 0;
  for (const DocField& df : doc_fields_) {
    PerField& pf = GetOrCreatePerField(df.number);
    if (!pf.type.indexed()) continue;
    const size_t n = df.token_end - df.token_begin;
    inverted_.resize(n);
    term_ids_.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const AnalyzedToken t = tokens_[df.token_begin + i];
      const TokenPlacement& p = placements_[df.token_begin + i];
      inverted_[i] = InvertedToken{t.term, p.position, p.start_offset, p.end_offset, t.payload};
    }
    pf.postings->AddTokens(doc, inverted_, term_ids_);
    if (pf.vectors != nullptr && n > 0) {
      const auto& terms = pf.postings->terms();
      for (size_t i = 0; i < n; ++i) {
        const InvertedToken& t = inverted_[i];
        pf.vectors->Add(terms.term_entry_address(term_ids_[i]), t.position, t.start_offset,
                        t.end_offset, t.payload);
      }
      ++vector_fields;
    }
    if (pf.type.has_norms()) {
      pf.norms.Resize(doc + 1);
      pf.norms[doc] = EncodeNorm(df.length);
    }
  }

  vector_starts_.PushBack(vector_bytes_.size());
  if (vector_fields > 0) {
    AppendVInt(&vector_bytes_, vector_fields);
    for (const std::unique_ptr<PerField>& pf : fields_) {  // in field-number order
      if (pf != nullptr && pf->vectors != nullptr)
        pf->vectors->FinishDocument(pf->number, &vector_bytes_);
    }
    vectors_->Reset(/*keep_first=*/true);
  }

  stored_starts_.PushBack(stored_bytes_.size());
  AppendVInt(&stored_bytes_, stored_scratch_.size());
  for (const StoredValue& v : stored_scratch_) {
    AppendVInt(&stored_bytes_, v.field_number);
    AppendVInt(&stored_bytes_, v.value.size());
    stored_bytes_.Append(reinterpret_cast<const uint8_t*>(v.value.data()), v.value.size());
  }
  ++num_docs_;
}

uint32_t IndexingChain::unique_terms(std::string_view field) const {
  const int64_t number = field_infos_.Find(field);
  if (number < 0 || static_cast<size_t>(number) >= field_infos_.size()) return 0;
  const PostingsWriterPerField* p = postings(static_cast<uint32_t>(number));
  return p == nullptr ? 0 : p->terms().size();
}

const PostingsWriterPerField* IndexingChain::postings(uint32_t number) const {
  if (number >= fields_.size() || fields_[number] == nullptr) return nullptr;
  return fields_[number]->postings.get();
}

std::vector<uint32_t> IndexingChain::SortedTermIds(uint32_t number) const {
  const PostingsWriterPerField* p = postings(number);
  if (p == nullptr) return {};
  const auto& terms = p->terms();
  std::vector<uint32_t> ids(terms.size());
  for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
  std::vector<uint16_t> cache(ids.size());
  MsbRadixSort(ids.data(), ids.size(), cache.data(),
               [&terms](uint32_t id) { return terms.term(id); });
  return ids;
}

std::vector<uint32_t> IndexingChain::SortTermIdsForFlush(uint32_t number) {
  if (number >= fields_.size() || fields_[number] == nullptr ||
      fields_[number]->postings == nullptr) {
    return {};
  }
  return fields_[number]->postings->terms().SortTerms();
}

uint8_t IndexingChain::norm(uint32_t number, uint32_t doc) const {
  if (number >= fields_.size() || fields_[number] == nullptr) return 0;
  const CountedArray<uint8_t>& norms = fields_[number]->norms;
  return doc < norms.size() ? norms[doc] : 0;
}

namespace {

// Reads VInts from a byte range this process wrote; a short read is a bug.
class Cursor {
 public:
  Cursor(const uint8_t* p, const uint8_t* end) : p_(p), end_(end) {}
  uint64_t VInt() {
    uint64_t v = 0;
    if (!DecodeVInt64(&p_, end_, &v)) std::abort();
    return v;
  }
  std::string_view Bytes(size_t n) {
    if (static_cast<size_t>(end_ - p_) < n) std::abort();
    std::string_view s(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return s;
  }
  uint32_t Fixed32() {
    const std::string_view b = Bytes(4);
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<uint8_t>(b[i]);
    return v;
  }
  bool done() const { return p_ == end_; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

std::pair<uint64_t, uint64_t> DocRange(const CountedArray<uint64_t>& starts, uint64_t total,
                                       uint32_t doc) {
  const uint64_t begin = starts[doc];
  const uint64_t end = doc + 1 < starts.size() ? starts[doc + 1] : total;
  return {begin, end};
}

}  // namespace

std::vector<StoredValue> IndexingChain::StoredFields(uint32_t doc) const {
  std::vector<StoredValue> out;
  if (doc >= num_docs_) return out;
  const auto [begin, end] = DocRange(stored_starts_, stored_bytes_.size(), doc);
  Cursor c(stored_bytes_.data() + begin, stored_bytes_.data() + end);
  const uint64_t count = c.VInt();
  for (uint64_t i = 0; i < count; ++i) {
    const uint32_t number = static_cast<uint32_t>(c.VInt());
    const uint64_t length = c.VInt();
    out.push_back({number, c.Bytes(length)});
  }
  return out;
}

std::string_view IndexingChain::RawTermVectors(uint32_t doc) const {
  if (doc >= num_docs_) return {};
  const auto [begin, end] = DocRange(vector_starts_, vector_bytes_.size(), doc);
  return {reinterpret_cast<const char*>(vector_bytes_.data() + begin), end - begin};
}

std::vector<TermVectorField> IndexingChain::TermVectors(uint32_t doc) const {
  std::vector<TermVectorField> out;
  const std::string_view raw = RawTermVectors(doc);
  if (raw.empty()) return out;
  const uint8_t* base = reinterpret_cast<const uint8_t*>(raw.data());
  Cursor c(base, base + raw.size());
  const uint64_t field_count = c.VInt();
  for (uint64_t f = 0; f < field_count; ++f) {
    TermVectorField field;
    field.field_number = static_cast<uint32_t>(c.VInt());
    const FieldType& type = field_infos_[field.field_number].type;
    const uint64_t term_count = c.VInt();
    for (uint64_t t = 0; t < term_count; ++t) {
      TermVectorTerm term;
      term.term = BytesRefHash::TermAt(term_pool(), static_cast<uint32_t>(c.VInt()));
      term.freq = static_cast<uint32_t>(c.VInt());
      if (type.term_vector_positions) {
        const std::string_view stream = c.Bytes(c.Fixed32());
        Cursor s(reinterpret_cast<const uint8_t*>(stream.data()),
                 reinterpret_cast<const uint8_t*>(stream.data()) + stream.size());
        uint32_t position = 0;
        for (uint32_t i = 0; i < term.freq; ++i) {
          const uint64_t code = s.VInt();
          position += static_cast<uint32_t>(code >> 1);
          term.positions.push_back(position);
          if (type.term_vector_payloads) {
            term.payloads.emplace_back(code & 1 ? s.Bytes(s.VInt()) : std::string_view());
          }
        }
      }
      if (type.term_vector_offsets) {
        const std::string_view stream = c.Bytes(c.Fixed32());
        Cursor s(reinterpret_cast<const uint8_t*>(stream.data()),
                 reinterpret_cast<const uint8_t*>(stream.data()) + stream.size());
        uint32_t start = 0;
        for (uint32_t i = 0; i < term.freq; ++i) {
          start += static_cast<uint32_t>(s.VInt());
          term.start_offsets.push_back(start);
          term.end_offsets.push_back(start + static_cast<uint32_t>(s.VInt()));
        }
      }
      field.terms.push_back(std::move(term));
    }
    out.push_back(std::move(field));
  }
  return out;
}

std::string IndexingChain::DebugDump() const {
  std::string out = absl::StrCat("docs ", num_docs_, "\n");
  for (uint32_t number = 0; number < field_infos_.size(); ++number) {
    const FieldInfo& info = field_infos_[number];
    const FieldType& t = info.type;
    absl::StrAppend(&out, "field ", number, " ", info.name,
                    " idx=", static_cast<int>(t.index_options), " tok=", t.tokenized,
                    " st=", t.stored, " norms=", t.norms, " pay=", t.payloads,
                    " tv=", t.term_vectors, t.term_vector_positions, t.term_vector_offsets,
                    t.term_vector_payloads, "\n");
    const PostingsWriterPerField* p = postings(number);
    if (p != nullptr) {
      for (uint32_t id : SortedTermIds(number)) {
        absl::StrAppend(&out, "  term \"", absl::CEscape(Sv(p->terms().term(id))), "\"\n");
        InMemoryPostingsIterator it(*p, id);
        while (it.NextDoc()) {
          absl::StrAppend(&out, "    doc ", it.doc(), " freq ", it.freq());
          if (HasPositions(p->options())) {
            for (uint32_t i = 0; i < it.freq(); ++i) {
              it.NextPosition();
              absl::StrAppend(&out, " ", it.position());
              if (HasOffsets(p->options())) {
                absl::StrAppend(&out, "[", it.start_offset(), ",", it.end_offset(), ")");
              }
              if (!it.payload().empty())
                absl::StrAppend(&out, "<", absl::CEscape(Sv(it.payload())), ">");
            }
          }
          out += "\n";
        }
      }
    }
    if (t.has_norms()) {
      absl::StrAppend(&out, "  norms");
      for (uint32_t doc = 0; doc < num_docs_; ++doc) absl::StrAppend(&out, " ", norm(number, doc));
      out += "\n";
    }
  }
  for (uint32_t doc = 0; doc < num_docs_; ++doc) {
    absl::StrAppend(&out, "doc ", doc, "\n");
    for (const StoredValue& v : StoredFields(doc)) {
      absl::StrAppend(&out, "  stored ", v.field_number, " \"", absl::CEscape(Sv(v.value)), "\"\n");
    }
    for (const TermVectorField& f : TermVectors(doc)) {
      absl::StrAppend(&out, "  vector ", f.field_number, "\n");
      for (const TermVectorTerm& term : f.terms) {
        absl::StrAppend(&out, "    \"", absl::CEscape(Sv(term.term)), "\" ", term.freq);
        for (size_t i = 0; i < term.positions.size(); ++i)
          absl::StrAppend(&out, " p", term.positions[i]);
        for (size_t i = 0; i < term.start_offsets.size(); ++i) {
          absl::StrAppend(&out, " o", term.start_offsets[i], "-", term.end_offsets[i]);
        }
        for (const std::string& payload : term.payloads) {
          absl::StrAppend(&out, " <", absl::CEscape(payload), ">");
        }
        out += "\n";
      }
    }
  }
  return out;
}

}  // namespace invert

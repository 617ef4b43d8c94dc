// IndexingChain: validation, inversion and the read-back view.
#include "index/indexing_chain.h"

#include <algorithm>
#include <cassert>
#include <cinttypes>
#include <exception>
#include <iterator>
#include <new>
#include <span>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "codec/norm_encoding.h"
#include "index/in_memory_postings.h"
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

// One field of the document in hand. Positions and shifted offsets are not
// stored per token: Invert() recomputes them from the increments and each
// value's offset base, exactly as AnalyzeField() validated them. The field's
// tokens are numbered 0 .. token_count - 1 across its values; a text value's
// tokens are in tokens_, a pre-analyzed value's are read in place from the
// caller's Field (the Document outlives AddDocument()).
struct IndexingChain::DocField {
  struct Value {
    const Field* field = nullptr;
    size_t buffer_begin = 0;   // text: where its tokens start in tokens_
    size_t token_end = 0;      // the field's tokens up to the end of this value
    uint64_t offset_base = 0;  // added to its tokens' offsets
    bool pre_analyzed() const { return field->kind() == Field::Kind::kTokens; }
  };
  uint32_t number = 0;
  std::vector<Value> values;
  size_t token_count = 0;
  uint64_t length = 0;  // tokens that advance the position
  // For EstimateGrowth, gathered while validating.
  uint64_t term_bytes = 0;
  uint64_t payload_bytes = 0;
  uint64_t max_payload = 0;
  uint64_t max_position = 0;
  uint64_t max_offset = 0;  // largest shifted end offset
};

// What a document adds to the segment (EstimateGrowth).
struct IndexingChain::Growth {
  int64_t pools = 0;           // bytes into pool blocks, with a block of slack per pool
  int64_t arrays = 0;          // the document's amortized share of the counted arrays
  int64_t jumps = 0;           // reallocation growth of the arrays from their capacity now
  bool exact = false;          // term counts exact (else bounded by token counts)
  uint32_t largest_field = 0;  // the field with the most tokens, and its count
  size_t largest_tokens = 0;
};

namespace {

// Capacity growth, in elements, of a CountedArray of `capacity` elements
// that must hold `n`: an upper bound for both growth rules (EmplaceBack's and
// Append/Resize's max(n, capacity * 3 / 2)).
uint64_t ArrayGrowth(uint64_t capacity, uint64_t n) {
  uint64_t c = capacity;
  while (c < n) c = c < 16 ? 16 : c + c / 2;
  return c - capacity;
}

// Bytes a BytesRefHash with `size` terms, a table of `table` slots and
// `records` record capacity grows by to take `added` more terms.
template <typename Hash>
int64_t HashGrowth(uint64_t size, uint64_t table, uint64_t records, uint64_t added) {
  const uint64_t n = size + added;
  uint64_t slots = table;
  while (n > slots / 2) slots *= 2;
  return static_cast<int64_t>((slots - table) * sizeof(uint64_t) +
                              ArrayGrowth(records, n) * sizeof(typename Hash::Record));
}

template <typename Hash>
int64_t HashGrowth(const Hash& hash, uint64_t added) {
  const uint64_t records = (hash.bytes_used() - uint64_t{hash.capacity()} * sizeof(uint64_t)) /
                           sizeof(typename Hash::Record);
  return HashGrowth<Hash>(hash.size(), hash.capacity(), records, added);
}

// 1234567 -> "1,234,567".
std::string WithCommas(uint64_t n) {
  std::string digits = absl::StrCat(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

constexpr double kMiB = 1024.0 * 1024.0;

}  // namespace

IndexingChain::IndexingChain(IndexingChainOptions options, RamCounter* parent)
    : options_(std::move(options)),
      counter_(parent),
      allocator_(&counter_, options_.recycled_blocks, options_.block_cache),
      analyze_oom_(absl::ResourceExhaustedError(
          "out of memory while analyzing the document; nothing was added")),
      broken_status_(absl::AbortedError(
          "out of memory while inverting a document: this in-memory segment is unusable and its "
          "documents are lost")),
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
  counter_.Add(-counted_scratch_);  // the parent counter outlives the chain
}

Analyzer* IndexingChain::AnalyzerFor(std::string_view field) {
  auto it = analyzers_.find(field);
  if (it != analyzers_.end()) return it->second.get();
  std::unique_ptr<Analyzer> analyzer;
  if (auto f = options_.field_analyzers.find(field); f != options_.field_analyzers.end()) {
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

absl::Status IndexingChain::AddDocument(const Document& doc, int64_t ram_headroom) {
  if (broken_) return broken_status_;
  if (num_docs_ == UINT32_MAX - 1) {
    return absl::ResourceExhaustedError("segment holds the maximum number of documents");
  }
  // Phase 1: nothing in the segment changes, so any exception is undone by
  // forgetting the pending fields and the scratch.
  absl::Status status;
  bool threw = true;
  try {
    status = Prepare(doc, ram_headroom, counted_scratch_);
    threw = false;
  } catch (const std::bad_alloc&) {
    status = analyze_oom_;
  } catch (const std::exception& e) {
    try {
      status = absl::ResourceExhaustedError(absl::StrCat("exception while analyzing the document (",
                                                         e.what(), "); nothing was added"));
    } catch (...) {
      status = analyze_oom_;
    }
  } catch (...) {
    status = analyze_oom_;
  }
  if (!status.ok()) {
    field_infos_.Rollback();
    if (threw) ReleaseScratch();  // after running out of memory, give it all back
    FinishScratch();
    return status;
  }
  SyncScratch();  // the scratch peaks here: tokens analyzed, chunk not yet used
  // Phase 2: an exception here leaves the segment half-inverted.
  try {
    Invert();
  } catch (...) {
    broken_ = true;
    ReleaseScratch();
    FinishScratch();
    return broken_status_;
  }
  FinishScratch();
  return absl::OkStatus();
}

absl::Status IndexingChain::Prepare(const Document& doc, int64_t ram_headroom,
                                    int64_t scratch_at_start) {
  for (const DocField& df : doc_fields_) doc_field_index_[df.number] = -1;  // the last doc's
  doc_fields_.clear();
  tokens_.Clear();
  stored_scratch_.clear();
  for (const Field& f : doc.fields) {
    absl::StatusOr<uint32_t> number = field_infos_.Resolve(f.name(), f.type());
    if (!number.ok()) return number.status();
    if (doc_field_index_.size() <= *number) doc_field_index_.resize(*number + 1, -1);
    if (doc_field_index_[*number] < 0) {
      doc_fields_.emplace_back();
      doc_fields_.back().number = *number;
      doc_field_index_[*number] = static_cast<int32_t>(doc_fields_.size() - 1);
    }
    doc_fields_[doc_field_index_[*number]].values.push_back(DocField::Value{&f, 0, 0, 0});
    if (f.type().stored) {
      if (std::optional<std::string_view> value = f.stored_value()) {
        stored_scratch_.push_back({*number, *value});
      }
    }
  }
  // While analyzing, the tokens (pre-analyzed ones charged as if held, see
  // ChargePreAnalyzed) may take what the limit leaves after the rest of the
  // scratch.
  const int64_t limit = options_.max_document_bytes;
  pre_analyzed_charge_ = 0;
  if (limit > 0) {
    const int64_t others = ScratchBytesNow() - static_cast<int64_t>(tokens_.bytes_used());
    tokens_limit_ = static_cast<size_t>(std::max<int64_t>(0, limit - others));
  } else {
    tokens_limit_ = SIZE_MAX;
  }
  tokens_.set_byte_limit(tokens_limit_);
  for (DocField& df : doc_fields_) {
    const FieldInfo& info = field_infos_.all()[df.number];
    if (!info.type.indexed()) continue;
    if (absl::Status s = AnalyzeField(df, info.type, info.name); !s.ok()) return s;
  }

  // What the document adds: first bounded by its token counts (O(fields)),
  // counted exactly (one probe per token) only if that bound is too much.
  Growth growth = EstimateGrowth(/*exact_terms=*/false);
  int64_t scratch = ScratchBytesNow();
  const auto refine = [&] {
    if (growth.exact) return;
    growth = EstimateGrowth(/*exact_terms=*/true);
    // The count's hashes are part of what the document needs at its peak,
    // but not kept for inversion.
    scratch = ScratchBytesNow();
    peak_scratch_ = std::max(peak_scratch_, scratch);
    std::vector<std::pair<uint64_t, size_t>>().swap(term_hashes_);
  };
  // Pre-analyzed tokens count as scratch here, as they would if copied.
  const int64_t charge = static_cast<int64_t>(pre_analyzed_charge_);
  if (limit > 0 && scratch + charge + growth.pools + growth.arrays > limit) {
    refine();
    const int64_t needed = scratch + charge + growth.pools + growth.arrays;
    if (needed > limit) {
      return DocumentTooLarge(needed, field_infos_.all()[growth.largest_field].name,
                              growth.largest_tokens, /*so_far=*/false);
    }
  }
  const uint64_t high =
      std::max(primary_->byte_pool().end_address(), primary_->term_byte_pool().end_address());
  if (high + static_cast<uint64_t>(growth.pools) > kMaxPoolAddress) refine();
  if (high + static_cast<uint64_t>(growth.pools) > kMaxPoolAddress) {
    return absl::ResourceExhaustedError(
        "the in-memory segment is full (pool addresses near 4 GiB); flush before adding more");
  }
  if (num_docs_ > 0) {
    const auto needed = [&] { return scratch - scratch_at_start + growth.pools + growth.jumps; };
    if (needed() > ram_headroom) refine();
    if (needed() > ram_headroom) {
      return absl::ResourceExhaustedError(
          "in-memory segment full: flush, then add the document again");
    }
  }
  // Last, once nothing else can fail: fix the types of this chain's new
  // fields index-wide (all or none).
  if (options_.schema != nullptr && field_infos_.all().size() > field_infos_.size()) {
    new_fields_.clear();
    for (size_t i = field_infos_.size(); i < field_infos_.all().size(); ++i) {
      const FieldInfo& f = field_infos_.all()[i];
      new_fields_.push_back(IndexSchema::NewField{f.name, &f.type});
    }
    if (absl::Status s = options_.schema->Register(new_fields_); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status IndexingChain::DocumentTooLarge(int64_t needed, std::string_view field, size_t tokens,
                                             bool so_far) const {
  const double limit_mb = static_cast<double>(options_.max_document_bytes) / kMiB;
  const std::string estimate =
      so_far ? "" : absl::StrFormat("an estimated %.1f MB; ", static_cast<double>(needed) / kMiB);
  const std::string note =
      options_.max_document_bytes_note.empty() ? "" : " " + options_.max_document_bytes_note;
  return absl::InvalidArgumentError(absl::StrFormat(
      "document needs more than %.1f MB to index (%sfield \"%s\": %s tokens%s); the limit is "
      "max_document_mb = %g%s: raise --ram-mb / max_document_mb or split the document",
      limit_mb, estimate, absl::CEscape(Sv(field)), WithCommas(tokens), so_far ? " so far" : "",
      limit_mb, note));
}

absl::Status IndexingChain::AnalyzeField(DocField& df, const FieldType& type,
                                         std::string_view name) {
  const bool check_offsets = HasOffsets(type.index_options) || type.term_vector_offsets;
  int64_t position = -1;
  uint64_t offset_base = 0;
  uint64_t last_start = 0;
  bool any_token = false;
  // Checks tokens token_at(0) .. token_at(count - 1) of one value (an
  // AnalyzedToken from tokens_, or the caller's PreAnalyzedToken), adds what
  // EstimateGrowth needs to `df` and sets value_max_end to their largest end
  // offset; returns the first failed check's error.
  uint64_t value_max_end = 0;
  const auto validate = [&](size_t count, auto&& token_at) -> absl::Status {
    // The sums in locals: stores through `df` could alias the tokens' sizes.
    uint64_t term_bytes = 0, payload_bytes = 0, max_payload = 0, max_end = 0, length = 0;
    int64_t pos = position;
    uint64_t last = last_start;
    size_t i = 0;
    // The checks in one test per token; the error, if any, is named below.
    if (any_token || count == 0 || token_at(0).position_increment != 0) {
      for (; i < count; ++i) {
        const auto& t = token_at(i);
        pos += t.position_increment;
        bool bad = t.term.size() > BytesRefHash::kMaxTermLength ||
                   pos > static_cast<int64_t>(kMaxPosition);
        const uint64_t start = offset_base + t.start_offset;
        if (check_offsets) {
          bad = bad || t.end_offset < t.start_offset || start < last ||
                offset_base + t.end_offset > UINT32_MAX;
        }
        if (bad) break;
        last = check_offsets ? start : last;
        length += t.position_increment != 0;
        term_bytes += t.term.size();
        payload_bytes += t.payload.size();
        max_payload = std::max<uint64_t>(max_payload, t.payload.size());
        max_end = std::max<uint64_t>(max_end, t.end_offset);
      }
    }
    df.length += length;
    df.term_bytes += term_bytes;
    df.payload_bytes += payload_bytes;
    df.max_payload = std::max(df.max_payload, max_payload);
    if (i > 0) df.max_offset = std::max(df.max_offset, offset_base + max_end);
    value_max_end = max_end;
    any_token = any_token || i > 0;
    last_start = last;
    if (i == count) {
      position = pos;
      return absl::OkStatus();
    }
    // Token i failed a check (pos includes its increment; if the loop never
    // ran, that increment is 0): name the first that fails, in this order.
    const auto& t = token_at(i);
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
    if (pos > static_cast<int64_t>(kMaxPosition)) {
      return absl::InvalidArgumentError(absl::StrCat("field \"", Sv(name),
                                                     "\": too many positions: position ", pos,
                                                     " exceeds the maximum of ", kMaxPosition));
    }
    const uint64_t start = offset_base + t.start_offset;
    const uint64_t end = offset_base + t.end_offset;
    if (t.end_offset < t.start_offset) {
      return absl::InvalidArgumentError(absl::StrCat("field \"", Sv(name), "\": end offset ",
                                                     t.end_offset, " is before start offset ",
                                                     t.start_offset));
    }
    if (start < last) {
      return absl::InvalidArgumentError(absl::StrCat("field \"", Sv(name),
                                                     "\": offsets go backwards (start offset ",
                                                     start, " after ", last, ")"));
    }
    return absl::InvalidArgumentError(
        absl::StrCat("field \"", Sv(name), "\": offset ", end, " exceeds 2^32 - 1"));
  };
  for (size_t v = 0; v < df.values.size(); ++v) {
    DocField::Value& value = df.values[v];
    const Field& f = *value.field;
    if (v > 0) position += options_.position_increment_gap;
    uint64_t value_end = 0;
    if (f.kind() == Field::Kind::kText) {
      const size_t before = tokens_.size();
      Analyzer* analyzer = type.tokenized ? AnalyzerFor(name) : keyword_analyzer_.get();
      if (absl::Status s = analyzer->Analyze(f.text(), &tokens_); !s.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("field \"", Sv(name), "\": ", s.message()));
      }
      if (tokens_.over_limit()) {
        return DocumentTooLarge(0, name, df.token_count + (tokens_.size() - before),
                                /*so_far=*/true);
      }
      const size_t count = tokens_.size() - before;
      // Room the buffer held from before is not capped by its limit: with
      // pre-analyzed tokens charged, check the tokens themselves.
      if (pre_analyzed_charge_ > 0 && TokenBytesWithCharge() > tokens_limit_) {
        return DocumentTooLarge(0, name, df.token_count + count, /*so_far=*/true);
      }
      if (absl::Status s = validate(count, [&](size_t i) { return tokens_[before + i]; });
          !s.ok()) {
        return s;
      }
      value.buffer_begin = before;
      df.token_count += count;
      value_end = f.text().size();
    } else {
      // Read in place, never copied; charged to the limit as if in tokens_.
      const std::span<const PreAnalyzedToken> tokens = f.tokens();
      const uint64_t bytes_before = df.term_bytes + df.payload_bytes;
      if (absl::Status s = validate(tokens.size(),
                                    [&](size_t i) -> const PreAnalyzedToken& { return tokens[i]; });
          !s.ok()) {
        return s;
      }
      df.token_count += tokens.size();
      value_end = value_max_end;
      if (absl::Status s = ChargePreAnalyzed(
              tokens.size(), df.term_bytes + df.payload_bytes - bytes_before, name, df);
          !s.ok()) {
        return s;
      }
    }
    value.token_end = df.token_count;
    value.offset_base = offset_base;
    offset_base += value_end + options_.offset_gap;
  }
  df.max_position = position < 0 ? 0 : static_cast<uint64_t>(position);
  return absl::OkStatus();
}

absl::Status IndexingChain::ChargePreAnalyzed(size_t tokens, uint64_t bytes, std::string_view name,
                                              const DocField& df) {
  if (tokens_limit_ == SIZE_MAX) return absl::OkStatus();
  const uint64_t charge = uint64_t{tokens} * LimitedTokenBuffer::kBytesPerToken + bytes;
  pre_analyzed_charge_ += charge;
  const uint64_t held = TokenBytesWithCharge();
  if (held > tokens_limit_) {
    const int64_t others = ScratchBytesNow() - static_cast<int64_t>(tokens_.bytes_used());
    return DocumentTooLarge(static_cast<int64_t>(held) + others, name, df.token_count,
                            /*so_far=*/false);
  }
  // Analyzed values after this one get what is left.
  tokens_.set_byte_limit(static_cast<size_t>(tokens_limit_ - pre_analyzed_charge_));
  return absl::OkStatus();
}

uint64_t IndexingChain::TokenBytesWithCharge() const {
  return tokens_.arena_bytes() + uint64_t{tokens_.size()} * LimitedTokenBuffer::kBytesPerToken +
         pre_analyzed_charge_;
}

// Counts the distinct terms of `df` and those new to `pf` (null: all new),
// by sorting (hash, token) pairs: vectors only, so that running out of
// memory here leaves nothing corrupt. A 64-bit collision of two distinct
// terms would count them once (an estimate may miss it). Out of line and
// cold: it runs only for documents near a limit, and keeps the hot inversion
// code of this file inlined.
void IndexingChain::CountTerms(const DocField& df, const PerField* pf, uint64_t* distinct,
                               uint64_t* new_terms, uint64_t* new_term_bytes) {
  *distinct = *new_terms = *new_term_bytes = 0;
  term_hashes_.clear();
  term_hashes_.reserve(df.token_count);
  for (size_t i = 0; i < df.token_count; ++i) {
    term_hashes_.emplace_back(BytesRefHash::HashBytes(TermOf(df, i)), i);
  }
  std::sort(term_hashes_.begin(), term_hashes_.end());
  for (size_t k = 0; k < term_hashes_.size(); ++k) {
    if (k > 0 && term_hashes_[k].first == term_hashes_[k - 1].first) continue;
    const std::string_view term = TermOf(df, term_hashes_[k].second);
    ++*distinct;
    if (pf == nullptr || pf->postings->terms().Find(term) < 0) {
      ++*new_terms;
      *new_term_bytes += term.size();
    }
  }
}

std::string_view IndexingChain::TermOf(const DocField& df, size_t i) const {
  const auto value =
      std::upper_bound(df.values.begin(), df.values.end(), i,
                       [](size_t i, const DocField::Value& v) { return i < v.token_end; });
  assert(value != df.values.end());
  const size_t first = value == df.values.begin() ? 0 : std::prev(value)->token_end;
  if (value->pre_analyzed()) return value->field->tokens()[i - first].term;
  return tokens_[value->buffer_begin + (i - first)].term;
}

// The bound, per indexed field of the document, with T its tokens, D its
// terms new to the segment and Dd its distinct terms (both T unless
// `exact_terms`), and VInt sizes taken at the field's largest position,
// offset and payload length:
//   primary pools  D * (2 + 5s + 4s) + bytes of the new terms     entries,
//                                        first slices, stream ends (s streams)
//                  + 1.5 * (T * occurrence + payload bytes + Dd * doc code)
//                                        stream bytes, +50% for slice links
//   vector pools   Dd * (5v + 4v) + 1.5 * T * vector occurrence (v streams),
//                  reset after the document but held while it is inverted
//   arrays         D * (1.5 records + 4 table slots), amortized; the vector
//                  entry (Dd * 18 + stream bytes) and its hash; norms (1 byte);
//                  stored values (+ 10 bytes each); 16 bytes of doc starts
//   jumps          instead of the amortized arrays: the exact reallocations
//                  of every array touched, from its current capacity
//   slack          one 32 KiB block per pool that may grow.
// Slice links cost +40% on a term's second slice and less after; the block
// tail left when a large term entry does not fit is not included (it only
// matters for terms longer than a few KiB). So this bounds what ordinary text
// adds, not every adversarial input. Measured: a 1,000,000-token document of
// a 50,000-word vocabulary adds 7.5 MB; the counted-terms bound is 9.2 MB,
// the token-count bound ~15x more (hence the count when it matters).
IndexingChain::Growth IndexingChain::EstimateGrowth(bool exact_terms) {
  using PostingsHash = TermsHashPerField<PostingState>::Hash;
  using VectorsHash = TermsHashPerField<TermVectorState>::Hash;
  constexpr int64_t kBlock = static_cast<int64_t>(BlockAllocator::kBlockSize);
  Growth g;
  g.exact = exact_terms;
  bool any_indexed = false;
  bool any_vectors = false;
  int64_t vector_entry_bytes = 0;
  for (const DocField& df : doc_fields_) {
    const FieldType& type = field_infos_.all()[df.number].type;
    const uint64_t t = df.token_count;
    if (!type.indexed()) continue;
    any_indexed = true;
    if (t > g.largest_tokens || g.largest_tokens == 0) {
      g.largest_field = df.number;
      g.largest_tokens = t;
    }
    const PerField* pf = df.number < fields_.size() && fields_[df.number] != nullptr
                             ? fields_[df.number].get()
                             : nullptr;
    uint64_t new_terms = t;
    uint64_t new_term_bytes = df.term_bytes;
    uint64_t distinct = t;
    if (exact_terms && t > 0) CountTerms(df, pf, &distinct, &new_terms, &new_term_bytes);
    const uint64_t position_bytes = VIntSize(df.max_position << 1 | 1);
    const uint64_t payload_bytes = VIntSize(df.max_payload);
    const uint64_t offset_bytes = 2 * VIntSize(df.max_offset);
    // Primary.
    const bool positions = HasPositions(type.index_options);
    const uint64_t streams = positions ? 2 : 1;
    const bool payloads = positions && type.payloads;
    uint64_t occurrence = 0;
    if (positions) occurrence += position_bytes + (payloads ? payload_bytes : 0);
    if (HasOffsets(type.index_options)) occurrence += offset_bytes;
    const uint64_t doc_code = HasFreqs(type.index_options)
                                  ? VIntSize(uint64_t{num_docs_} << 1) + VIntSize(t)
                                  : VIntSize(num_docs_);
    const uint64_t stream_bytes =
        t * occurrence + (payloads ? df.payload_bytes : 0) + distinct * doc_code;
    g.pools += static_cast<int64_t>(new_terms * (2 + kFirstSliceSize * streams + 4 * streams) +
                                    new_term_bytes + stream_bytes * 3 / 2);
    g.arrays += static_cast<int64_t>(new_terms * (sizeof(PostingsHash::Record) * 3 / 2 + 32));
    if (pf != nullptr) {
      g.jumps += HashGrowth(pf->postings->terms().hash(), new_terms);
    } else {
      g.jumps += 16 * sizeof(uint64_t) + HashGrowth<PostingsHash>(0, 16, 0, new_terms);
    }
    // Term vectors.
    if (type.term_vectors && t > 0) {
      any_vectors = true;
      const uint64_t vstreams = type.term_vector_positions && type.term_vector_offsets ? 2 : 1;
      uint64_t voccurrence = 0;
      if (type.term_vector_positions) {
        voccurrence += position_bytes + (type.term_vector_payloads ? payload_bytes : 0);
      }
      if (type.term_vector_offsets) voccurrence += offset_bytes;
      const uint64_t vbytes = t * voccurrence + (type.term_vector_payloads ? df.payload_bytes : 0);
      g.pools += static_cast<int64_t>(distinct * (kFirstSliceSize + 4) * vstreams + vbytes * 3 / 2);
      const int64_t entry = static_cast<int64_t>(distinct * (10 + 4 * vstreams) + vbytes + 10);
      vector_entry_bytes += entry;
      g.arrays +=
          entry + static_cast<int64_t>(distinct * (sizeof(VectorsHash::Record) * 3 / 2 + 32));
      if (pf != nullptr && pf->vectors != nullptr) {
        g.jumps += HashGrowth(pf->vectors->terms().hash(), distinct);
      } else {
        g.jumps += 16 * sizeof(uint64_t) + HashGrowth<VectorsHash>(0, 16, 0, distinct);
      }
    }
    // Norms.
    if (type.has_norms()) {
      g.arrays += 1;
      g.jumps +=
          pf != nullptr
              ? static_cast<int64_t>(ArrayGrowth(pf->norms.capacity(), uint64_t{num_docs_} + 1))
              : static_cast<int64_t>(ArrayGrowth(0, uint64_t{num_docs_} + 1));
    }
  }
  int64_t stored = 10;
  for (const BufferedStoredValue& v : stored_scratch_)
    stored += static_cast<int64_t>(v.value.size()) + 10;
  g.arrays += stored + 16;
  g.jumps += static_cast<int64_t>(
      ArrayGrowth(stored_bytes_.capacity(), stored_bytes_.size() + stored) +
      (ArrayGrowth(stored_starts_.capacity(), stored_starts_.size() + 1) +
       ArrayGrowth(vector_starts_.capacity(), vector_starts_.size() + 1)) *
          sizeof(uint64_t) +
      ArrayGrowth(vector_bytes_.capacity(), vector_bytes_.size() + vector_entry_bytes + 10));
  const int64_t pools_that_grow =
      (any_indexed ? (primary_->shares_term_pool() ? 2 : 3) : 0) + (any_vectors ? 2 : 0);
  g.pools += kBlock * pools_that_grow;
  return g;
}

IndexingChain::PerField& IndexingChain::GetOrCreatePerField(uint32_t number) {
  if (fields_.size() <= number) fields_.resize(number + 1);
  std::unique_ptr<PerField>& slot = fields_[number];
  if (slot == nullptr) {
    const FieldInfo& info = field_infos_[number];
    auto pf = std::make_unique<PerField>(&counter_);
    pf->number = number;
    pf->type = info.type;
    if (info.type.indexed()) {
      pf->postings = std::make_unique<PostingsWriterPerField>(
          primary_.get(), info.type.index_options, info.type.payloads, &counter_);
    }
    if (info.type.term_vectors) {
      pf->vectors =
          std::make_unique<TermVectorsWriterPerField>(vectors_.get(), info.type, &counter_);
    }
    slot = std::move(pf);
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
    InvertField(df, pf, doc);
    if (pf.vectors != nullptr && df.token_count > 0) ++vector_fields;
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
  for (const BufferedStoredValue& v : stored_scratch_) {
    AppendVInt(&stored_bytes_, v.field_number);
    AppendVInt(&stored_bytes_, v.value.size());
    stored_bytes_.Append(reinterpret_cast<const uint8_t*>(v.value.data()), v.value.size());
  }
  ++num_docs_;
}

// Inverts one field's tokens in chunks of kInvertChunk. Chunking is exact:
// PostingsWriterPerField::AddTokens is the same as one Add() per token in
// order (TermsHashPerField::AddBatch's contract), and Add() keys each term's
// per-document state (freq, last position and start offset) on its
// PostingState::last_doc_id, so a second call for the same document
// continues where the first stopped. Term vectors keep their per-document
// state in the chained hash until FinishDocument(). Interleaving postings and
// vector chunks changes which recycled block each pool gets, never an
// address inside a pool, so the segment is byte-identical to one AddTokens
// over the whole field.
// Flattened: this file is large enough that GCC otherwise hits its unit
// growth limit and leaves WriteVInt out of line in the hot loop (+5% Ir).
[[gnu::flatten]] void IndexingChain::InvertField(const DocField& df, PerField& pf, uint32_t doc) {
  const size_t n = df.token_count;
  if (n == 0) return;
  const size_t chunk = std::min(n, kInvertChunk);
  const bool vectors = pf.vectors != nullptr;
  if (inverted_.size() < chunk) inverted_.resize(chunk);
  if (vectors && term_ids_.size() < chunk) term_ids_.resize(chunk);
  size_t filled = 0;
  const auto add_chunk = [&] {
    const std::span<const InvertedToken> tokens(inverted_.data(), filled);
    // One call site, so that AddBatch is compiled (and inlined) as before.
    const std::span<uint32_t> ids =
        vectors ? std::span<uint32_t>(term_ids_.data(), filled) : std::span<uint32_t>();
    pf.postings->AddTokens(doc, tokens, ids);
    if (vectors) {
      const auto& terms = pf.postings->terms();
      for (size_t i = 0; i < filled; ++i) {
        const InvertedToken& t = tokens[i];
        pf.vectors->Add(terms.term_entry_address(ids[i]), t.position, t.start_offset, t.end_offset,
                        t.payload);
      }
    }
    filled = 0;
  };
  // The positions and offsets AnalyzeField() validated, recomputed. Offsets
  // are truncated to 32 bits without a check: those of a field that records
  // offsets were checked to fit, the others are never written.
  int64_t position = -1;
  uint64_t base = 0;
  // Tokens token_at(0) .. token_at(count - 1) of one value.
  const auto invert_value = [&](size_t count, auto&& token_at) {
    size_t i = 0;
    while (i < count) {
      const size_t stop = std::min(count, i + (kInvertChunk - filled));
      for (; i < stop; ++i) {
        const auto& t = token_at(i);
        position += t.position_increment;
        inverted_[filled++] = InvertedToken{t.term, static_cast<uint32_t>(position),
                                            static_cast<uint32_t>(base + t.start_offset),
                                            static_cast<uint32_t>(base + t.end_offset), t.payload};
      }
      if (filled == kInvertChunk) add_chunk();
    }
  };
  size_t first = 0;  // the value's first token, numbered across the field
  for (size_t v = 0; v < df.values.size(); ++v) {
    const DocField::Value& value = df.values[v];
    if (v > 0) position += options_.position_increment_gap;
    base = value.offset_base;
    const size_t count = value.token_end - first;
    if (value.pre_analyzed()) {
      const std::span<const PreAnalyzedToken> tokens = value.field->tokens();
      invert_value(count, [&](size_t k) -> const PreAnalyzedToken& { return tokens[k]; });
    } else {
      const size_t begin = value.buffer_begin;
      invert_value(count, [&](size_t k) { return tokens_[begin + k]; });
    }
    first = value.token_end;
  }
  if (filled > 0) add_chunk();
}

int64_t IndexingChain::ScratchBytesNow() const {
  size_t bytes = tokens_.bytes_used();
  bytes += doc_fields_.capacity() * sizeof(DocField);
  for (const DocField& df : doc_fields_) bytes += df.values.capacity() * sizeof(DocField::Value);
  bytes += doc_field_index_.capacity() * sizeof(int32_t);
  bytes += inverted_.capacity() * sizeof(InvertedToken);
  bytes += term_ids_.capacity() * sizeof(uint32_t);
  bytes += stored_scratch_.capacity() * sizeof(BufferedStoredValue);
  bytes += new_fields_.capacity() * sizeof(IndexSchema::NewField);
  bytes += term_hashes_.capacity() * sizeof(std::pair<uint64_t, size_t>);
  return static_cast<int64_t>(bytes);
}

void IndexingChain::SyncScratch() noexcept {
  const int64_t now = ScratchBytesNow();
  counter_.Add(now - counted_scratch_);
  counted_scratch_ = now;
  peak_scratch_ = std::max(peak_scratch_, now);
}

void IndexingChain::ReleaseScratch() noexcept {
  std::vector<DocField>().swap(doc_fields_);
  std::vector<int32_t>().swap(doc_field_index_);
  tokens_.Release();
  std::vector<InvertedToken>().swap(inverted_);
  std::vector<uint32_t>().swap(term_ids_);
  std::vector<BufferedStoredValue>().swap(stored_scratch_);
  std::vector<IndexSchema::NewField>().swap(new_fields_);
  std::vector<std::pair<uint64_t, size_t>>().swap(term_hashes_);
}

void IndexingChain::FinishScratch() noexcept {
  SyncScratch();
  if (counted_scratch_ > kRetainedScratchBytes) {
    ReleaseScratch();
    SyncScratch();
  }
}

int64_t IndexingChain::RecomputeRamBytes() const {
  int64_t blocks = static_cast<int64_t>(
      primary_->byte_pool().block_count() + primary_->int_pool().block_count() +
      vectors_->byte_pool().block_count() + vectors_->int_pool().block_count());
  if (!primary_->shares_term_pool()) {
    blocks += static_cast<int64_t>(primary_->term_byte_pool().block_count());
  }
  int64_t bytes = blocks * static_cast<int64_t>(BlockAllocator::kBlockSize);
  for (const std::unique_ptr<PerField>& pf : fields_) {
    if (pf == nullptr) continue;
    if (pf->postings != nullptr) bytes += pf->postings->terms().hash().bytes_used();
    if (pf->vectors != nullptr) bytes += pf->vectors->terms().hash().bytes_used();
    bytes += pf->norms.bytes();
  }
  bytes += stored_bytes_.bytes() + stored_starts_.bytes() + vector_bytes_.bytes() +
           vector_starts_.bytes();
  return bytes + ScratchBytesNow();
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

std::vector<BufferedStoredValue> IndexingChain::StoredFields(uint32_t doc) const {
  std::vector<BufferedStoredValue> out;
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

std::vector<BufferedVectorField> IndexingChain::TermVectors(uint32_t doc) const {
  std::vector<BufferedVectorField> out;
  const std::string_view raw = RawTermVectors(doc);
  if (raw.empty()) return out;
  const uint8_t* base = reinterpret_cast<const uint8_t*>(raw.data());
  Cursor c(base, base + raw.size());
  const uint64_t field_count = c.VInt();
  for (uint64_t f = 0; f < field_count; ++f) {
    BufferedVectorField field;
    field.field_number = static_cast<uint32_t>(c.VInt());
    const FieldType& type = field_infos_[field.field_number].type;
    const uint64_t term_count = c.VInt();
    for (uint64_t t = 0; t < term_count; ++t) {
      BufferedVectorTerm term;
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
    for (const BufferedStoredValue& v : StoredFields(doc)) {
      absl::StrAppend(&out, "  stored ", v.field_number, " \"", absl::CEscape(Sv(v.value)), "\"\n");
    }
    for (const BufferedVectorField& f : TermVectors(doc)) {
      absl::StrAppend(&out, "  vector ", f.field_number, "\n");
      for (const BufferedVectorTerm& term : f.terms) {
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

// TermDictReader: footer and index validation; TermDictCursor: block loading,
// entry decoding with the invariant checks of term_dict_format.h, seeks.
#include "codec/term_dict_reader.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "codec/term_dict_format.h"
#include "xxhash.h"

namespace invert {

using term_dict::kMaxTermLength;

namespace {

uint32_t Checksum32(const uint8_t* p, size_t n) { return static_cast<uint32_t>(XXH3_64bits(p, n)); }

absl::Status DictCorrupt(std::string_view what) {
  return absl::DataLossError(absl::StrCat("term dictionary corrupt: ", std::string(what)));
}

// Reads a prefix-shared term: prefix_len, suffix_len, suffix. Checks that the
// prefix fits the previous term, the length limit, and (if `check_order`)
// that the new term is greater than `previous` with a maximal shared prefix.
// On success *prefix and *suffix describe the new term.
bool ReadSharedTerm(ByteReader* in, std::string_view previous, bool check_order, uint32_t* prefix,
                    std::string_view* suffix) {
  uint32_t suffix_length;
  const uint8_t* bytes;
  if (!in->ReadVInt32(prefix) || !in->ReadVInt32(&suffix_length)) return false;
  if (*prefix > previous.size() || suffix_length > kMaxTermLength - *prefix) return false;
  if (!in->ReadBytes(suffix_length, &bytes)) return false;
  *suffix = std::string_view(reinterpret_cast<const char*>(bytes), suffix_length);
  if (check_order) {
    // new = previous[0, prefix) + suffix > previous, differing first at prefix.
    if (suffix_length == 0) return false;
    if (*prefix < previous.size() &&
        static_cast<uint8_t>((*suffix)[0]) <= static_cast<uint8_t>(previous[*prefix])) {
      return false;
    }
  }
  return true;
}

}  // namespace

absl::StatusOr<TermDictReader> TermDictReader::Open(std::span<const uint8_t> data,
                                                    TermDictReaderOptions options) {
  if (data.size() < term_dict::kFooterSize) return DictCorrupt("shorter than its footer");
  const uint8_t* footer = data.data() + data.size() - term_dict::kFooterSize;
  if (LoadFixed32(footer + 28) != term_dict::kMagic) return DictCorrupt("bad magic");
  const uint64_t term_count = LoadFixed64(footer);
  const uint64_t index_offset = LoadFixed64(footer + 8);
  const uint32_t block_count = LoadFixed32(footer + 16);
  const uint32_t block_terms = footer[20] | uint32_t{footer[21]} << 8;
  const uint8_t flags = footer[22];
  if (footer[23] != term_dict::kVersion) {
    return absl::DataLossError(absl::StrCat("term dictionary: unsupported version ", footer[23]));
  }
  const size_t index_end = data.size() - term_dict::kFooterSize;
  if (index_offset > index_end) return DictCorrupt("index offset out of range");
  if (options.verify_checksums &&
      Checksum32(data.data() + index_offset, data.size() - index_offset - 8) !=
          LoadFixed32(footer + 24)) {
    return DictCorrupt("index checksum mismatch");
  }
  if ((flags & ~term_dict::kKnownFlags) != 0) return DictCorrupt("unknown flags");
  if (block_terms == 0) return DictCorrupt("block_terms is 0");
  if (block_count != term_count / block_terms + (term_count % block_terms != 0)) {
    return DictCorrupt("block count does not match term count");
  }
  const size_t index_size = index_end - index_offset;
  if (block_count > index_size / term_dict::kMinIndexEntryBytes) {
    return DictCorrupt("block count larger than the index");
  }

  TermDictReader reader;
  reader.data_ = data;
  reader.options_ = options;
  reader.term_count_ = term_count;
  reader.block_terms_ = block_terms;
  reader.has_pos_ = (flags & term_dict::kHasPos) != 0;
  reader.has_pay_ = (flags & term_dict::kHasPay) != 0;
  reader.first_term_end_.reserve(block_count + 1);
  reader.block_start_.reserve(block_count + 1);
  reader.block_checksum_.reserve(block_count);
  reader.first_key_.reserve(block_count);
  reader.first_term_end_.push_back(0);
  reader.block_start_.push_back(0);

  ByteReader in(data.data() + index_offset, data.data() + index_end);
  std::string_view previous;
  for (uint32_t b = 0; b < block_count; ++b) {
    uint32_t prefix;
    std::string_view suffix;
    if (!ReadSharedTerm(&in, previous, /*check_order=*/b > 0, &prefix, &suffix)) {
      return DictCorrupt(absl::StrCat("index entry ", b));
    }
    if (b == 0 && prefix != 0) return DictCorrupt("first index entry shares a prefix");
    const size_t start = reader.first_terms_.size();
    // Each block stores its first term in full, so the first terms together
    // are no longer than the blocks: a bound on what corrupt input allocates.
    if (start + prefix + suffix.size() > index_offset) {
      return DictCorrupt(absl::StrCat("index entry ", b, " longer than the blocks"));
    }
    // The previous term is the arena's tail; append its prefix, then suffix.
    reader.first_terms_.append(reader.first_terms_, start - previous.size(), prefix);
    reader.first_terms_.append(suffix);
    reader.first_term_end_.push_back(reader.first_terms_.size());
    previous = std::string_view(reader.first_terms_).substr(start);
    reader.first_key_.push_back(KeyOf(previous));

    uint64_t block_size;
    uint32_t checksum;
    if (!in.ReadVInt64(&block_size) || !in.ReadFixed32(&checksum)) {
      return DictCorrupt(absl::StrCat("index entry ", b));
    }
    const uint64_t block_start = reader.block_start_.back();
    if (block_size == 0 || block_size > index_offset - block_start) {
      return DictCorrupt(absl::StrCat("size of block ", b));
    }
    reader.block_start_.push_back(block_start + block_size);
    reader.block_checksum_.push_back(checksum);
  }
  if (!in.empty()) return DictCorrupt("bytes after the index");
  if (reader.block_start_.back() != index_offset) return DictCorrupt("blocks do not fill");
  return reader;
}

size_t TermDictReader::index_bytes() const {
  return first_terms_.capacity() + first_term_end_.capacity() * sizeof(uint64_t) +
         block_start_.capacity() * sizeof(uint64_t) +
         block_checksum_.capacity() * sizeof(uint32_t) + first_key_.capacity() * sizeof(uint64_t);
}

uint64_t TermDictReader::KeyOf(std::string_view term) {
  uint8_t bytes[8] = {};
  std::memcpy(bytes, term.data(), std::min<size_t>(term.size(), 8));
  uint64_t key = 0;
  for (uint8_t b : bytes) key = key << 8 | b;
  return key;
}

int64_t TermDictReader::FindBlock(std::string_view target) const {
  // First block whose first term is > target, minus one.
  const uint64_t target_key = KeyOf(target);
  size_t lo = 0;
  size_t hi = block_count();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const uint64_t key = first_key_[mid];
    if (key != target_key ? key < target_key : first_term(static_cast<uint32_t>(mid)) <= target) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return static_cast<int64_t>(lo) - 1;
}

std::span<const uint8_t> TermDictReader::BlockBytes(std::string_view term) const {
  const int64_t found = FindBlock(term);
  if (found < 0) return {};
  return BlockBytesAt(static_cast<uint32_t>(found));
}

bool TermDictReader::IsBlockOf(int64_t block, std::string_view target) const {
  const int64_t blocks = block_count();
  if (block < -1 || block >= blocks) return false;
  if (block >= 0 && first_term(static_cast<uint32_t>(block)) > target) return false;
  return block + 1 == blocks || target < first_term(static_cast<uint32_t>(block + 1));
}

absl::Status TermDictCursor::Fail(absl::Status status) {
  state_ = State::kUnpositioned;
  block_loaded_ = false;
  return status;
}

absl::Status TermDictCursor::Corrupt(const char* what) {
  return Fail(DictCorrupt(absl::StrCat(what, " in block ", block_)));
}

absl::Status TermDictCursor::LoadBlock(uint32_t block) {
  const TermDictReader& r = *reader_;
  const uint64_t start = r.block_start_[block];
  const uint64_t end = r.block_start_[block + 1];
  block_ = block;
  block_loaded_ = false;
  if (r.options_.verify_checksums && verified_block_ != block) {
    if (Checksum32(r.data_.data() + start, end - start) != r.block_checksum_[block]) {
      return Corrupt("checksum mismatch");
    }
    verified_block_ = block;
  }
  in_ = ByteReader(r.data_.data() + start, r.data_.data() + end);
  const uint64_t first_ordinal = uint64_t{block} * r.block_terms_;
  block_entries_ =
      static_cast<uint32_t>(std::min<uint64_t>(r.block_terms_, r.term_count_ - first_ordinal));
  entry_ = -1;
  term_length_ = 0;
  stats_ = TermStats{};
  block_loaded_ = true;
  return absl::OkStatus();
}

absl::Status TermDictCursor::ReadEntry() {
  // Decodes into locals and commits at the end: the term bytes are written
  // through a char*, which may alias anything, so members read after the
  // copy would be reloaded from memory.
  ByteReader in = in_;
  const bool first = entry_ < 0;
  uint32_t prefix;
  std::string_view suffix;
  if (!ReadSharedTerm(&in, term(), /*check_order=*/!first, &prefix, &suffix)) {
    return Corrupt("bad term");
  }
  uint64_t code;
  if (!in.ReadVInt64(&code)) return Corrupt("bad stats");
  const uint64_t doc_freq = code >> term_dict::kCodeDocFreqShift;
  if (doc_freq > UINT32_MAX) return Corrupt("doc_freq out of range");
  uint64_t total_term_freq = doc_freq;
  if ((code & term_dict::kCodeTtfIsDf) == 0) {
    uint64_t delta;
    if (!in.ReadVInt64(&delta)) return Corrupt("bad stats");
    total_term_freq = doc_freq + static_cast<uint64_t>(ZigZagDecode64(delta));
  }
  uint32_t singleton_doc = 0;
  const bool has_singleton = (code & term_dict::kCodeSingleton) != 0;
  if (has_singleton && (doc_freq != 1 || !in.ReadVInt32(&singleton_doc))) {
    return Corrupt("bad singleton");
  }
  uint64_t doc_delta, pos_delta = 0, pay_delta = 0;
  if (!in.ReadVInt64(&doc_delta) || (reader_->has_pos_ && !in.ReadVInt64(&pos_delta)) ||
      (reader_->has_pay_ && !in.ReadVInt64(&pay_delta))) {
    return Corrupt("bad stats");
  }
  const bool last = entry_ + 2 >= static_cast<int64_t>(block_entries_);
  if (last && !in.empty()) return Corrupt("bytes after the last entry");

  const size_t length = prefix + suffix.size();
  if (term_.size() < length + 16) term_.resize(std::max(length + 16, 2 * term_.size()));
  if (suffix.size() <= 16) {
    // A fixed-size copy (two moves, no call). Reading 16 bytes from the
    // suffix stays inside the span: blocks end at index_offset, which Open()
    // checked is at least the 32-byte footer before the end.
    std::memcpy(term_.data() + prefix, suffix.data(), 16);
  } else {
    std::memcpy(term_.data() + prefix, suffix.data(), suffix.size());
  }
  term_length_ = length;
  if (first && term() != reader_->first_term(block_)) {
    return Corrupt("first term differs from index");
  }
  last_prefix_ = prefix;
  stats_.doc_freq = static_cast<uint32_t>(doc_freq);
  stats_.total_term_freq = total_term_freq;
  if (has_singleton) {
    stats_.singleton_doc = singleton_doc;
  } else {
    stats_.singleton_doc.reset();
  }
  stats_.doc_offset += doc_delta;
  stats_.pos_offset += pos_delta;
  stats_.pay_offset += pay_delta;
  in_ = in;
  ++entry_;
  return absl::OkStatus();
}

absl::StatusOr<bool> TermDictCursor::NextBlock() {
  const uint32_t next = block_ + 1;
  if (next >= reader_->block_count()) {
    state_ = State::kEnd;
    return false;
  }
  // Invariant 1 across blocks: the next block's first term is greater.
  if (reader_->first_term(next) <= term()) return Corrupt("blocks out of order");
  if (absl::Status s = LoadBlock(next); !s.ok()) return s;
  if (absl::Status s = ReadEntry(); !s.ok()) return s;
  state_ = State::kOnTerm;
  return true;
}

absl::StatusOr<bool> TermDictCursor::Next() {
  switch (state_) {
    case State::kEnd:
      return false;
    case State::kUnpositioned:
      return absl::FailedPreconditionError("TermDictCursor::Next on an unpositioned cursor");
    case State::kBeforeFirst:
      if (reader_->block_count() == 0) {
        state_ = State::kEnd;
        return false;
      }
      if (absl::Status s = LoadBlock(0); !s.ok()) return s;
      break;
    case State::kOnTerm:
      if (AtBlockEnd()) return NextBlock();
      break;
  }
  if (absl::Status s = ReadEntry(); !s.ok()) return s;
  state_ = State::kOnTerm;
  return true;
}

namespace {

// Compares a and b, which share their first `from` bytes; sets *match to
// their common prefix length.
int CompareFrom(std::string_view a, std::string_view b, size_t from, size_t* match) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = from;
  while (i < n && a[i] == b[i]) ++i;
  *match = i;
  if (i < n) return static_cast<uint8_t>(a[i]) < static_cast<uint8_t>(b[i]) ? -1 : 1;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

}  // namespace

absl::StatusOr<TermDictCursor::ScanResult> TermDictCursor::ScanBlock(std::string_view target) {
  // While `less`, term() < target and `match` is their common prefix length.
  // An entry sharing more than `match` bytes with its predecessor is then
  // also < target, and one sharing fewer is > target (entries increase with
  // a maximal shared prefix, which ReadEntry checks), so most entries are
  // decided from their prefix_len without looking at their bytes.
  size_t match = 0;
  bool less = false;
  if (entry_ >= 0) {
    const int c = CompareFrom(term(), target, 0, &match);
    if (c >= 0) return c == 0 ? ScanResult::kFound : ScanResult::kGreater;
    less = true;
  }
  while (!AtBlockEnd()) {
    if (absl::Status s = ReadEntry(); !s.ok()) return s;
    if (less) {
      if (last_prefix_ > match) continue;
      if (last_prefix_ < match) return ScanResult::kGreater;
    }
    const int c = CompareFrom(term(), target, less ? match : 0, &match);
    if (c >= 0) return c == 0 ? ScanResult::kFound : ScanResult::kGreater;
    less = true;
  }
  return ScanResult::kBlockEnd;
}

absl::StatusOr<TermDictCursor::SeekResult> TermDictCursor::SeekCeil(std::string_view target) {
  const int64_t found = reader_->FindBlock(target);
  if (found < 0) {
    // Every term is > target (or there are none).
    if (reader_->block_count() == 0) {
      state_ = State::kEnd;
      return SeekResult::kEnd;
    }
    if (absl::Status s = LoadBlock(0); !s.ok()) return s;
    if (absl::Status s = ReadEntry(); !s.ok()) return s;
    state_ = State::kOnTerm;
    return SeekResult::kNotFound;
  }
  const uint32_t block = static_cast<uint32_t>(found);
  // Scan on from the current entry when it is in this block and <= target.
  if (!(block_loaded_ && block_ == block && entry_ >= 0 && term() <= target)) {
    if (absl::Status s = LoadBlock(block); !s.ok()) return s;
  }
  absl::StatusOr<ScanResult> scan = ScanBlock(target);
  if (!scan.ok()) return scan.status();
  switch (*scan) {
    case ScanResult::kFound:
      state_ = State::kOnTerm;
      return SeekResult::kFound;
    case ScanResult::kGreater:
      state_ = State::kOnTerm;
      return SeekResult::kNotFound;
    case ScanResult::kBlockEnd:
      break;
  }
  // The next block's first term is the ceiling.
  absl::StatusOr<bool> moved = NextBlock();
  if (!moved.ok()) return moved.status();
  return *moved ? SeekResult::kNotFound : SeekResult::kEnd;
}

absl::StatusOr<bool> TermDictCursor::SeekExact(std::string_view term_to_find) {
  return SeekExactIn(term_to_find, reader_->FindBlock(term_to_find));
}

absl::StatusOr<bool> TermDictCursor::SeekExact(std::string_view term_to_find, int64_t block_hint) {
  return SeekExactIn(term_to_find, reader_->IsBlockOf(block_hint, term_to_find)
                                       ? block_hint
                                       : reader_->FindBlock(term_to_find));
}

absl::StatusOr<bool> TermDictCursor::SeekExactIn(std::string_view term_to_find, int64_t found) {
  if (found < 0) {
    state_ = State::kUnpositioned;
    return false;
  }
  const uint32_t block = static_cast<uint32_t>(found);
  if (!(block_loaded_ && block_ == block && entry_ >= 0 && term() <= term_to_find)) {
    if (absl::Status s = LoadBlock(block); !s.ok()) return s;
  }
  absl::StatusOr<ScanResult> scan = ScanBlock(term_to_find);
  if (!scan.ok()) return scan.status();
  if (*scan == ScanResult::kFound) {
    state_ = State::kOnTerm;
    return true;
  }
  state_ = State::kUnpositioned;
  return false;
}

absl::StatusOr<bool> TermDictCursor::SeekOrdinal(uint64_t ordinal) {
  if (ordinal >= reader_->term_count_) {
    state_ = State::kEnd;
    return false;
  }
  const uint32_t block = static_cast<uint32_t>(ordinal / reader_->block_terms_);
  const int64_t entry = static_cast<int64_t>(ordinal % reader_->block_terms_);
  if (!(block_loaded_ && block_ == block && entry_ <= entry)) {
    if (absl::Status s = LoadBlock(block); !s.ok()) return s;
  }
  while (entry_ < entry) {
    if (absl::Status s = ReadEntry(); !s.ok()) return s;
  }
  state_ = State::kOnTerm;
  return true;
}

}  // namespace invert

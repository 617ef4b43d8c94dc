// Term vectors: the per-document entry encoder and its checked decoder, and
// the writer and reader on top of the blocked document container.
#include "codec/term_vectors_format.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "codec/byte_io.h"
#include "util/absl_compat.h"

namespace invert {
namespace internal {
namespace {

absl::Status Invalid(uint32_t field, std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("term vectors of field ", field, ": ", Sv(what)));
}

// Bytes a compressed term shares with the previous one.
size_t SharedPrefix(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

absl::Status EncodeTerm(const TermVectorFieldData& field, const TermVectorTermData& t,
                        std::string_view previous, std::string* out) {
  const uint32_t number = field.field_number;
  if (t.freq == 0) return Invalid(number, "freq 0");
  if (t.term.size() > kMaxDocumentBytes) return Invalid(number, "term too long");
  const size_t expected_positions = field.has_positions ? t.freq : 0;
  const size_t expected_offsets = field.has_offsets ? t.freq : 0;
  const size_t expected_payloads = field.has_payloads ? t.freq : 0;
  if (t.positions.size() != expected_positions || t.start_offsets.size() != expected_offsets ||
      t.end_offsets.size() != expected_offsets || t.payloads.size() != expected_payloads) {
    return Invalid(number, absl::StrCat("term with freq ", t.freq, " has ", t.positions.size(),
                                        " positions, ", t.start_offsets.size(), "/",
                                        t.end_offsets.size(), " offsets and ", t.payloads.size(),
                                        " payloads; the field flags ask for ", expected_positions,
                                        ", ", expected_offsets, " and ", expected_payloads));
  }
  const size_t prefix = SharedPrefix(previous, t.term);
  PutVInt(out, prefix);
  PutVInt(out, t.term.size() - prefix);
  out->append(t.term, prefix);
  PutVInt(out, t.freq);
  if (field.has_positions) {
    uint32_t last = 0;
    for (uint32_t i = 0; i < t.freq; ++i) {
      if (t.positions[i] < last) return Invalid(number, "positions go backwards");
      PutVInt(out, t.positions[i] - last);
      last = t.positions[i];
      if (field.has_payloads) {
        if (t.payloads[i].size() > kMaxDocumentBytes) return Invalid(number, "payload too long");
        PutVInt(out, t.payloads[i].size());
        out->append(t.payloads[i]);
      }
    }
  }
  if (field.has_offsets) {
    uint32_t last = 0;
    for (uint32_t i = 0; i < t.freq; ++i) {
      const uint32_t start = t.start_offsets[i], end = t.end_offsets[i];
      if (start < last || end < start) return Invalid(number, "offsets go backwards");
      PutVInt(out, start - last);
      PutVInt(out, end - start);
      last = start;
    }
  }
  return absl::OkStatus();
}

absl::Status Malformed(std::string_view what) { return absl::DataLossError(Sv(what)); }

absl::Status DecodeTerm(ByteReader& in, const TermVectorFieldData& field, std::string_view previous,
                        TermVectorTermData* t) {
  uint32_t prefix, suffix_length;
  const uint8_t* suffix;
  if (!in.ReadVInt32(&prefix) || !in.ReadVInt32(&suffix_length) ||
      !in.ReadBytes(suffix_length, &suffix) || !in.ReadVInt32(&t->freq)) {
    return Malformed("truncated term");
  }
  if (prefix > previous.size()) return Malformed("shared prefix longer than the previous term");
  t->term.reserve(size_t{prefix} + suffix_length);
  t->term.assign(previous.substr(0, prefix));
  t->term.append(reinterpret_cast<const char*>(suffix), suffix_length);
  if (t->freq == 0) return Malformed("freq 0");
  if (field.has_positions) {
    // Each position takes at least one byte (two with a payload).
    if (t->freq > in.remaining()) return Malformed("freq larger than the positions");
    t->positions.resize(t->freq);
    if (field.has_payloads) t->payloads.resize(t->freq);
    uint64_t position = 0;
    for (uint32_t i = 0; i < t->freq; ++i) {
      uint32_t delta;
      if (!in.ReadVInt32(&delta)) return Malformed("truncated positions");
      position += delta;
      if (position > UINT32_MAX) return Malformed("position past 2^32");
      t->positions[i] = static_cast<uint32_t>(position);
      if (field.has_payloads) {
        uint32_t length;
        const uint8_t* bytes;
        if (!in.ReadVInt32(&length) || !in.ReadBytes(length, &bytes)) {
          return Malformed("truncated payload");
        }
        t->payloads[i].assign(reinterpret_cast<const char*>(bytes), length);
      }
    }
  }
  if (field.has_offsets) {
    if (t->freq > in.remaining() / 2) return Malformed("freq larger than the offsets");
    t->start_offsets.resize(t->freq);
    t->end_offsets.resize(t->freq);
    uint64_t start = 0;
    for (uint32_t i = 0; i < t->freq; ++i) {
      uint32_t delta, length;
      if (!in.ReadVInt32(&delta) || !in.ReadVInt32(&length)) return Malformed("truncated offsets");
      start += delta;
      if (start + length > UINT32_MAX) return Malformed("offset past 2^32");
      t->start_offsets[i] = static_cast<uint32_t>(start);
      t->end_offsets[i] = static_cast<uint32_t>(start + length);
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status EncodeTermVectors(std::span<const TermVectorFieldData> fields, std::string* out) {
  PutVInt(out, fields.size());
  for (size_t f = 0; f < fields.size(); ++f) {
    const TermVectorFieldData& field = fields[f];
    const uint32_t number = field.field_number;
    if (f > 0 && number <= fields[f - 1].field_number) {
      return Invalid(number, "fields not in strictly increasing number order");
    }
    if (field.has_payloads && !field.has_positions) {
      return Invalid(number, "payloads without positions");
    }
    PutVInt(out, number);
    out->push_back(static_cast<char>((field.has_positions ? kTermVectorHasPositions : 0) |
                                     (field.has_offsets ? kTermVectorHasOffsets : 0) |
                                     (field.has_payloads ? kTermVectorHasPayloads : 0)));
    PutVInt(out, field.terms.size());
    std::string_view previous;
    for (size_t i = 0; i < field.terms.size(); ++i) {
      const TermVectorTermData& t = field.terms[i];
      // std::string_view compares bytes as unsigned char (char_traits<char>).
      if (i > 0 && !(previous < std::string_view(t.term))) {
        return Invalid(number, "terms not strictly increasing");
      }
      if (absl::Status s = EncodeTerm(field, t, previous, out); !s.ok()) return s;
      previous = t.term;
    }
    if (out->size() > kMaxDocumentBytes) {
      return absl::InvalidArgumentError(
          absl::StrCat("term vectors entry of more than ", kMaxDocumentBytes, " bytes"));
    }
  }
  return absl::OkStatus();
}

absl::Status DecodeTermVectors(std::span<const uint8_t> bytes,
                               std::vector<TermVectorFieldData>* out) {
  out->clear();
  ByteReader in(bytes);
  uint32_t field_count;
  if (!in.ReadVInt32(&field_count)) return Malformed("truncated field count");
  if (field_count > in.remaining() / 3) {  // number, flags, term count
    return Malformed(absl::StrCat(field_count, " fields cannot fit in ", in.remaining(), " bytes"));
  }
  out->resize(field_count);
  for (uint32_t f = 0; f < field_count; ++f) {
    TermVectorFieldData& field = (*out)[f];
    uint8_t flags;
    uint32_t term_count;
    if (!in.ReadVInt32(&field.field_number) || !in.ReadByte(&flags) ||
        !in.ReadVInt32(&term_count)) {
      return Malformed("truncated field header");
    }
    if (f > 0 && field.field_number <= (*out)[f - 1].field_number) {
      return Malformed("field numbers not increasing");
    }
    if ((flags & ~(kTermVectorHasPositions | kTermVectorHasOffsets | kTermVectorHasPayloads)) !=
            0 ||
        ((flags & kTermVectorHasPayloads) != 0 && (flags & kTermVectorHasPositions) == 0)) {
      return Malformed(absl::StrCat("invalid field flags 0x", absl::Hex(flags)));
    }
    field.has_positions = (flags & kTermVectorHasPositions) != 0;
    field.has_offsets = (flags & kTermVectorHasOffsets) != 0;
    field.has_payloads = (flags & kTermVectorHasPayloads) != 0;
    if (term_count > in.remaining() / 3) {  // prefix, suffix length, freq
      return Malformed(absl::StrCat(term_count, " terms cannot fit in ", in.remaining(), " bytes"));
    }
    field.terms.resize(term_count);
    for (uint32_t i = 0; i < term_count; ++i) {
      const std::string_view previous = i > 0 ? field.terms[i - 1].term : std::string_view();
      if (absl::Status s = DecodeTerm(in, field, previous, &field.terms[i]); !s.ok()) return s;
      if (i > 0 && !(previous < std::string_view(field.terms[i].term))) {
        return Malformed("terms not strictly increasing");
      }
    }
  }
  if (!in.empty()) return Malformed("bytes after the last field");
  return absl::OkStatus();
}

}  // namespace internal

absl::StatusOr<std::unique_ptr<TermVectorsWriter>> TermVectorsWriter::Create(
    Directory* dir, std::string_view segment_name, const SegmentId& id,
    const TermVectorsWriterOptions& options) {
  absl::StatusOr<std::unique_ptr<internal::DocBlockWriter>> blocks =
      internal::DocBlockWriter::Create(dir, segment_name, id, internal::kTermVectorsFileFormat,
                                       options.codec, options.block_bytes);
  if (!blocks.ok()) return blocks.status();
  return std::unique_ptr<TermVectorsWriter>(new TermVectorsWriter(*std::move(blocks)));
}

absl::Status TermVectorsWriter::AddDocument(std::span<const TermVectorFieldData> fields) {
  if (!blocks_->status().ok()) return blocks_->status();
  scratch_.clear();
  absl::Status status = internal::EncodeTermVectors(fields, &scratch_);
  if (status.ok()) status = blocks_->AddDocument(AsBytes(scratch_));
  if (scratch_.capacity() > (size_t{1} << 20)) std::string().swap(scratch_);
  return status;
}

absl::Status TermVectorsWriter::Finish() { return blocks_->Finish(); }

absl::StatusOr<std::unique_ptr<TermVectorsReader>> TermVectorsReader::Open(
    Directory* dir, std::string_view segment_name, const SegmentId& id, uint32_t num_docs,
    const DocFilesReaderOptions& options) {
  absl::StatusOr<std::unique_ptr<internal::DocBlockReader>> blocks = internal::DocBlockReader::Open(
      dir, segment_name, id, internal::kTermVectorsFileFormat, num_docs, options);
  if (!blocks.ok()) return blocks.status();
  return std::unique_ptr<TermVectorsReader>(new TermVectorsReader(*std::move(blocks)));
}

absl::StatusOr<std::vector<TermVectorFieldData>> TermVectorsReader::Get(uint32_t doc) const {
  absl::StatusOr<std::vector<std::vector<TermVectorFieldData>>> docs =
      Get(std::span<const uint32_t>(&doc, 1));
  if (!docs.ok()) return docs.status();
  return std::move((*docs)[0]);
}

absl::StatusOr<std::vector<std::vector<TermVectorFieldData>>> TermVectorsReader::Get(
    std::span<const uint32_t> docs) const {
  std::vector<std::vector<TermVectorFieldData>> result(docs.size());
  absl::Status status = blocks_->ReadDocuments(docs, [&](size_t i, std::span<const uint8_t> bytes) {
    absl::Status s = internal::DecodeTermVectors(bytes, &result[i]);
    if (!s.ok()) {
      return absl::DataLossError(absl::StrCat("corrupt term vectors of document ", docs[i], " in ",
                                              blocks_->data_name(), ": ", s.message()));
    }
    return s;
  });
  if (!status.ok()) return status;
  return result;
}

}  // namespace invert

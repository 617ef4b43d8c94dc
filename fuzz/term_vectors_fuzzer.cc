// Fuzz target: the term vectors reader (codec/term_vectors_format.h).
//
// Input: fuzz/doc_files_input.h. With the raw-entry flag the rest of the input
// is one document's entry for internal::DecodeTermVectors (the decoder
// without the block container around it); otherwise flags, num_docs,
// _0.tvd and _0.tvx: TermVectorsReader::Open, Get() of every doc (at most
// 2048) and one past the end, a batch Get() in reverse order with repeats,
// CheckIntegrity(). Errors are fine; crashes and out-of-bounds reads are not.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "codec/term_vectors_format.h"
#include "doc_files_input.h"
#include "fuzz_common.h"

namespace {

size_t Touch(const std::vector<invert::TermVectorFieldData>& fields) {
  size_t sum = 0;
  for (const auto& f : fields) {
    sum += f.field_number;
    for (const auto& t : f.terms) {
      sum += t.term.size() + t.freq + t.positions.size() + t.start_offsets.size() +
             t.end_offsets.size();
      for (const std::string& p : t.payloads) sum += p.size();
    }
  }
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace invert;
  const fuzz::DocFilesInput input = fuzz::DocFilesInput::Decode(data, size);
  volatile size_t sink = 0;
  if (input.flags & fuzz::DocFilesInput::kRawEntry) {
    const fuzz::ExactBytes entry(input.raw_entry);
    std::vector<TermVectorFieldData> fields;
    if (internal::DecodeTermVectors(entry.span(), &fields).ok()) sink = sink + Touch(fields);
    return 0;
  }
  fuzz::MemDirectory dir;
  dir.Put("_0.tvd", input.data);
  dir.Put("_0.tvx", input.index);
  DocFilesReaderOptions options;
  options.verify_index_checksum = (input.flags & fuzz::DocFilesInput::kVerifyIndexChecksum) != 0;
  absl::StatusOr<std::unique_ptr<TermVectorsReader>> reader =
      TermVectorsReader::Open(&dir, "_0", fuzz::kFuzzSegmentId, input.num_docs, options);
  if (!reader.ok()) return 0;
  sink = sink + (*reader)->block_count();
  const uint32_t docs = std::min<uint32_t>((*reader)->num_docs(), 2048);
  for (uint32_t doc = 0; doc <= docs; ++doc) {
    absl::StatusOr<std::vector<TermVectorFieldData>> fields = (*reader)->Get(doc);
    if (fields.ok()) sink = sink + Touch(*fields);
  }
  std::vector<uint32_t> batch;
  const uint32_t step = std::max<uint32_t>(1, docs / 16);
  for (uint64_t back = 0; back < docs && batch.size() < 64; back += step) {
    batch.push_back(static_cast<uint32_t>(docs - 1 - back));
    batch.push_back(static_cast<uint32_t>(docs - 1 - back));
  }
  auto many = (*reader)->Get(std::span<const uint32_t>(batch));
  if (many.ok()) sink = sink + many->size();
  sink = sink + (*reader)->CheckIntegrity().ok();
  (void)sink;
  return 0;
}

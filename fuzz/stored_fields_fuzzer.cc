// Fuzz target: the stored fields reader (codec/stored_fields_format.h).
//
// Input: fuzz/doc_files_input.h (flags, num_docs, _0.fdt, _0.fdx). Both files
// go into an in-memory directory; StoredFieldsReader::Open for num_docs,
// then Document() for every doc (at most 2048) and one past the end,
// Documents() for a batch in reverse order with repeats, and
// CheckIntegrity(). Errors are fine; crashes and out-of-bounds reads are not.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "codec/stored_fields_format.h"
#include "doc_files_input.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace invert;
  const fuzz::DocFilesInput input = fuzz::DocFilesInput::Decode(data, size);
  fuzz::MemDirectory dir;
  dir.Put("_0.fdt", input.data);
  dir.Put("_0.fdx", input.index);
  DocFilesReaderOptions options;
  options.verify_index_checksum = (input.flags & fuzz::DocFilesInput::kVerifyIndexChecksum) != 0;
  absl::StatusOr<std::unique_ptr<StoredFieldsReader>> reader =
      StoredFieldsReader::Open(&dir, "_0", fuzz::kFuzzSegmentId, input.num_docs, options);
  if (!reader.ok()) return 0;
  volatile size_t sink = (*reader)->block_count();
  const uint32_t docs = std::min<uint32_t>((*reader)->num_docs(), 2048);
  for (uint32_t doc = 0; doc <= docs; ++doc) {
    absl::StatusOr<std::vector<StoredField>> fields = (*reader)->Document(doc);
    if (!fields.ok()) continue;
    for (const StoredField& f : *fields) sink = sink + f.field_number + f.value.size();
  }
  std::vector<uint32_t> batch;
  const uint32_t step = std::max<uint32_t>(1, docs / 16);
  for (uint64_t back = 0; back < docs && batch.size() < 64; back += step) {
    batch.push_back(static_cast<uint32_t>(docs - 1 - back));
    batch.push_back(static_cast<uint32_t>(docs - 1 - back));
  }
  absl::StatusOr<std::vector<std::vector<StoredField>>> many = (*reader)->Documents(batch);
  if (many.ok()) sink = sink + many->size();
  sink = sink + (*reader)->CheckIntegrity().ok();
  (void)sink;
  return 0;
}

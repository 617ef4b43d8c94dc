// Fuzz target: a whole segment. At start it builds the sample segment
// (fuzz_common.h: IndexingChain + FlushSegment, every kind of field); each
// input damages one of its files (fuzz/segment_patch.h: byte edits,
// truncation, insertion; optionally with a fixed-up footer checksum and a
// segment info that records the damaged file's new length and checksum, so
// the damage gets past the checks that would otherwise stop it early). Then
// SegmentReader::Open and, if it opens, DumpSegment (every term, posting,
// position, offset, payload, norm, stored field and term vector) and
// CheckIntegrity; optionally also a commit point naming the segment and
// CheckIndex (include/invert/check_index.h), which checks every invariant
// across the files once the checksums pass. Errors and reported problems
// are fine; crashes and out-of-bounds reads are not.
// An input that leaves every byte as it was must open and dump exactly as the
// undamaged segment does.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "codec/commit_format.h"
#include "codec/field_infos_format.h"
#include "codec/segment_reader.h"
#include "fuzz_common.h"
#include "invert/check_index.h"
#include "segment_patch.h"
#include "testing/segment_dump.h"

namespace {

using namespace invert;

struct Sample {
  SegmentInfo info;
  std::vector<FieldInfo> fields;  // the schema a commit of the index gives
  std::string dump;
  std::vector<std::string> names;  // sorted
  std::map<std::string, std::string> files;
};

const Sample& GetSample() {
  static const Sample* sample = [] {
    auto* s = new Sample();
    fuzz::MemDirectory dir;
    absl::StatusOr<SegmentInfo> info = fuzz::BuildSampleSegment(&dir, &s->dump);
    if (!info.ok()) {
      std::fprintf(stderr, "segment_fuzzer: cannot build the sample segment: %s\n",
                   std::string(info.status().message()).c_str());
      std::abort();
    }
    s->info = *info;
    absl::StatusOr<std::vector<FieldInfo>> fields = ReadFieldInfos(&dir, "_0", info->id);
    if (!fields.ok()) {
      std::fprintf(stderr, "segment_fuzzer: cannot read the sample's field infos\n");
      std::abort();
    }
    s->fields = *fields;
    s->names = *dir.ListAll();
    for (const std::string& name : s->names) s->files[name] = *dir.Get(name);
    return s;
  }();
  return *sample;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Sample& sample = GetSample();
  const fuzz::SegmentPatch patch = fuzz::SegmentPatch::Decode(data, size);
  const std::string& target = sample.names[patch.file % sample.names.size()];
  std::string damaged = sample.files.at(target);
  patch.Apply(&damaged);
  if (patch.flags & fuzz::SegmentPatch::kFixChecksum) fuzz::FixFooterChecksum(&damaged);
  const bool unchanged = damaged == sample.files.at(target);

  fuzz::MemDirectory dir;
  for (const auto& [name, bytes] : sample.files) dir.Put(name, name == target ? damaged : bytes);
  if ((patch.flags & fuzz::SegmentPatch::kRewriteSegmentInfo) && target != "_0.si") {
    SegmentInfo info = sample.info;
    (void)dir.DeleteFile("_0.si");
    // Fails if the damaged file has no readable footer: keep the original.
    if (!WriteSegmentInfo(&dir, &info).ok()) dir.Put("_0.si", sample.files.at("_0.si"));
  }

  absl::StatusOr<std::unique_ptr<SegmentReader>> reader =
      SegmentReader::Open(&dir, "_0", fuzz::kFuzzSegmentId);
  absl::StatusOr<std::string> dump = absl::UnknownError("not opened");
  if (reader.ok()) {
    dump = DumpSegment(**reader);
    (void)(*reader)->CheckIntegrity();
  }
  if (unchanged && (!dump.ok() || *dump != sample.dump)) {
    std::fprintf(stderr, "segment_fuzzer: the undamaged segment does not read back\n");
    std::abort();
  }

  if (patch.flags & fuzz::SegmentPatch::kCheckIndex) {
    absl::StatusOr<std::string> si = dir.Get("_0.si");
    uint64_t si_checksum = 0;
    if (si.ok() && si->size() >= 8) {
      for (int i = 0; i < 8; ++i) {
        si_checksum |= uint64_t{static_cast<uint8_t>((*si)[si->size() - 8 + i])} << (8 * i);
      }
    }
    CommitPoint commit;
    commit.generation = 1;
    commit.next_segment_number = 1;
    commit.index_id = fuzz::kFuzzSegmentId;  // NewSegmentId(id) starts with id's first 8 bytes
    commit.schema = sample.fields;
    commit.segments.push_back({"_0", fuzz::kFuzzSegmentId, sample.info.doc_count, si_checksum});
    if (WriteCommit(&dir, commit).ok()) {
      const CheckReport report = CheckIndex(&dir);
      if (unchanged && !report.ok) {
        std::fprintf(stderr, "segment_fuzzer: CheckIndex rejects the undamaged segment:\n%s\n",
                     FormatCheckReport(report).c_str());
        std::abort();
      }
    }
  }
  return 0;
}

// Fuzz target: the commit point readers (codec/commit_format.h).
//
// Input: flags:u8 (bit 0: rewrite the footer checksum), generation:u8, then
// the bytes of segments_<generation>. ReadCommit of that file, then
// ReadLatestCommit over a directory holding it and, with flags bit 1, a
// valid older commit (segments_0 with two segments), which it must fall
// back to when the fuzzed one does not verify. Errors are fine; crashes are
// not.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/commit_format.h"
#include "fuzz_common.h"

namespace {

// A valid commit file written by WriteCommit, made once.
const std::string& OlderCommit() {
  static const std::string* bytes = [] {
    using namespace invert;
    fuzz::MemDirectory dir;
    CommitPoint commit;
    commit.generation = 0;
    commit.next_segment_number = 2;
    commit.segments.push_back({"_0", fuzz::kFuzzSegmentId, 10, 0x1234});
    commit.segments.push_back({"_1", fuzz::kFuzzSegmentId, 3, 0x5678});
    absl::Status s = WriteCommit(&dir, commit);
    absl::StatusOr<std::string> file = dir.Get(commit.file_name());
    if (!s.ok() || !file.ok()) {
      std::fprintf(stderr, "commit_fuzzer: cannot write the older commit\n");
      std::abort();
    }
    return new std::string(*file);
  }();
  return *bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace invert;
  fuzz::FuzzInput in(data, size);
  const uint8_t flags = in.U8();
  const uint8_t generation = in.U8();
  std::string file(in.Rest());
  if (flags & 1) fuzz::FixFooterChecksum(&file);
  fuzz::MemDirectory dir;
  const std::string name = absl::StrCat("segments_", generation);
  dir.Put(name, file);
  volatile size_t sink = 0;
  absl::StatusOr<CommitPoint> commit = ReadCommit(&dir, name);
  if (commit.ok()) {
    for (const CommitSegment& s : commit->segments) sink = sink + s.name.size() + s.doc_count;
  }
  if ((flags & 2) && generation > 0) dir.Put("segments_0", OlderCommit());
  std::vector<std::string> skipped;
  absl::StatusOr<CommitPoint> latest = ReadLatestCommit(&dir, &skipped);
  if (latest.ok()) sink = sink + latest->generation + latest->segments.size();
  if ((flags & 2) && generation > 0) {
    const uint64_t want = commit.ok() ? generation : 0;
    if (!latest.ok() || latest->generation != want) {
      std::fprintf(stderr, "commit_fuzzer: ReadLatestCommit did not pick generation %llu\n",
                   static_cast<unsigned long long>(want));
      std::abort();
    }
  }
  sink = sink + skipped.size();
  (void)sink;
  return 0;
}

// Fuzz target: the commit point readers (codec/commit_format.h).
//
// Input: flags:u8 (bit 0: rewrite the footer checksum), generation:u8, then
// the bytes of segments_<generation>. ReadCommit of that file, then
// ReadNewestCommit over a directory holding it and, with flags bit 1, a
// valid older commit (segments_1 with two segments), which it must fall
// back to (with fall_back) when the fuzzed one does not read. Errors are
// fine; crashes are not.
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
    commit.generation = 1;
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
  const bool with_older = (flags & 2) && generation > 1;
  if (with_older) dir.Put("segments_1", OlderCommit());
  absl::StatusOr<NewestCommit> strict = ReadNewestCommit(&dir, /*fall_back=*/false);
  if (strict.ok()) sink = sink + strict->commit.generation;
  absl::StatusOr<NewestCommit> latest = ReadNewestCommit(&dir, /*fall_back=*/true);
  if (latest.ok()) sink = sink + latest->commit.generation + latest->skipped.size();
  if (with_older) {
    const uint64_t want = commit.ok() ? generation : 1;
    if (!latest.ok() || latest->commit.generation != want) {
      std::fprintf(stderr, "commit_fuzzer: ReadNewestCommit did not pick generation %llu\n",
                   static_cast<unsigned long long>(want));
      std::abort();
    }
  }
  (void)sink;
  return 0;
}

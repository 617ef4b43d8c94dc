// CommitDeletions: deletes documents of an index the way a writer with
// deletes will, by hand: for each segment with documents to delete, a new
// live-docs file (generation + 1, all earlier deletions kept), then a new
// commit point (generation + 1) listing it. For tests of the read side
// (readers, checker, deleter) while the writer cannot delete yet, and of
// anything that must see deletions made outside the writer.
#ifndef INVERT_TESTS_INDEX_LIVE_DOCS_TEST_UTIL_H_
#define INVERT_TESTS_INDEX_LIVE_DOCS_TEST_UTIL_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "codec/commit_format.h"
#include "codec/live_docs_format.h"
#include "invert/directory.h"

namespace invert::testing {

// Deletes, per segment name, the given docs (of the segment; repeats and
// already deleted docs are fine) on top of the newest commit point, and
// commits that. Returns the new commit point. Segments not named keep their
// live docs.
inline absl::StatusOr<CommitPoint> CommitDeletions(
    Directory* dir, const std::map<std::string, std::vector<uint32_t>>& deletes) {
  absl::StatusOr<NewestCommit> newest = ReadNewestCommit(dir);
  if (!newest.ok()) return newest.status();
  CommitPoint commit = newest->commit;
  commit.generation = newest->max_generation + 1;
  for (CommitSegment& s : commit.segments) {
    auto it = deletes.find(s.name);
    if (it == deletes.end()) continue;
    LiveDocs live(s.doc_count);
    if (s.del_gen > 0) {
      absl::StatusOr<LiveDocs> old =
          ReadLiveDocs(dir, s.name, s.id, s.del_gen, s.doc_count, s.del_count);
      if (!old.ok()) return old.status();
      live = std::move(*old);
    }
    for (uint32_t doc : it->second) {
      if (doc >= s.doc_count) {
        return absl::InvalidArgumentError(
            absl::StrCat("segment ", s.name, " has no doc ", doc, " to delete"));
      }
      live.Delete(doc);
    }
    if (live.del_count() == s.del_count) continue;  // nothing new
    const uint64_t gen = s.del_gen + 1;
    absl::StatusOr<std::string> name = WriteLiveDocs(dir, s.name, s.id, gen, live, &s.liv_checksum);
    if (!name.ok()) return name.status();
    if (absl::Status sync = dir->Sync({*name}); !sync.ok()) return sync;
    s.del_gen = gen;
    s.del_count = live.del_count();
  }
  if (absl::Status s = WriteCommit(dir, commit); !s.ok()) return s;
  return commit;
}

}  // namespace invert::testing

#endif  // INVERT_TESTS_INDEX_LIVE_DOCS_TEST_UTIL_H_

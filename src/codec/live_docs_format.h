// Live docs: which documents of a segment are not deleted. A segment with
// deletions has, per deletion generation, one file
//   _<n>_<gen>.liv     (gen >= 1, lower-case base 36 like segment numbers)
// written once and never changed; a commit point lists, per segment, the
// generation that is current (CommitSegment::del_gen, 0 = no deletions) and
// how many documents it deletes (del_count). Layout (docs/format.md):
//   header(kLiveDocsCodec, version 1, id = the segment's id)
//   VLong  del_gen            (equals the file name's)
//   VInt   doc_count          (the segment's)
//   VInt   del_count          (documents whose bit is 0)
//   ceil(doc_count / 64) x Fixed64 words: bit (d % 64) of word (d / 64) is 1
//                              iff doc d is live; bits past doc_count are 0
//   footer
// Do not change: persistent format.
#ifndef INVERT_CODEC_LIVE_DOCS_FORMAT_H_
#define INVERT_CODEC_LIVE_DOCS_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "invert/directory.h"
#include "store/codec_util.h"

namespace invert {

inline constexpr std::string_view kLiveDocsCodec = "InvertLiveDocs";
inline constexpr std::string_view kLiveDocsExtension = "liv";
inline constexpr uint32_t kLiveDocsFormatVersion = 1;

// A segment's live-docs bitset. A plain value type: copying it copies the
// bits (the writer copies on write, so a commit's bits never change).
class LiveDocs {
 public:
  LiveDocs() = default;
  // All `doc_count` documents live.
  explicit LiveDocs(uint32_t doc_count)
      : doc_count_(doc_count), words_((static_cast<size_t>(doc_count) + 63) / 64, ~uint64_t{0}) {
    if (doc_count % 64 != 0) words_.back() = (uint64_t{1} << (doc_count % 64)) - 1;
  }

  uint32_t doc_count() const { return doc_count_; }
  uint32_t del_count() const { return del_count_; }
  bool IsLive(uint32_t doc) const { return (words_[doc >> 6] >> (doc & 63)) & 1; }
  // Marks `doc` deleted; returns true iff it was live. REQUIRES: doc < doc_count().
  bool Delete(uint32_t doc) {
    const uint64_t bit = uint64_t{1} << (doc & 63);
    if ((words_[doc >> 6] & bit) == 0) return false;
    words_[doc >> 6] &= ~bit;
    ++del_count_;
    return true;
  }
  const std::vector<uint64_t>& words() const { return words_; }

  // From words read from a file; checks bits past doc_count are 0 and
  // recounts; kDataLoss if a bit past doc_count is set or the words are too
  // few or too many.
  static absl::StatusOr<LiveDocs> FromWords(uint32_t doc_count, std::vector<uint64_t> words);

  bool operator==(const LiveDocs&) const = default;

 private:
  uint32_t doc_count_ = 0;
  uint32_t del_count_ = 0;
  std::vector<uint64_t> words_;
};

// "_3_1.liv" for segment "_3", generation 1.
std::string LiveDocsFileName(std::string_view segment, uint64_t del_gen);

// Writes LiveDocsFileName(segment, del_gen) (new file; fsynced by the
// caller with the commit) and returns its name; with `checksum`, stores the
// checksum in its footer there, which the commit point records
// (CommitSegment::liv_checksum). kInvalidArgument for del_gen 0;
// kAlreadyExists if the file exists (left as it is). On error nothing is
// left behind that this call created.
absl::StatusOr<std::string> WriteLiveDocs(Directory* dir, std::string_view segment,
                                          const SegmentId& segment_id, uint64_t del_gen,
                                          const LiveDocs& live, uint64_t* checksum = nullptr);

// Reads and fully verifies (checksum, header id, generation, doc count,
// del count, bits past doc_count zero, the bits' count equal to del_count)
// the live docs of `segment` at `del_gen`. Errors name the file: kNotFound
// if missing, kDataLoss if damaged or not what the commit says,
// kFailedPrecondition for a format version this build does not read. (The
// commit's liv_checksum is compared by the caller, commit_reader.h.)
absl::StatusOr<LiveDocs> ReadLiveDocs(Directory* dir, std::string_view segment,
                                      const SegmentId& segment_id, uint64_t del_gen,
                                      uint32_t doc_count, uint32_t del_count);

}  // namespace invert

#endif  // INVERT_CODEC_LIVE_DOCS_FORMAT_H_

// Live docs (.liv): file names, writing and fully verified reading.
#include "codec/live_docs_format.h"

#include <bit>
#include <utility>

#include "absl/strings/str_cat.h"
#include "codec/segment_files.h"
#include "store/index_input.h"
#include "store/index_output.h"
#include "util/absl_compat.h"

namespace invert {

namespace {

constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";

size_t WordCount(uint32_t doc_count) { return (static_cast<size_t>(doc_count) + 63) / 64; }

}  // namespace

std::string LiveDocsFileName(std::string_view segment, uint64_t del_gen) {
  std::string gen;
  do {
    gen.insert(gen.begin(), kDigits[del_gen % 36]);
    del_gen /= 36;
  } while (del_gen > 0);
  return absl::StrCat(Sv(segment), "_", gen, ".", Sv(kLiveDocsExtension));
}

absl::StatusOr<LiveDocs> LiveDocs::FromWords(uint32_t doc_count, std::vector<uint64_t> words) {
  if (words.size() != WordCount(doc_count)) {
    return absl::DataLossError(absl::StrCat("live docs of ", doc_count, " documents need ",
                                            WordCount(doc_count), " words, not ", words.size()));
  }
  if (doc_count % 64 != 0 && (words.back() >> (doc_count % 64)) != 0) {
    return absl::DataLossError(
        absl::StrCat("live docs of ", doc_count, " documents have a bit set past the last one"));
  }
  uint64_t live = 0;
  for (uint64_t w : words) live += static_cast<uint64_t>(std::popcount(w));
  LiveDocs result;
  result.doc_count_ = doc_count;
  result.del_count_ = static_cast<uint32_t>(doc_count - live);
  result.words_ = std::move(words);
  return result;
}

absl::StatusOr<std::string> WriteLiveDocs(Directory* dir, std::string_view segment,
                                          const SegmentId& segment_id, uint64_t del_gen,
                                          const LiveDocs& live, uint64_t* checksum) {
  if (del_gen == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "live docs of segment ", Sv(segment), ": generation 0 means no deletions; start at 1"));
  }
  if (live.words().size() != WordCount(live.doc_count())) {
    return absl::InvalidArgumentError(absl::StrCat("live docs of segment ", Sv(segment), ": ",
                                                   live.words().size(), " words for ",
                                                   live.doc_count(), " documents"));
  }
  const std::string name = LiveDocsFileName(segment, del_gen);
  absl::StatusOr<std::unique_ptr<IndexOutput>> out = CreateOutput(dir, name);
  if (!out.ok()) return out.status();  // nothing created (kAlreadyExists: not ours to delete)
  absl::Status status = [&]() -> absl::Status {
    IndexOutput& o = **out;
    if (absl::Status s = WriteHeader(o, kLiveDocsCodec, kLiveDocsFormatVersion, segment_id);
        !s.ok()) {
      return s;
    }
    o.WriteVInt64(del_gen);
    o.WriteVInt32(live.doc_count());
    o.WriteVInt32(live.del_count());
    for (uint64_t w : live.words()) o.WriteFixed64(w);
    if (absl::Status s = WriteFooter(o); !s.ok()) return s;
    return o.Close();
  }();
  if (status.ok() && checksum != nullptr) {
    absl::StatusOr<IndexInput> in = OpenInput(dir, name);
    absl::StatusOr<uint64_t> c = in.ok() ? ReadFooterChecksum(*in) : in.status();
    if (c.ok()) *checksum = *c;
    status = c.status();
  }
  if (status.ok()) return name;
  out->reset();  // abandon the file, then delete what this call created
  (void)dir->DeleteFile(name);
  return status;
}

absl::StatusOr<LiveDocs> ReadLiveDocs(Directory* dir, std::string_view segment,
                                      const SegmentId& segment_id, uint64_t del_gen,
                                      uint32_t doc_count, uint32_t del_count) {
  const std::string name = LiveDocsFileName(segment, del_gen);
  absl::StatusOr<IndexInput> in = OpenInput(dir, name);
  if (!in.ok()) {
    return absl::Status(in.status().code(), absl::StrCat("live docs ", name, " of segment ",
                                                         Sv(segment), ": ", in.status().message()));
  }
  // A newer format version is reported as such, not as a checksum mismatch
  // of a layout this build cannot know: look at the header first.
  {
    IndexInput peek = *in;
    SegmentId ignored;
    absl::StatusOr<uint32_t> version = CheckHeaderReadId(
        peek, kLiveDocsCodec, kLiveDocsFormatVersion, kLiveDocsFormatVersion, &ignored);
    if (absl::IsFailedPrecondition(version.status())) return version.status();
  }
  if (absl::StatusOr<uint64_t> c = VerifyChecksum(*in); !c.ok()) return c.status();
  absl::StatusOr<uint32_t> version =
      CheckHeader(*in, kLiveDocsCodec, kLiveDocsFormatVersion, kLiveDocsFormatVersion, segment_id);
  if (!version.ok()) return version.status();
  auto corrupt = [&name](const std::string& what) {
    return absl::DataLossError(absl::StrCat(name, ": corrupt live docs: ", what));
  };
  uint64_t file_gen = 0;
  uint32_t file_docs = 0, file_dels = 0;
  if (!in->ReadVInt64(&file_gen) || !in->ReadVInt32(&file_docs) || !in->ReadVInt32(&file_dels)) {
    return corrupt("truncated");
  }
  if (file_gen != del_gen) {
    return corrupt(
        absl::StrCat("generation ", file_gen, " differs from the file name's ", del_gen));
  }
  if (file_docs != doc_count) {
    return corrupt(absl::StrCat("it covers ", file_docs, " documents; segment ", Sv(segment),
                                " has ", doc_count));
  }
  if (file_dels != del_count) {
    return corrupt(
        absl::StrCat("it says ", file_dels, " deleted documents; the commit says ", del_count));
  }
  const size_t word_count = WordCount(doc_count);
  if (in->remaining_length() < kFooterLength ||
      (in->remaining_length() - kFooterLength) / 8 < word_count) {
    return corrupt(absl::StrCat("truncated: ", word_count, " words expected"));
  }
  std::vector<uint64_t> words(word_count);
  for (uint64_t& w : words) {
    if (!in->ReadFixed64(&w)) return corrupt("truncated words");
  }
  if (absl::StatusOr<uint64_t> c = CheckFooter(*in); !c.ok()) return c.status();
  absl::StatusOr<LiveDocs> live = LiveDocs::FromWords(doc_count, std::move(words));
  if (!live.ok()) return corrupt(std::string(StdSv(live.status().message())));
  if (live->del_count() != del_count) {
    return corrupt(
        absl::StrCat("its bits delete ", live->del_count(), " documents; it says ", del_count));
  }
  return live;
}

}  // namespace invert

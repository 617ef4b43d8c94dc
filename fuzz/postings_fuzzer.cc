// Fuzz target: PostingsCursor (codec/postings_format.h) over arbitrary .doc and
// .pos bytes with arbitrary TermStats and field options.
//
// Input (fuzz/postings_input.h has the exact layout): the field's index
// options and payload flag, the TermStats, an access mode and step, the
// length of the doc bytes; then the doc bytes and, after them, the pos bytes.
// Both go to exact-size heap copies. The enum is walked with NextDoc() or
// Advance() (by the step, or to the current doc + step), reading the
// positions, offsets and payloads of all, every 50th or no doc, or only the
// first of each (bounded: at most 2^16 docs and 2^18 positions per input),
// where all of a doc's are read optionally in one ReadPositions call;
// or with the pruning calls (TermImpacts, ReadSkipGroups, AdvanceShallow,
// AdvanceFiltered with a freq-threshold filter). The doc bytes are read as
// the current .doc version, as version 3 (level-1 skip headers only) or as
// version 2 (none above the blocks).
// With the skip-prefetch flag the doc bytes are a file read through an
// IndexInput that the enum prefetches through while Advance() skips. Errors are fine;
// crashes, out-of-bounds reads and undefined behaviour are not.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "codec/postings_format.h"
#include "fuzz_common.h"
#include "postings_input.h"
#include "store/index_input.h"

namespace {

// Turns on skip prefetching where the library has it (a newer API; the
// target builds either way).
template <typename Enum>
void MaybeSetSkipPrefetch(Enum& postings, invert::IndexInput* doc_input) {
  if constexpr (requires { postings.set_skip_prefetch(doc_input); }) {
    postings.set_skip_prefetch(doc_input);
  }
}

// Reads all the doc's positions in one call where the library has
// ReadPositions; false if it has not (or on corrupt data).
template <typename Cursor>
bool MaybeReadPositions(Cursor& postings, std::vector<uint32_t>* out) {
  if constexpr (requires { postings.ReadPositions(out); }) {
    return postings.ReadPositions(out);
  } else {
    return false;
  }
}

// Reads the level-1 skip headers where the library has them (.doc version
// 3; the target builds either way).
template <typename Enum>
uint64_t MaybeReadSkipGroups(Enum& postings) {
  if constexpr (requires { typename Enum::SkipGroup; }) {
    std::vector<typename Enum::SkipGroup> groups;
    if (postings.ReadSkipGroups(&groups)) return groups.size();
  }
  return 0;
}

// Skips a block or group unless its frontier has a freq above the threshold
// (monotone, as the cursor requires of a filter).
class FreqFilter final : public invert::PostingsCursor::BlockFilter {
 public:
  explicit FreqFilter(uint32_t threshold) : threshold_(threshold) {}
  Verdict Judge(const uint8_t* impacts, const uint8_t* end) override {
    uint32_t best = 0;
    if (!invert::ForEachImpact(impacts, end,
                               [&best](uint32_t freq, uint8_t) { best = std::max(best, freq); })) {
      return Verdict::kCorrupt;
    }
    return best > threshold_ ? Verdict::kDecode : Verdict::kSkip;
  }

 private:
  uint32_t threshold_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace invert;
  const fuzz::PostingsInput input = fuzz::PostingsInput::Decode(data, size);
  const fuzz::ExactBytes pos(input.pos_bytes);
  // The doc bytes: an exact-size copy, or the file of an IndexInput (also
  // exact-size, see MemDirectory) when the enum prefetches through it.
  const fuzz::ExactBytes doc_copy(input.skip_prefetch ? std::string_view() : input.doc_bytes);
  fuzz::MemDirectory dir;
  std::optional<IndexInput> doc_input;
  std::span<const uint8_t> doc = doc_copy.span();
  if (input.skip_prefetch) {
    dir.Put("_0.doc", input.doc_bytes);
    absl::StatusOr<IndexInput> in = OpenInput(&dir, "_0.doc");
    if (!in.ok()) std::abort();
    doc_input.emplace(*std::move(in));
    doc = doc_input->bytes();
  }

  PostingsCursor postings(doc, pos.span(), input.stats, input.type,
                          input.version2   ? 2u  // no skip headers above the blocks
                          : input.version3 ? 3u  // level-1 ones only
                                           : kDocFormatVersion);
  if (doc_input.has_value()) MaybeSetSkipPrefetch(postings, &*doc_input);
  volatile uint64_t sink = 0;
  FreqFilter filter(input.step % 8);
  if (input.mode == fuzz::PostingsInput::kPruning) {
    std::vector<Impact> impacts;
    if (postings.TermImpacts(&impacts)) sink = sink + impacts.size();
    sink = sink + MaybeReadSkipGroups(postings);
  }
  uint64_t positions = 0;
  uint32_t last = 0;
  std::vector<uint32_t> bulk;
  for (int i = 0; i < (1 << 16); ++i) {
    bool more = false;
    switch (input.mode) {
      case fuzz::PostingsInput::kNextDoc:
        more = postings.NextDoc();
        break;
      case fuzz::PostingsInput::kAdvanceBy:
        more = postings.Advance(static_cast<uint32_t>(std::min<uint64_t>(
            static_cast<uint64_t>(i) * input.step, PostingsCursor::kNoMoreDocs - 1)));
        break;
      case fuzz::PostingsInput::kPruning: {
        // Targets past the cursor's doc, as AdvanceShallow requires.
        const uint32_t target = static_cast<uint32_t>(std::min<uint64_t>(
            uint64_t{last} + 1 + input.step % 5000, PostingsCursor::kNoMoreDocs - 1));
        sink = sink + postings.AdvanceShallow(target) + postings.impacts().size();
        more = (i % 3 == 2) ? postings.NextDoc() : postings.AdvanceFiltered(target, &filter);
        break;
      }
      default:
        more = (i % 2 == 0) ? postings.NextDoc()
                            : postings.Advance(static_cast<uint32_t>(std::min<uint64_t>(
                                  uint64_t{last} + input.step, PostingsCursor::kNoMoreDocs - 1)));
        break;
    }
    if (!more) break;
    last = postings.doc();
    sink = sink + postings.doc() + postings.freq();
    uint32_t wanted = postings.freq();
    if (input.positions == fuzz::PostingsInput::kNone ||
        (input.positions == fuzz::PostingsInput::kSparse && i % 50 != 0)) {
      wanted = 0;
    } else if (input.positions == fuzz::PostingsInput::kFirstOnly) {
      wanted = std::min<uint32_t>(wanted, 1);
    }
    if (input.bulk_positions && wanted == postings.freq() && positions + wanted <= (1 << 18)) {
      positions += wanted;
      if (MaybeReadPositions(postings, &bulk)) {
        for (uint32_t p = 0; p < wanted; ++p) sink = sink + bulk[p];
      }
      continue;
    }
    for (uint32_t p = 0; p < wanted && positions < (1 << 18); ++p, ++positions) {
      if (!postings.NextPosition()) break;
      sink = sink + postings.position() + postings.start_offset() + postings.end_offset();
      for (char c : postings.payload()) sink = sink + static_cast<unsigned char>(c);
    }
  }
  sink = sink + postings.blocks_skipped() + postings.status().ok();
  (void)sink;
  return 0;
}

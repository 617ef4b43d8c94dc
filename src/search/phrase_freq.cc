// Exact and sloppy phrase frequencies (the walk is described in the header).
#include "search/phrase_freq.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <vector>

namespace invert::search_internal {

float ExactPhraseFreq(std::span<const PhraseTermPositions> terms) {
  float count = 0;
  for (int32_t lead : terms[0].positions) {
    const int64_t start = int64_t{lead} - terms[0].offset;
    bool all = true;
    for (size_t i = 1; i < terms.size() && all; ++i) {
      const int64_t want = start + terms[i].offset;
      all = std::binary_search(terms[i].positions.begin(), terms[i].positions.end(), want,
                               [](int64_t a, int64_t b) { return a < b; });
    }
    if (all) count += 1;
  }
  return count;
}

namespace {

// The first j in [j, n) with p[j] >= want, or n: doubling steps from j, then
// a binary search of the last step.
inline size_t GallopTo(const uint32_t* p, size_t j, size_t n, int64_t want) {
  size_t step = 1;
  size_t hi = j;
  while (hi < n && int64_t{p[hi]} < want) {
    j = hi + 1;
    hi += step;
    step *= 2;
  }
  return static_cast<size_t>(
      std::lower_bound(p + j, p + std::min(hi, n), want,
                       [](uint32_t a, int64_t b) { return int64_t{a} < b; }) -
      p);
}

}  // namespace

size_t ExactPhrasePlaces(const PhraseTermPostings& lead, std::vector<int64_t>* places) {
  const std::span<const uint32_t> p = lead.positions;
  if (places->size() < p.size()) places->resize(p.size());
  int64_t* at = places->data();
  for (size_t k = 0; k < p.size(); ++k) at[k] = int64_t{p[k]} - lead.offset;
  return p.size();
}

size_t ExactPhraseKeep(const PhraseTermPostings& term, std::vector<int64_t>* places, size_t kept) {
  int64_t* at = places->data();
  const uint32_t* p = term.positions.data();
  const size_t n = term.positions.size();
  const int64_t offset = term.offset;
  const bool gallop = n > 8 * kept;
  size_t j = 0;
  size_t out = 0;
  for (size_t k = 0; k < kept; ++k) {
    const int64_t want = at[k] + offset;
    if (gallop) {
      j = GallopTo(p, j, n, want);
    } else {
      while (j < n && int64_t{p[j]} < want) ++j;
    }
    if (j == n) break;
    if (int64_t{p[j]} == want) {
      at[out++] = at[k];
      ++j;
    }
  }
  return out;
}

uint32_t ExactPhrasePairCount(const PhraseTermPostings& a, const PhraseTermPostings& b,
                              std::vector<int64_t>* places) {
  const size_t na = a.positions.size();
  const size_t nb = b.positions.size();
  if (na > 8 * nb || nb > 8 * na) {
    const PhraseTermPostings terms[2] = {a, b};
    return ExactPhraseCount(terms, places);
  }
  // a's position x and b's position y match when x - a.offset == y -
  // b.offset: compare x + shift with y, in 64 bits.
  const int64_t shift = int64_t{b.offset} - a.offset;
  const uint32_t* pa = a.positions.data();
  const uint32_t* pb = b.positions.data();
  size_t i = 0;
  size_t j = 0;
  uint32_t count = 0;
  while (i < na && j < nb) {
    const int64_t x = int64_t{pa[i]} + shift;
    const int64_t y = pb[j];
    count += x == y ? 1 : 0;
    i += x <= y ? 1 : 0;
    j += y <= x ? 1 : 0;
  }
  return count;
}

uint32_t ExactPhraseCount(std::span<const PhraseTermPostings> terms, std::vector<int64_t>* places) {
  size_t lead = 0;
  for (size_t i = 1; i < terms.size(); ++i) {
    if (terms[i].positions.size() < terms[lead].positions.size()) lead = i;
  }
  size_t kept = ExactPhrasePlaces(terms[lead], places);
  for (size_t i = 0; i < terms.size() && kept > 0; ++i) {
    if (i != lead) kept = ExactPhraseKeep(terms[i], places, kept);
  }
  return static_cast<uint32_t>(kept);
}

namespace {

// The walk of SloppyPhraseFreq over one document.
class SloppyWalk {
 public:
  SloppyWalk(std::span<const PhraseTermPositions> terms, uint32_t slop) : slop_(slop) {
    // One walk per matching document: no heap allocation for the usual
    // short phrase without repeated terms.
    if (terms.size() <= kInlineCursors) {
      cursors_ = std::span<Cursor>(inline_cursors_.data(), terms.size());
    } else {
      heap_cursors_.resize(terms.size());
      cursors_ = heap_cursors_;
    }
    for (size_t i = 0; i < terms.size(); ++i) {
      cursors_[i].positions = terms[i].positions;
      cursors_[i].offset = terms[i].offset;
    }
    FormGroups(terms);
  }

  float Frequency() {
    positioned_ = Start();
    float freq = 0;
    while (NextMatch()) freq += 1.0f / (1.0f + static_cast<float>(match_length_));
    return freq;
  }

 private:
  struct Cursor {
    std::span<const int32_t> positions;
    size_t next = 0;       // index of the next position to read
    int64_t position = 0;  // document position - offset
    int32_t offset = 0;
    int group = -1;         // index into groups_, or -1
    bool in_queue = false;  // not the cursor being advanced
  };

  int64_t Pos(int c) const { return cursors_[c].position; }
  int64_t DocPos(int c) const { return cursors_[c].position + cursors_[c].offset; }

  // Groups of cursors of one repeated term at different offsets (Lucene's
  // rule: the first ungrouped cursor collects the later ungrouped ones of
  // its term with another offset), each sorted by offset.
  void FormGroups(std::span<const PhraseTermPositions> terms) {
    const int n = static_cast<int>(terms.size());
    bool any = false;
    for (int i = 0; i < n && !any; ++i) {
      for (int j = i + 1; j < n && !any; ++j) any = terms[j].term_id == terms[i].term_id;
    }
    if (!any) return;
    std::vector<int> repeating;
    for (int i = 0; i < n; ++i) {
      int same = 0;
      for (int j = 0; j < n; ++j) same += terms[j].term_id == terms[i].term_id;
      if (same > 1) repeating.push_back(i);
    }
    for (size_t a = 0; a < repeating.size(); ++a) {
      const int i = repeating[a];
      if (cursors_[i].group >= 0) continue;
      for (size_t b = a + 1; b < repeating.size(); ++b) {
        const int j = repeating[b];
        if (cursors_[j].group >= 0 || terms[j].offset == terms[i].offset ||
            terms[j].term_id != terms[i].term_id) {
          continue;
        }
        if (cursors_[i].group < 0) {
          cursors_[i].group = static_cast<int>(groups_.size());
          groups_.push_back({i});
        }
        cursors_[j].group = cursors_[i].group;
        groups_[cursors_[i].group].push_back(j);
      }
    }
    for (std::vector<int>& g : groups_) {
      std::stable_sort(g.begin(), g.end(),
                       [&](int x, int y) { return cursors_[x].offset < cursors_[y].offset; });
    }
  }

  bool Step(int c) {
    Cursor& cur = cursors_[c];
    if (cur.next >= cur.positions.size()) return false;
    cur.position = int64_t{cur.positions[cur.next++]} - cur.offset;
    end_ = std::max(end_, cur.position);
    return true;
  }

  // Every cursor on its first position (the k-th of a group on its k-th),
  // all queued. False if some cursor runs out.
  bool Start() {
    end_ = INT64_MIN;
    for (int c = 0; c < static_cast<int>(cursors_.size()); ++c) {
      cursors_[c].next = 0;
      cursors_[c].in_queue = true;
      if (!Step(c)) return false;
    }
    for (const std::vector<int>& g : groups_) {
      for (size_t k = 1; k < g.size(); ++k) {
        for (size_t s = 0; s < k; ++s) {
          if (!Step(g[k])) return false;
        }
      }
    }
    return true;
  }

  // The queued cursor with the smallest phrase position (ties: smaller
  // offset, then phrase order).
  int Top() const {
    int best = -1;
    for (int c = 0; c < static_cast<int>(cursors_.size()); ++c) {
      if (!cursors_[c].in_queue) continue;
      if (best < 0 || Pos(c) < Pos(best) ||
          (Pos(c) == Pos(best) && cursors_[c].offset < cursors_[best].offset)) {
        best = c;
      }
    }
    return best;
  }
  int Pop() {
    const int c = Top();
    cursors_[c].in_queue = false;
    return c;
  }

  // Moves cursors of c's group until none shares a document position.
  bool SeparateRepeats(int c) {
    const int group = cursors_[c].group;
    if (group < 0) return true;
    for (;;) {
      int other = -1;
      for (int m : groups_[group]) {
        if (m != c && DocPos(m) == DocPos(c)) {
          other = m;
          break;
        }
      }
      if (other < 0) return true;
      const bool c_behind = Pos(c) < Pos(other) ||
                            (Pos(c) == Pos(other) && cursors_[c].offset < cursors_[other].offset);
      if (!c_behind) c = other;
      if (!Step(c)) return false;
    }
  }

  bool NextMatch() {
    if (!positioned_) return false;
    int c = Pop();
    match_length_ = end_ - Pos(c);
    int64_t next = Pos(Top());
    while (Step(c)) {
      if (!groups_.empty() && !SeparateRepeats(c)) break;
      if (Pos(c) > next) {
        cursors_[c].in_queue = true;
        if (match_length_ <= slop_) return true;
        c = Pop();
        next = Pos(Top());
        match_length_ = end_ - Pos(c);
      } else {
        match_length_ = std::min(match_length_, end_ - Pos(c));
      }
    }
    positioned_ = false;
    return match_length_ <= slop_;
  }

  static constexpr size_t kInlineCursors = 8;
  const int64_t slop_;
  std::array<Cursor, kInlineCursors> inline_cursors_;
  std::vector<Cursor> heap_cursors_;  // more terms than kInlineCursors
  std::span<Cursor> cursors_;
  std::vector<std::vector<int>> groups_;
  int64_t end_ = INT64_MIN;
  int64_t match_length_ = 0;
  bool positioned_ = false;
};

}  // namespace

float SloppyPhraseFreq(std::span<const PhraseTermPositions> terms, uint32_t slop) {
  return SloppyWalk(terms, slop).Frequency();
}

float SloppyPairFreq(const PhraseTermPositions& a, const PhraseTermPositions& b, uint32_t slop) {
  const std::span<const int32_t> as = a.positions;
  const std::span<const int32_t> bs = b.positions;
  if (as.empty() || bs.empty()) return 0;  // Start: a cursor runs out
  // SloppyWalk with two cursors: pa, pb their phrase positions, end the
  // largest phrase position stepped on (the larger of the two, as each
  // only moves up). The popped cursor is the one with the smaller phrase
  // position (ties: smaller offset, then a), `next` the other's.
  int64_t pa = int64_t{as[0]} - a.offset;
  int64_t pb = int64_t{bs[0]} - b.offset;
  size_t ia = 1;
  size_t ib = 1;
  int64_t end = std::max(pa, pb);
  const int64_t max_length = slop;
  auto a_first = [&] { return pa < pb || (pa == pb && a.offset <= b.offset); };
  bool on_a = a_first();
  int64_t length = end - (on_a ? pa : pb);
  int64_t next = on_a ? pb : pa;
  float freq = 0;
  for (;;) {
    // Step the popped cursor; when it runs out, the last window counts.
    int64_t at = 0;
    if (on_a) {
      if (ia == as.size()) break;
      at = pa = int64_t{as[ia++]} - a.offset;
    } else {
      if (ib == bs.size()) break;
      at = pb = int64_t{bs[ib++]} - b.offset;
    }
    end = std::max(end, at);
    if (at > next) {
      // Back in the queue: a match if the window was narrow enough; then
      // (as NextMatch's next call starts) pop the smaller of the two.
      if (length <= max_length) freq += 1.0f / (1.0f + static_cast<float>(length));
      on_a = a_first();
      length = end - (on_a ? pa : pb);
      next = on_a ? pb : pa;
    } else {
      length = std::min(length, end - at);
    }
  }
  if (length <= max_length) freq += 1.0f / (1.0f + static_cast<float>(length));
  return freq;
}

}  // namespace invert::search_internal

// Phrase frequencies of one document, from each phrase term's positions in
// it: exact (slop 0) and Lucene 8.8's sloppy frequency. Pure functions, so
// the searcher and the tests' reference compute them alike.
//
// Input: phrase term i has `offsets[i]` (its position in the phrase,
// non-decreasing, the first 0), `term_ids[i]` (equal for equal terms) and
// `positions[i]`, the term's positions in the document, increasing.
//
// Exact: the number of places p where every term i occurs at p + offsets[i].
//
// Sloppy (slop > 0; what Lucene's SloppyPhraseMatcher computes): each term
// i has a cursor over its positions and a "phrase position" (its document
// position - offsets[i]); end is the largest phrase position. Repeatedly:
// take the cursor with the smallest phrase position (ties: smaller offset,
// then smaller i), note next = the smallest phrase position of the others
// and length = end - its phrase position; advance it while it stays <= next
// (each step may raise end, and lowers length to end - its position when
// smaller); when it passes next, the window [its old position, end] was as
// narrow as it gets: a match of `length` if length <= slop, and the walk
// continues with the new smallest cursor. When a cursor runs out, the last
// window counts if length <= slop, and the walk ends. Each match adds
// 1 / (1 + length) (in float) to the frequency.
//
// Repeated terms (the same term at two or more offsets): their cursors must
// never stand on the same document position. At the start, the k-th of a
// term's cursors in offset order starts on the term's k-th position (fewer
// positions than cursors: no match). Whenever a cursor of such a group
// moves onto a position another cursor of its group holds, the one of the
// two that is further behind in phrase positions (the larger offset) moves
// on, repeatedly until no two collide; a cursor running out ends the walk.
// `next` is not recomputed after these moves (as in Lucene). Grouping
// follows Lucene's rule: cursors of the same term at different offsets.
#ifndef INVERT_SEARCH_PHRASE_FREQ_H_
#define INVERT_SEARCH_PHRASE_FREQ_H_

#include <cstdint>
#include <span>
#include <vector>

namespace invert::search_internal {

struct PhraseTermPositions {
  int32_t offset = 0;
  int32_t term_id = 0;
  std::span<const int32_t> positions = {};
};

// REQUIRES: at least two terms, each with at least one position.
float ExactPhraseFreq(std::span<const PhraseTermPositions> terms);
float SloppyPhraseFreq(std::span<const PhraseTermPositions> terms, uint32_t slop);
// SloppyPhraseFreq of a two-term phrase whose terms differ (term ids):
// the same walk and float sums with its two cursors as locals, no queue.
float SloppyPairFreq(const PhraseTermPositions& a, const PhraseTermPositions& b, uint32_t slop);

// A phrase term's positions in one document as the postings give them
// (PostingsCursor::ReadPositions: unsigned, non-decreasing).
struct PhraseTermPostings {
  int32_t offset = 0;
  std::span<const uint32_t> positions = {};
};

// The exact phrase frequency the searcher computes: the number of places p
// (p = a position - its term's offset, in 64 bits) where every term i occurs
// at p + offsets[i], a position of a term matching one place at most; so
// ExactPhraseFreq of the same positions when no term has a position twice
// (and the least, over the terms, of their occurrences at a place when one
// does). A merge of the terms' sorted positions: the rarest term's places
// (ExactPhrasePlaces), then each other term in turn keeps those it holds
// (ExactPhraseKeep), galloping through a term with many more positions than
// places left; stops as soon as none is left. `places` is scratch, reused
// across calls (no allocation once grown).
// REQUIRES: at least two terms, each with at least one position.
uint32_t ExactPhraseCount(std::span<const PhraseTermPostings> terms, std::vector<int64_t>* places);

// The steps of ExactPhraseCount, for a caller that reads a term's positions
// only when it gets to it: sets (*places)[0, n) to the places of `lead`'s n
// positions and returns n; then each ExactPhraseKeep moves the first `kept`
// places that `term` holds to the front, in order, and returns how many.
size_t ExactPhrasePlaces(const PhraseTermPostings& lead, std::vector<int64_t>* places);
size_t ExactPhraseKeep(const PhraseTermPostings& term, std::vector<int64_t>* places, size_t kept);

// ExactPhraseCount of a two-term phrase, without the places: one merge of
// the two position lists (a's shifted by b.offset - a.offset), a match
// taking one position of each; branch-free steps, so a mispredicted branch
// per position is not paid. Lists of very different lengths (one over 8
// times the other) are left to ExactPhraseCount's gallop: `places` is its
// scratch.
uint32_t ExactPhrasePairCount(const PhraseTermPostings& a, const PhraseTermPostings& b,
                              std::vector<int64_t>* places);

}  // namespace invert::search_internal

#endif  // INVERT_SEARCH_PHRASE_FREQ_H_

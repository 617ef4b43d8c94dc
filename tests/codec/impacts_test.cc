// Impacts (codec/impacts.h) and their place in the .doc skip headers
// (codec/postings_format.h, .doc version 2 on): ImpactSet against a brute-force
// Pareto frontier, the encoding round trip and its rejects, and a
// PostingsWriter/PostingsCursor round trip of random terms with random
// norms: every full block's impacts, shallow advances to random targets
// interleaved with NextDoc/Advance, and a version-1 file read without impacts.
#include "codec/impacts.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "codec/postings_format.h"
#include "gtest/gtest.h"
#include "postings_fixture.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "util/random.h"
#include "util/varint.h"

namespace invert {
namespace {

using testing::BruteFrontier;

TEST(ImpactsTest, SetEqualsBruteForceFrontier) {
  Random rng(testing::TestSeed(1313));
  ImpactSet set;
  std::vector<Impact> got;
  for (int round = 0; round < 2000; ++round) {
    std::vector<Impact> pairs(1 + rng.Uniform(200));
    const uint32_t max_freq = rng.Bernoulli(0.5) ? 4 : 100000;
    const uint32_t max_norm = rng.Bernoulli(0.3) ? 3 : 255;
    for (Impact& p : pairs) {
      p.freq = static_cast<uint32_t>(1 + rng.Uniform(max_freq));
      p.norm = static_cast<uint8_t>(rng.Uniform(max_norm + 1));
      set.Add(p.freq, p.norm);
    }
    set.Take(&got);
    ASSERT_EQ(got, BruteFrontier(pairs)) << "round " << round;
    EXPECT_TRUE(set.empty());
    std::string bytes;
    EncodeImpacts(got, &bytes);
    std::vector<Impact> back;
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    ASSERT_TRUE(DecodeImpacts(p, p + bytes.size(), &back));
    EXPECT_EQ(back, got);
  }
}

TEST(ImpactsTest, EncodingBytesAndRejects) {
  std::string bytes;
  EncodeImpacts(std::vector<Impact>{{1, 0}, {3, 12}, {200, 255}}, &bytes);
  // (1 - 0, 0 - 0), (3 - 1, 12 - 0), (200 - 3 = VInt c5 01, 255 - 12).
  EXPECT_EQ(bytes, std::string("\x01\x00\x02\x0c\xc5\x01\xf3", 7));
  std::vector<Impact> out;
  auto decode = [&out](std::string_view b) {
    const auto* p = reinterpret_cast<const uint8_t*>(b.data());
    return DecodeImpacts(p, p + b.size(), &out);
  };
  EXPECT_TRUE(decode(bytes));
  EXPECT_FALSE(decode(std::string_view()));                       // empty
  EXPECT_FALSE(decode(std::string_view("\x00\x01", 2)));          // freq delta 0
  EXPECT_FALSE(decode(std::string_view("\x01\x01\x01\x00", 4)));  // norm not ascending
  EXPECT_FALSE(decode(std::string_view("\x01\xf0\x01\x20", 4)));  // norm past 255
  EXPECT_FALSE(decode(std::string_view("\x01", 1)));              // truncated
  EXPECT_FALSE(decode(std::string_view("\xff\xff\xff\xff\x0f\x01\x01\x01", 8)));  // freq > 2^32-1
}

// The plain decoder ForEachImpact must agree with: one VInt and one byte per
// pair, every check made as the pair is read.
bool ReferenceDecode(const uint8_t* p, const uint8_t* end, std::vector<Impact>* out) {
  out->clear();
  uint64_t freq = 0;
  uint32_t norm = 0;
  while (p < end) {
    uint32_t freq_delta = 0;
    if (!DecodeVInt32(&p, end, &freq_delta) || freq_delta == 0 || p == end) return false;
    const uint8_t norm_delta = *p++;
    if (norm_delta == 0 && !out->empty()) return false;
    freq += freq_delta;
    norm += norm_delta;
    if (freq > UINT32_MAX || norm > 255 || out->size() == kMaxImpacts) return false;
    out->push_back({static_cast<uint32_t>(freq), static_cast<uint8_t>(norm)});
  }
  return !out->empty();
}

// ForEachImpact (through DecodeImpacts) against ReferenceDecode on valid
// frontiers and on damaged ones: bytes flipped, zeroed, cut, appended, and
// freqs near 2^32: the same verdict, and on success the same pairs.
TEST(ImpactsTest, DecodeAgreesWithPlainDecoderOnDamagedBytes) {
  const uint64_t seed = testing::TestSeed(5151);
  Random rng(seed);
  int accepted = 0;
  int rejected = 0;
  for (int round = 0; round < 20000; ++round) {
    std::vector<Impact> frontier;
    uint32_t freq = rng.Bernoulli(0.1) ? UINT32_MAX - 300 : 0;
    uint32_t norm = static_cast<uint32_t>(rng.Uniform(3));
    const size_t pairs = 1 + rng.Uniform(rng.Bernoulli(0.05) ? 300 : 40);
    for (size_t i = 0; i < pairs && norm <= 255; ++i) {
      freq += static_cast<uint32_t>(1 + rng.Uniform(rng.Bernoulli(0.2) ? 1000 : 100));
      frontier.push_back({freq, static_cast<uint8_t>(norm)});
      norm += static_cast<uint32_t>(1 + rng.Uniform(rng.Bernoulli(0.5) ? 2 : 20));
    }
    std::string bytes;
    EncodeImpacts(frontier, &bytes);
    switch (rng.Uniform(6)) {
      case 0:
        break;  // as written
      case 1:
        bytes[rng.Uniform(bytes.size())] ^= static_cast<char>(1 + rng.Uniform(255));
        break;
      case 2:
        bytes[rng.Uniform(bytes.size())] = 0;
        break;
      case 3:
        bytes.resize(rng.Uniform(bytes.size()));
        break;
      case 4:
        bytes.push_back(static_cast<char>(rng.Uniform(256)));
        break;
      default:
        for (size_t i = 0, n = 1 + rng.Uniform(3); i < n; ++i) {
          bytes[rng.Uniform(bytes.size())] = static_cast<char>(rng.Uniform(256));
        }
    }
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    std::vector<Impact> want;
    std::vector<Impact> got;
    const bool want_ok = ReferenceDecode(p, p + bytes.size(), &want);
    const bool got_ok = DecodeImpacts(p, p + bytes.size(), &got);
    ASSERT_EQ(got_ok, want_ok) << "seed " << seed << " round " << round;
    if (want_ok) {
      ASSERT_EQ(got, want) << "seed " << seed << " round " << round;
      ++accepted;
    } else {
      ++rejected;
    }
  }
  // Both verdicts were exercised.
  EXPECT_GT(accepted, 2000);
  EXPECT_GT(rejected, 2000);
}

struct Posting {
  uint32_t doc;
  uint32_t freq;
  uint8_t norm;
};

// What AdvanceShallow(target) must answer for a term with these postings:
// the full block holding the first doc >= target (its last doc and
// frontier), or kNoMoreDocs past the full blocks.
std::pair<uint32_t, std::vector<Impact>> Expected(const std::vector<Posting>& postings,
                                                  uint32_t target) {
  const size_t full = postings.size() / kForBlockSize * kForBlockSize;
  size_t i = 0;
  while (i < postings.size() && postings[i].doc < target) ++i;
  if (i >= full) return {PostingsCursor::kNoMoreDocs, {}};
  const size_t first = i / kForBlockSize * kForBlockSize;
  std::vector<Impact> pairs;
  for (size_t j = first; j < first + kForBlockSize; ++j) {
    pairs.push_back({postings[j].freq, postings[j].norm});
  }
  return {postings[first + kForBlockSize - 1].doc, BruteFrontier(pairs)};
}

TEST(ImpactsTest, PostingsRoundTripWithShallowAdvance) {
  const uint64_t seed = testing::TestSeed(2424);
  Random rng(seed);
  for (IndexOptions options : {IndexOptions::kDocs, IndexOptions::kDocsAndFreqs,
                               IndexOptions::kDocsAndFreqsAndPositions}) {
    SCOPED_TRACE(static_cast<int>(options));
    testing::ScratchDir scratch;
    auto dir = scratch.Open();
    FieldType type = FieldType::Text();
    type.index_options = options;
    const bool freqs = HasFreqs(options);
    const bool positions = HasPositions(options);
    absl::StatusOr<std::unique_ptr<PostingsWriter>> writer =
        PostingsWriter::Create(dir.get(), "_0", SegmentId{});
    ASSERT_TRUE(writer.ok()) << writer.status();
    (*writer)->StartField(FieldInfo{"f", 0, type});
    std::vector<std::vector<Posting>> terms;
    std::vector<TermStats> stats;
    for (int t = 0; t < 12; ++t) {
      const size_t n = t < 2 ? 2 + rng.Uniform(126) : rng.Range(128, 3000);
      std::vector<Posting> postings;
      uint32_t doc = static_cast<uint32_t>(rng.Uniform(5));
      const uint32_t gap = static_cast<uint32_t>(1 + rng.Uniform(6));
      for (size_t i = 0; i < n; ++i) {
        const uint32_t freq =
            freqs ? static_cast<uint32_t>(1 + rng.Uniform(rng.Bernoulli(0.1) ? 50 : 4)) : 1;
        postings.push_back(
            {doc, freq, static_cast<uint8_t>(1 + rng.Uniform(t % 3 == 0 ? 4 : 255))});
        doc += static_cast<uint32_t>(1 + rng.Uniform(gap));
      }
      (*writer)->StartTerm();
      for (const Posting& p : postings) {
        (*writer)->AddDoc(p.doc, p.freq, p.norm);
        for (uint32_t i = 0; positions && i < p.freq; ++i) (*writer)->AddPosition(i, 0, 0, "");
      }
      const std::string term = "t" + std::to_string(10 + t);
      ASSERT_TRUE((*writer)->FinishTerm(term).ok());
      if (!freqs) {
        for (Posting& p : postings) p.freq = 1;
      }
      terms.push_back(std::move(postings));
    }
    ASSERT_TRUE((*writer)->FinishField(1).ok());
    ASSERT_TRUE((*writer)->Finish().ok());
    // Term stats back from the dictionary.
    absl::StatusOr<std::unique_ptr<TermsReader>> reader = TermsReader::Open(dir.get(), "_0", {});
    ASSERT_TRUE(reader.ok()) << reader.status();
    TermDictCursor cursor = (*reader)->Field(0)->NewCursor();
    while (true) {
      absl::StatusOr<bool> next = cursor.Next();
      ASSERT_TRUE(next.ok());
      if (!*next) break;
      stats.push_back(cursor.stats());
    }
    ASSERT_EQ(stats.size(), terms.size());
    absl::StatusOr<IndexInput> doc_in = OpenInput(dir.get(), "_0.doc");
    absl::StatusOr<IndexInput> pos_in = OpenInput(dir.get(), "_0.pos");
    ASSERT_TRUE(doc_in.ok() && pos_in.ok());
    const std::span<const uint8_t> doc_file = doc_in->bytes().first(doc_in->length() - 16);
    const std::span<const uint8_t> pos_file = pos_in->bytes().first(pos_in->length() - 16);
    for (size_t t = 0; t < terms.size(); ++t) {
      SCOPED_TRACE("term " + std::to_string(t));
      const std::vector<Posting>& postings = terms[t];
      {  // Every block in turn, from a fresh cursor.
        PostingsCursor c(doc_file, pos_file, stats[t], type);
        EXPECT_EQ(c.has_impacts(), freqs);
        for (size_t first = 0; first < postings.size(); first += kForBlockSize) {
          const auto [last, want] = Expected(postings, postings[first].doc);
          const uint32_t got = c.AdvanceShallow(postings[first].doc);
          ASSERT_EQ(got, freqs ? last : PostingsCursor::kNoMoreDocs) << "block at " << first;
          if (got != PostingsCursor::kNoMoreDocs) {
            EXPECT_EQ(std::vector<Impact>(c.impacts().begin(), c.impacts().end()), want);
          } else {
            ASSERT_EQ(c.impacts().size(), 1u);
            EXPECT_EQ(c.impacts()[0], c.TermImpactBound());
          }
        }
        EXPECT_TRUE(c.status().ok()) << c.status();
        // The whole term: the blocks' frontier and (tail's highest freq, 0).
        std::vector<Impact> term;
        ASSERT_TRUE(c.TermImpacts(&term));
        if (!freqs || postings.size() < kForBlockSize) {
          EXPECT_EQ(term, std::vector<Impact>{c.TermImpactBound()});
        } else {
          const size_t full = postings.size() / kForBlockSize * kForBlockSize;
          std::vector<Impact> pairs;
          for (size_t i = 0; i < postings.size(); ++i) {
            if (i < full) {
              pairs.push_back({postings[i].freq, postings[i].norm});
            } else {
              pairs.push_back({postings[i].freq, 0});
            }
          }
          EXPECT_EQ(term, BruteFrontier(pairs));
        }
      }
      // Random increasing targets; the iterator moves too, now and then.
      for (int walk = 0; walk < 4; ++walk) {
        PostingsCursor c(doc_file, pos_file, stats[t], type);
        uint32_t target = 0;
        size_t it = 0;  // index of the iterator's next doc in postings
        while (true) {
          target += static_cast<uint32_t>(rng.Uniform(walk == 0 ? 40 : 400));
          if (it > 0) target = std::max(target, postings[it - 1].doc + 1);  // > doc()
          const auto [last, want] = Expected(postings, target);
          const uint32_t got = c.AdvanceShallow(target);
          if (!freqs) {
            EXPECT_EQ(got, PostingsCursor::kNoMoreDocs);
          } else {
            ASSERT_EQ(got, last) << "target " << target;
            if (got != PostingsCursor::kNoMoreDocs) {
              ASSERT_EQ(std::vector<Impact>(c.impacts().begin(), c.impacts().end()), want);
            }
          }
          // The shallow advance did not move the iterator.
          if (rng.Bernoulli(0.3)) {
            ASSERT_EQ(c.NextDoc(), it < postings.size());
            if (it < postings.size()) {
              ASSERT_EQ(c.doc(), postings[it++].doc);
            }
          } else if (rng.Bernoulli(0.4)) {
            while (it < postings.size() && postings[it].doc < target) ++it;
            ASSERT_EQ(c.Advance(target), it < postings.size());
            if (it < postings.size()) {
              ASSERT_EQ(c.doc(), postings[it].doc);
              ASSERT_EQ(c.freq(), postings[it].freq);
              ++it;
            }
          }
          if (it >= postings.size() || target > postings.back().doc + 500) break;
        }
        EXPECT_TRUE(c.status().ok()) << c.status();
      }
      // A version-1 reading of a term without full blocks: no impacts, and
      // the whole term bounded by its statistics.
      if (postings.size() < kForBlockSize) {
        PostingsCursor c(doc_file, pos_file, stats[t], type, kDocVersionNoImpacts);
        EXPECT_FALSE(c.has_impacts());
        EXPECT_EQ(c.AdvanceShallow(0), PostingsCursor::kNoMoreDocs);
        uint32_t max_freq = 0;
        for (const Posting& p : postings) max_freq = std::max(max_freq, p.freq);
        ASSERT_EQ(c.impacts().size(), 1u);
        EXPECT_GE(c.impacts()[0].freq, max_freq);
        EXPECT_EQ(c.impacts()[0].norm, 0);
        for (const Posting& p : postings) {
          ASSERT_TRUE(c.NextDoc());
          EXPECT_EQ(c.doc(), p.doc);
        }
      }
    }
  }
}

// A filter that records the impacts it is shown and answers from a seeded
// coin: kSkip or kDecode (or kCorrupt when told to).
class CoinFilter final : public PostingsCursor::BlockFilter {
 public:
  explicit CoinFilter(Random* rng) : rng_(rng) {}
  Verdict Judge(const uint8_t* impacts, const uint8_t* end) override {
    std::vector<Impact> decoded;
    if (!DecodeImpacts(impacts, end, &decoded)) return Verdict::kCorrupt;
    judged.push_back(std::move(decoded));
    const Verdict v =
        corrupt ? Verdict::kCorrupt : (rng_->Bernoulli(0.5) ? Verdict::kSkip : Verdict::kDecode);
    verdicts.push_back(v);
    return v;
  }
  std::vector<std::vector<Impact>> judged;
  std::vector<Verdict> verdicts;
  bool corrupt = false;

 private:
  Random* rng_;
};

// AdvanceFiltered against a model of the postings: the groups of 8 blocks
// (.doc version 3) and blocks it judges (not buffered, holding a doc >=
// target; a group first, then, unless it was skipped, its blocks) and their
// impacts, the docs it lands on past the skipped groups and blocks, and the
// freqs and positions read after a skip (the .pos pointer moved over the
// skipped blocks' positions), mixed with NextDoc and plain Advance. The
// coin is no monotonic bound, so a group it skips may hold blocks it would
// have kept: the model follows the cursor's order of judgments exactly.
TEST(ImpactsTest, AdvanceFilteredSkipsTheBlocksItsFilterRejects) {
  const uint64_t seed = testing::TestSeed(3535);
  Random rng(seed);
  for (IndexOptions options :
       {IndexOptions::kDocsAndFreqs, IndexOptions::kDocsAndFreqsAndPositions}) {
    SCOPED_TRACE(static_cast<int>(options));
    const bool positions = HasPositions(options);
    testing::ScratchDir scratch;
    auto dir = scratch.Open();
    FieldType type = FieldType::Text();
    type.index_options = options;
    absl::StatusOr<std::unique_ptr<PostingsWriter>> writer =
        PostingsWriter::Create(dir.get(), "_0", SegmentId{});
    ASSERT_TRUE(writer.ok()) << writer.status();
    (*writer)->StartField(FieldInfo{"f", 0, type});
    // Doc d's positions: d % 997 + 2j, so a position read from another doc
    // (a .pos pointer off by a skipped block) shows.
    auto position = [](uint32_t doc, uint32_t j) { return doc % 997 + 2 * j; };
    std::vector<std::vector<Posting>> terms;
    for (int t = 0; t < 8; ++t) {
      const size_t n = t == 0 ? 100 : rng.Range(128, 4000);
      std::vector<Posting> postings;
      uint32_t doc = static_cast<uint32_t>(rng.Uniform(3));
      for (size_t i = 0; i < n; ++i) {
        const uint32_t freq = static_cast<uint32_t>(1 + rng.Uniform(rng.Bernoulli(0.1) ? 30 : 3));
        postings.push_back({doc, freq, static_cast<uint8_t>(1 + rng.Uniform(200))});
        doc += static_cast<uint32_t>(1 + rng.Uniform(5));
      }
      (*writer)->StartTerm();
      for (const Posting& p : postings) {
        (*writer)->AddDoc(p.doc, p.freq, p.norm);
        for (uint32_t j = 0; positions && j < p.freq; ++j) {
          (*writer)->AddPosition(position(p.doc, j), 0, 0, "");
        }
      }
      ASSERT_TRUE((*writer)->FinishTerm("t" + std::to_string(10 + t)).ok());
      terms.push_back(std::move(postings));
    }
    ASSERT_TRUE((*writer)->FinishField(1).ok());
    ASSERT_TRUE((*writer)->Finish().ok());
    absl::StatusOr<std::unique_ptr<TermsReader>> reader = TermsReader::Open(dir.get(), "_0", {});
    ASSERT_TRUE(reader.ok()) << reader.status();
    std::vector<TermStats> stats;
    TermDictCursor dict = (*reader)->Field(0)->NewCursor();
    while (true) {
      absl::StatusOr<bool> next = dict.Next();
      ASSERT_TRUE(next.ok());
      if (!*next) break;
      stats.push_back(dict.stats());
    }
    ASSERT_EQ(stats.size(), terms.size());
    absl::StatusOr<IndexInput> doc_in = OpenInput(dir.get(), "_0.doc");
    absl::StatusOr<IndexInput> pos_in = OpenInput(dir.get(), "_0.pos");
    ASSERT_TRUE(doc_in.ok() && pos_in.ok());
    const std::span<const uint8_t> doc_file = doc_in->bytes().first(doc_in->length() - 16);
    const std::span<const uint8_t> pos_file = pos_in->bytes().first(pos_in->length() - 16);
    uint64_t judged_total = 0;
    uint64_t skipped_total = 0;
    uint64_t groups_skipped = 0;
    for (size_t t = 0; t < terms.size(); ++t) {
      SCOPED_TRACE("term " + std::to_string(t));
      const std::vector<Posting>& postings = terms[t];
      const size_t n = postings.size();
      const size_t full_blocks = n / kForBlockSize;
      auto block_of = [](size_t i) { return i / kForBlockSize; };
      for (int walk = 0; walk < 6; ++walk) {
        PostingsCursor c(doc_file, pos_file, stats[t], type);
        CoinFilter filter(&rng);
        int64_t cur = -1;  // index of the cursor's doc; -1 before the first move
        uint32_t target = 0;
        for (;;) {
          const int move = static_cast<int>(rng.Uniform(10));
          size_t want = n;  // the model's landing index (n: the end)
          if (move == 0) {  // NextDoc: never judged
            want = static_cast<size_t>(cur + 1);
            ASSERT_EQ(c.NextDoc(), want < n);
          } else {
            target = std::max<uint32_t>(target, cur < 0 ? 0 : postings[cur].doc) +
                     static_cast<uint32_t>(rng.Uniform(walk < 3 ? 60 : 700));
            const bool filtered = move > 2;
            const size_t first_judged = filter.judged.size();
            const bool ok = filtered ? c.AdvanceFiltered(target, &filter) : c.Advance(target);
            // The model: the current doc if it is >= target; else the rest
            // of the buffered block; else the blocks after it, judged when
            // they hold a doc >= target; else the tail, never judged.
            size_t judged = first_judged;
            if (cur >= 0 && postings[cur].doc >= target) {
              want = static_cast<size_t>(cur);
            } else {
              size_t i = static_cast<size_t>(cur + 1);
              const size_t buffered_end =
                  cur < 0 ? 0
                          : std::min(n, (block_of(static_cast<size_t>(cur)) + 1) * kForBlockSize);
              while (i < buffered_end && postings[i].doc < target) ++i;
              if (i < buffered_end) {
                want = i;
              } else {
                for (size_t b = cur < 0 ? 0 : block_of(static_cast<size_t>(cur)) + 1;; ++b) {
                  if (b >= full_blocks) {  // the tail
                    i = std::max(i, b * kForBlockSize);
                    while (i < n && postings[i].doc < target) ++i;
                    want = i;
                    break;
                  }
                  if (b % kSkipGroupBlocks == 0 && b + kSkipGroupBlocks <= full_blocks) {
                    // A group none of whose blocks is buffered: its level-1 header.
                    const size_t group_begin = b * kForBlockSize;
                    const size_t group_end = group_begin + kSkipGroupDocs;
                    bool pass = postings[group_end - 1].doc < target;
                    if (!pass && filtered) {
                      ASSERT_LT(judged, filter.judged.size()) << "group at " << b << " not judged";
                      std::vector<Impact> pairs;
                      for (size_t j = group_begin; j < group_end; ++j) {
                        pairs.push_back({postings[j].freq, postings[j].norm});
                      }
                      ASSERT_EQ(filter.judged[judged], BruteFrontier(pairs)) << "group at " << b;
                      pass =
                          filter.verdicts[judged++] == PostingsCursor::BlockFilter::Verdict::kSkip;
                      groups_skipped += pass ? 1 : 0;
                    }
                    if (pass) {
                      b += kSkipGroupBlocks - 1;
                      continue;
                    }
                  }
                  const size_t begin = b * kForBlockSize;
                  const size_t end = begin + kForBlockSize;
                  if (postings[end - 1].doc < target) continue;
                  if (filtered) {
                    ASSERT_LT(judged, filter.judged.size()) << "block " << b << " not judged";
                    std::vector<Impact> pairs;
                    for (size_t j = begin; j < end; ++j) {
                      pairs.push_back({postings[j].freq, postings[j].norm});
                    }
                    ASSERT_EQ(filter.judged[judged], BruteFrontier(pairs)) << "block " << b;
                    const bool skip =
                        filter.verdicts[judged++] == PostingsCursor::BlockFilter::Verdict::kSkip;
                    skipped_total += skip ? 1 : 0;
                    if (skip) continue;
                  }
                  i = begin;
                  while (postings[i].doc < target) ++i;
                  want = i;
                  break;
                }
              }
            }
            ASSERT_EQ(filter.judged.size(), judged) << "target " << target;
            judged_total += judged - first_judged;
            ASSERT_EQ(ok, want < n) << "target " << target;
          }
          if (want >= n) break;
          const bool moved = static_cast<int64_t>(want) != cur;
          cur = static_cast<int64_t>(want);
          ASSERT_EQ(c.doc(), postings[cur].doc);
          ASSERT_EQ(c.freq(), postings[cur].freq);
          if (positions && moved && rng.Bernoulli(0.5)) {  // once per doc
            for (uint32_t j = 0; j < postings[cur].freq; ++j) {
              ASSERT_TRUE(c.NextPosition()) << c.status();
              ASSERT_EQ(c.position(), position(postings[cur].doc, j)) << "doc " << c.doc();
            }
          }
        }
        EXPECT_TRUE(c.status().ok()) << c.status();
      }
    }
    // The walks judged and skipped blocks (so the model above was exercised).
    EXPECT_GT(judged_total, 100u);
    EXPECT_GT(skipped_total, 50u);
    EXPECT_GT(groups_skipped, 5u);
    // A filter answering kCorrupt fails the cursor.
    PostingsCursor c(doc_file, pos_file, stats[1], type);
    CoinFilter corrupt(&rng);
    corrupt.corrupt = true;
    EXPECT_FALSE(c.AdvanceFiltered(terms[1].front().doc, &corrupt));
    EXPECT_EQ(c.status().code(), absl::StatusCode::kDataLoss);
  }
}

}  // namespace
}  // namespace invert

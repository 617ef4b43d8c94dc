// Tests of the term dictionary against a std::map<std::string, TermStats>
// model: random and edge-case terms (empty, 0x00/0xFF bytes, long shared
// prefixes, 32766-byte terms), block-boundary counts, SeekExact / SeekCeil /
// Next / SeekOrdinal in every order, writer argument errors, and corruption:
// every truncation and byte flip of a small dictionary must give an error or
// answers equal to the model (run under ASan).
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/byte_io.h"
#include "codec/term_dict_format.h"
#include "codec/term_dict_reader.h"
#include "codec/term_dict_writer.h"
#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using Model = std::map<std::string, TermStats>;
using SeekResult = TermDictCursor::SeekResult;

std::string RandomTerm(Random& rng) {
  const uint64_t kind = rng.Uniform(10);
  std::string s;
  if (kind == 0) {  // any bytes, 0x00 and 0xFF included
    s.resize(rng.Uniform(6));
    for (char& c : s) c = static_cast<char>(rng.Uniform(256));
  } else if (kind == 1) {  // long shared prefixes
    s = std::string(rng.Uniform(300), 'p');
    s += static_cast<char>('a' + rng.Uniform(3));
    s += std::string(rng.Uniform(3), static_cast<char>(rng.Uniform(256)));
  } else {
    s.resize(1 + rng.Uniform(10));
    for (char& c : s) c = static_cast<char>('a' + rng.Uniform(kind == 2 ? 26 : 4));
  }
  return s;
}

// Stats that satisfy the writer's REQUIREs, in term order.
void FillStats(Random& rng, Model* model, bool has_pos, bool has_pay) {
  uint64_t doc = 0, pos = 0, pay = 0;
  for (auto& [term, stats] : *model) {
    const uint64_t kind = rng.Uniform(4);
    stats.doc_freq = kind == 0 ? 1 : static_cast<uint32_t>(rng.Next() >> rng.Uniform(33));
    stats.total_term_freq = kind == 1 ? rng.Next() >> rng.Uniform(64) : stats.doc_freq;
    if (stats.doc_freq == 1 && rng.Bernoulli(0.7)) {
      stats.singleton_doc = static_cast<uint32_t>(rng.Next());
    }
    doc += rng.Bernoulli(0.3) ? 0 : rng.Next() >> (24 + rng.Uniform(40));
    stats.doc_offset = doc;
    if (has_pos) stats.pos_offset = pos += rng.Uniform(1000);
    if (has_pay) stats.pay_offset = pay += rng.Uniform(3);
  }
}

std::string Build(const Model& model, TermDictOptions options) {
  std::string out;
  TermDictWriter writer(&out, options);
  for (const auto& [term, stats] : model) {
    const absl::Status status = writer.Add(term, stats);
    EXPECT_TRUE(status.ok()) << status;
  }
  EXPECT_TRUE(writer.Finish().ok());
  EXPECT_EQ(writer.term_count(), model.size());
  EXPECT_EQ(writer.bytes_written(), out.size());
  return out;
}

// Full check of a well-formed dictionary against the model.
void CheckDict(const std::string& bytes, const Model& model, Random& rng, uint32_t block_terms) {
  absl::StatusOr<TermDictReader> reader = TermDictReader::Open(AsBytes(bytes));
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_EQ(reader->term_count(), model.size());
  ASSERT_EQ(reader->block_terms(), block_terms);

  std::vector<std::string> terms;
  for (const auto& entry : model) terms.push_back(entry.first);

  // Full iteration.
  TermDictCursor cursor = reader->NewCursor();
  uint64_t ordinal = 0;
  for (const auto& [term, stats] : model) {
    absl::StatusOr<bool> next = cursor.Next();
    ASSERT_TRUE(next.ok() && *next) << ordinal;
    ASSERT_EQ(cursor.term(), term);
    ASSERT_EQ(cursor.stats(), stats) << ordinal;
    ASSERT_EQ(cursor.ordinal(), ordinal++);
  }
  ASSERT_FALSE(*cursor.Next());
  ASSERT_FALSE(cursor.valid());
  ASSERT_FALSE(*cursor.Next());

  // SeekExact of every term, in random order, then in order on one cursor.
  std::vector<size_t> order(terms.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.Uniform(i)]);
  for (size_t i : order) {
    absl::StatusOr<bool> found = cursor.SeekExact(terms[i]);
    ASSERT_TRUE(found.ok() && *found) << i;
    ASSERT_EQ(cursor.term(), terms[i]);
    ASSERT_EQ(cursor.stats(), model.at(terms[i]));
    ASSERT_EQ(cursor.ordinal(), i);
    // Next continues in order from any position.
    absl::StatusOr<bool> next = cursor.Next();
    ASSERT_TRUE(next.ok());
    ASSERT_EQ(*next, i + 1 < terms.size());
    if (*next) {
      ASSERT_EQ(cursor.term(), terms[i + 1]);
    }
  }
  TermDictCursor forward = reader->NewCursor();
  for (size_t i = 0; i < terms.size(); ++i) {
    ASSERT_TRUE(*forward.SeekExact(terms[i])) << i;
    ASSERT_EQ(forward.ordinal(), i);
  }

  // SeekCeil on present and absent targets: random, between neighbours
  // (term + "\0" sorts right after term), before and after all terms.
  std::vector<std::string> targets;
  for (int i = 0; i < 300; ++i) targets.push_back(RandomTerm(rng));
  for (size_t i = 0; i < terms.size(); i += 1 + terms.size() / 100) {
    targets.push_back(terms[i]);
    targets.push_back(terms[i] + std::string(1, '\0'));
    if (!terms[i].empty()) targets.push_back(terms[i].substr(0, terms[i].size() - 1));
  }
  targets.push_back("");
  targets.push_back(std::string(40, '\xff'));
  if (!terms.empty()) targets.push_back(terms.back() + "\x01");
  std::sort(targets.begin(), targets.end());  // in-order seeks reuse the block
  for (int pass = 0; pass < 2; ++pass) {
    TermDictCursor seeker = reader->NewCursor();
    for (const std::string& target : targets) {
      auto it = model.lower_bound(target);
      absl::StatusOr<SeekResult> result = seeker.SeekCeil(target);
      ASSERT_TRUE(result.ok()) << result.status();
      if (it == model.end()) {
        ASSERT_EQ(*result, SeekResult::kEnd);
        ASSERT_FALSE(seeker.valid());
        ASSERT_FALSE(*seeker.Next());
        continue;
      }
      ASSERT_EQ(*result, it->first == target ? SeekResult::kFound : SeekResult::kNotFound);
      ASSERT_EQ(seeker.term(), it->first);
      ASSERT_EQ(seeker.stats(), it->second);
      ASSERT_EQ(seeker.ordinal(), static_cast<uint64_t>(std::distance(model.begin(), it)));
      absl::StatusOr<bool> exact = seeker.SeekExact(target);
      ASSERT_TRUE(exact.ok());
      ASSERT_EQ(*exact, it->first == target);
      if (!*exact) {
        EXPECT_FALSE(seeker.valid());
        EXPECT_EQ(seeker.Next().status().code(), absl::StatusCode::kFailedPrecondition);
      }
    }
    for (size_t i = targets.size(); i > 1; --i) std::swap(targets[i - 1], targets[rng.Uniform(i)]);
  }

  // SeekOrdinal, random order.
  for (int i = 0; i < 200 && !terms.empty(); ++i) {
    const uint64_t ord = rng.Uniform(terms.size());
    ASSERT_TRUE(*cursor.SeekOrdinal(ord));
    ASSERT_EQ(cursor.term(), terms[ord]);
    ASSERT_EQ(cursor.ordinal(), ord);
  }
  ASSERT_FALSE(*cursor.SeekOrdinal(terms.size()));
  ASSERT_FALSE(cursor.valid());
}

TEST(TermDictTest, MatchesMapModel) {
  Random rng(testing::TestSeed(301));
  for (uint32_t block_terms : {1u, 2u, 3u, 32u, 48u, 64u}) {
    for (size_t count :
         {size_t{0}, size_t{1}, size_t{2}, size_t{block_terms - 1}, size_t{block_terms},
          size_t{block_terms + 1}, size_t{2 * block_terms}, size_t{5000}}) {
      Model model;
      while (model.size() < count) model.emplace(RandomTerm(rng), TermStats{});
      const bool has_pos = rng.Bernoulli(0.5);
      const bool has_pay = has_pos && rng.Bernoulli(0.5);
      FillStats(rng, &model, has_pos, has_pay);
      const std::string bytes = Build(model, {block_terms, has_pos, has_pay});
      SCOPED_TRACE(::testing::Message() << "block_terms " << block_terms << " count " << count);
      CheckDict(bytes, model, rng, block_terms);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(TermDictTest, EdgeCaseTerms) {
  Random rng(testing::TestSeed(302));
  Model model;
  const std::string max_x(term_dict::kMaxTermLength, 'x');
  for (const std::string& term :
       {std::string(), std::string(1, '\0'), std::string(2, '\0'), std::string("\0\xff", 2),
        std::string(1, '\xff'), std::string(3, '\xff'),
        std::string(term_dict::kMaxTermLength, '\xff'), max_x, max_x.substr(1) + "y",
        std::string(term_dict::kMaxTermLength - 1, 'x'), std::string(5000, 'x') + "a",
        std::string(5000, 'x') + "b", std::string("a"), std::string("ab"), std::string("abc"),
        std::string("abd")}) {
    model.emplace(term, TermStats{});
  }
  FillStats(rng, &model, true, true);
  for (uint32_t block_terms : {1u, 2u, 4u, 32u}) {
    CheckDict(Build(model, {block_terms, true, true}), model, rng, block_terms);
  }
  // A dictionary holding only the empty term.
  Model empty_only = {{"", TermStats{.doc_freq = 1, .total_term_freq = 1, .singleton_doc = 7}}};
  CheckDict(Build(empty_only, {}), empty_only, rng, 32);
}

std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size();) {
    if (hex[i] == ' ') {
      ++i;
      continue;
    }
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
    i += 2;
  }
  return out;
}

// The worked example of docs/codec-primitives.md section 3.
TEST(TermDictTest, GoldenBytes) {
  std::string out;
  TermDictWriter writer(&out, {.block_terms = 2, .has_pay_offsets = false});
  ASSERT_TRUE(writer.Add("apple", {.doc_freq = 1, .total_term_freq = 1, .singleton_doc = 42}).ok());
  ASSERT_TRUE(
      writer.Add("apply", {.doc_freq = 3, .total_term_freq = 5, .doc_offset = 10, .pos_offset = 7})
          .ok());
  ASSERT_TRUE(
      writer
          .Add("banana", {.doc_freq = 2, .total_term_freq = 2, .doc_offset = 25, .pos_offset = 19})
          .ok());
  ASSERT_TRUE(writer.Finish().ok());
  // As printed in the spec, one line per part.
  const std::string expected = FromHex(
      "00 05 61 70 70 6c 65 07 2a 00 00"                   // block 0, entry 0: apple
      "04 01 79 0c 04 0a 07"                               //          entry 1: apply
      "00 06 62 61 6e 61 6e 61 09 19 13"                   // block 1, entry 0: banana
      "00 05 61 70 70 6c 65 12 74 be 0a 3b"                // index: apple, 18 bytes, checksum
      "00 06 62 61 6e 61 6e 61 0b 86 35 80 76"             //        banana, 11 bytes, checksum
      "03 00 00 00 00 00 00 00 1d 00 00 00 00 00 00 00"    // footer: term_count, index_offset
      "02 00 00 00 02 00 01 01 b9 e5 d3 5b 54 44 49 43");  // blocks, bt, flags, ver, sum, magic
  EXPECT_EQ(out, expected);
}

TEST(TermDictTest, WriterRejectsBadInputWithoutChangingOutput) {
  std::string out;
  TermDictWriter writer(&out, {.block_terms = 2});
  TermStats stats{.doc_freq = 2, .total_term_freq = 3, .doc_offset = 10, .pos_offset = 5};
  ASSERT_TRUE(writer.Add("b", stats).ok());
  const auto invalid = [](const absl::Status& s) {
    return s.code() == absl::StatusCode::kInvalidArgument;
  };
  EXPECT_TRUE(invalid(writer.Add("b", stats)));  // duplicate
  EXPECT_TRUE(invalid(writer.Add("a", stats)));  // out of order
  EXPECT_TRUE(invalid(writer.Add(std::string(term_dict::kMaxTermLength + 1, 'z'), stats)));
  TermStats bad = stats;
  bad.singleton_doc = 3;  // with doc_freq 2
  EXPECT_TRUE(invalid(writer.Add("c", bad)));
  bad = stats;
  bad.doc_offset = 9;  // decreasing
  EXPECT_TRUE(invalid(writer.Add("c", bad)));
  bad = stats;
  bad.pos_offset = 4;
  EXPECT_TRUE(invalid(writer.Add("c", bad)));
  ASSERT_TRUE(writer.Add("c", stats).ok());
  ASSERT_TRUE(writer.Finish().ok());
  EXPECT_EQ(writer.Add("d", stats).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(writer.Finish().code(), absl::StatusCode::kFailedPrecondition);
  const Model model = {{"b", stats}, {"c", stats}};
  EXPECT_EQ(out, Build(model, {.block_terms = 2}));

  std::string no_pos;
  TermDictWriter docs_only(&no_pos, {.has_pos_offsets = false, .has_pay_offsets = false});
  EXPECT_TRUE(invalid(docs_only.Add("a", stats)));  // pos_offset set
  std::string bad_options;
  TermDictWriter zero_block(&bad_options, {.block_terms = 0});
  EXPECT_EQ(zero_block.Add("a", {}).code(), absl::StatusCode::kFailedPrecondition);
}

TEST(TermDictTest, EmbeddedInLargerBuffer) {
  Random rng(testing::TestSeed(303));
  Model model;
  while (model.size() < 100) model.emplace(RandomTerm(rng), TermStats{});
  FillStats(rng, &model, true, false);
  std::string file = "HEADER";
  TermDictWriter writer(&file, {.block_terms = 8, .has_pay_offsets = false});
  for (const auto& [term, stats] : model) ASSERT_TRUE(writer.Add(term, stats).ok());
  ASSERT_TRUE(writer.Finish().ok());
  file += "TRAILER";
  // The dictionary is position independent: the same bytes as on its own.
  const std::string dict = file.substr(6, file.size() - 6 - 7);
  EXPECT_EQ(dict, Build(model, {.block_terms = 8, .has_pay_offsets = false}));
  CheckDict(dict, model, rng, 8);
}

// What happened to one corrupt dictionary.
struct Outcomes {
  int open_errors = 0;  // Open() said DataLoss
  int read_errors = 0;  // some read said DataLoss, every other answer matched
  int matched = 0;      // every answer matched the model
  int differed = 0;     // some answer was well formed but not the model's
  std::string Summary() const {
    return absl::StrCat("open errors ", open_errors, ", read errors ", read_errors, ", matched ",
                        matched, ", differed ", differed);
  }
};

// Runs every operation on `bytes`; each must fail with DataLoss or answer,
// and when `must_match`, answer as the model does. Iteration yields strictly
// increasing terms whatever the corruption.
void ExpectErrorOrModel(const std::vector<uint8_t>& bytes, const Model& model,
                        TermDictReaderOptions options, bool must_match, Outcomes* outcomes) {
  absl::StatusOr<TermDictReader> reader = TermDictReader::Open(bytes, options);
  if (!reader.ok()) {
    EXPECT_EQ(reader.status().code(), absl::StatusCode::kDataLoss);
    ++outcomes->open_errors;
    return;
  }
  bool error = false;
  bool differs = false;
  const auto failed = [&](const absl::Status& status) {
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
    error = true;
  };
  TermDictCursor cursor = reader->NewCursor();
  std::string previous;
  auto it = model.begin();
  for (uint64_t n = 0;; ++n) {
    absl::StatusOr<bool> next = cursor.Next();
    if (!next.ok()) {
      failed(next.status());
      break;
    }
    if (*next != (it != model.end())) differs = true;
    if (!*next) break;
    if (n > 0) {
      ASSERT_LT(previous, std::string(cursor.term()));
    }
    previous = cursor.term();
    if (it != model.end()) {
      if (cursor.term() != it->first || cursor.stats() != it->second) differs = true;
      ++it;
    }
  }
  for (const auto& [term, stats] : model) {
    TermDictCursor seeker = reader->NewCursor();
    absl::StatusOr<bool> found = seeker.SeekExact(term);
    if (!found.ok()) {
      failed(found.status());
      continue;
    }
    if (!*found || seeker.stats() != stats) differs = true;
    absl::StatusOr<SeekResult> ceil = seeker.SeekCeil(term + "\x01");
    if (!ceil.ok()) {
      failed(ceil.status());
      continue;
    }
    auto next = model.upper_bound(term);
    if (*ceil != (next == model.end() ? SeekResult::kEnd : SeekResult::kNotFound) ||
        (next != model.end() && seeker.term() != next->first)) {
      differs = true;
    }
  }
  if (must_match) {
    ASSERT_FALSE(differs) << "a corrupt dictionary answered differently from the model";
  }
  ++(differs ? outcomes->differed : error ? outcomes->read_errors : outcomes->matched);
}

Model SmallModel(Random& rng) {
  Model model;
  while (model.size() < 23) model.emplace(RandomTerm(rng).substr(0, 12), TermStats{});
  FillStats(rng, &model, true, true);
  return model;
}

TEST(TermDictTest, EveryTruncationIsAnError) {
  Random rng(testing::TestSeed(304));
  const Model model = SmallModel(rng);
  const std::string bytes = Build(model, {.block_terms = 4});
  for (size_t length = 0; length < bytes.size(); ++length) {
    const std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + length);
    for (bool verify : {true, false}) {
      EXPECT_FALSE(TermDictReader::Open(truncated, {verify}).ok()) << length;
    }
  }
  // Also cut at the front (a wrong start offset).
  Outcomes verified, unverified;
  for (size_t cut = 1; cut < bytes.size(); ++cut) {
    const std::vector<uint8_t> shifted(bytes.begin() + cut, bytes.end());
    ExpectErrorOrModel(shifted, model, {.verify_checksums = true}, /*must_match=*/true, &verified);
    ExpectErrorOrModel(shifted, model, {.verify_checksums = false}, /*must_match=*/false,
                       &unverified);
  }
  std::printf("shifted starts, checksums on:  %s\n", verified.Summary().c_str());
  std::printf("shifted starts, checksums off: %s\n", unverified.Summary().c_str());
}

TEST(TermDictTest, ByteFlipsGiveErrorOrModelAnswers) {
  Random rng(testing::TestSeed(305));
  const Model model = SmallModel(rng);
  const std::string bytes = Build(model, {.block_terms = 4});
  Outcomes verified, unverified;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t mask : {0x01, 0x10, 0x80, 0xff}) {
      std::vector<uint8_t> corrupt(bytes.begin(), bytes.end());
      corrupt[i] ^= mask;
      SCOPED_TRACE(::testing::Message() << "byte " << i << " ^ " << int{mask});
      // With checksums: an error, or exactly the model.
      ExpectErrorOrModel(corrupt, model, {.verify_checksums = true}, /*must_match=*/true,
                         &verified);
      // Without: no crash, no overread, terms still in order.
      ExpectErrorOrModel(corrupt, model, {.verify_checksums = false}, /*must_match=*/false,
                         &unverified);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  std::printf("flips, checksums on:  %s\n", verified.Summary().c_str());
  std::printf("flips, checksums off: %s\n", unverified.Summary().c_str());
  EXPECT_EQ(verified.differed, 0);
  EXPECT_EQ(verified.matched, 0) << "every flip should be detected with checksums on";
}

TEST(TermDictTest, RandomGarbageNeverCrashes) {
  Random rng(testing::TestSeed(306));
  const Model model = SmallModel(rng);
  const std::string bytes = Build(model, {.block_terms = 3});
  Outcomes outcomes;
  for (int round = 0; round < 3000; ++round) {
    std::vector<uint8_t> corrupt(bytes.begin(), bytes.end());
    // Several random bytes anywhere, the footer's magic kept so Open goes on.
    const int changes = 1 + static_cast<int>(rng.Uniform(8));
    for (int c = 0; c < changes; ++c)
      corrupt[rng.Uniform(corrupt.size() - 4)] = static_cast<uint8_t>(rng.Uniform(256));
    ExpectErrorOrModel(corrupt, model, {.verify_checksums = false}, /*must_match=*/false,
                       &outcomes);
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::printf("random bytes, checksums off: %s\n", outcomes.Summary().c_str());
}

}  // namespace
}  // namespace invert

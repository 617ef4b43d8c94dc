// Tests of TokenBuffer against a vector-of-strings model: Add, payloads,
// in-place terms (ReserveTerm/CommitTerm), Truncate, Clear keeping capacity,
// self-referencing adds across a reallocation, and moves; through
// LimitedTokenBuffer, which also shows the bytes held.
#include <string>
#include <vector>

#include "analysis/limited_token_buffer.h"
#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

struct ModelToken {
  std::string term;
  uint32_t position_increment;
  uint32_t start_offset;
  uint32_t end_offset;
  std::string payload;
};

void ExpectSame(const LimitedTokenBuffer& buffer, const std::vector<ModelToken>& model) {
  ASSERT_EQ(buffer.size(), model.size());
  ASSERT_EQ(buffer.empty(), model.empty());
  size_t bytes = 0;
  for (size_t i = 0; i < model.size(); ++i) {
    const AnalyzedToken t = buffer[i];
    ASSERT_EQ(t.term, model[i].term) << i;
    ASSERT_EQ(t.payload, model[i].payload) << i;
    ASSERT_EQ(t.position_increment, model[i].position_increment) << i;
    ASSERT_EQ(t.start_offset, model[i].start_offset) << i;
    ASSERT_EQ(t.end_offset, model[i].end_offset) << i;
    bytes += model[i].term.size() + model[i].payload.size();
  }
  ASSERT_EQ(buffer.arena_bytes(), bytes);
}

std::string RandomBytes(Random& rng, size_t max_length) {
  std::string s(rng.Uniform(max_length + 1), '\0');
  for (char& c : s) c = static_cast<char>(rng.Uniform(256));
  return s;
}

TEST(TokenBufferTest, AddAndRead) {
  LimitedTokenBuffer buffer;
  EXPECT_TRUE(buffer.empty());
  buffer.Add("hello", 1, 0, 5);
  buffer.Add("", 2, 6, 6, "pay");
  buffer.Add("world", 1, 7, 12);
  ExpectSame(buffer, {{"hello", 1, 0, 5, ""}, {"", 2, 6, 6, "pay"}, {"world", 1, 7, 12, ""}});
}

TEST(TokenBufferTest, TruncateDropsTokensAndTheirBytes) {
  LimitedTokenBuffer buffer;
  buffer.Add("a", 1, 0, 1);
  buffer.Add("bb", 1, 2, 4, "p");
  buffer.Add("ccc", 1, 5, 8);
  buffer.Truncate(3);  // no-op
  ExpectSame(buffer, {{"a", 1, 0, 1, ""}, {"bb", 1, 2, 4, "p"}, {"ccc", 1, 5, 8, ""}});
  buffer.Truncate(1);
  ExpectSame(buffer, {{"a", 1, 0, 1, ""}});
  buffer.Add("d", 3, 9, 10);  // reuses the dropped bytes
  ExpectSame(buffer, {{"a", 1, 0, 1, ""}, {"d", 3, 9, 10, ""}});
  buffer.Truncate(0);
  ExpectSame(buffer, {});
}

TEST(TokenBufferTest, ClearKeepsCapacity) {
  LimitedTokenBuffer buffer;
  for (int i = 0; i < 1000; ++i) buffer.Add(std::string(i % 17, 'x'), 1, 0, 0);
  const size_t held = buffer.bytes_used();
  const std::string_view first_term = buffer[1].term;
  buffer.Clear();
  EXPECT_TRUE(buffer.empty());
  EXPECT_EQ(buffer.arena_bytes(), 0u);
  EXPECT_EQ(buffer.bytes_used(), held);
  for (int i = 0; i < 1000; ++i) buffer.Add(std::string(i % 17, 'y'), 1, 0, 0);
  EXPECT_EQ(buffer.bytes_used(), held);                 // nothing reallocated
  EXPECT_EQ(buffer[1].term.data(), first_term.data());  // same arena
}

TEST(TokenBufferTest, ReserveAndCommitInPlace) {
  LimitedTokenBuffer buffer;
  buffer.Add("first", 1, 0, 5);
  char* p = buffer.ReserveTerm(10);
  std::memcpy(p, "abc", 3);
  // Asking for more room keeps what was written, even when the arena moves.
  p = buffer.ReserveTerm(100000);
  std::memcpy(p + 3, "def", 3);
  buffer.CommitTerm(6, 1, 6, 12, "payload");
  p = buffer.ReserveTerm(4);
  std::memcpy(p, "zzzz", 4);
  buffer.CommitTerm(2, 2, 13, 15);  // a reservation may be used in part
  ExpectSame(buffer,
             {{"first", 1, 0, 5, ""}, {"abcdef", 1, 6, 12, "payload"}, {"zz", 2, 13, 15, ""}});
}

TEST(TokenBufferTest, CommitWithPayloadThatDoesNotFit) {
  LimitedTokenBuffer buffer;
  const std::string big_payload(5000, 'p');
  char* p = buffer.ReserveTerm(3);
  std::memcpy(p, "xyz", 3);
  buffer.CommitTerm(3, 1, 0, 3, big_payload);
  ExpectSame(buffer, {{"xyz", 1, 0, 3, big_payload}});
}

TEST(TokenBufferTest, AddOfItsOwnTermAcrossReallocation) {
  LimitedTokenBuffer buffer;
  buffer.Add("seed", 1, 0, 4, "pl");
  std::vector<ModelToken> model = {{"seed", 1, 0, 4, "pl"}};
  for (int i = 0; i < 2000; ++i) {
    const AnalyzedToken t = buffer[buffer.size() - 1];
    const std::string term(t.term), payload(t.payload);
    buffer.Add(t.term, 1, 0, 4, t.payload);  // views into the arena being grown
    model.push_back({term, 1, 0, 4, payload});
  }
  ExpectSame(buffer, model);
}

TEST(TokenBufferTest, MoveLeavesAnEmptyBuffer) {
  LimitedTokenBuffer a;
  a.Add("x", 1, 0, 1);
  LimitedTokenBuffer b(std::move(a));
  ExpectSame(b, {{"x", 1, 0, 1, ""}});
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): documented state
  EXPECT_EQ(a.bytes_used(), 0u);
  a.Add("y", 1, 0, 1);
  ExpectSame(a, {{"y", 1, 0, 1, ""}});
  b = std::move(a);
  ExpectSame(b, {{"y", 1, 0, 1, ""}});
}

TEST(TokenBufferTest, MatchesModelUnderRandomOperations) {
  Random rng(testing::TestSeed(401));
  LimitedTokenBuffer buffer;
  std::vector<ModelToken> model;
  for (int step = 0; step < 100000; ++step) {
    const uint64_t op = rng.Uniform(100);
    if (op < 60) {
      ModelToken t{RandomBytes(rng, rng.Bernoulli(0.01) ? 3000 : 12),
                   static_cast<uint32_t>(rng.Uniform(3)), static_cast<uint32_t>(rng.Next()),
                   static_cast<uint32_t>(rng.Next()),
                   rng.Bernoulli(0.2) ? RandomBytes(rng, 8) : std::string()};
      buffer.Add(t.term, t.position_increment, t.start_offset, t.end_offset, t.payload);
      model.push_back(std::move(t));
    } else if (op < 85) {
      ModelToken t{RandomBytes(rng, 40), 1, static_cast<uint32_t>(step), 7,
                   rng.Bernoulli(0.2) ? RandomBytes(rng, 8) : std::string()};
      const size_t reserve = t.term.size() + rng.Uniform(10);
      char* p = buffer.ReserveTerm(reserve / 2);
      const size_t half = std::min(t.term.size(), reserve / 2);
      std::memcpy(p, t.term.data(), half);
      p = buffer.ReserveTerm(reserve);
      std::memcpy(p + half, t.term.data() + half, t.term.size() - half);
      buffer.CommitTerm(t.term.size(), 1, t.start_offset, t.end_offset, t.payload);
      model.push_back(std::move(t));
    } else if (op < 97) {
      const size_t n = rng.Uniform(model.size() + 1);
      buffer.Truncate(n);
      model.resize(n);
    } else {
      buffer.Clear();
      model.clear();
    }
    if (step % 97 == 0) {
      ASSERT_NO_FATAL_FAILURE(ExpectSame(buffer, model)) << step;
    }
  }
  ExpectSame(buffer, model);
}

}  // namespace
}  // namespace invert

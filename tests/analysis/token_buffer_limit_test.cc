// Tests of TokenBuffer's byte limit: bytes_used() never passes it, the buffer
// goes over_limit() instead of growing and drops every further token (from
// Add and from ReserveTerm/CommitTerm, whose reservations then come from a
// small side buffer), the tokens added before stay intact, Truncate keeps
// dropping, and Clear() resets the flag; against a model under random
// operations with random limits.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/limited_token_buffer.h"
#include "gtest/gtest.h"
#include "invert/analysis.h"
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
  EXPECT_EQ(buffer.arena_bytes(), bytes);
}

TEST(TokenBufferLimitTest, StopsGrowingAndDropsFurtherTokens) {
  LimitedTokenBuffer buffer;
  buffer.set_byte_limit(10000);
  std::vector<ModelToken> model;
  size_t i = 0;
  while (!buffer.over_limit()) {
    const std::string term = "term" + std::to_string(i++);
    buffer.Add(term, 1, 0, 1, "pl");
    if (!buffer.over_limit()) model.push_back({term, 1, 0, 1, "pl"});
    ASSERT_LE(buffer.bytes_used(), 10000u);
  }
  EXPECT_GT(model.size(), 100u);  // the limit was used, not given up early
  const size_t held = buffer.bytes_used();
  for (int k = 0; k < 1000; ++k) buffer.Add("more", 1, 0, 1);
  buffer.Add("", 1, 0, 0);  // an empty token is dropped too
  EXPECT_EQ(buffer.bytes_used(), held);
  char* p = buffer.ReserveTerm(5);  // served by a 5-byte side buffer
  std::memcpy(p, "abcde", 5);
  buffer.CommitTerm(5, 1, 0, 5);
  ExpectSame(buffer, model);
  EXPECT_EQ(buffer.bytes_used(), held + 5);
  EXPECT_TRUE(buffer.over_limit());

  buffer.Truncate(3);  // still over: a retry after an analyzer error drops too
  model.resize(3);
  buffer.Add("after", 1, 0, 1);
  ExpectSame(buffer, model);

  buffer.Clear();
  EXPECT_FALSE(buffer.over_limit());
  buffer.Add("fresh", 1, 0, 5);
  ExpectSame(buffer, {{"fresh", 1, 0, 5, ""}});
  EXPECT_EQ(buffer.bytes_used(), held);  // the side buffer went with Clear()
}

TEST(TokenBufferLimitTest, ReservationsOverTheLimitComeFromASideBuffer) {
  LimitedTokenBuffer buffer;
  buffer.set_byte_limit(4096);
  std::vector<ModelToken> model;
  // Grow until a reservation cannot be served from the arena.
  size_t i = 0;
  while (!buffer.over_limit()) {
    const std::string term = "word" + std::to_string(i++);
    char* p = buffer.ReserveTerm(term.size() + 7);
    std::memcpy(p, term.data(), term.size());
    buffer.CommitTerm(term.size(), 1, 0, 1);
    if (!buffer.over_limit()) model.push_back({term, 1, 0, 1, ""});
  }
  // A reservation grown in steps keeps what was written, as below the limit.
  char* p = buffer.ReserveTerm(3000);
  std::memcpy(p, "xyz", 3);
  p = buffer.ReserveTerm(9000);
  EXPECT_EQ(std::string(p, 3), "xyz");
  std::memset(p + 3, 'q', 8997);
  buffer.CommitTerm(9000, 1, 0, 1);
  ExpectSame(buffer, model);
  EXPECT_LE(buffer.bytes_used(), 4096u + 9000u);  // the side buffer: one reservation
  buffer.Clear();
  EXPECT_LE(buffer.bytes_used(), 4096u);  // side buffer freed
  buffer.Release();
  EXPECT_EQ(buffer.bytes_used(), 0u);
  EXPECT_EQ(buffer.byte_limit(), 4096u);
}

TEST(TokenBufferLimitTest, AnalyzersStopAtTheLimit) {
  std::string text;
  for (int i = 0; i < 200000; ++i) text += "tok" + std::to_string(i % 977) + " ";
  for (auto make : {&NewWhitespaceAnalyzer, +[] { return NewStandardAnalyzer(); }}) {
    LimitedTokenBuffer buffer;
    buffer.set_byte_limit(256 * 1024);
    std::unique_ptr<Analyzer> analyzer = make();
    ASSERT_TRUE(analyzer->Analyze(text, &buffer).ok());
    EXPECT_TRUE(buffer.over_limit());
    EXPECT_LE(buffer.bytes_used(), 256u * 1024 + 64);  // + a standard analyzer reservation
    EXPECT_GT(buffer.size(), 5000u);
    for (size_t i = 0; i < buffer.size(); ++i) {
      ASSERT_EQ(buffer[i].term, "tok" + std::to_string(i % 977)) << i;
    }
  }
}

TEST(TokenBufferLimitTest, MatchesModelUnderRandomOperationsWithLimits) {
  Random rng(testing::TestSeed(4711));
  for (int round = 0; round < 40; ++round) {
    LimitedTokenBuffer buffer;
    const size_t limit = rng.Range(0, 20000);
    buffer.set_byte_limit(limit);
    std::vector<ModelToken> model;
    for (int step = 0; step < 3000; ++step) {
      const uint64_t op = rng.Uniform(100);
      const bool was_over = buffer.over_limit();
      if (op < 55) {
        ModelToken t{std::string(rng.Uniform(rng.Bernoulli(0.02) ? 3000 : 12), 'a'),
                     static_cast<uint32_t>(rng.Uniform(3)), static_cast<uint32_t>(step), 3,
                     rng.Bernoulli(0.2) ? std::string(rng.Range(1, 8), 'p') : std::string()};
        buffer.Add(t.term, t.position_increment, t.start_offset, t.end_offset, t.payload);
        if (!buffer.over_limit()) model.push_back(std::move(t));
      } else if (op < 85) {
        ModelToken t{std::string(rng.Range(2, 40), 'b'), 1, static_cast<uint32_t>(step), 7,
                     rng.Bernoulli(0.2) ? std::string(rng.Range(1, 8), 'p') : std::string()};
        // Term of 2+ bytes: the first reservation is not empty (an empty
        // one may return null, which memcpy must not get).
        char* p = buffer.ReserveTerm(t.term.size() / 2);
        std::memcpy(p, t.term.data(), t.term.size() / 2);
        p = buffer.ReserveTerm(t.term.size() + rng.Uniform(10));
        std::memcpy(p + t.term.size() / 2, t.term.data() + t.term.size() / 2,
                    t.term.size() - t.term.size() / 2);
        buffer.CommitTerm(t.term.size(), 1, t.start_offset, t.end_offset, t.payload);
        if (!buffer.over_limit()) model.push_back(std::move(t));
      } else if (op < 97) {
        const size_t n = rng.Uniform(model.size() + 1);
        buffer.Truncate(n);
        model.resize(n);
      } else {
        buffer.Clear();
        model.clear();
      }
      if (was_over && op < 97) {
        ASSERT_TRUE(buffer.over_limit());
      }
      // The side buffer holds at most one reservation (< 50 bytes here).
      ASSERT_LE(buffer.bytes_used(), std::max<size_t>(limit, 0) + 64) << step;
      if (step % 37 == 0) {
        ASSERT_NO_FATAL_FAILURE(ExpectSame(buffer, model)) << step;
      }
    }
    ExpectSame(buffer, model);
  }
}

}  // namespace
}  // namespace invert

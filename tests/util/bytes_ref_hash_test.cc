// Tests of BytesRefHash against std::unordered_map and std::sort: dense ids,
// re-adds, absent lookups, growth, the over-long term error, offset mode and
// the flush sort.
#include "util/bytes_ref_hash.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "gtest/gtest.h"
#include "test_seed.h"
#include "util/radix_sort.h"
#include "util/random.h"

namespace invert {
namespace {

std::string RandomTerm(Random& rng) {
  const uint64_t kind = rng.Uniform(20);
  size_t length = kind == 0 ? rng.Uniform(400) : rng.Uniform(12);
  std::string s(length, '\0');
  for (char& c : s) c = static_cast<char>(kind == 1 ? rng.Uniform(256) : 'a' + rng.Uniform(4));
  return s;
}

class BytesRefHashTest : public ::testing::Test {
 protected:
  RamCounter counter_;
  BlockAllocator allocator_{&counter_};
  ByteBlockPool pool_{&allocator_};
};

TEST_F(BytesRefHashTest, MatchesUnorderedMap) {
  Random rng(testing::TestSeed(41));
  BytesRefHash hash(&pool_, &counter_);
  std::unordered_map<std::string, uint32_t> model;
  for (int i = 0; i < 200000; ++i) {
    const std::string term = RandomTerm(rng);
    auto result = hash.Add(term);
    ASSERT_TRUE(result.ok());
    auto [it, inserted] = model.emplace(term, static_cast<uint32_t>(model.size()));
    ASSERT_EQ(result->is_new, inserted) << term;
    ASSERT_EQ(result->id, it->second) << term;
    if (i % 7 == 0) {
      const std::string probe = RandomTerm(rng);
      auto found = model.find(probe);
      ASSERT_EQ(hash.Find(probe), found == model.end() ? -1 : static_cast<int32_t>(found->second));
    }
  }
  ASSERT_EQ(hash.size(), model.size());
  for (const auto& [term, id] : model) {
    ASSERT_EQ(hash.term(id), term);
    ASSERT_EQ(hash.Find(term), static_cast<int32_t>(id));
  }
  // Grown by doubling, never more than half full.
  EXPECT_GE(hash.capacity(), 2 * hash.size());
  EXPECT_EQ(hash.capacity() & (hash.capacity() - 1), 0u);
}

TEST_F(BytesRefHashTest, OverLongTermIsRejectedAndChangesNothing) {
  BytesRefHash hash(&pool_, &counter_);
  ASSERT_TRUE(hash.Add("a").ok());
  const int64_t bytes_before = counter_.bytes();
  const uint32_t end_before = pool_.end_address();
  const std::string max_term(BytesRefHash::kMaxTermLength, 'x');
  const std::string too_long(BytesRefHash::kMaxTermLength + 1, 'x');
  auto status = hash.Add(too_long).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("32766"), std::string::npos) << status.message();
  EXPECT_EQ(hash.size(), 1u);
  EXPECT_EQ(counter_.bytes(), bytes_before);
  EXPECT_EQ(pool_.end_address(), end_before);
  EXPECT_EQ(hash.Find(too_long), -1);
  // The longest allowed term fits (it fills a block by itself).
  auto added = hash.Add(max_term);
  ASSERT_TRUE(added.ok());
  EXPECT_TRUE(added->is_new);
  EXPECT_EQ(hash.term(added->id), max_term);
  EXPECT_EQ(hash.Find(max_term), static_cast<int32_t>(added->id));
}

TEST_F(BytesRefHashTest, LengthPrefixBoundaries) {
  BytesRefHash hash(&pool_, &counter_);
  for (size_t length : {0, 1, 127, 128, 129, 255, 256, 16383, 16384, 32766}) {
    const std::string term(length, 'q');
    auto added = hash.Add(term);
    ASSERT_TRUE(added.ok());
    EXPECT_EQ(hash.term(added->id), term) << length;
    EXPECT_EQ(BytesRefHash::EntrySize(length), length + (length < 128 ? 1 : 2));
  }
}

TEST_F(BytesRefHashTest, SortMatchesStdSort) {
  Random rng(testing::TestSeed(42));
  BytesRefHash hash(&pool_, &counter_);
  std::vector<std::string> terms;
  // Empty term, 0x00 / 0xFF bytes, long shared prefixes, max-length terms.
  const std::vector<std::string> specials = {"",
                                             std::string(1, '\0'),
                                             std::string(3, '\0'),
                                             "\xFF",
                                             "\xFF\xFF\x00",
                                             std::string(40, 'z') + "a",
                                             std::string(40, 'z') + "b",
                                             std::string(40, 'z'),
                                             std::string(32766, '\xFF'),
                                             std::string(32765, '\xFF') + "\xFE"};
  for (const std::string& s : specials) ASSERT_TRUE(hash.Add(s).ok());
  for (int i = 0; i < 100000; ++i) ASSERT_TRUE(hash.Add(RandomTerm(rng)).ok());
  for (uint32_t id = 0; id < hash.size(); ++id) terms.emplace_back(hash.term(id));
  const std::vector<uint32_t> ids = hash.SortIds();
  ASSERT_EQ(ids.size(), terms.size());
  std::vector<std::string> expected = terms;
  std::sort(expected.begin(), expected.end(),
            [](const std::string& a, const std::string& b) { return CompareFrom(a, b, 0) < 0; });
  for (size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(terms[ids[i]], expected[i]) << i;
  // After Clear the hash works again from scratch.
  hash.Clear();
  EXPECT_EQ(hash.size(), 0u);
  auto again = hash.Add("again");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->id, 0u);
}

TEST_F(BytesRefHashTest, SortOfAMillionRandomTerms) {
  Random rng(testing::TestSeed(43));
  BytesRefHash hash(&pool_, &counter_);
  std::vector<std::string> terms;
  while (hash.size() < 1000000) {
    std::string s(rng.Range(1, 16), '\0');
    for (char& c : s) c = static_cast<char>(rng.Uniform(256));
    ASSERT_TRUE(hash.Add(s).ok());
  }
  for (uint32_t id = 0; id < hash.size(); ++id) terms.emplace_back(hash.term(id));
  const std::vector<uint32_t> ids = hash.SortIds();
  std::vector<std::string> expected = terms;
  std::sort(expected.begin(), expected.end(),
            [](const std::string& a, const std::string& b) { return CompareFrom(a, b, 0) < 0; });
  for (size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(terms[ids[i]], expected[i]) << i;
}

TEST_F(BytesRefHashTest, OffsetModeReusesPrimaryEntries) {
  Random rng(testing::TestSeed(44));
  BytesRefHash primary(&pool_, &counter_);
  for (int i = 0; i < 5000; ++i) ASSERT_TRUE(primary.Add(RandomTerm(rng)).ok());
  const uint32_t pool_end = pool_.end_address();
  BytesRefHash secondary(&pool_, &counter_);
  std::unordered_map<uint32_t, uint32_t> model;
  for (int i = 0; i < 20000; ++i) {
    const uint32_t primary_id = static_cast<uint32_t>(rng.Uniform(primary.size()));
    const uint32_t offset = primary.bytes_start(primary_id);
    const int32_t r = secondary.AddByPoolOffset(offset);
    auto [it, inserted] = model.emplace(offset, static_cast<uint32_t>(model.size()));
    ASSERT_EQ(r >= 0, inserted);
    ASSERT_EQ(r >= 0 ? r : -(r + 1), static_cast<int32_t>(it->second));
    ASSERT_EQ(secondary.term(it->second), primary.term(primary_id));
  }
  EXPECT_EQ(pool_.end_address(), pool_end);  // no bytes copied
  // Sorting the secondary orders by the primary's bytes.
  std::vector<std::string> terms;
  for (uint32_t id = 0; id < secondary.size(); ++id) terms.emplace_back(secondary.term(id));
  const std::vector<uint32_t> ids = secondary.SortIds();
  for (size_t i = 1; i < ids.size(); ++i)
    ASSERT_LT(CompareFrom(terms[ids[i - 1]], terms[ids[i]], 0), 0);
}

TEST_F(BytesRefHashTest, MemoryIsCounted) {
  const int64_t before = counter_.bytes();
  {
    BytesRefHash hash(&pool_, &counter_);
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE(hash.Add(std::to_string(i)).ok());
    const int64_t pool_bytes =
        static_cast<int64_t>(pool_.block_count() * ByteBlockPool::kBlockSize);
    EXPECT_EQ(counter_.bytes() - before, pool_bytes + static_cast<int64_t>(hash.bytes_used()));
  }
  const int64_t pool_bytes = static_cast<int64_t>(pool_.block_count() * ByteBlockPool::kBlockSize);
  EXPECT_EQ(counter_.bytes() - before, pool_bytes);
}

}  // namespace
}  // namespace invert

// Tests of the public InMemorySegment: the numbers a pipeline watches, and
// atomic documents through the public API.
#include "invert/in_memory_segment.h"

#include "gtest/gtest.h"
#include "invert/check_index.h"
#include "scratch_dir.h"

namespace invert {
namespace {

TEST(InMemorySegmentTest, NumbersAfterEachDocument) {
  InMemorySegment segment;
  EXPECT_EQ(segment.num_docs(), 0u);
  const int64_t empty_ram = segment.ram_bytes_used();
  ASSERT_TRUE(segment.AddDocument(Document().Add(Field::Text("body", "Hello hello world"))).ok());
  EXPECT_EQ(segment.num_docs(), 1u);
  EXPECT_EQ(segment.unique_terms("body"), 2u);  // "hello", "world"
  EXPECT_GT(segment.ram_bytes_used(), empty_ram);
  const int64_t ram = segment.ram_bytes_used();
  const std::string bad = "bad \xC0\xAF";
  EXPECT_FALSE(segment.AddDocument(Document().Add(Field::Text("body", bad))).ok());
  EXPECT_EQ(segment.num_docs(), 1u);
  EXPECT_EQ(segment.ram_bytes_used(), ram);
  EXPECT_EQ(segment.unique_terms("missing"), 0u);
}

TEST(InMemorySegmentTest, FlushesAReadableSegment) {
  testing::ScratchDir scratch;
  InMemorySegment segment;
  ASSERT_TRUE(segment.AddDocument(Document().Add(Field::Text("body", "one two"))).ok());
  ASSERT_TRUE(segment.FlushTo(scratch.path(), "_0").ok());
  EXPECT_EQ(segment.num_docs(), 0u);
  EXPECT_FALSE(segment.FlushTo(scratch.path(), "_1").ok());
}

}  // namespace
}  // namespace invert

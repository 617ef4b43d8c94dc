// Tests of the public InMemorySegment: the numbers a pipeline watches, and
// atomic documents through the public API; and the way in for internal code
// (InMemorySegmentImpl::chain()).
#include "invert/in_memory_segment.h"

#include "gtest/gtest.h"
#include "index/in_memory_segment_impl.h"
#include "scratch_dir.h"

namespace invert {
namespace {

TEST(InMemorySegmentTest, NumbersAfterEachDocument) {
  std::unique_ptr<InMemorySegment> segment = InMemorySegment::Create();
  EXPECT_EQ(segment->num_docs(), 0u);
  const int64_t empty_ram = segment->ram_bytes_used();
  ASSERT_TRUE(segment->AddDocument(Document().Add(Field::Text("body", "Hello hello world"))).ok());
  EXPECT_EQ(segment->num_docs(), 1u);
  EXPECT_EQ(segment->unique_terms("body"), 2u);  // "hello", "world"
  EXPECT_GT(segment->ram_bytes_used(), empty_ram);
  const int64_t ram = segment->ram_bytes_used();
  const std::string bad = "bad \xC0\xAF";
  EXPECT_FALSE(segment->AddDocument(Document().Add(Field::Text("body", bad))).ok());
  EXPECT_EQ(segment->num_docs(), 1u);
  EXPECT_EQ(segment->ram_bytes_used(), ram);
  EXPECT_EQ(segment->unique_terms("missing"), 0u);
}

TEST(InMemorySegmentTest, FlushesAReadableSegment) {
  testing::ScratchDir scratch;
  std::unique_ptr<InMemorySegment> segment = InMemorySegment::Create();
  ASSERT_TRUE(segment->AddDocument(Document().Add(Field::Text("body", "one two"))).ok());
  ASSERT_TRUE(segment->FlushTo(scratch.path(), "_0").ok());
  EXPECT_EQ(segment->num_docs(), 0u);
  EXPECT_FALSE(segment->FlushTo(scratch.path(), "_1").ok());
}

TEST(InMemorySegmentTest, OptionsChooseTheAnalyzer) {
  std::unique_ptr<InMemorySegment> segment =
      InMemorySegment::Create({.analyzer = [] { return NewWhitespaceAnalyzer(); }});
  ASSERT_TRUE(segment->AddDocument(Document().Add(Field::Text("body", "Hello hello"))).ok());
  EXPECT_EQ(segment->unique_terms("body"), 2u);  // no case folding
}

TEST(InMemorySegmentTest, InternalCodeReachesTheChain) {
  std::unique_ptr<InMemorySegment> segment = InMemorySegment::Create();
  ASSERT_TRUE(segment->AddDocument(Document().Add(Field::Text("body", "a b"))).ok());
  IndexingChain& chain = static_cast<InMemorySegmentImpl&>(*segment).chain();
  EXPECT_EQ(chain.num_docs(), 1u);
  EXPECT_EQ(chain.ram_bytes_used(), segment->ram_bytes_used());
}

}  // namespace
}  // namespace invert

// The generated version header agrees with the library, and segments record
// the library's version.
#include "invert/version.h"

#include <string>

#include "gtest/gtest.h"
#include "index/segment_flush.h"
#include "invert/document.h"
#include "scratch_dir.h"

namespace invert {
namespace {

TEST(VersionTest, HeaderAndLibraryAgree) {
  EXPECT_EQ(std::string(Version()), INVERT_VERSION_STRING);
  EXPECT_EQ(std::string(INVERT_VERSION_STRING), std::to_string(INVERT_VERSION_MAJOR) + "." +
                                                    std::to_string(INVERT_VERSION_MINOR) + "." +
                                                    std::to_string(INVERT_VERSION_PATCH));
}

TEST(VersionTest, SegmentsRecordTheLibraryVersion) {
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  IndexingChain chain(IndexingChainOptions{});
  ASSERT_TRUE(chain.AddDocument(Document().Add(Field::Text("body", "a b"))).ok());
  absl::StatusOr<SegmentInfo> info = FlushSegment(chain, dir.get(), "_0");
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->created_by, std::string("invert ") + Version());
  absl::StatusOr<SegmentInfo> read = ReadSegmentInfo(dir.get(), "_0", info->id);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->created_by, info->created_by);
}

}  // namespace
}  // namespace invert

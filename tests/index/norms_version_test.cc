// Norms files of version 1 (invert's earlier log scale) still read, and read
// as version 2 (Lucene's SmallFloat.intToByte4): a segment flushed now is
// rewritten with a version-1 .nvd of the same documents (and a .si with the
// new file's checksum), then read and merged. Every byte read or merged must
// be the version-2 byte of the version-1 decoded length, TranslateNormV1;
// for lengths version 1 holds exactly that is the byte a fresh flush of the
// same documents writes (caveat: other lengths were already rounded down by
// version 1, and version 2 rounds that length, not the original one). A
// merge writes version 2 whatever its inputs.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "codec/norm_encoding.h"
#include "codec/norms_format.h"
#include "codec/segment_files.h"
#include "codec/segment_info_format.h"
#include "codec/segment_reader.h"
#include "gtest/gtest.h"
#include "index/indexing_chain.h"
#include "index/segment_flush.h"
#include "index/segment_merger.h"
#include "invert/analysis.h"
#include "invert/document.h"
#include "invert/field_type.h"
#include "scratch_dir.h"
#include "store/index_input.h"

namespace invert {
namespace {

// Body lengths: exact in both versions, exact in one, rounded in both, and
// the largest the test can afford; 0 is a document without a body.
const std::vector<uint64_t> kLengths = {0,    1,    17,   23,   24,   25,    31,    32,    33,
                                        40,   41,   47,   48,   100,  255,   256,   1000,  1024,
                                        3000, 4096, 5000, 6144, 9999, 12288, 40000, 65536, 70000};

struct Fixture {
  testing::ScratchDir scratch;
  std::unique_ptr<FSDirectory> dir = scratch.Open();

  // Flushes one document per length (a body of that many tokens, an id) as
  // segment `name`.
  SegmentInfo Flush(const std::string& name) {
    IndexingChainOptions options;
    options.analyzer = [] { return NewWhitespaceAnalyzer(); };
    IndexingChain chain(options);
    for (size_t i = 0; i < kLengths.size(); ++i) {
      std::string body;
      for (uint64_t t = 0; t < kLengths[i]; ++t) body += (t % 3 == 0) ? "a " : "b ";
      const std::string id = std::to_string(i);
      Document doc;
      doc.Add(Field::Keyword("id", id, FieldType::Keyword(/*stored=*/false)));
      if (kLengths[i] > 0) doc.Add(Field::Text("body", body));
      EXPECT_TRUE(chain.AddDocument(doc).ok());
    }
    absl::StatusOr<SegmentInfo> info = FlushSegment(chain, dir.get(), name);
    EXPECT_TRUE(info.ok()) << info.status();
    return *info;
  }

  std::unique_ptr<SegmentReader> Open(const SegmentInfo& info) {
    absl::StatusOr<std::unique_ptr<SegmentReader>> r =
        SegmentReader::Open(dir.get(), info.name, info.id);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? std::move(*r) : nullptr;
  }

  // Replaces the segment's .nvd by a version-1 file of the same lengths and
  // rewrites its .si with the new file's length and checksum.
  void RewriteAsVersion1(const SegmentInfo& info, uint32_t body_field) {
    ASSERT_TRUE(dir->DeleteFile(SegmentFileName(info.name, "nvd")).ok());
    absl::StatusOr<std::string> nvd = WriteNorms(
        dir.get(), info.name, info.id, info.doc_count, {body_field},
        [](uint32_t, uint32_t first, std::span<uint8_t> out) {
          for (size_t i = 0; i < out.size(); ++i) out[i] = EncodeNormV1(kLengths[first + i]);
        },
        /*version=*/1);
    ASSERT_TRUE(nvd.ok()) << nvd.status();
    absl::StatusOr<SegmentInfo> si = ReadSegmentInfo(dir.get(), info.name, info.id);
    ASSERT_TRUE(si.ok()) << si.status();
    ASSERT_TRUE(dir->DeleteFile(SegmentFileName(info.name, "si")).ok());
    ASSERT_TRUE(WriteSegmentInfo(dir.get(), &*si).ok());
  }

  // The header version of a segment's .nvd.
  uint32_t NvdVersion(const SegmentInfo& info) {
    absl::StatusOr<IndexInput> in = OpenInput(dir.get(), SegmentFileName(info.name, "nvd"));
    EXPECT_TRUE(in.ok()) << in.status();
    absl::StatusOr<uint32_t> v = CheckHeader(*in, kNormsCodec, 1, 2, info.id);
    EXPECT_TRUE(v.ok()) << v.status();
    return v.ok() ? *v : 0;
  }
};

TEST(NormsVersionTest, FreshFlushWritesVersion2LuceneBytes) {
  Fixture fx;
  const SegmentInfo info = fx.Flush("_0");
  EXPECT_EQ(fx.NvdVersion(info), 2u);
  std::unique_ptr<SegmentReader> seg = fx.Open(info);
  ASSERT_NE(seg, nullptr);
  const uint32_t body = seg->FieldByName("body")->number;
  for (size_t d = 0; d < kLengths.size(); ++d) {
    EXPECT_EQ(seg->Norm(body, static_cast<uint32_t>(d)), EncodeNorm(kLengths[d])) << kLengths[d];
  }
}

TEST(NormsVersionTest, Version1SegmentReadsAndMergesAsVersion2) {
  Fixture fx;
  const SegmentInfo fresh_info = fx.Flush("_0");
  const SegmentInfo old_info = fx.Flush("_1");
  uint32_t body = 0;
  {
    std::unique_ptr<SegmentReader> seg = fx.Open(old_info);
    ASSERT_NE(seg, nullptr);
    body = seg->FieldByName("body")->number;
  }
  fx.RewriteAsVersion1(old_info, body);
  ASSERT_EQ(fx.NvdVersion(old_info), 1u);

  std::unique_ptr<SegmentReader> fresh = fx.Open(fresh_info);
  std::unique_ptr<SegmentReader> old = fx.Open(old_info);
  ASSERT_NE(fresh, nullptr);
  ASSERT_NE(old, nullptr);
  EXPECT_TRUE(old->CheckIntegrity().ok());
  int exact = 0;
  for (size_t d = 0; d < kLengths.size(); ++d) {
    const uint32_t doc = static_cast<uint32_t>(d);
    const uint64_t length = kLengths[d];
    const uint8_t want = TranslateNormV1(EncodeNormV1(length));
    EXPECT_EQ(old->Norm(body, doc), want) << length;
    EXPECT_EQ(old->NormBytes(body)[d], want) << length;
    if (DecodeNormV1(EncodeNormV1(length)) == length) {
      ++exact;
      EXPECT_EQ(old->Norm(body, doc), fresh->Norm(body, doc)) << length;
    } else {
      // Rounded by version 1 first: never above the fresh byte.
      EXPECT_LE(old->Norm(body, doc), fresh->Norm(body, doc)) << length;
    }
  }
  EXPECT_GE(exact, 15);

  // Merging the old segment after the fresh one: version 2, and each half
  // as it reads.
  MergeOptions options;
  options.fields = fresh->fields();
  absl::StatusOr<MergeResult> merged = MergeSegments({{fresh.get(), nullptr}, {old.get(), nullptr}},
                                                     fx.dir.get(), "_2", {}, options);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(fx.NvdVersion(merged->info), 2u);
  std::unique_ptr<SegmentReader> out = fx.Open(merged->info);
  ASSERT_NE(out, nullptr);
  EXPECT_TRUE(out->CheckIntegrity().ok());
  const uint32_t out_body = out->FieldByName("body")->number;
  const uint32_t n = static_cast<uint32_t>(kLengths.size());
  for (uint32_t d = 0; d < n; ++d) {
    EXPECT_EQ(out->Norm(out_body, d), fresh->Norm(body, d)) << kLengths[d];
    EXPECT_EQ(out->Norm(out_body, n + d), old->Norm(body, d)) << kLengths[d];
  }
}

}  // namespace
}  // namespace invert

// CommitReader's K-document fetches and IndexTermLookup across segments:
// every prefetch policy returns what per-document and per-segment plain reads
// return, for random batches with repeats, the first and last documents of
// every segment and of the index, and absent terms; bad doc ids are rejected
// before anything is read.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "index/commit_reader.h"
#include "invert/analysis.h"
#include "invert/index_writer.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

constexpr PrefetchPolicy kPolicies[] = {PrefetchPolicy::kOff, PrefetchPolicy::kAlways,
                                        PrefetchPolicy::kBackoff};

// Three segments (one commit each) of 700, 1 and 1,300 documents; "body"
// stored with term vectors, "id" stored keyword; segment 2 alone has "extra".
class IndexReaderPrefetchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Random rng(testing::TestSeed(515));
    IndexWriterOptions options;
    options.analyzer = [] { return NewWhitespaceAnalyzer(); };
    auto writer = IndexWriter::Open(scratch_.path(), options);
    ASSERT_TRUE(writer.ok()) << writer.status();
    FieldType body = FieldType::Text(/*stored=*/true);
    body.term_vectors = body.term_vector_positions = true;
    int next_id = 0;
    for (int segment_docs : {700, 1, 1300}) {
      for (int d = 0; d < segment_docs; ++d) {
        std::string text;
        const int words = static_cast<int>(rng.Range(0, 80));
        for (int w = 0; w < words; ++w) text += absl::StrCat("w", rng.Uniform(400), " ");
        const std::string id = std::to_string(next_id++);
        Document doc;
        doc.Add(Field::Text("body", text, body));
        doc.Add(Field::Keyword("id", id, FieldType::Keyword(/*stored=*/true)));
        if (segment_docs == 1300 && d % 3 == 0) doc.Add(Field::Text("extra", "only here"));
        ASSERT_TRUE((*writer)->AddDocument(doc).ok());
      }
      ASSERT_TRUE((*writer)->Commit().ok());
    }
    ASSERT_TRUE((*writer)->Close().ok());
    auto reader = CommitReader::Open(scratch_.path());
    ASSERT_TRUE(reader.ok()) << reader.status();
    reader_ = std::move(*reader);
    ASSERT_EQ(reader_->segment_count(), 3u);
    ASSERT_EQ(reader_->doc_count(), 2001u);
  }

  // Per document, through the single-document reads.
  CommitReader::FetchedDocument Expected(uint64_t doc) {
    const size_t s = reader_->SegmentOf(doc);
    const uint32_t local = static_cast<uint32_t>(doc - reader_->doc_base(s));
    CommitReader::FetchedDocument expected;
    expected.stored = *reader_->segment(s).stored_fields().Document(local);
    expected.term_vectors = *reader_->segment(s).term_vectors().Get(local);
    return expected;
  }

  testing::ScratchDir scratch_;
  std::unique_ptr<CommitReader> reader_;
};

TEST_F(IndexReaderPrefetchTest, SegmentOfFindsTheSegmentOfEveryDoc) {
  for (uint64_t doc = 0; doc < reader_->doc_count(); ++doc) {
    const size_t s = reader_->SegmentOf(doc);
    ASSERT_GE(doc, reader_->doc_base(s));
    ASSERT_LT(doc, reader_->doc_base(s) + reader_->segment(s).doc_count());
  }
}

TEST_F(IndexReaderPrefetchTest, FetchDocumentsEqualsSingleReadsForEveryPolicy) {
  Random rng(testing::TestSeed(616));
  // The ends of every segment and of the index.
  std::vector<uint64_t> edges;
  for (size_t s = 0; s < reader_->segment_count(); ++s) {
    edges.push_back(reader_->doc_base(s));
    edges.push_back(reader_->doc_base(s) + reader_->segment(s).doc_count() - 1);
  }
  for (PrefetchPolicy policy : kPolicies) {
    reader_->SetPrefetchPolicy(policy);
    const SegmentReader::DocFilesPrefetchStats before = reader_->doc_files_prefetch_stats();
    for (int round = 0; round < 40; ++round) {
      std::vector<uint64_t> docs;
      const size_t k = std::vector<size_t>{1, 3, 16, 64}[rng.Uniform(4)];
      for (size_t i = 0; i < k; ++i) {
        docs.push_back(rng.Bernoulli(0.2) ? edges[rng.Uniform(edges.size())]
                                          : rng.Uniform(reader_->doc_count()));
      }
      if (k > 1) docs.push_back(docs[0]);  // a repeat
      CommitReader::FetchOptions options;
      options.term_vectors = true;
      auto fetched = reader_->FetchDocuments(docs, options);
      ASSERT_TRUE(fetched.ok()) << fetched.status();
      ASSERT_EQ(fetched->size(), docs.size());
      for (size_t i = 0; i < docs.size(); ++i) {
        ASSERT_EQ((*fetched)[i], Expected(docs[i]))
            << "doc " << docs[i] << " policy " << PrefetchPolicyName(policy);
      }
      // Stored fields only: no term vectors read.
      auto stored_only = reader_->FetchDocuments(docs);
      ASSERT_TRUE(stored_only.ok());
      for (size_t i = 0; i < docs.size(); ++i) {
        ASSERT_EQ((*stored_only)[i].stored, (*fetched)[i].stored);
        ASSERT_TRUE((*stored_only)[i].term_vectors.empty());
      }
    }
    const SegmentReader::DocFilesPrefetchStats after = reader_->doc_files_prefetch_stats();
    const uint64_t calls = after.stored.calls - before.stored.calls;
    const uint64_t madvise = after.stored.madvise - before.stored.madvise;
    const uint64_t mincore = after.stored.mincore - before.stored.mincore;
    EXPECT_GT(calls, 0u);
    EXPECT_GT(after.vectors.calls, before.vectors.calls);
    if (policy == PrefetchPolicy::kOff) {
      EXPECT_EQ(madvise + mincore, 0u);
    }
    if (policy == PrefetchPolicy::kAlways) {
      EXPECT_EQ(madvise, calls);
    }
    if (policy == PrefetchPolicy::kBackoff) {
      EXPECT_LT(mincore, calls);
    }
  }
}

TEST_F(IndexReaderPrefetchTest, BadDocIdsAreRejectedBeforeReading) {
  const SegmentReader::DocFilesPrefetchStats before = reader_->doc_files_prefetch_stats();
  const std::vector<uint64_t> docs = {0, 5, reader_->doc_count()};
  auto fetched = reader_->FetchDocuments(docs);
  EXPECT_EQ(fetched.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(reader_->doc_files_prefetch_stats().stored.calls, before.stored.calls);
  auto empty = reader_->FetchDocuments({});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST_F(IndexReaderPrefetchTest, IndexTermLookupEqualsPerSegmentSeeks) {
  Random rng(testing::TestSeed(717));
  for (PrefetchPolicy policy : kPolicies) {
    reader_->SetPrefetchPolicy(policy);
    IndexTermLookup lookup(reader_.get());
    ASSERT_EQ(lookup.segment_count(), 3u);
    for (std::string_view field : {"body", "id", "extra", "missing"}) {
      for (int round = 0; round < 20; ++round) {
        std::vector<std::string> owned;
        const size_t k = std::vector<size_t>{1, 16, 64}[rng.Uniform(3)];
        for (size_t i = 0; i < k; ++i) {
          switch (rng.Uniform(4)) {
            case 0:
              owned.push_back(absl::StrCat("w", rng.Uniform(450)));  // some absent
              break;
            case 1:
              owned.push_back(std::to_string(rng.Uniform(2100)));  // ids, some absent
              break;
            case 2:
              owned.push_back(rng.Bernoulli(0.5) ? "only" : "here");
              break;
            default:
              owned.push_back(rng.Bernoulli(0.5) ? "" : "\xff");
          }
        }
        const std::vector<std::string_view> terms(owned.begin(), owned.end());
        auto found = lookup.Lookup(field, terms);
        ASSERT_TRUE(found.ok()) << found.status();
        ASSERT_EQ(found->size(), 3u);
        for (size_t s = 0; s < 3; ++s) {
          ASSERT_EQ((*found)[s].size(), k);
          const FieldInfo* info = reader_->segment(s).FieldByName(field);
          const TermDictReader* dict =
              info == nullptr ? nullptr : reader_->segment(s).Terms(info->number);
          for (size_t i = 0; i < k; ++i) {
            std::optional<TermStats> expected;
            if (dict != nullptr) {
              TermDictCursor cursor = dict->NewCursor();
              if (*cursor.SeekExact(terms[i])) expected = cursor.stats();
            }
            ASSERT_EQ((*found)[s][i], expected) << field << " '" << terms[i] << "' segment " << s
                                                << " policy " << PrefetchPolicyName(policy);
          }
        }
      }
    }
    EXPECT_EQ(lookup.prefetch_failures(), 0u);
    const PrefetchStats stats = lookup.prefetch_stats();
    if (policy == PrefetchPolicy::kOff) {
      EXPECT_EQ(stats.calls, 0u);
    }
    if (policy == PrefetchPolicy::kAlways) {
      EXPECT_EQ(stats.madvise, stats.calls);
    }
    if (policy != PrefetchPolicy::kOff) {
      EXPECT_GT(stats.calls, 0u);
    }
  }
}

}  // namespace
}  // namespace invert

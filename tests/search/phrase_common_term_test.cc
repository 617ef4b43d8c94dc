// Exact phrases holding a word that is in most documents, over a segment
// large enough for its terms to have many 128-doc blocks and groups of 8
// (block impacts, whole-group ranges): the phrase scorer moves that term's
// cursor last (defer_commonest_) and, pruning, passes over the lead's docs
// whose own freq cannot compete (LeadTo). Pruned search (threshold 0, so
// every search prunes) must give exhaustive search's top k, doc ids and
// scores bit for bit, and exhaustive counts must equal a brute-force count
// over the test's own tokens. Repeated terms, explicit positions with gaps
// and equal offsets, deletes, a body with and without norms.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "invert/analysis.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "invert/merge_policy.h"
#include "invert/search.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using testing::ScratchDir;
using testing::TestSeed;

const char* const kWords[] = {"a", "b", "c", "d", "e", "f"};

struct TestDoc {
  std::vector<std::string> tokens;
  bool deleted = false;
};

// True iff `terms` at `offsets` occur somewhere in `tokens`: a place p with
// tokens[p + offsets[i] - least offset] == terms[i] for every i.
bool PhraseOccurs(const std::vector<std::string>& tokens, const std::vector<std::string>& terms,
                  const std::vector<int32_t>& offsets) {
  const int32_t least = *std::min_element(offsets.begin(), offsets.end());
  for (size_t p = 0; p < tokens.size(); ++p) {
    bool all = true;
    for (size_t i = 0; i < terms.size() && all; ++i) {
      const size_t at = p + static_cast<size_t>(offsets[i] - least);
      all = at < tokens.size() && tokens[at] == terms[i];
    }
    if (all) return true;
  }
  return false;
}

// Param: whether the body has norms.
class PhraseCommonTermTest : public ::testing::TestWithParam<bool> {};

TEST_P(PhraseCommonTermTest, PrunedMatchesExhaustiveAndCountsMatchBruteForce) {
  const bool norms = GetParam();
  Random rng(TestSeed(20261207) + (norms ? 0 : 1));
  ScratchDir dir;
  IndexWriterOptions options;
  options.analyzer = [] { return NewWhitespaceAnalyzer(); };
  options.merge_policy = std::make_shared<NoMergePolicy>();
  auto writer = IndexWriter::Open(dir.path(), options);
  ASSERT_TRUE(writer.ok()) << writer.status();
  const size_t num_docs = rng.Range(3000, 4000);
  const double with_a = 0.5 + 0.45 * rng.NextDouble();  // share of docs holding "a"
  std::vector<TestDoc> docs(num_docs);
  for (size_t i = 0; i < num_docs; ++i) {
    // Short and long docs (varied norms), runs of one word (varied freqs).
    const size_t length = rng.Bernoulli(0.3) ? rng.Range(1, 6) : rng.Range(1, 120);
    const double runs = rng.NextDouble() * 0.5;
    std::vector<std::string>& tokens = docs[i].tokens;
    for (size_t k = 0; k < length; ++k) {
      size_t w = rng.Uniform(std::size(kWords));
      if (rng.Bernoulli(0.5)) w = rng.Uniform(std::max<size_t>(1, w));
      if (rng.Bernoulli(runs)) w = 1 + i % 3;
      tokens.push_back(kWords[w]);
    }
    if (!rng.Bernoulli(with_a)) {
      std::replace(tokens.begin(), tokens.end(), std::string("a"), std::string("f"));
    } else if (std::find(tokens.begin(), tokens.end(), "a") == tokens.end()) {
      tokens[rng.Uniform(tokens.size())] = "a";
    }
    // Fields view their bytes: id and text outlive AddDocument.
    const std::string id = std::to_string(i);
    std::string text;
    for (const std::string& t : tokens) text += (text.empty() ? "" : " ") + t;
    FieldType body = FieldType::Text();
    body.norms = norms;
    Document doc;
    doc.Add(Field::Keyword("id", id));
    doc.Add(Field::Text("body", text, body));
    ASSERT_TRUE((*writer)->AddDocument(doc).ok());
    if (rng.Bernoulli(0.001)) {
      ASSERT_TRUE((*writer)->Commit().ok());
    }
  }
  for (size_t i = 0; i < num_docs; ++i) {
    if (rng.Bernoulli(0.04)) {
      ASSERT_TRUE((*writer)->DeleteDocuments("id", std::to_string(i)).ok());
      docs[i].deleted = true;
    }
  }
  ASSERT_TRUE((*writer)->Close().ok());
  auto reader = IndexReader::Open(dir.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  IndexSearcher exhaustive(**reader, {.prune = false});
  IndexSearcher pruned(**reader, {.prune = true, .total_hits_threshold = 0});

  uint64_t matched_queries = 0;
  for (int iter = 0; iter < 120; ++iter) {
    std::vector<std::string> terms(rng.Range(2, 5));
    for (std::string& t : terms) t = kWords[rng.Uniform(5)];
    if (rng.Bernoulli(0.7)) terms[rng.Uniform(terms.size())] = "a";
    if (rng.Bernoulli(0.2)) terms.back() = terms.front();  // a repeated term
    std::vector<int32_t> positions;                        // empty: 0, 1, 2, ...
    std::vector<int32_t> offsets;
    if (rng.Bernoulli(0.3)) {
      int32_t p = static_cast<int32_t>(rng.Uniform(3));
      for (size_t t = 0; t < terms.size(); ++t) {
        positions.push_back(p);
        p += static_cast<int32_t>(rng.Range(0, 2));  // gaps and equal offsets
      }
      offsets = positions;
    } else {
      for (size_t t = 0; t < terms.size(); ++t) offsets.push_back(static_cast<int32_t>(t));
    }
    const Query q = Query::Phrase("body", terms, 0, positions);
    uint64_t want = 0;
    for (const TestDoc& d : docs) want += !d.deleted && PhraseOccurs(d.tokens, terms, offsets);
    matched_queries += want > 0;
    absl::StatusOr<uint64_t> count = exhaustive.Count(q);
    ASSERT_TRUE(count.ok()) << count.status();
    ASSERT_EQ(*count, want) << q.ToString();
    for (size_t k : {1, 10, 50}) {
      const std::string what = q.ToString() + " k=" + std::to_string(k);
      absl::StatusOr<TopDocs> a = exhaustive.Search(q, k);
      absl::StatusOr<TopDocs> b = pruned.Search(q, k);
      ASSERT_TRUE(a.ok()) << a.status();
      ASSERT_TRUE(b.ok()) << b.status();
      ASSERT_EQ(a->hits.size(), b->hits.size()) << what;
      for (size_t i = 0; i < a->hits.size(); ++i) {
        ASSERT_EQ(a->hits[i].doc, b->hits[i].doc) << what << " rank " << i;
        ASSERT_EQ(std::bit_cast<uint32_t>(a->hits[i].score),
                  std::bit_cast<uint32_t>(b->hits[i].score))
            << what << " rank " << i;
      }
    }
  }
  EXPECT_GT(matched_queries, 60u);
}

INSTANTIATE_TEST_SUITE_P(Norms, PhraseCommonTermTest, ::testing::Bool());

}  // namespace
}  // namespace invert

// Tests of TermsHash, TermsHashPerField and the postings consumer: postings
// read back equal a naive inverted index built from the same tokens, for
// every index option; the shared and separate layouts give identical ids,
// sorted order and stream bytes; RAM accounting is exact; a chained hash reads
// the primary's term bytes and copies none.
#include "index/terms_hash.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "index/in_memory_postings.h"
#include "index/postings_writer_per_field.h"
#include "index/terms_hash_per_field.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

struct Token {
  std::string term;
  uint32_t position;
  uint32_t start_offset;
  uint32_t end_offset;
  std::string payload;
};

struct Occurrence {
  uint32_t position;
  uint32_t start_offset;
  uint32_t end_offset;
  std::string payload;
  bool operator==(const Occurrence&) const = default;
};

struct DocPosting {
  uint32_t doc;
  uint32_t freq;
  std::vector<Occurrence> occurrences;
  bool operator==(const DocPosting&) const = default;
};

using NaiveIndex = std::map<std::string, std::vector<DocPosting>>;

std::vector<std::vector<Token>> RandomDocs(Random& rng, int doc_count) {
  std::vector<std::string> vocabulary;
  for (int i = 0; i < 3000; ++i) {
    std::string s(rng.Range(0, 14), '\0');
    for (char& c : s)
      c = static_cast<char>(rng.Uniform(8) == 0 ? rng.Uniform(256) : 'a' + rng.Uniform(6));
    vocabulary.push_back(s);
  }
  vocabulary.push_back(std::string(2000, 'L'));  // a long term
  std::vector<std::vector<Token>> docs(doc_count);
  for (auto& doc : docs) {
    uint32_t position = 0;
    uint32_t offset = 0;
    const size_t n = rng.Uniform(5) == 0 ? 0 : rng.Range(1, 400);
    for (size_t i = 0; i < n; ++i) {
      // Skewed: u^4 concentrates on the first terms.
      const double u = rng.NextDouble();
      const size_t rank = static_cast<size_t>(vocabulary.size() * u * u * u * u);
      Token t;
      t.term = vocabulary[rank];
      position += static_cast<uint32_t>(rng.Uniform(10) == 0 ? rng.Range(2, 5000) : 1);
      offset += static_cast<uint32_t>(rng.Uniform(4));
      t.position = position;
      t.start_offset = offset;
      t.end_offset = offset + static_cast<uint32_t>(t.term.size());
      if (rng.Uniform(3) == 0) {
        t.payload.resize(rng.Range(1, 40));
        for (char& c : t.payload) c = static_cast<char>(rng.Next());
      }
      doc.push_back(t);
    }
  }
  return docs;
}

NaiveIndex BuildNaive(const std::vector<std::vector<Token>>& docs, IndexOptions options,
                      bool payloads) {
  NaiveIndex index;
  for (uint32_t doc = 0; doc < docs.size(); ++doc) {
    for (const Token& t : docs[doc]) {
      auto& postings = index[t.term];
      if (postings.empty() || postings.back().doc != doc) postings.push_back({doc, 0, {}});
      DocPosting& p = postings.back();
      ++p.freq;
      if (HasPositions(options)) {
        Occurrence o{t.position, 0, 0, payloads ? t.payload : ""};
        if (HasOffsets(options)) {
          o.start_offset = t.start_offset;
          o.end_offset = t.end_offset;
        }
        p.occurrences.push_back(o);
      }
    }
  }
  if (!HasFreqs(options)) {
    for (auto& [term, postings] : index) {
      for (DocPosting& p : postings) p.freq = 1;
    }
  }
  return index;
}

std::vector<DocPosting> ReadPostings(const PostingsWriterPerField& field, uint32_t id) {
  std::vector<DocPosting> out;
  InMemoryPostingsIterator it(field, id);
  while (it.NextDoc()) {
    DocPosting p{it.doc(), it.freq(), {}};
    if (HasPositions(field.options())) {
      for (uint32_t i = 0; i < it.freq(); ++i) {
        it.NextPosition();
        p.occurrences.push_back(
            {it.position(), it.start_offset(), it.end_offset(), std::string(it.payload())});
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<uint8_t> StreamBytes(const TermsHashPerField<PostingState>& terms, uint32_t id,
                                 int stream) {
  SliceReader r = terms.StreamReader(id, stream);
  std::vector<uint8_t> bytes;
  const uint8_t* data;
  while (size_t n = r.NextChunk(&data)) bytes.insert(bytes.end(), data, data + n);
  return bytes;
}

// One in-memory field built from `docs` with its own allocator and counter.
struct Built {
  RamCounter counter;
  BlockAllocator allocator{&counter};
  std::unique_ptr<TermsHash> terms_hash;
  std::unique_ptr<PostingsWriterPerField> field;
};

// With `batched`, each document goes through AddTokens (the indexing chain's
// path) instead of one Add per token.
std::unique_ptr<Built> Build(const std::vector<std::vector<Token>>& docs, TermBytesLayout layout,
                             IndexOptions options, bool payloads, bool batched = false) {
  auto b = std::make_unique<Built>();
  b->terms_hash = std::make_unique<TermsHash>(&b->allocator, layout);
  b->field =
      std::make_unique<PostingsWriterPerField>(b->terms_hash.get(), options, payloads, &b->counter);
  for (uint32_t doc = 0; doc < docs.size(); ++doc) {
    if (batched) {
      std::vector<InvertedToken> tokens;
      for (const Token& t : docs[doc]) {
        tokens.push_back({t.term, t.position, t.start_offset, t.end_offset, t.payload});
      }
      std::vector<uint32_t> ids(tokens.size());
      b->field->AddTokens(doc, tokens, ids);
      for (size_t i = 0; i < tokens.size(); ++i) {
        EXPECT_EQ(b->field->terms().term(ids[i]), tokens[i].term)
            << "doc " << doc << " token " << i;
      }
      continue;
    }
    for (const Token& t : docs[doc]) {
      b->field->Add(t.term, doc, t.position, t.start_offset, t.end_offset, t.payload);
    }
  }
  return b;
}

struct OptionCase {
  IndexOptions options;
  bool payloads;
};

std::string OptionCaseName(const ::testing::TestParamInfo<OptionCase>& info) {
  static const char* const kNames[] = {"None", "Docs", "Freqs", "Positions", "Offsets"};
  return std::string(kNames[static_cast<int>(info.param.options)]) +
         (info.param.payloads ? "Payloads" : "");
}

class PostingsTest : public ::testing::TestWithParam<OptionCase> {};

TEST_P(PostingsTest, MatchesNaiveIndexInBothLayoutsIdentically) {
  const auto [options, payloads] = GetParam();
  Random rng(testing::TestSeed(51 + static_cast<int>(options) * 2 + payloads));
  const auto docs = RandomDocs(rng, 300);
  const NaiveIndex naive = BuildNaive(docs, options, payloads);

  auto shared = Build(docs, TermBytesLayout::kShared, options, payloads);
  auto separate = Build(docs, TermBytesLayout::kSeparate, options, payloads);
  const auto& st = shared->field->terms();
  const auto& pt = separate->field->terms();
  // The batched path (AddTokens) in both layouts: the same ids and bytes.
  auto shared_batched = Build(docs, TermBytesLayout::kShared, options, payloads, true);
  auto separate_batched = Build(docs, TermBytesLayout::kSeparate, options, payloads, true);
  const auto& sbt = shared_batched->field->terms();
  const auto& pbt = separate_batched->field->terms();
  ASSERT_EQ(st.size(), naive.size());
  ASSERT_EQ(pt.size(), naive.size());
  ASSERT_EQ(sbt.size(), naive.size());
  ASSERT_EQ(pbt.size(), naive.size());
  EXPECT_TRUE(shared->terms_hash->shares_term_pool());
  EXPECT_FALSE(separate->terms_hash->shares_term_pool());

  for (uint32_t id = 0; id < st.size(); ++id) {
    ASSERT_EQ(st.term(id), pt.term(id)) << "ids differ between layouts at " << id;
    ASSERT_EQ(st.term(id), sbt.term(id)) << "ids differ, batched shared, at " << id;
    ASSERT_EQ(st.term(id), pbt.term(id)) << "ids differ, batched separate, at " << id;
    for (int s = 0; s < st.stream_count(); ++s) {
      const std::vector<uint8_t> bytes = StreamBytes(st, id, s);
      ASSERT_EQ(bytes, StreamBytes(pt, id, s)) << "term " << id << " stream " << s;
      ASSERT_EQ(bytes, StreamBytes(sbt, id, s)) << "batched shared, term " << id << " stream " << s;
      ASSERT_EQ(bytes, StreamBytes(pbt, id, s))
          << "batched separate, term " << id << " stream " << s;
    }
    const std::string term(st.term(id));
    auto it = naive.find(term);
    ASSERT_NE(it, naive.end());
    ASSERT_EQ(ReadPostings(*shared->field, id), it->second) << "term " << term;
    ASSERT_EQ(ReadPostings(*separate->field, id), it->second) << "term " << term;
  }

  // Same sorted order, equal to the naive index's (std::map) order.
  const std::vector<uint32_t> shared_sorted = shared->field->terms().SortTerms();
  const std::vector<uint32_t> separate_sorted = separate->field->terms().SortTerms();
  ASSERT_EQ(shared_sorted, separate_sorted);
  size_t i = 0;
  for (const auto& [term, postings] : naive) ASSERT_EQ(st.term(shared_sorted[i++]), term);
}

INSTANTIATE_TEST_SUITE_P(
    AllOptions, PostingsTest,
    ::testing::Values(OptionCase{IndexOptions::kDocs, false},
                      OptionCase{IndexOptions::kDocsAndFreqs, false},
                      OptionCase{IndexOptions::kDocsAndFreqsAndPositions, false},
                      OptionCase{IndexOptions::kDocsAndFreqsAndPositions, true},
                      OptionCase{IndexOptions::kDocsAndFreqsAndPositionsAndOffsets, false},
                      OptionCase{IndexOptions::kDocsAndFreqsAndPositionsAndOffsets, true}),
    OptionCaseName);

TEST(TermsHashTest, RamCountEqualsBlocksPlusArrays) {
  Random rng(testing::TestSeed(61));
  const auto docs = RandomDocs(rng, 200);
  for (TermBytesLayout layout : {TermBytesLayout::kShared, TermBytesLayout::kSeparate}) {
    auto b = Build(docs, layout, IndexOptions::kDocsAndFreqsAndPositions, false);
    const TermsHash& th = *b->terms_hash;
    size_t blocks = th.byte_pool().block_count() + th.int_pool().block_count();
    if (!th.shares_term_pool()) blocks += th.term_byte_pool().block_count();
    EXPECT_EQ(b->allocator.live_blocks(), static_cast<int64_t>(blocks));
    const auto& terms = b->field->terms();
    // Exact: blocks plus the hash's table and per-term records, nothing else.
    EXPECT_EQ(b->counter.bytes(), static_cast<int64_t>(blocks) * 32768 +
                                      static_cast<int64_t>(terms.hash().bytes_used()));
    EXPECT_GE(terms.hash().bytes_used(), terms.size() * 32u);
    // Tearing down returns every byte.
    b->field.reset();
    b->terms_hash.reset();
    EXPECT_EQ(b->counter.bytes(), 0);
    EXPECT_EQ(b->allocator.live_blocks(), 0);
  }
}

struct VectorState {
  uint32_t freq;
};

TEST(TermsHashTest, ChainedHashReusesPrimaryTermBytes) {
  Random rng(testing::TestSeed(71));
  const auto docs = RandomDocs(rng, 100);
  for (TermBytesLayout layout : {TermBytesLayout::kShared, TermBytesLayout::kSeparate}) {
    RamCounter counter;
    BlockAllocator allocator(&counter);
    TermsHash primary(&allocator, layout);
    TermsHash vectors(&allocator, &primary);
    EXPECT_EQ(&vectors.term_byte_pool(), &primary.term_byte_pool());
    PostingsWriterPerField field(&primary, IndexOptions::kDocsAndFreqsAndPositions, false,
                                 &counter);
    for (uint32_t doc = 0; doc < docs.size(); ++doc) {
      TermsHashPerField<VectorState> doc_terms(&vectors, 1, &counter);
      std::map<std::string, std::vector<uint32_t>> expected;
      for (const Token& t : docs[doc]) {
        const uint32_t id = field.Add(t.term, doc, t.position);
        const uint32_t term_pool_end = primary.term_byte_pool().end_address();
        auto added = doc_terms.AddByPoolOffset(field.terms().term_entry_address(id));
        if (added.is_new) added.state->freq = 0;
        ++added.state->freq;
        doc_terms.WriteVInt(0, t.position);
        expected[t.term].push_back(t.position);
        // The chained add wrote nothing to the term pool.
        ASSERT_EQ(primary.term_byte_pool().end_address(), term_pool_end);
        ASSERT_EQ(doc_terms.term(added.id), t.term);
      }
      ASSERT_EQ(doc_terms.size(), expected.size());
      const std::vector<uint32_t> sorted = doc_terms.SortTerms();
      size_t i = 0;
      for (const auto& [term, positions] : expected) {
        const uint32_t id = sorted[i++];
        ASSERT_EQ(doc_terms.term(id), term);
        ASSERT_EQ(doc_terms.state(id).freq, positions.size());
        SliceReader r = doc_terms.StreamReader(id, 0);
        for (uint32_t p : positions) {
          uint32_t back = 0;
          ASSERT_TRUE(r.ReadVInt(&back));
          ASSERT_EQ(back, p);
        }
        ASSERT_TRUE(r.eof());
      }
      doc_terms.Reset();
      vectors.Reset();
    }
  }
}

}  // namespace
}  // namespace invert

// Tests of the indexing chain's memory rules: the RamCounter equals a
// recomputation of everything held (pools, arrays and per-document scratch)
// after every document of a random mix of tiny and huge ones; a huge
// document's scratch is released afterwards; max_document_bytes rejects a
// document while it is analyzed, never holding much more than the limit; the
// headroom rule asks for a flush (and leaves the chain unchanged) only when
// the chain already holds documents, and its estimate covers what a
// document really adds; inverting in chunks of kInvertChunk tokens gives the
// same segment as the naive model, with term vectors, payloads, offsets and
// multi-valued fields straddling chunk boundaries.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "index/chain_model.h"
#include "index/in_memory_postings.h"
#include "index/indexing_chain.h"
#include "index/postings_writer_per_field.h"
#include "index/random_docs.h"
#include "test_scale.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using testing::ApplyToModel;
using testing::ExpectMatchesModel;
using testing::FieldSpec;
using testing::Model;
using testing::RandomDoc;
using testing::RandomType;
using testing::RandomWord;
using testing::TestDoc;
using testing::TestField;
using testing::TestValue;
using testing::ToDocument;

IndexingChainOptions WhitespaceOptions(TermBytesLayout layout = TermBytesLayout::kSeparate) {
  IndexingChainOptions o;
  o.layout = layout;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  return o;
}

// Like RandomDoc, with up to `max_tokens` words or tokens per value, so that
// fields straddle many inversion chunks.
TestDoc LargeRandomDoc(Random& rng, const std::vector<FieldSpec>& specs, size_t max_tokens) {
  TestDoc doc;
  for (const FieldSpec& spec : specs) {
    if (!rng.Bernoulli(0.8)) continue;
    TestField f{spec.name, {}};
    const size_t values = rng.Range(1, 3);
    for (size_t v = 0; v < values; ++v) {
      TestValue value;
      value.is_text = spec.type.tokenized ? rng.Bernoulli(0.6) : rng.Bernoulli(0.5);
      const size_t n = rng.Uniform(max_tokens + 1);
      if (value.is_text && spec.type.tokenized) {
        for (size_t i = 0; i < n; ++i) {
          if (i > 0) value.text += std::string(rng.Range(1, 2), ' ');
          value.text += RandomWord(rng);
        }
      } else if (value.is_text) {
        value.text = RandomWord(rng);
      } else {
        uint32_t offset = 0;
        for (size_t i = 0; i < n; ++i) {
          value.terms.push_back(RandomWord(rng));
          std::string payload;
          if (rng.Bernoulli(0.3)) payload = std::string(rng.Range(1, 3), 'p');
          value.payloads.push_back(payload);
        }
        for (size_t i = 0; i < n; ++i) {
          PreAnalyzedToken t;
          t.term = value.terms[i];
          t.position_increment = i == 0 ? static_cast<uint32_t>(rng.Range(1, 3))
                                        : static_cast<uint32_t>(rng.Uniform(3));
          offset += static_cast<uint32_t>(rng.Uniform(3));
          t.start_offset = offset;
          t.end_offset = offset + static_cast<uint32_t>(rng.Uniform(4));
          t.payload = value.payloads[i];
          value.tokens.push_back(t);
        }
        value.stored = "tokens:" + std::to_string(n);
      }
      f.values.push_back(std::move(value));
    }
    doc.fields.push_back(std::move(f));
  }
  for (TestField& f : doc.fields) {
    for (TestValue& v : f.values) {
      for (size_t i = 0; i < v.tokens.size(); ++i) {
        v.tokens[i].term = v.terms[i];
        v.tokens[i].payload = v.payloads[i];
      }
    }
  }
  return doc;
}

// Field types that exercise everything inversion writes.
std::vector<FieldSpec> FullSpecs(Random& rng) {
  std::vector<FieldSpec> specs;
  FieldType all = FieldType::Text(true);
  all.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
  all.payloads = true;
  all.term_vectors = all.term_vector_positions = all.term_vector_offsets = true;
  all.term_vector_payloads = true;
  specs.push_back({"all", all});
  FieldType tv_offsets = FieldType::Text();
  tv_offsets.term_vectors = tv_offsets.term_vector_offsets = true;
  specs.push_back({"tv_offsets", tv_offsets});
  FieldType docs = FieldType::Text();
  docs.index_options = IndexOptions::kDocs;
  specs.push_back({"docs", docs});
  FieldType freqs = FieldType::Text();
  freqs.index_options = IndexOptions::kDocsAndFreqs;
  specs.push_back({"freqs", freqs});
  for (int i = 0; i < 3; ++i) specs.push_back({absl::StrCat("r", i), RandomType(rng)});
  return specs;
}

std::map<std::string, FieldType> TypesOf(const std::vector<FieldSpec>& specs) {
  std::map<std::string, FieldType> types;
  for (const FieldSpec& s : specs) types[s.name] = s.type;
  return types;
}

// `n` words over a vocabulary of `vocabulary` words ("w0" ...).
std::string Words(size_t n, size_t vocabulary, uint64_t seed) {
  Random rng(seed);
  std::string text;
  text.reserve(n * 7);
  for (size_t i = 0; i < n; ++i) absl::StrAppend(&text, "w", rng.Uniform(vocabulary), " ");
  return text;
}

TEST(IndexingChainMemoryTest, CounterMatchesRecomputationOverRandomDocuments) {
  const uint64_t seed = testing::TestSeed(9001);
  for (TermBytesLayout layout : {TermBytesLayout::kSeparate, TermBytesLayout::kShared}) {
    Random rng(seed + static_cast<int>(layout));
    const std::vector<FieldSpec> specs = FullSpecs(rng);
    const std::map<std::string, FieldType> types = TypesOf(specs);
    RamCounter writer;
    {
      IndexingChain chain(WhitespaceOptions(layout), &writer);
      const int docs = testing::Scaled(60, 15);
      for (int d = 0; d < docs; ++d) {
        const uint64_t kind = rng.Uniform(10);
        const TestDoc td = kind < 6   ? RandomDoc(rng, specs)
                           : kind < 9 ? LargeRandomDoc(rng, specs, 3000)
                                      : LargeRandomDoc(rng, specs, 60000);
        ASSERT_TRUE(chain.AddDocument(ToDocument(td, types)).ok()) << d;
        ASSERT_EQ(chain.ram_bytes_used(), chain.RecomputeRamBytes()) << "doc " << d;
        ASSERT_EQ(writer.bytes(), chain.ram_bytes_used());
        ASSERT_LE(chain.scratch_bytes(), IndexingChain::kRetainedScratchBytes);
        if (d % 7 == 3) {  // a failing document counts its scratch too
          const std::string bad = "ok \xFF";
          ASSERT_FALSE(chain.AddDocument(Document().Add(Field::Text("all", bad))).ok());
          ASSERT_EQ(chain.ram_bytes_used(), chain.RecomputeRamBytes());
        }
      }
    }
    EXPECT_EQ(writer.bytes(), 0) << "the chain gives back every byte it counted";
  }
}

TEST(IndexingChainMemoryTest, BigDocumentScratchIsReleased) {
  IndexingChain chain(WhitespaceOptions());
  const std::string small = Words(50, 20, 1);
  ASSERT_TRUE(chain.AddDocument(Document().Add(Field::Text("body", small))).ok());
  const int64_t small_scratch = chain.scratch_bytes();
  EXPECT_GT(small_scratch, 0);
  EXPECT_EQ(chain.ram_bytes_used(), chain.RecomputeRamBytes());

  const std::string big = Words(300000, 5000, 2);
  ASSERT_TRUE(chain.AddDocument(Document().Add(Field::Text("body", big))).ok());
  EXPECT_GT(chain.peak_scratch_bytes(), int64_t{300000} * 32);             // held while indexing it
  EXPECT_LT(chain.scratch_bytes(), IndexingChain::kRetainedScratchBytes);  // then released
  EXPECT_LT(chain.scratch_bytes(), chain.peak_scratch_bytes() / 50);
  EXPECT_EQ(chain.ram_bytes_used(), chain.RecomputeRamBytes());

  ASSERT_TRUE(chain.AddDocument(Document().Add(Field::Text("body", small))).ok());
  EXPECT_LE(chain.scratch_bytes(), small_scratch + int64_t{64} * 1024);
  EXPECT_EQ(chain.ram_bytes_used(), chain.RecomputeRamBytes());
}

struct LimitCase {
  const char* name;
  std::function<std::unique_ptr<Analyzer>()> analyzer;
  bool pre_analyzed;
};

TEST(IndexingChainMemoryTest, PerDocumentLimitRejectsHugeDocumentWhileAnalyzing) {
  constexpr int64_t kLimit = int64_t{4} << 20;
  constexpr size_t kTokens = 2000000;
  const std::string text = Words(kTokens, 100000, 3);
  std::vector<std::string> terms;
  std::vector<PreAnalyzedToken> tokens;
  terms.reserve(kTokens);
  for (size_t i = 0; i < kTokens; ++i) terms.push_back(absl::StrCat("t", i % 70000));
  for (size_t i = 0; i < kTokens; ++i) {
    tokens.push_back({terms[i], 1, static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1), {}});
  }
  const std::vector<LimitCase> cases = {
      {"whitespace", [] { return NewWhitespaceAnalyzer(); }, false},
      {"standard", [] { return NewStandardAnalyzer(); }, false},  // ReserveTerm path
      {"pre-analyzed", nullptr, true},
  };
  for (const LimitCase& c : cases) {
    IndexingChainOptions options = WhitespaceOptions();
    if (c.analyzer) options.analyzer = c.analyzer;
    options.max_document_bytes = kLimit;
    options.max_document_bytes_note = "(the test's)";
    IndexingChain chain(options);
    const std::string small = Words(100, 50, 4);
    ASSERT_TRUE(chain.AddDocument(Document().Add(Field::Text("title", small))).ok());
    const std::string before = chain.DebugDump();
    const size_t fields_before = chain.field_infos().size();

    Document huge;
    huge.Add(Field::Text("title", small));
    if (c.pre_analyzed) {
      huge.Add(Field::Tokens("body", tokens, FieldType::Text()));
    } else {
      huge.Add(Field::Text("body", text));
    }
    const absl::Status s = chain.AddDocument(huge);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.name << ": " << s;
    EXPECT_EQ(s.message().find("document needs more than 4.0 MB to index ("), 0) << s.message();
    const std::string tail =
        "); the limit is max_document_mb = 4 (the test's): raise --ram-mb / max_document_mb or "
        "split the document";
    if (c.pre_analyzed) {
      // Read in place and charged whole, as if copied: 2,000,000 tokens of
      // 32 bytes and their term bytes (72.2 MB, the scratch rounding away).
      EXPECT_NE(s.message().find("(an estimated 72.2 MB; field \"body\": 2,000,000 tokens" + tail),
                std::string::npos)
          << s.message();
      // The chain never held them.
      EXPECT_LT(chain.peak_scratch_bytes(), kLimit / 8) << c.name;
    } else {
      EXPECT_NE(s.message().find("(field \"body\": "), std::string::npos) << s.message();
      EXPECT_NE(s.message().find(" tokens so far" + tail), std::string::npos) << s.message();
      // The tokens never grew past the limit (the standard analyzer's last
      // reservation may sit in a one-term side buffer).
      EXPECT_LE(chain.peak_scratch_bytes(), kLimit + 4096) << c.name;
      EXPECT_GT(chain.peak_scratch_bytes(), kLimit / 2) << c.name;
    }
    EXPECT_EQ(chain.DebugDump(), before) << c.name;
    EXPECT_EQ(chain.field_infos().size(), fields_before) << c.name;
    EXPECT_EQ(chain.field_infos().Find("body"), -1) << c.name;
    EXPECT_LT(chain.scratch_bytes(), IndexingChain::kRetainedScratchBytes) << c.name;
    EXPECT_EQ(chain.ram_bytes_used(), chain.RecomputeRamBytes()) << c.name;
    ASSERT_TRUE(chain.AddDocument(Document().Add(Field::Text("body", small))).ok()) << c.name;
    EXPECT_EQ(chain.num_docs(), 2u);
  }
}

// Pre-analyzed tokens are read in place but charged as if buffered, so a
// text field after them gets only what they leave of the limit.
TEST(IndexingChainMemoryTest, PreAnalyzedTokensShareTheLimitWithAnalyzedOnes) {
  constexpr int64_t kLimit = int64_t{4} << 20;
  std::vector<std::string> terms;
  std::vector<PreAnalyzedToken> tokens;
  for (size_t i = 0; i < 60000; ++i) terms.push_back(absl::StrCat("t", i % 500));
  for (size_t i = 0; i < terms.size(); ++i) {
    tokens.push_back({terms[i], 1, static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1), {}});
  }
  // ~2.2 MB charged for the tokens, ~2.2 MB for the text's: each fits alone.
  const std::string text = Words(60000, 500, 7);
  IndexingChainOptions options = WhitespaceOptions();
  options.max_document_bytes = kLimit;
  IndexingChain chain(options);
  ASSERT_TRUE(
      chain.AddDocument(Document().Add(Field::Tokens("pre", tokens, FieldType::Text()))).ok());
  ASSERT_TRUE(chain.AddDocument(Document().Add(Field::Text("body", text))).ok());
  const std::string before = chain.DebugDump();
  const absl::Status s = chain.AddDocument(Document()
                                               .Add(Field::Tokens("pre", tokens, FieldType::Text()))
                                               .Add(Field::Text("body", text)));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("field \"body\": "), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(" tokens so far)"), std::string::npos) << s.message();
  EXPECT_LE(chain.peak_scratch_bytes(), kLimit + 4096);
  EXPECT_EQ(chain.DebugDump(), before);
  EXPECT_EQ(chain.ram_bytes_used(), chain.RecomputeRamBytes());
  // The other order: the text's tokens are held, then the charge does not fit.
  const absl::Status reversed =
      chain.AddDocument(Document()
                            .Add(Field::Text("body", text))
                            .Add(Field::Tokens("pre", tokens, FieldType::Text())));
  EXPECT_EQ(reversed.code(), absl::StatusCode::kInvalidArgument) << reversed;
  EXPECT_NE(reversed.message().find("field \"pre\": 60,000 tokens)"), std::string::npos)
      << reversed.message();
  EXPECT_EQ(chain.DebugDump(), before);
  EXPECT_EQ(chain.ram_bytes_used(), chain.RecomputeRamBytes());
}

// Past the token cap, the whole-document estimate counts pre-analyzed tokens
// as the buffered text's: the same tokens either way give about the same
// estimate (text's buffer counts its spare room, hence not exactly).
TEST(IndexingChainMemoryTest, EstimateCountsPreAnalyzedTokensLikeText) {
  constexpr int64_t kLimit = int64_t{4} << 20;
  std::string text;
  std::vector<std::string> terms;
  std::vector<PreAnalyzedToken> tokens;
  for (int i = 0; i < 50000; ++i) terms.push_back(absl::StrCat("u", i));
  for (const std::string& t : terms) {
    const auto start = static_cast<uint32_t>(text.size());
    absl::StrAppend(&text, t, " ");
    tokens.push_back({t, 1, start, start + static_cast<uint32_t>(t.size()), {}});
  }
  const auto estimate_mb = [&](const Document& doc) {
    IndexingChainOptions options = WhitespaceOptions();
    options.max_document_bytes = kLimit;
    IndexingChain chain(options);
    const absl::Status s = chain.AddDocument(doc);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    const std::string m(s.message());
    const size_t at = m.find("(an estimated ");
    EXPECT_NE(at, std::string::npos) << m;
    if (at == std::string::npos) return 0.0;
    return std::stod(std::string(m.substr(at + 14, m.find(" MB;", at) - at - 14)));
  };
  const double as_text = estimate_mb(Document().Add(Field::Text("body", text)));
  const double as_tokens =
      estimate_mb(Document().Add(Field::Tokens("body", tokens, FieldType::Text())));
  std::printf("estimate: text %.1f MB, pre-analyzed %.1f MB\n", as_text, as_tokens);
  EXPECT_GT(as_tokens, 4.0);
  EXPECT_NEAR(as_tokens, as_text, as_text * 0.1);
}

TEST(IndexingChainMemoryTest, LimitCountsTheDocumentsTermsBeforeRejecting) {
  IndexingChainOptions options = WhitespaceOptions();
  options.max_document_bytes = int64_t{8} << 20;
  IndexingChain chain(options);
  // 100,000 tokens of a 500-word vocabulary: the token-count bound (every
  // token a new term) is over 8 MB, the counted terms are far below.
  const std::string repetitive = Words(100000, 500, 5);
  EXPECT_TRUE(chain.AddDocument(Document().Add(Field::Text("body", repetitive))).ok());
  // 100,000 distinct terms do not fit: rejected after analysis, with the
  // estimate in the message.
  std::string distinct;
  for (int i = 0; i < 100000; ++i) absl::StrAppend(&distinct, "u", i, " ");
  const std::string before = chain.DebugDump();
  const absl::Status s = chain.AddDocument(Document().Add(Field::Text("body", distinct)));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_NE(s.message().find("an estimated"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("field \"body\": 100,000 tokens)"), std::string::npos) << s.message();
  EXPECT_EQ(chain.DebugDump(), before);
  EXPECT_EQ(chain.ram_bytes_used(), chain.RecomputeRamBytes());
}

TEST(IndexingChainMemoryTest, HeadroomAsksForAFlushOnlyWhenTheChainHoldsDocuments) {
  IndexingChain chain(WhitespaceOptions());
  const std::string text = Words(2000, 300, 6);
  // An empty chain takes the document whatever the headroom.
  ASSERT_TRUE(chain.AddDocument(Document().Add(Field::Text("body", text)), 0).ok());
  ASSERT_EQ(chain.num_docs(), 1u);

  const std::string before = chain.DebugDump();
  const int64_t segment_before = chain.ram_bytes_used() - chain.scratch_bytes();
  const Document doc =
      Document().Add(Field::Text("body", text)).Add(Field::Text("new_field", text));
  for (int64_t headroom : {int64_t{0}, int64_t{1000}, int64_t{30000}}) {
    const absl::Status s = chain.AddDocument(doc, headroom);
    ASSERT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << headroom << ": " << s;
    EXPECT_EQ(s.message(), "in-memory segment full: flush, then add the document again");
    EXPECT_EQ(chain.DebugDump(), before);
    EXPECT_EQ(chain.num_docs(), 1u);
    EXPECT_EQ(chain.field_infos().Find("new_field"), -1);
    EXPECT_EQ(chain.ram_bytes_used() - chain.scratch_bytes(), segment_before);
    EXPECT_EQ(chain.ram_bytes_used(), chain.RecomputeRamBytes());
  }
  EXPECT_TRUE(chain.AddDocument(doc, int64_t{64} << 20).ok());
  EXPECT_TRUE(chain.AddDocument(doc).ok());  // default: unlimited
  EXPECT_EQ(chain.num_docs(), 3u);
}

// The headroom a document is accepted with covers what it really adds: a
// writer passing its true headroom never overshoots its buffer. Acceptance
// cannot be undone, so the headroom rises by 10% per refusal: the accepted
// one is within 10% of the chain's estimate.
TEST(IndexingChainMemoryTest, HeadroomEstimateCoversWhatTheDocumentAdds) {
  Random rng(testing::TestSeed(77001));
  const std::vector<FieldSpec> specs = FullSpecs(rng);
  const std::map<std::string, FieldType> types = TypesOf(specs);
  for (TermBytesLayout layout : {TermBytesLayout::kSeparate, TermBytesLayout::kShared}) {
    IndexingChain chain(WhitespaceOptions(layout));
    ASSERT_TRUE(chain.AddDocument(ToDocument(RandomDoc(rng, specs), types)).ok());
    const int docs = testing::Scaled(20, 5);
    for (int d = 0; d < docs; ++d) {
      const TestDoc td = rng.Bernoulli(0.5) ? RandomDoc(rng, specs)
                                            : LargeRandomDoc(rng, specs, rng.Range(10, 6000));
      const Document doc = ToDocument(td, types);
      const std::string before = chain.DebugDump();
      for (int64_t headroom = 4096;; headroom += headroom / 10) {
        const int64_t segment = chain.ram_bytes_used() - chain.scratch_bytes();
        const int64_t total = chain.ram_bytes_used();
        const absl::Status s = chain.AddDocument(doc, headroom);
        if (s.ok()) {
          EXPECT_LE(chain.ram_bytes_used() - chain.scratch_bytes() - segment, headroom)
              << "doc " << d;
          EXPECT_LE(chain.ram_bytes_used() - total, headroom) << "doc " << d;
          break;
        }
        ASSERT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
        ASSERT_EQ(chain.ram_bytes_used() - chain.scratch_bytes(), segment);
        ASSERT_EQ(chain.num_docs(), static_cast<uint32_t>(d + 1));
      }
      ASSERT_NE(chain.DebugDump(), before);
      ASSERT_EQ(chain.num_docs(), static_cast<uint32_t>(d + 2));
      ASSERT_EQ(chain.ram_bytes_used(), chain.RecomputeRamBytes());
    }
  }
}

// Segment after segment through one BlockCache, as a writer's thread runs
// them: each chain takes its predecessor's (dirty) blocks and large arrays
// (a field of ~75k distinct terms has a hash table and records over
// BlockCache::kMinArrayBytes), yet holds exactly what a chain on fresh memory
// holds (the differential: equal DebugDump and model), its counter stays
// equal to the recomputation (cached memory is counted by no chain), and the
// cache stays within its bound.
TEST(IndexingChainMemoryTest, ChainsReusingFlushedMemoryMatchFreshChains) {
  const uint64_t seed = testing::TestSeed(4242);
  for (TermBytesLayout layout : {TermBytesLayout::kSeparate, TermBytesLayout::kShared}) {
    Random rng(seed + static_cast<int>(layout));
    std::vector<FieldSpec> specs = FullSpecs(rng);
    std::map<std::string, FieldType> types = TypesOf(specs);
    types["ids"] = FieldType::Text();
    constexpr size_t kBound = 640;  // 20 MiB
    const int64_t bound_bytes = static_cast<int64_t>(kBound * BlockAllocator::kBlockSize);
    BlockCache cache(kBound);
    RamCounter writer;
    uint64_t next_id = 0;
    // Each segment's ids field has ~75k distinct terms however many documents
    // carry them.
    const int segments = testing::Scaled(4, 2);
    const int docs = testing::Scaled(25, 6);
    const int ids_per_doc = 75000 / docs;
    for (int segment = 0; segment < segments; ++segment) {
      IndexingChainOptions reusing_options = WhitespaceOptions(layout);
      reusing_options.block_cache = &cache;
      const size_t blocks_at_start = cache.blocks();
      const size_t arrays_at_start = cache.arrays();
      if (segment > 0) {
        EXPECT_GT(blocks_at_start, 0u) << "segment " << segment;
        EXPECT_GT(arrays_at_start, 0u) << "segment " << segment;
      }
      size_t fewest_blocks = blocks_at_start;
      size_t fewest_arrays = arrays_at_start;
      {
        IndexingChain reusing(std::move(reusing_options), &writer);
        IndexingChain fresh(WhitespaceOptions(layout));
        Model model;
        for (int d = 0; d < docs; ++d) {
          TestDoc td =
              rng.Bernoulli(0.5) ? LargeRandomDoc(rng, specs, 2000) : RandomDoc(rng, specs);
          TestValue ids;
          ids.is_text = true;
          for (int i = 0; i < ids_per_doc; ++i) absl::StrAppend(&ids.text, "id", next_id++, " ");
          td.fields.push_back(TestField{"ids", {std::move(ids)}});
          const Document doc = ToDocument(td, types);
          ASSERT_TRUE(reusing.AddDocument(doc).ok()) << segment << "/" << d;
          ASSERT_TRUE(fresh.AddDocument(doc).ok()) << segment << "/" << d;
          ApplyToModel(td, types, model);
          ASSERT_EQ(reusing.ram_bytes_used(), reusing.RecomputeRamBytes()) << segment << "/" << d;
          ASSERT_EQ(writer.bytes(), reusing.ram_bytes_used());
          ASSERT_LE(cache.bytes(), bound_bytes);
          fewest_blocks = std::min(fewest_blocks, cache.blocks());
          fewest_arrays = std::min(fewest_arrays, cache.arrays());
        }
        ExpectMatchesModel(reusing, model, types);
        EXPECT_EQ(reusing.DebugDump(), fresh.DebugDump()) << "segment " << segment;
      }
      if (segment > 0) {
        EXPECT_LT(fewest_blocks, blocks_at_start) << "the chain took cached blocks";
        EXPECT_LT(fewest_arrays, arrays_at_start) << "the chain took cached arrays";
      }
      EXPECT_EQ(writer.bytes(), 0) << "cached memory is counted by no chain";
      EXPECT_LE(cache.bytes(), bound_bytes);
    }
  }
}

TEST(IndexingChainMemoryTest, ChunkedInversionMatchesTheModelAndBothLayouts) {
  const uint64_t seed = testing::TestSeed(31337);
  const int rounds = testing::Scaled(3, 1);
  for (int round = 0; round < rounds; ++round) {
    Random rng(seed + round);
    const std::vector<FieldSpec> specs = FullSpecs(rng);
    const std::map<std::string, FieldType> types = TypesOf(specs);
    IndexingChain shared(WhitespaceOptions(TermBytesLayout::kShared));
    IndexingChain separate(WhitespaceOptions(TermBytesLayout::kSeparate));
    Model model;
    for (int d = 0; d < 12; ++d) {
      // Values of up to 3 chunks, so fields (and values) straddle chunk
      // boundaries at random places.
      const TestDoc td = LargeRandomDoc(rng, specs, 3 * IndexingChain::kInvertChunk);
      const Document doc = ToDocument(td, types);
      ASSERT_TRUE(shared.AddDocument(doc).ok());
      ASSERT_TRUE(separate.AddDocument(doc).ok());
      ApplyToModel(td, types, model);
    }
    ExpectMatchesModel(shared, model, types);
    ExpectMatchesModel(separate, model, types);
    EXPECT_EQ(shared.DebugDump(), separate.DebugDump());
  }
}

// PostingsWriterPerField::AddTokens called on chunks of one document's tokens
// writes exactly the bytes one call over all of them writes.
TEST(IndexingChainChunkTest, AddTokensInChunksEqualsOneCall) {
  Random rng(testing::TestSeed(4242));
  for (IndexOptions options :
       {IndexOptions::kDocs, IndexOptions::kDocsAndFreqs, IndexOptions::kDocsAndFreqsAndPositions,
        IndexOptions::kDocsAndFreqsAndPositionsAndOffsets}) {
    RamCounter counter_a, counter_b;
    BlockAllocator allocator_a(&counter_a), allocator_b(&counter_b);
    TermsHash hash_a(&allocator_a, TermBytesLayout::kShared);
    TermsHash hash_b(&allocator_b, TermBytesLayout::kShared);
    PostingsWriterPerField whole(&hash_a, options, /*payloads=*/true, &counter_a);
    PostingsWriterPerField chunked(&hash_b, options, /*payloads=*/true, &counter_b);
    std::vector<std::string> terms, payloads;
    for (uint32_t doc = 0; doc < 30; ++doc) {
      const size_t n = rng.Uniform(3000);
      terms.clear();
      payloads.clear();
      for (size_t i = 0; i < n; ++i) {
        terms.push_back(RandomWord(rng));
        payloads.push_back(rng.Bernoulli(0.3) ? std::string(rng.Range(1, 4), 'q') : "");
      }
      std::vector<InvertedToken> tokens;
      uint32_t position = 0, offset = 0;
      for (size_t i = 0; i < n; ++i) {
        position += static_cast<uint32_t>(rng.Uniform(3));
        offset += static_cast<uint32_t>(rng.Uniform(4));
        tokens.push_back({terms[i], position, offset, offset + 2, payloads[i]});
      }
      std::vector<uint32_t> ids_whole(n), ids_chunked(n);
      whole.AddTokens(doc, tokens, ids_whole);
      for (size_t begin = 0; begin < n;) {
        const size_t len = std::min<size_t>(n - begin, rng.Range(1, 100));
        chunked.AddTokens(doc, std::span(tokens).subspan(begin, len),
                          std::span(ids_chunked).subspan(begin, len));
        begin += len;
      }
      ASSERT_EQ(ids_whole, ids_chunked);
    }
    ASSERT_EQ(whole.terms().size(), chunked.terms().size());
    for (uint32_t id = 0; id < whole.terms().size(); ++id) {
      ASSERT_EQ(whole.terms().term(id), chunked.terms().term(id));
      for (int s = 0; s < whole.terms().stream_count(); ++s) {
        std::string a, b;
        SliceReader ra = whole.terms().StreamReader(id, s);
        SliceReader rb = chunked.terms().StreamReader(id, s);
        const uint8_t* data;
        while (size_t k = ra.NextChunk(&data)) a.append(reinterpret_cast<const char*>(data), k);
        while (size_t k = rb.NextChunk(&data)) b.append(reinterpret_cast<const char*>(data), k);
        ASSERT_EQ(a, b) << "term " << id << " stream " << s;
      }
      const PostingState& sa = whole.terms().state(id);
      const PostingState& sb = chunked.terms().state(id);
      ASSERT_EQ(sa.last_doc_id, sb.last_doc_id);
      ASSERT_EQ(sa.last_doc_code, sb.last_doc_code);
      ASSERT_EQ(sa.term_freq, sb.term_freq);
    }
    EXPECT_EQ(counter_a.bytes(), counter_b.bytes());
  }
}

}  // namespace
}  // namespace invert

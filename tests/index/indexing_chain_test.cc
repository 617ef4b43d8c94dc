// Tests of IndexingChain against a naive inverted index built from the same
// tokens: random documents over fields of random types (text analyzed by the
// whitespace analyzer, keywords, pre-analyzed tokens with payloads), in both
// term-byte layouts; postings, norms, stored fields and term vectors read back
// equal the model, and the two layouts hold identical data. Failing documents
// (every kind of bad input) leave the segment exactly as before.
#include "index/indexing_chain.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/norm_encoding.h"
#include "gtest/gtest.h"
#include "index/chain_model.h"
#include "index/in_memory_postings.h"
#include "index/random_docs.h"
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
using testing::TestDoc;
using testing::TestField;
using testing::TestValue;
using testing::ToDocument;

IndexingChainOptions WhitespaceOptions(TermBytesLayout layout) {
  IndexingChainOptions o;
  o.layout = layout;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  return o;
}

TEST(IndexingChainTest, RandomDocumentsMatchNaiveIndexInBothLayouts) {
  const uint64_t seed = testing::TestSeed(2024);
  for (int round = 0; round < 6; ++round) {
    Random rng(seed + round);
    std::vector<FieldSpec> specs;
    std::map<std::string, FieldType> types;
    for (int i = 0; i < 6; ++i) {
      FieldSpec s{absl::StrCat("f", i), RandomType(rng)};
      types[s.name] = s.type;
      specs.push_back(s);
    }
    IndexingChain shared(WhitespaceOptions(TermBytesLayout::kShared));
    IndexingChain separate(WhitespaceOptions(TermBytesLayout::kSeparate));
    Model model;
    for (int d = 0; d < 150; ++d) {
      const TestDoc td = RandomDoc(rng, specs);
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

// Each maker returns a document that must be rejected; `keep` holds the bytes.
struct BadDoc {
  const char* what;
  std::function<Document(std::vector<std::string>& keep, std::vector<PreAnalyzedToken>& tokens)>
      make;
};

TEST(IndexingChainTest, FailedDocumentsLeaveNoTrace) {
  Random rng(testing::TestSeed(77));
  IndexingChainOptions options = WhitespaceOptions(TermBytesLayout::kSeparate);
  options.analyzer = [] { return NewStandardAnalyzer(); };
  IndexingChain chain(options);
  FieldType tv = FieldType::Text(true);
  tv.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
  tv.term_vectors = tv.term_vector_positions = tv.term_vector_offsets = true;
  FieldType tokens_type = FieldType::Text();
  tokens_type.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
  tokens_type.payloads = true;

  const std::vector<BadDoc> bad = {
      {"invalid UTF-8",
       [&](auto& keep, auto&) {
         keep = {"valid words here", std::string("bad \xC3\x28 byte")};
         return Document().Add(Field::Text("body", keep[0], tv)).Add(Field::Text("title", keep[1]));
       }},
      {"immense term",
       [&](auto& keep, auto&) {
         keep = {"fine text", std::string(40000, 'x')};
         return Document().Add(Field::Text("body", keep[0], tv)).Add(Field::Keyword("id", keep[1]));
       }},
      {"conflicting field type",
       [&](auto& keep, auto&) {
         keep = {"some words", "more"};
         return Document()
             .Add(Field::Text("newfield", keep[0]))
             .Add(Field::Text("body", keep[1]));  // body was first used with term vectors
       }},
      {"invalid field type",
       [&](auto& keep, auto&) {
         keep = {"x"};
         FieldType t;  // neither indexed nor stored
         return Document().Add(Field::Text("nothing", keep[0], t));
       }},
      {"first position increment zero",
       [&](auto& keep, auto& tokens) {
         keep = {"words before", "t"};
         tokens = {{keep[1], 0, 0, 1, {}}};
         return Document()
             .Add(Field::Text("body", keep[0], tv))
             .Add(Field::Tokens("pre", tokens, tokens_type));
       }},
      {"too many positions",
       [&](auto& keep, auto& tokens) {
         keep = {"a", "b"};
         tokens = {{keep[0], 2000000000, 0, 1, {}}, {keep[1], 2000000000, 1, 2, {}}};
         return Document().Add(Field::Tokens("pre", tokens, tokens_type));
       }},
      {"offsets backwards",
       [&](auto& keep, auto& tokens) {
         keep = {"a", "b"};
         tokens = {{keep[0], 1, 5, 6, {}}, {keep[1], 1, 2, 3, {}}};
         return Document().Add(Field::Tokens("pre", tokens, tokens_type));
       }},
      {"end before start",
       [&](auto& keep, auto& tokens) {
         keep = {"a"};
         tokens = {{keep[0], 1, 5, 4, {}}};
         return Document().Add(Field::Tokens("pre", tokens, tokens_type));
       }},
  };

  std::vector<std::string> words = {"alpha", "beta", "gamma", "delta", "epsilon"};
  for (int d = 0; d < 60; ++d) {
    std::string body, title;
    for (int i = 0; i < 8; ++i) body += words[rng.Uniform(words.size())] + " ";
    title = words[rng.Uniform(words.size())];
    std::vector<std::string> keep_terms = {words[rng.Uniform(words.size())], "p"};
    std::vector<PreAnalyzedToken> tokens = {{keep_terms[0], 1, 0, 5, keep_terms[1]}};
    Document doc;
    doc.Add(Field::Text("body", body, tv))
        .Add(Field::Text("title", title))
        .Add(Field::Tokens("pre", tokens, tokens_type));
    ASSERT_TRUE(chain.AddDocument(doc).ok());

    const BadDoc& b = bad[d % bad.size()];
    const std::string before = chain.DebugDump();
    // The segment's bytes; the reused per-document scratch may have grown.
    const int64_t ram_before = chain.ram_bytes_used() - chain.scratch_bytes();
    const size_t fields_before = chain.field_infos().size();
    std::vector<std::string> keep;
    std::vector<PreAnalyzedToken> bad_tokens;
    const Document bad_doc = b.make(keep, bad_tokens);
    const absl::Status s = chain.AddDocument(bad_doc);
    EXPECT_FALSE(s.ok()) << b.what;
    EXPECT_FALSE(s.message().empty()) << b.what;
    EXPECT_EQ(chain.DebugDump(), before) << b.what;
    EXPECT_EQ(chain.ram_bytes_used() - chain.scratch_bytes(), ram_before) << b.what;
    EXPECT_EQ(chain.ram_bytes_used(), chain.RecomputeRamBytes()) << b.what;
    EXPECT_EQ(chain.field_infos().size(), fields_before) << b.what;
    EXPECT_EQ(chain.field_infos().Find("newfield"), -1) << b.what;
  }
  EXPECT_EQ(chain.num_docs(), 60u);
}

TEST(IndexingChainTest, ErrorsNameTheProblem) {
  IndexingChain chain(IndexingChainOptions{});
  const std::string bad_utf8 = "ok \xFF";
  absl::Status s = chain.AddDocument(Document().Add(Field::Text("body", bad_utf8)));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("body"), std::string::npos) << s.message();
  const std::string immense(32767, 'z');
  s = chain.AddDocument(Document().Add(Field::Keyword("id", immense)));
  EXPECT_NE(s.message().find("immense term"), std::string::npos) << s.message();
  const std::string max_term(32766, 'z');
  EXPECT_TRUE(chain.AddDocument(Document().Add(Field::Keyword("id", max_term))).ok());
  EXPECT_EQ(chain.unique_terms("id"), 1u);
}

// Each token check's exact message, and which is named when a token fails
// several (term length, first increment, position, offsets, in that order).
TEST(IndexingChainTest, TokenChecksNameTheFirstProblem) {
  FieldType type = FieldType::Text();
  type.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
  const std::string immense(40000, 'x');
  const std::string a = "a", b = "b";
  struct Case {
    const char* what;
    std::vector<std::vector<PreAnalyzedToken>> values;  // of field "pre"
    std::string message;
  };
  const std::vector<Case> cases = {
      {"immense term",
       {{{a, 1, 0, 1, {}}, {immense, 1, 2, 3, {}}}},
       "field \"pre\": immense term of 40000 bytes (longer than the maximum of 32766), starting "
       "with \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\""},
      {"immense first term with increment 0",
       {{{immense, 0, 0, 1, {}}}},
       "field \"pre\": immense term of 40000 bytes (longer than the maximum of 32766), starting "
       "with \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\""},
      {"first increment 0",
       {{{a, 0, 0, 1, {}}}},
       "field \"pre\": the first token's position increment must be > 0"},
      {"first increment 0 after an empty value",
       {{}, {{a, 0, 0, 1, {}}}},
       "field \"pre\": the first token's position increment must be > 0"},
      {"too many positions",
       {{{a, 2000000000, 0, 1, {}}, {b, 2000000000, 1, 2, {}}}},
       absl::StrCat("field \"pre\": too many positions: position 3999999999 exceeds the maximum "
                    "of ",
                    IndexingChain::kMaxPosition)},
      {"end before start",
       {{{a, 1, 0, 1, {}}, {b, 1, 5, 4, {}}}},
       "field \"pre\": end offset 4 is before start offset 5"},
      {"offsets backwards",
       {{{a, 1, 5, 6, {}}, {b, 1, 2, 3, {}}}},
       "field \"pre\": offsets go backwards (start offset 2 after 5)"},
      {"end before start named before backwards",
       {{{a, 1, 5, 6, {}}, {b, 1, 2, 1, {}}}},
       "field \"pre\": end offset 1 is before start offset 2"},
      {"offset past 2^32 - 1 in a second value",
       {{{a, 1, 0, 4000000000u, {}}}, {{b, 1, 0, 300000000, {}}}},
       "field \"pre\": offset 4300000001 exceeds 2^32 - 1"},
  };
  for (const Case& c : cases) {
    IndexingChainOptions options;
    options.offset_gap = 1;
    IndexingChain chain(options);
    Document doc;
    for (const auto& tokens : c.values) doc.Add(Field::Tokens("pre", tokens, type));
    const absl::Status s = chain.AddDocument(doc);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.what << ": " << s;
    EXPECT_EQ(s.message(), c.message) << c.what;
    EXPECT_EQ(chain.num_docs(), 0u) << c.what;
    const PreAnalyzedToken fine[] = {{a, 1, 0, 1, {}}};
    EXPECT_TRUE(chain.AddDocument(Document().Add(Field::Tokens("pre", fine, type))).ok());
    EXPECT_EQ(chain.num_docs(), 1u) << c.what;
  }
}

TEST(IndexingChainTest, MultiValuedPositionsAndOffsetsContinue) {
  IndexingChainOptions options;
  options.analyzer = [] { return NewWhitespaceAnalyzer(); };
  options.position_increment_gap = 10;
  IndexingChain chain(options);
  FieldType t = FieldType::Text();
  t.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
  ASSERT_TRUE(
      chain.AddDocument(Document().Add(Field::Text("f", "a b", t)).Add(Field::Text("f", "b", t)))
          .ok());
  const PostingsWriterPerField* p = chain.postings(0);
  const int32_t b = p->terms().Find("b");
  ASSERT_GE(b, 0);
  InMemoryPostingsIterator it(*p, static_cast<uint32_t>(b));
  ASSERT_TRUE(it.NextDoc());
  EXPECT_EQ(it.freq(), 2u);
  it.NextPosition();
  EXPECT_EQ(it.position(), 1u);
  EXPECT_EQ(it.start_offset(), 2u);
  it.NextPosition();
  EXPECT_EQ(it.position(), 1u + 10 + 1);  // last position + gap + increment
  EXPECT_EQ(it.start_offset(), 3u + 1);   // previous value length + offset gap
  EXPECT_EQ(chain.norm(0, 0), EncodeNorm(3));
}

}  // namespace
}  // namespace invert

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
#include "gtest/gtest.h"
#include "index/in_memory_postings.h"
#include "index/norm_encoding.h"
#include "index/random_docs.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using testing::FieldSpec;
using testing::RandomDoc;
using testing::RandomType;
using testing::TestDoc;
using testing::TestField;
using testing::TestValue;
using testing::ToDocument;

struct Occurrence {
  uint32_t position;
  uint32_t start_offset;
  uint32_t end_offset;
  std::string payload;
  bool operator==(const Occurrence&) const = default;
};
struct Posting {
  uint32_t doc;
  uint32_t freq;
  std::vector<Occurrence> occurrences;
  bool operator==(const Posting&) const = default;
};
struct VectorTerm {
  uint32_t freq = 0;
  std::vector<uint32_t> positions, starts, ends;
  std::vector<std::string> payloads;
};

class Model {
 public:
  std::map<std::string, std::map<std::string, std::vector<Posting>>> postings;
  std::map<std::string, std::vector<uint8_t>> norms;
  std::vector<std::vector<std::pair<std::string, std::string>>> stored;
  std::vector<std::map<std::string, std::map<std::string, VectorTerm>>> vectors;
  uint32_t docs = 0;
};

// Whitespace tokens of `text` (single ASCII spaces/runs) with offsets.
std::vector<PreAnalyzedToken> SplitSpaces(const std::string& text) {
  std::vector<PreAnalyzedToken> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    const size_t start = i;
    while (i < text.size() && text[i] != ' ') ++i;
    if (i > start) {
      out.push_back({std::string_view(text).substr(start, i - start),
                     1,
                     static_cast<uint32_t>(start),
                     static_cast<uint32_t>(i),
                     {}});
    }
  }
  return out;
}

void ApplyToModel(const TestDoc& td, const std::map<std::string, FieldType>& types, Model& m) {
  const uint32_t doc = m.docs++;
  m.stored.emplace_back();
  m.vectors.emplace_back();
  for (const TestField& f : td.fields) {
    const FieldType& type = types.at(f.name);
    if (type.stored) {
      for (const TestValue& v : f.values)
        m.stored.back().emplace_back(f.name, v.is_text ? v.text : v.stored);
    }
    if (!type.indexed()) continue;
    int64_t position = -1;
    uint64_t base = 0;
    uint64_t length = 0;
    auto& field_postings = m.postings[f.name];
    for (const TestValue& v : f.values) {
      std::vector<PreAnalyzedToken> tokens;
      uint64_t value_end = 0;
      if (v.is_text) {
        tokens = type.tokenized ? SplitSpaces(v.text)
                                : std::vector<PreAnalyzedToken>{
                                      {v.text, 1, 0, static_cast<uint32_t>(v.text.size()), {}}};
        value_end = v.text.size();
      } else {
        tokens = v.tokens;
        for (const auto& t : tokens) value_end = std::max<uint64_t>(value_end, t.end_offset);
      }
      for (const PreAnalyzedToken& t : tokens) {
        position += t.position_increment;
        if (t.position_increment > 0) ++length;
        const std::string term(t.term);
        auto& list = field_postings[term];
        if (list.empty() || list.back().doc != doc) list.push_back({doc, 0, {}});
        Posting& p = list.back();
        ++p.freq;
        const uint32_t start = static_cast<uint32_t>(base + t.start_offset);
        const uint32_t end = static_cast<uint32_t>(base + t.end_offset);
        if (HasPositions(type.index_options)) {
          Occurrence o{static_cast<uint32_t>(position), 0, 0,
                       type.payloads ? std::string(t.payload) : ""};
          if (HasOffsets(type.index_options)) {
            o.start_offset = start;
            o.end_offset = end;
          }
          p.occurrences.push_back(o);
        }
        if (type.term_vectors) {
          VectorTerm& vt = m.vectors.back()[f.name][term];
          ++vt.freq;
          if (type.term_vector_positions) vt.positions.push_back(static_cast<uint32_t>(position));
          if (type.term_vector_offsets) {
            vt.starts.push_back(start);
            vt.ends.push_back(end);
          }
          if (type.term_vector_payloads) vt.payloads.emplace_back(t.payload);
        }
      }
      base += value_end + 1;
    }
    if (type.has_norms()) {
      auto& norms = m.norms[f.name];
      norms.resize(doc + 1, 0);
      norms[doc] = EncodeNorm(length);
    }
  }
  for (auto& [name, fp] : m.postings) {
    if (!HasFreqs(types.at(name).index_options)) {
      for (auto& [term, list] : fp) {
        if (!list.empty() && list.back().doc == doc) list.back().freq = 1;
      }
    }
  }
}

std::vector<Posting> ReadPostings(const PostingsWriterPerField& field, uint32_t id) {
  std::vector<Posting> out;
  InMemoryPostingsIterator it(field, id);
  while (it.NextDoc()) {
    Posting p{it.doc(), it.freq(), {}};
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

void ExpectMatchesModel(const IndexingChain& chain, const Model& m,
                        const std::map<std::string, FieldType>& types) {
  ASSERT_EQ(chain.num_docs(), m.docs);
  for (const auto& [name, type] : types) {
    const int64_t number = chain.field_infos().Find(name);
    if (number < 0) {
      EXPECT_EQ(m.postings.count(name), 0u) << name;
      continue;
    }
    const uint32_t n = static_cast<uint32_t>(number);
    if (type.indexed()) {
      const PostingsWriterPerField* p = chain.postings(n);
      ASSERT_NE(p, nullptr);
      const auto& expected = m.postings.at(name);
      const std::vector<uint32_t> ids = chain.SortedTermIds(n);
      ASSERT_EQ(ids.size(), expected.size()) << name;
      EXPECT_EQ(chain.unique_terms(name), expected.size());
      size_t i = 0;
      for (const auto& [term, list] : expected) {
        ASSERT_EQ(p->terms().term(ids[i]), term) << name;
        ASSERT_EQ(ReadPostings(*p, ids[i]), list) << name << " term " << term;
        ++i;
      }
    }
    for (uint32_t doc = 0; doc < m.docs; ++doc) {
      uint8_t expected = 0;
      if (auto it = m.norms.find(name); it != m.norms.end() && doc < it->second.size()) {
        expected = it->second[doc];
      }
      ASSERT_EQ(chain.norm(n, doc), expected) << name << " doc " << doc;
    }
  }
  for (uint32_t doc = 0; doc < m.docs; ++doc) {
    std::vector<std::pair<std::string, std::string>> stored;
    for (const StoredValue& v : chain.StoredFields(doc)) {
      stored.emplace_back(chain.field_infos()[v.field_number].name, std::string(v.value));
    }
    ASSERT_EQ(stored, m.stored[doc]) << "doc " << doc;
    std::map<std::string, std::map<std::string, VectorTerm>> vectors;
    for (const TermVectorField& f : chain.TermVectors(doc)) {
      auto& fv = vectors[chain.field_infos()[f.field_number].name];
      std::string last;
      for (const TermVectorTerm& t : f.terms) {
        VectorTerm& vt = fv[std::string(t.term)];
        vt.freq = t.freq;
        vt.positions = t.positions;
        vt.starts = t.start_offsets;
        vt.ends = t.end_offsets;
        vt.payloads = t.payloads;
      }
    }
    ASSERT_EQ(vectors.size(), m.vectors[doc].size()) << "doc " << doc;
    for (const auto& [name, terms] : m.vectors[doc]) {
      ASSERT_EQ(vectors[name].size(), terms.size()) << name;
      for (const auto& [term, vt] : terms) {
        const VectorTerm& got = vectors[name][term];
        EXPECT_EQ(got.freq, vt.freq);
        EXPECT_EQ(got.positions, vt.positions);
        EXPECT_EQ(got.starts, vt.starts);
        EXPECT_EQ(got.ends, vt.ends);
        EXPECT_EQ(got.payloads, vt.payloads);
      }
    }
  }
}

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
    const int64_t ram_before = chain.ram_bytes_used();
    const size_t fields_before = chain.field_infos().size();
    std::vector<std::string> keep;
    std::vector<PreAnalyzedToken> bad_tokens;
    const Document bad_doc = b.make(keep, bad_tokens);
    const absl::Status s = chain.AddDocument(bad_doc);
    EXPECT_FALSE(s.ok()) << b.what;
    EXPECT_FALSE(s.message().empty()) << b.what;
    EXPECT_EQ(chain.DebugDump(), before) << b.what;
    EXPECT_EQ(chain.ram_bytes_used(), ram_before) << b.what;
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

TEST(NormEncodingTest, RoundTripsAndIsMonotonic) {
  for (int code = 0; code < 256; ++code) {
    EXPECT_EQ(EncodeNorm(DecodeNorm(static_cast<uint8_t>(code))), code);
  }
  uint8_t last = 0;
  for (uint64_t length = 0; length < 2000000; length += 1 + length / 50) {
    const uint8_t code = EncodeNorm(length);
    EXPECT_GE(code, last);
    EXPECT_LE(DecodeNorm(code), length);
    if (length < 507904) {
      EXPECT_GE(DecodeNorm(code) * 1.0, length * (1 - 1.0 / 16) - 1);
    }
    last = code;
  }
  EXPECT_EQ(EncodeNorm(0), 0);
  EXPECT_EQ(EncodeNorm(31), 31);
  EXPECT_EQ(EncodeNorm(UINT64_MAX), 255);
}

}  // namespace
}  // namespace invert

// A naive inverted index built from the same documents as an IndexingChain
// (text split on spaces, as the whitespace analyzer does, keywords, and
// pre-analyzed tokens with payloads; position gap 0, offset gap 1), and the
// check that a chain holds exactly the same postings, norms, stored fields
// and term vectors. Shared by the chain's randomized tests.
#ifndef INVERT_TESTS_INDEX_CHAIN_MODEL_H_
#define INVERT_TESTS_INDEX_CHAIN_MODEL_H_

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "codec/norm_encoding.h"
#include "gtest/gtest.h"
#include "index/in_memory_postings.h"
#include "index/indexing_chain.h"
#include "index/random_docs.h"

namespace invert::testing {

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
inline std::vector<PreAnalyzedToken> SplitSpaces(const std::string& text) {
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

inline void ApplyToModel(const TestDoc& td, const std::map<std::string, FieldType>& types,
                         Model& m) {
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

inline std::vector<Posting> ReadPostings(const PostingsWriterPerField& field, uint32_t id) {
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

inline void ExpectMatchesModel(const IndexingChain& chain, const Model& m,
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
    for (const BufferedStoredValue& v : chain.StoredFields(doc)) {
      stored.emplace_back(chain.field_infos()[v.field_number].name, std::string(v.value));
    }
    ASSERT_EQ(stored, m.stored[doc]) << "doc " << doc;
    std::map<std::string, std::map<std::string, VectorTerm>> vectors;
    for (const BufferedVectorField& f : chain.TermVectors(doc)) {
      auto& fv = vectors[chain.field_infos()[f.field_number].name];
      std::string last;
      for (const BufferedVectorTerm& t : f.terms) {
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

}  // namespace invert::testing

#endif  // INVERT_TESTS_INDEX_CHAIN_MODEL_H_

// Random documents for the indexing tests: fields of random (valid) types
// with text values (space-separated words, for the whitespace analyzer),
// keywords and pre-analyzed tokens with payloads. A TestDoc owns every byte
// its Document points at.
#ifndef INVERT_TESTS_INDEX_RANDOM_DOCS_H_
#define INVERT_TESTS_INDEX_RANDOM_DOCS_H_

#include <map>
#include <string>
#include <vector>

#include "invert/document.h"
#include "util/random.h"

namespace invert::testing {

// A document as the test builds it: owns every byte the Fields point at.
struct TestValue {
  bool is_text;
  std::string text;
  std::vector<std::string> terms, payloads;
  std::vector<PreAnalyzedToken> tokens;  // views into terms/payloads
  std::string stored;
};
struct TestField {
  std::string name;
  std::vector<TestValue> values;
};
struct TestDoc {
  std::vector<TestField> fields;
};

struct FieldSpec {
  std::string name;
  FieldType type;
};

inline FieldType RandomType(Random& rng) {
  for (;;) {
    FieldType t;
    t.index_options = static_cast<IndexOptions>(rng.Uniform(5));
    t.tokenized = rng.Bernoulli(0.6);
    t.stored = rng.Bernoulli(0.4);
    t.norms = rng.Bernoulli(0.7);
    t.payloads = HasPositions(t.index_options) && rng.Bernoulli(0.5);
    t.term_vectors = t.indexed() && rng.Bernoulli(0.5);
    if (t.term_vectors) {
      t.term_vector_positions = rng.Bernoulli(0.6);
      t.term_vector_offsets = rng.Bernoulli(0.6);
      t.term_vector_payloads = t.term_vector_positions && rng.Bernoulli(0.5);
    }
    if (t.Validate().ok()) return t;
  }
}

inline std::string RandomWord(Random& rng) {
  std::string w(rng.Range(1, 6), 'a');
  for (char& c : w) c = static_cast<char>('a' + rng.Uniform(rng.Bernoulli(0.5) ? 3 : 26));
  return w;
}

// Builds one random document for `specs` and applies it to `model`.
inline TestDoc RandomDoc(Random& rng, const std::vector<FieldSpec>& specs) {
  TestDoc doc;
  for (const FieldSpec& spec : specs) {
    if (!rng.Bernoulli(0.6)) continue;
    TestField f{spec.name, {}};
    const size_t values = rng.Range(1, 3);
    for (size_t v = 0; v < values; ++v) {
      TestValue value;
      value.is_text = spec.type.tokenized ? rng.Bernoulli(0.8) : rng.Bernoulli(0.5);
      if (value.is_text) {
        if (spec.type.tokenized) {
          const size_t words = rng.Uniform(12);
          for (size_t i = 0; i < words; ++i) {
            if (i > 0) value.text += std::string(rng.Range(1, 2), ' ');
            value.text += RandomWord(rng);
          }
        } else {
          value.text = RandomWord(rng);
        }
      } else {
        const size_t n = rng.Uniform(10);
        uint32_t offset = 0;
        for (size_t i = 0; i < n; ++i) {
          std::string term(rng.Range(0, 5), '\0');
          for (char& c : term)
            c = static_cast<char>(rng.Bernoulli(0.2) ? rng.Uniform(256) : 'a' + rng.Uniform(4));
          value.terms.push_back(term);
          std::string payload;
          if (rng.Bernoulli(0.4)) {
            payload.resize(rng.Range(1, 4));
            for (char& c : payload) c = static_cast<char>(rng.Uniform(256));
          }
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
        value.stored = "stored:" + std::to_string(n);
      }
      f.values.push_back(std::move(value));
    }
    doc.fields.push_back(std::move(f));
  }
  // Re-point token views: the vectors above moved.
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

inline Document ToDocument(const TestDoc& td, const std::map<std::string, FieldType>& types) {
  Document doc;
  for (const TestField& f : td.fields) {
    const FieldType& type = types.at(f.name);
    for (const TestValue& v : f.values) {
      if (v.is_text) {
        doc.Add(type.tokenized ? Field::Text(f.name, v.text, type)
                               : Field::Keyword(f.name, v.text, type));
      } else {
        doc.Add(Field::Tokens(f.name, v.tokens, type, v.stored));
      }
    }
  }
  return doc;
}

}  // namespace invert::testing

#endif  // INVERT_TESTS_INDEX_RANDOM_DOCS_H_

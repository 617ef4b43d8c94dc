// CreateWeight: checks a query against the index's schema, reads its
// statistics and builds the weight tree.
#include "search/weight.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "codec/norm_encoding.h"
#include "index/leaf_reader_impl.h"

namespace invert::search_internal {
namespace {

absl::StatusOr<FieldType> IndexedField(const IndexReader& reader, const std::string& field,
                                       const Query& query) {
  for (const FieldSchema& f : reader.fields()) {
    if (f.name != field) continue;
    if (!f.type.indexed()) {
      return absl::InvalidArgumentError(absl::StrCat("field \"", field, "\" of query ",
                                                     query.ToString(), " is not indexed (",
                                                     f.type.Describe(), ")"));
    }
    return f.type;
  }
  std::vector<std::string> names;
  for (const FieldSchema& f : reader.fields()) names.push_back(absl::StrCat("\"", f.name, "\""));
  return absl::NotFoundError(absl::StrCat(
      "field \"", field, "\" of query ", query.ToString(),
      " is not in the index; its fields: ", names.empty() ? "none" : absl::StrJoin(names, ", ")));
}

std::string Unboosted(const Query& query) {
  Query q = query;
  q.boost = 1.0f;
  return q.ToString();
}

absl::StatusOr<std::unique_ptr<Bm25Part>> MakeBm25(const IndexReader& reader,
                                                   const std::string& field,
                                                   const std::vector<std::string>& terms,
                                                   const FieldType& type, float boost,
                                                   const Bm25Params& params) {
  absl::StatusOr<TermsStatistics> fstats = reader.FieldStatistics(field);
  if (!fstats.ok()) return fstats.status();
  double idf = 0;
  std::vector<Explanation> idfs;
  for (const std::string& term : terms) {
    absl::StatusOr<TermStatistics> tstats = reader.TermStats(field, term);
    if (!tstats.ok()) return tstats.status();
    idf += Bm25Idf(tstats->doc_freq, fstats->doc_count);
    idfs.push_back(IdfExplanation(tstats->doc_freq, fstats->doc_count));
  }
  Explanation idf_explanation;
  if (idfs.size() == 1) {
    idf_explanation = std::move(idfs[0]);
  } else {
    idf_explanation = {true, static_cast<float>(idf), "idf, sum of:", std::move(idfs)};
  }
  return std::make_unique<Bm25Part>(boost, idf,
                                    Bm25FieldStats{fstats->doc_count, fstats->sum_total_term_freq},
                                    params, type.has_norms(), std::move(idf_explanation));
}

}  // namespace

Explanation IdfExplanation(uint64_t doc_freq, uint64_t doc_count) {
  return {true,
          static_cast<float>(Bm25Idf(doc_freq, doc_count)),
          "idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:",
          {{true, static_cast<float>(doc_freq), "n, number of documents containing term", {}},
           {true, static_cast<float>(doc_count), "N, total number of documents with field", {}}}};
}

Bm25Part::Bm25Part(float boost_in, double idf_value, const Bm25FieldStats& stats,
                   const Bm25Params& params_in, bool norms_in, Explanation idf_in)
    : scorer(boost_in, idf_value, stats, params_in),
      boost(boost_in),
      params(params_in),
      norms(norms_in),
      idf(std::move(idf_in)) {}

absl::StatusOr<uint8_t> Bm25Part::Norm(const LeafReader& leaf, const std::string& field,
                                       uint32_t doc) const {
  if (!norms) return uint8_t{1};
  return leaf.Norm(field, doc);
}

std::span<const uint8_t> Bm25Part::NormBytes(const LeafReader& leaf,
                                             const std::string& field) const {
  if (!norms) return {};
  const auto* impl = dynamic_cast<const LeafReaderImpl*>(&leaf);
  if (impl == nullptr) return {};
  const SegmentReader& segment = *impl->segment();
  const FieldInfo* info = segment.FieldByName(field);
  if (info == nullptr || !segment.HasNorms(info->number)) return {};
  const std::span<const uint8_t> bytes = segment.NormBytes(info->number);
  return bytes.size() == leaf.max_doc() ? bytes : std::span<const uint8_t>();
}

Explanation Bm25Part::Explain(float score, float freq, std::string_view freq_name,
                              uint8_t norm) const {
  // Lucene 8.8's BM25Similarity explanation: tf from the norm's inverse as
  // the score uses it; dl is the decoded length (byte4ToInt), "approximate"
  // for bytes above 39 (the lengths SmallFloat no longer holds exactly). A
  // field without norms reads norm 1, so dl 1, as Lucene.
  std::vector<Explanation> parts;
  if (boost != 1.0f) parts.push_back({true, boost, "boost", {}});
  parts.push_back(idf);
  const float dl = static_cast<float>(DecodeNorm(norm));
  const float tf = 1.0f - 1.0f / (1.0f + freq * scorer.inverse_norm(norm));
  parts.push_back(
      {true,
       tf,
       "tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:",
       {{true, freq, std::string(freq_name), {}},
        {true, params.k1, "k1, term saturation parameter", {}},
        {true, params.b, "b, length normalization parameter", {}},
        {true, dl, norm > 39 ? "dl, length of field (approximate)" : "dl, length of field", {}},
        {true, scorer.avgdl(), "avgdl, average length of field", {}}}});
  return {true, score, absl::StrCat("score(freq=", freq, "), computed as boost * idf * tf from:"),
          std::move(parts)};
}

absl::StatusOr<std::unique_ptr<Weight>> CreateWeight(const IndexReader& reader, const Query& query,
                                                     const Bm25Params& params, float parent_boost) {
  if (!std::isfinite(query.boost) || query.boost < 0) {
    return absl::InvalidArgumentError(absl::StrCat("query ", query.ToString(), " has boost ",
                                                   query.boost, ": must be finite and >= 0"));
  }
  const float boost = query.boost * parent_boost;
  switch (query.kind) {
    case Query::Kind::kMatchNone:
      return NewMatchNoneWeight(Unboosted(query));
    case Query::Kind::kMatchAll:
      return NewMatchAllWeight(boost, Unboosted(query));
    case Query::Kind::kPrefix: {
      absl::StatusOr<FieldType> type = IndexedField(reader, query.field, query);
      if (!type.ok()) return type.status();
      return NewPrefixWeight(query.field, query.term, boost, Unboosted(query));
    }
    case Query::Kind::kTerm: {
      absl::StatusOr<FieldType> type = IndexedField(reader, query.field, query);
      if (!type.ok()) return type.status();
      absl::StatusOr<std::unique_ptr<Bm25Part>> sim =
          MakeBm25(reader, query.field, {query.term}, *type, boost, params);
      if (!sim.ok()) return sim.status();
      return NewTermWeight(query.field, query.term, *type, *std::move(sim), Unboosted(query));
    }
    case Query::Kind::kPhrase: {
      if (!query.positions.empty() && query.positions.size() != query.terms.size()) {
        return absl::InvalidArgumentError(absl::StrCat("phrase query ", query.ToString(), " has ",
                                                       query.terms.size(), " terms but ",
                                                       query.positions.size(), " positions"));
      }
      for (size_t i = 1; i < query.positions.size(); ++i) {
        if (query.positions[i] < query.positions[i - 1]) {
          return absl::InvalidArgumentError(
              absl::StrCat("phrase query ", query.ToString(), ": positions must not decrease (",
                           absl::StrJoin(query.positions, ", "), ")"));
        }
      }
      absl::StatusOr<FieldType> type = IndexedField(reader, query.field, query);
      if (!type.ok()) return type.status();
      if (query.terms.empty()) return NewMatchNoneWeight(Unboosted(query));
      if (query.terms.size() == 1) {
        Query term = Query::Term(query.field, query.terms[0], query.boost);
        return CreateWeight(reader, term, params, parent_boost);
      }
      if (!HasPositions(type->index_options)) {
        return absl::InvalidArgumentError(
            absl::StrCat("field \"", query.field, "\" was indexed without positions (",
                         type->Describe(), "): cannot run phrase query ", query.ToString()));
      }
      std::vector<int32_t> offsets(query.terms.size());
      for (size_t i = 0; i < offsets.size(); ++i) {
        offsets[i] = query.positions.empty() ? static_cast<int32_t>(i)
                                             : query.positions[i] - query.positions[0];
      }
      absl::StatusOr<std::unique_ptr<Bm25Part>> sim =
          MakeBm25(reader, query.field, query.terms, *type, boost, params);
      if (!sim.ok()) return sim.status();
      return NewPhraseWeight(query.field, query.terms, std::move(offsets), query.slop,
                             *std::move(sim), Unboosted(query));
    }
    case Query::Kind::kBoolean: {
      BooleanWeights w;
      w.minimum_should_match = query.minimum_should_match;
      const std::pair<const std::vector<Query>*, std::vector<std::unique_ptr<Weight>>*> lists[] = {
          {&query.must, &w.must},
          {&query.should, &w.should},
          {&query.must_not, &w.must_not},
          {&query.filter, &w.filter}};
      for (const auto& [clauses, weights] : lists) {
        for (const Query& clause : *clauses) {
          absl::StatusOr<std::unique_ptr<Weight>> child =
              CreateWeight(reader, clause, params, boost);
          if (!child.ok()) return child.status();
          weights->push_back(*std::move(child));
        }
      }
      return NewBooleanWeight(std::move(w), Unboosted(query));
    }
  }
  return absl::InternalError("unknown query kind");
}

}  // namespace invert::search_internal

// The public reader (invert/index_reader.h) against the naive reference
// index of tests/index/chain_model.h: random documents of random field types
// (every index option, payloads, norms, stored values, term vectors) go
// through IndexWriter (both term-bytes layouts, several segments, several
// commits), and everything read back through the public API (every term and
// its statistics, every posting with freq, positions, offsets and payloads,
// seeks and Advance, field statistics, norms, stored documents, term
// vectors) must equal what went in. Also: snapshots while a writer replaces
// the index, OpenIfChanged, opening an older generation, clear errors for
// requests the field's options do not allow, and readers in several threads
// while a writer commits (run under TSan).
#include "invert/index_reader.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "index/chain_model.h"
#include "index/random_docs.h"
#include "invert/analysis.h"
#include "invert/index_writer.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using testing::Model;
using testing::Posting;

struct Corpus {
  std::vector<testing::TestDoc> docs;
  std::map<std::string, FieldType> types;
};

Corpus MakeCorpus(Random& rng, int fields, int docs) {
  Corpus c;
  std::vector<testing::FieldSpec> specs;
  for (int i = 0; i < fields; ++i) {
    testing::FieldSpec s{"f" + std::to_string(i), testing::RandomType(rng)};
    c.types[s.name] = s.type;
    specs.push_back(s);
  }
  for (int d = 0; d < docs; ++d) c.docs.push_back(testing::RandomDoc(rng, specs));
  return c;
}

IndexWriterOptions WriterOptions(TermBytesLayout layout) {
  IndexWriterOptions o;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  o.layout = layout;
  o.ram_buffer_mb = 4;
  return o;
}

// Adds docs [begin, end) of the corpus to the writer and the model.
void AddDocs(const Corpus& c, size_t begin, size_t end, IndexWriter& writer, Model& model) {
  for (size_t i = begin; i < end; ++i) {
    ASSERT_TRUE(writer.AddDocument(testing::ToDocument(c.docs[i], c.types)).ok());
    testing::ApplyToModel(c.docs[i], c.types, model);
  }
}

uint32_t FlagsFor(const FieldType& type) {
  uint32_t flags = kPostingsDocs;
  if (HasFreqs(type.index_options)) flags |= kPostingsFreqs;
  if (HasPositions(type.index_options)) flags |= kPostingsPositions;
  if (HasOffsets(type.index_options)) flags |= kPostingsOffsets;
  if (type.payloads && HasPositions(type.index_options)) flags |= kPostingsPayloads;
  return flags;
}

// Reads one posting list with everything `type` indexes, doc ids made
// index-wide.
std::vector<Posting> ReadPostings(PostingsEnum& postings, const FieldType& type, uint64_t base) {
  std::vector<Posting> out;
  for (uint32_t doc = postings.NextDoc(); doc != PostingsEnum::kNoMoreDocs;
       doc = postings.NextDoc()) {
    EXPECT_EQ(postings.doc(), doc);
    Posting p{static_cast<uint32_t>(base + doc), postings.freq(), {}};
    if (HasPositions(type.index_options)) {
      for (uint32_t i = 0; i < postings.freq(); ++i) {
        EXPECT_TRUE(postings.NextPosition());
        p.occurrences.push_back({postings.position(), postings.start_offset(),
                                 postings.end_offset(), std::string(postings.payload())});
      }
      EXPECT_FALSE(postings.NextPosition()) << "more than freq() positions";
    }
    out.push_back(std::move(p));
  }
  EXPECT_TRUE(postings.status().ok()) << postings.status();
  return out;
}

// Checks every leaf's terms, stats and postings against the model, and
// returns the postings read, by field and term, for the caller to compare.
std::map<std::string, std::map<std::string, std::vector<Posting>>> ReadAllPostings(
    const IndexReader& reader) {
  std::map<std::string, std::map<std::string, std::vector<Posting>>> all;
  for (const FieldSchema& field : reader.fields()) {
    if (!field.type.indexed()) continue;
    for (const LeafReader* leaf : reader.leaves()) {
      auto terms = leaf->Terms(field.name);
      EXPECT_TRUE(terms.ok()) << terms.status();
      if (!terms.ok()) continue;
      TermsStatistics seen;
      std::string previous;
      bool first = true;
      for (;;) {
        absl::StatusOr<bool> more = (*terms)->Next();
        EXPECT_TRUE(more.ok()) << more.status();
        if (!more.ok() || !*more) break;
        const std::string term((*terms)->term());
        EXPECT_TRUE(first || previous < term) << "terms out of order";
        first = false;
        previous = term;
        auto postings = (*terms)->Postings(FlagsFor(field.type));
        EXPECT_TRUE(postings.ok()) << postings.status();
        if (!postings.ok()) continue;
        EXPECT_EQ((*postings)->cost(), (*terms)->doc_freq());
        std::vector<Posting> list = ReadPostings(**postings, field.type, leaf->doc_base());
        uint64_t ttf = 0;
        for (const Posting& p : list) ttf += p.freq;
        EXPECT_EQ(list.size(), (*terms)->doc_freq()) << field.name << ":" << term;
        EXPECT_EQ(ttf, (*terms)->total_term_freq()) << field.name << ":" << term;
        ++seen.term_count;
        seen.sum_doc_freq += list.size();
        seen.sum_total_term_freq += ttf;
        auto& into = all[field.name][term];
        into.insert(into.end(), list.begin(), list.end());
      }
      absl::StatusOr<TermsStatistics> stats = leaf->TermsStats(field.name);
      EXPECT_TRUE(stats.ok()) << stats.status();
      if (stats.ok()) {
        EXPECT_EQ(stats->term_count, seen.term_count);
        EXPECT_EQ(stats->sum_doc_freq, seen.sum_doc_freq);
        EXPECT_EQ(stats->sum_total_term_freq, seen.sum_total_term_freq);
      }
    }
  }
  return all;
}

// Every document's stored values, vectors and norms, and the field
// statistics, against the model.
void ExpectDocumentsMatch(const IndexReader& reader, const Corpus& c, const Model& model) {
  ASSERT_EQ(reader.max_doc(), model.docs);
  ASSERT_EQ(reader.num_docs(), model.docs);
  uint64_t expected_base = 0;
  for (const LeafReader* leaf : reader.leaves()) {
    EXPECT_EQ(leaf->doc_base(), expected_base);
    expected_base += leaf->max_doc();
  }
  EXPECT_EQ(expected_base, model.docs);
  std::vector<uint64_t> every_doc;
  for (uint64_t doc = 0; doc < model.docs; ++doc) {
    every_doc.push_back(doc);
    absl::StatusOr<StoredDocument> stored = reader.Document(doc);
    ASSERT_TRUE(stored.ok()) << stored.status();
    std::vector<std::pair<std::string, std::string>> values;
    for (const StoredValue& v : stored->values) values.emplace_back(v.field, v.value);
    EXPECT_EQ(values, model.stored[doc]) << "doc " << doc;

    absl::StatusOr<std::vector<TermVector>> vectors = reader.TermVectors(doc);
    ASSERT_TRUE(vectors.ok()) << vectors.status();
    std::map<std::string, std::map<std::string, testing::VectorTerm>> got;
    for (const TermVector& v : *vectors) {
      const FieldType& type = c.types.at(v.field);
      EXPECT_EQ(v.has_positions, type.term_vector_positions);
      EXPECT_EQ(v.has_offsets, type.term_vector_offsets);
      EXPECT_EQ(v.has_payloads, type.term_vector_payloads);
      for (const TermVectorTerm& t : v.terms) {
        testing::VectorTerm& vt = got[v.field][t.term];
        vt.freq = t.freq;
        vt.positions = t.positions;
        vt.starts = t.start_offsets;
        vt.ends = t.end_offsets;
        vt.payloads = t.payloads;
      }
    }
    const auto& want = model.vectors[doc];
    ASSERT_EQ(got.size(), want.size()) << "doc " << doc;
    for (const auto& [field, terms] : want) {
      ASSERT_TRUE(got.contains(field)) << field;
      ASSERT_EQ(got[field].size(), terms.size()) << field;
      for (const auto& [term, vt] : terms) {
        const testing::VectorTerm& g = got[field][term];
        EXPECT_EQ(g.freq, vt.freq);
        EXPECT_EQ(g.positions, vt.positions);
        EXPECT_EQ(g.starts, vt.starts);
        EXPECT_EQ(g.ends, vt.ends);
        EXPECT_EQ(g.payloads, vt.payloads);
      }
    }
  }
  // K documents at once, shuffled with repeats, equal one at a time.
  std::vector<uint64_t> some(every_doc.rbegin(), every_doc.rend());
  some.insert(some.end(), every_doc.begin(), every_doc.begin() + every_doc.size() / 3);
  absl::StatusOr<std::vector<StoredDocument>> batch = reader.Documents(some);
  ASSERT_TRUE(batch.ok()) << batch.status();
  for (size_t i = 0; i < some.size(); ++i) {
    EXPECT_EQ((*batch)[i], *reader.Document(some[i]));
  }

  for (const auto& [name, type] : c.types) {
    if (!type.indexed()) continue;
    for (const LeafReader* leaf : reader.leaves()) {
      for (uint32_t d = 0; d < leaf->max_doc(); ++d) {
        const uint64_t doc = leaf->doc_base() + d;
        uint8_t want = 0;
        if (auto it = model.norms.find(name); it != model.norms.end() && doc < it->second.size()) {
          want = it->second[doc];
        }
        absl::StatusOr<uint8_t> norm = leaf->Norm(name, d);
        if (!type.has_norms()) {
          EXPECT_TRUE(absl::IsNotFound(norm.status())) << name;
          break;
        }
        if (absl::IsNotFound(norm.status())) {
          EXPECT_EQ(want, 0) << "segment " << leaf->name() << " has no norms of " << name;
        } else {
          ASSERT_TRUE(norm.ok()) << norm.status();
          EXPECT_EQ(*norm, want) << name << " doc " << doc;
        }
      }
    }
    uint64_t sum_doc_freq = 0, sum_ttf = 0;
    std::set<uint32_t> docs_with;
    if (auto it = model.postings.find(name); it != model.postings.end()) {
      for (const auto& [term, list] : it->second) {
        sum_doc_freq += list.size();
        for (const Posting& p : list) {
          sum_ttf += p.freq;
          docs_with.insert(p.doc);
        }
        absl::StatusOr<TermStatistics> ts = reader.TermStats(name, term);
        ASSERT_TRUE(ts.ok()) << ts.status();
        EXPECT_EQ(ts->doc_freq, list.size());
      }
    }
    absl::StatusOr<TermsStatistics> fs = reader.FieldStatistics(name);
    ASSERT_TRUE(fs.ok()) << fs.status();
    EXPECT_EQ(fs->sum_doc_freq, sum_doc_freq) << name;
    EXPECT_EQ(fs->sum_total_term_freq, sum_ttf) << name;
    EXPECT_EQ(fs->doc_count, docs_with.size()) << name;
  }
}

// Seeks and Advance on random targets against the model's sorted terms and
// lists (per leaf).
void ExpectSeeksMatch(const IndexReader& reader, const Model& model, Random& rng) {
  for (const auto& [name, terms] : model.postings) {
    for (const LeafReader* leaf : reader.leaves()) {
      const uint64_t lo = leaf->doc_base(), hi = lo + leaf->max_doc();
      std::map<std::string, std::vector<uint32_t>> local;  // the leaf's terms
      for (const auto& [term, list] : terms) {
        for (const Posting& p : list) {
          if (p.doc >= lo && p.doc < hi) local[term].push_back(static_cast<uint32_t>(p.doc - lo));
        }
      }
      auto terms_enum = leaf->Terms(name);
      ASSERT_TRUE(terms_enum.ok());
      for (int i = 0; i < 40; ++i) {
        std::string target = testing::RandomWord(rng);
        if (!local.empty() && rng.Bernoulli(0.5)) {
          auto it = local.begin();
          std::advance(it, rng.Uniform(local.size()));
          target = it->first;
        }
        auto ceil = local.lower_bound(target);
        absl::StatusOr<TermsEnum::SeekStatus> seek = (*terms_enum)->SeekCeil(target);
        ASSERT_TRUE(seek.ok()) << seek.status();
        if (ceil == local.end()) {
          EXPECT_EQ(*seek, TermsEnum::SeekStatus::kEnd);
          continue;
        }
        EXPECT_EQ(*seek, ceil->first == target ? TermsEnum::SeekStatus::kFound
                                               : TermsEnum::SeekStatus::kNotFound);
        EXPECT_EQ((*terms_enum)->term(), ceil->first);
        absl::StatusOr<bool> exact = (*terms_enum)->SeekExact(target);
        ASSERT_TRUE(exact.ok());
        EXPECT_EQ(*exact, ceil->first == target);
        // Advance through the list with random strides.
        const std::vector<uint32_t>& docs = ceil->second;
        auto postings = leaf->Postings(name, ceil->first, kPostingsDocs);
        ASSERT_TRUE(postings.ok()) << postings.status();
        ASSERT_NE(*postings, nullptr);
        uint32_t target_doc = 0;
        for (;;) {
          target_doc += static_cast<uint32_t>(rng.Uniform(rng.Bernoulli(0.2) ? 600 : 4));
          auto want = std::lower_bound(docs.begin(), docs.end(), target_doc);
          const uint32_t got = (*postings)->Advance(target_doc);
          if (want == docs.end()) {
            EXPECT_EQ(got, PostingsEnum::kNoMoreDocs);
            break;
          }
          ASSERT_EQ(got, *want) << name << ":" << ceil->first << " advance to " << target_doc;
          target_doc = got;
        }
        EXPECT_TRUE((*postings)->status().ok());
      }
    }
  }
}

void ExpectReaderMatchesModel(const IndexReader& reader, const Corpus& c, const Model& model,
                              Random& rng) {
  const auto postings = ReadAllPostings(reader);
  for (const auto& [name, terms] : model.postings) {
    const auto it = postings.find(name);
    if (terms.empty()) continue;
    ASSERT_NE(it, postings.end()) << name;
    ASSERT_EQ(it->second.size(), terms.size()) << name;
    for (const auto& [term, list] : terms) {
      auto got = it->second.find(term);
      ASSERT_NE(got, it->second.end()) << name << ":" << term;
      EXPECT_TRUE(got->second == list) << name << ":" << term;
    }
  }
  ExpectDocumentsMatch(reader, c, model);
  ExpectSeeksMatch(reader, model, rng);
}

class IndexReaderLayoutTest : public ::testing::TestWithParam<TermBytesLayout> {};

TEST_P(IndexReaderLayoutTest, ReadsBackEverythingThatWentIn) {
  Random rng(testing::TestSeed(20261203));
  const Corpus c = MakeCorpus(rng, 7, 1200);
  testing::ScratchDir scratch;
  Model model;
  auto writer = IndexWriter::Open(scratch.path(), WriterOptions(GetParam()));
  ASSERT_TRUE(writer.ok()) << writer.status();
  // Three commits, the last with several segments (flush every 300 docs by
  // committing is not needed: the small buffer and a mid-way commit do it).
  AddDocs(c, 0, 400, **writer, model);
  ASSERT_TRUE((*writer)->Commit().ok());
  AddDocs(c, 400, 700, **writer, model);
  ASSERT_TRUE((*writer)->Commit().ok());
  const uint64_t second_commit = (*writer)->stats().commit_generation;
  const Model model_at_second = model;
  AddDocs(c, 700, c.docs.size(), **writer, model);
  ASSERT_TRUE((*writer)->Close().ok());

  auto reader = IndexReader::Open(scratch.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_GE((*reader)->leaves().size(), 3u);
  EXPECT_EQ((*reader)->index_id().size(), 32u);
  std::vector<FieldSchema> schema = (*reader)->fields();
  EXPECT_EQ(schema.size(), c.types.size());
  for (const FieldSchema& f : schema) EXPECT_EQ(f.type, c.types.at(f.name)) << f.name;
  ExpectReaderMatchesModel(**reader, c, model, rng);
  for (const LeafReader* leaf : (*reader)->leaves()) {
    EXPECT_TRUE(leaf->CheckIntegrity().ok());
    EXPECT_FALSE(leaf->created_by().empty());
  }

  // The older commit, by generation.
  IndexReaderOptions older;
  older.generation = second_commit;
  auto at_second = IndexReader::Open(scratch.path(), older);
  ASSERT_TRUE(at_second.ok()) << at_second.status();
  EXPECT_EQ((*at_second)->generation(), second_commit);
  ExpectReaderMatchesModel(**at_second, c, model_at_second, rng);
  // It is not the newest: OpenIfChanged moves to the newest.
  auto newest = (*at_second)->OpenIfChanged();
  ASSERT_TRUE(newest.ok()) << newest.status();
  ASSERT_NE(*newest, nullptr);
  EXPECT_EQ((*newest)->generation(), (*reader)->generation());
  ExpectReaderMatchesModel(**newest, c, model, rng);
}

INSTANTIATE_TEST_SUITE_P(BothLayouts, IndexReaderLayoutTest,
                         ::testing::Values(TermBytesLayout::kShared, TermBytesLayout::kSeparate),
                         [](const auto& layout_info) {
                           return layout_info.param == TermBytesLayout::kShared ? "Shared"
                                                                                : "Separate";
                         });

// A small fixed index: the field "body" (text with positions), "id"
// (keyword, docs only, stored), "date" (stored only).
void WriteSmallIndex(const std::string& path, OpenMode mode, int docs, int first_id) {
  IndexWriterOptions o = WriterOptions(TermBytesLayout::kSeparate);
  o.open_mode = mode;
  auto writer = IndexWriter::Open(path, o);
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (int i = 0; i < docs; ++i) {
    const std::string id = std::to_string(first_id + i);
    const std::string body = "all doc" + id + (i % 2 == 0 ? " even" : " odd");
    Document doc;
    doc.Add(Field::Keyword("id", id, FieldType::Keyword(/*stored=*/true)));
    doc.Add(Field::Text("body", body, FieldType::Text()));
    doc.Add(Field::Stored("date", "2026-12-03"));
    ASSERT_TRUE((*writer)->AddDocument(doc).ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
}

TEST(IndexReaderTest, RequestsTheFieldCannotAnswerAreClearErrors) {
  testing::ScratchDir scratch;
  WriteSmallIndex(scratch.path(), OpenMode::kCreate, 10, 0);
  auto reader = IndexReader::Open(scratch.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  const LeafReader& leaf = *(*reader)->leaves().at(0);

  auto unknown = leaf.Terms("nope");
  EXPECT_TRUE(absl::IsNotFound(unknown.status()));
  EXPECT_NE(unknown.status().message().find("body"), absl::string_view::npos)
      << "the message lists the fields: " << unknown.status();
  auto stored_only = leaf.Terms("date");
  EXPECT_TRUE(absl::IsInvalidArgument(stored_only.status())) << stored_only.status();

  // "id" indexes docs only: frequencies and positions are errors.
  for (uint32_t flags : {kPostingsFreqs, kPostingsPositions, kPostingsOffsets}) {
    auto p = leaf.Postings("id", "3", flags);
    EXPECT_TRUE(absl::IsInvalidArgument(p.status())) << flags;
    EXPECT_NE(p.status().message().find("docs only"), absl::string_view::npos) << p.status();
  }
  // "body" has positions but no offsets or payloads.
  EXPECT_TRUE(absl::IsInvalidArgument(leaf.Postings("body", "all", kPostingsOffsets).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(leaf.Postings("body", "all", kPostingsPayloads).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(leaf.Postings("body", "all", 1u << 7).status()));
  // Positions not requested: NextPosition refuses and says why.
  auto docs_only = leaf.Postings("body", "all", kPostingsFreqs);
  ASSERT_TRUE(docs_only.ok());
  ASSERT_EQ((*docs_only)->NextDoc(), 0u);
  EXPECT_EQ((*docs_only)->freq(), 1u);
  EXPECT_FALSE((*docs_only)->NextPosition());
  EXPECT_TRUE(absl::IsFailedPrecondition((*docs_only)->status()));
  // Absent term: null postings, OK.
  auto absent = leaf.Postings("body", "zebra", kPostingsPositions);
  ASSERT_TRUE(absent.ok());
  EXPECT_EQ(*absent, nullptr);
  // Out-of-range documents.
  EXPECT_TRUE(absl::IsOutOfRange((*reader)->Document(10).status()));
  EXPECT_TRUE(absl::IsOutOfRange(leaf.Norm("body", 10).status()));
  EXPECT_TRUE(absl::IsNotFound(leaf.Norm("id", 0).status())) << "keywords have no norms";
  std::vector<uint64_t> bad = {1, 10};
  EXPECT_TRUE(absl::IsOutOfRange((*reader)->Documents(bad).status()));
  // Unpositioned enum.
  auto terms = leaf.Terms("body");
  ASSERT_TRUE(terms.ok());
  EXPECT_TRUE(absl::IsFailedPrecondition((*terms)->Postings(kPostingsDocs).status()));
  ASSERT_TRUE(*(*terms)->SeekExact("zebra") == false);
  EXPECT_TRUE(absl::IsFailedPrecondition((*terms)->Next().status()));
  // Missing index.
  EXPECT_TRUE(absl::IsNotFound(IndexReader::Open(scratch.path() + "/none").status()));
}

// Every term of "body" and "id" with its doc ids, and the stored ids.
std::string Snapshot(const IndexReader& reader) {
  std::string out;
  for (const LeafReader* leaf : reader.leaves()) {
    for (const char* field : {"body", "id"}) {
      auto terms = leaf->Terms(field);
      EXPECT_TRUE(terms.ok());
      while (*(*terms)->Next()) {
        out += std::string(field) + ":" + std::string((*terms)->term());
        auto postings = (*terms)->Postings(kPostingsDocs);
        for (uint32_t d = (*postings)->NextDoc(); d != PostingsEnum::kNoMoreDocs;
             d = (*postings)->NextDoc()) {
          out += " " + std::to_string(leaf->doc_base() + d);
        }
        out += "\n";
      }
    }
  }
  for (uint64_t d = 0; d < reader.max_doc(); ++d) {
    out += std::string(reader.Document(d)->Get("id").value_or("?")) + ",";
  }
  return out;
}

TEST(IndexReaderTest, ASnapshotSurvivesAWriterReplacingTheIndex) {
  testing::ScratchDir scratch;
  WriteSmallIndex(scratch.path(), OpenMode::kCreate, 300, 0);
  auto reader = IndexReader::Open(scratch.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  const std::string before = Snapshot(**reader);
  const std::set<std::string> files_before = [&] {
    std::set<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(scratch.path())) {
      names.insert(e.path().filename().string());
    }
    return names;
  }();
  // A postings cursor opened before, read after.
  auto early = (*reader)->leaves().at(0)->Postings("body", "all", kPostingsPositions);
  ASSERT_TRUE(early.ok() && *early != nullptr);

  // Overwrite the index and commit three times: every file of the old
  // commit is deleted by the writer.
  WriteSmallIndex(scratch.path(), OpenMode::kCreate, 50, 1000);
  WriteSmallIndex(scratch.path(), OpenMode::kAppend, 50, 2000);
  WriteSmallIndex(scratch.path(), OpenMode::kAppend, 50, 3000);
  size_t still_there = 0;
  for (const std::string& name : files_before) {
    still_there += std::filesystem::exists(scratch.path() + "/" + name) && name.rfind("_", 0) == 0;
  }
  EXPECT_EQ(still_there, 0u) << "the old segments should be gone from the directory";

  EXPECT_EQ(Snapshot(**reader), before) << "the reader's view changed under it";
  for (const LeafReader* leaf : (*reader)->leaves()) EXPECT_TRUE(leaf->CheckIntegrity().ok());
  uint32_t n = 0;
  while ((*early)->NextDoc() != PostingsEnum::kNoMoreDocs) ++n;
  EXPECT_EQ(n, (*reader)->leaves().at(0)->max_doc());

  auto reopened = (*reader)->OpenIfChanged();
  ASSERT_TRUE(reopened.ok()) << reopened.status();
  ASSERT_NE(*reopened, nullptr);
  EXPECT_EQ((*reopened)->max_doc(), 150u);
  EXPECT_EQ(*(*reopened)->Document(0)->Get("id"), "1000");
  // Nothing newer: null.
  auto again = (*reopened)->OpenIfChanged();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, nullptr);
  // The cursor outlives its reader.
  auto orphan = (*reopened)->leaves().at(0)->Postings("body", "all", kPostingsDocs);
  ASSERT_TRUE(orphan.ok() && *orphan != nullptr);
  reopened->reset();
  reader->reset();
  n = 0;
  while ((*orphan)->NextDoc() != PostingsEnum::kNoMoreDocs) ++n;
  EXPECT_EQ(n, 50u);
}

TEST(IndexReaderTest, EveryPrefetchPolicyAndReadAdviceReadsTheSame) {
  testing::ScratchDir scratch;
  WriteSmallIndex(scratch.path(), OpenMode::kCreate, 400, 0);
  WriteSmallIndex(scratch.path(), OpenMode::kAppend, 300, 400);
  auto plain = IndexReader::Open(scratch.path());
  ASSERT_TRUE(plain.ok()) << plain.status();
  const std::string want = Snapshot(**plain);
  for (PrefetchPolicy policy :
       {PrefetchPolicy::kOff, PrefetchPolicy::kAlways, PrefetchPolicy::kBackoff}) {
    for (ReadAdvice advice : {ReadAdvice::kNormal, ReadAdvice::kRandom, ReadAdvice::kSequential}) {
      IndexReaderOptions options;
      options.prefetch = policy;
      options.read_advice = advice;
      auto reader = IndexReader::Open(scratch.path(), options);
      ASSERT_TRUE(reader.ok()) << reader.status();
      EXPECT_EQ(Snapshot(**reader), want);
      std::vector<uint64_t> docs = {699, 0, 400, 3, 699};
      auto batch = (*reader)->Documents(docs);
      ASSERT_TRUE(batch.ok()) << batch.status();
      EXPECT_EQ(*(*batch)[2].Get("id"), "400");
    }
  }
}

// A Directory that counts the files opened, to see what OpenIfChanged
// shares.
class CountingDirectory final : public Directory {
 public:
  explicit CountingDirectory(std::unique_ptr<Directory> base) : base_(std::move(base)) {}
  std::atomic<int> opened{0};
  absl::StatusOr<std::unique_ptr<WritableFile>> CreateFile(std::string_view name) override {
    return base_->CreateFile(name);
  }
  absl::StatusOr<std::shared_ptr<const MappedFile>> OpenFile(std::string_view name) override {
    ++opened;
    return base_->OpenFile(name);
  }
  absl::StatusOr<std::vector<std::string>> ListAll() const override { return base_->ListAll(); }
  absl::StatusOr<uint64_t> FileLength(std::string_view name) const override {
    return base_->FileLength(name);
  }
  absl::Status DeleteFile(std::string_view name) override { return base_->DeleteFile(name); }
  absl::Status Rename(std::string_view from, std::string_view to) override {
    return base_->Rename(from, to);
  }
  absl::Status Sync(const std::vector<std::string>& names) override { return base_->Sync(names); }
  absl::Status SyncMetaData() override { return base_->SyncMetaData(); }
  absl::StatusOr<std::unique_ptr<DirectoryLock>> ObtainLock(std::string_view name) override {
    return base_->ObtainLock(name);
  }
  std::string DebugString() const override { return "Counting(" + base_->DebugString() + ")"; }

 private:
  std::unique_ptr<Directory> base_;
};

TEST(IndexReaderTest, OpenIfChangedOpensOnlyTheNewSegments) {
  testing::ScratchDir scratch;
  WriteSmallIndex(scratch.path(), OpenMode::kCreate, 100, 0);
  WriteSmallIndex(scratch.path(), OpenMode::kAppend, 100, 100);
  auto fs = FSDirectory::Open(scratch.path(), /*create=*/false);
  ASSERT_TRUE(fs.ok());
  CountingDirectory dir(std::move(*fs));
  auto reader = IndexReader::Open(&dir);
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_EQ((*reader)->leaves().size(), 2u);
  const int two_segments = dir.opened.load();

  WriteSmallIndex(scratch.path(), OpenMode::kAppend, 100, 200);
  dir.opened = 0;
  auto reopened = (*reader)->OpenIfChanged();
  ASSERT_TRUE(reopened.ok()) << reopened.status();
  ASSERT_NE(*reopened, nullptr);
  ASSERT_EQ((*reopened)->leaves().size(), 3u);
  // One segment's files plus the commit point, not three segments' worth.
  EXPECT_LT(dir.opened.load(), two_segments) << "shared segments were opened again";
  EXPECT_GT(dir.opened.load(), 0);
  EXPECT_EQ(*(*reopened)->Document(250)->Get("id"), "250");
  EXPECT_EQ(*(*reader)->Document(150)->Get("id"), "150");
}

// Readers in several threads open, reopen and read while a writer adds and
// commits: every view is one whole commit (the writer only appends, so
// commit k holds exactly the documents 0 .. max_doc - 1, each once).
TEST(IndexReaderTest, ConcurrentReadersWhileWriterCommits) {
  testing::ScratchDir scratch;
  WriteSmallIndex(scratch.path(), OpenMode::kCreate, 20, 0);
  std::atomic<bool> done{false};
  std::atomic<int> views{0};
  auto read_loop = [&] {
    auto reader = IndexReader::Open(scratch.path());
    ASSERT_TRUE(reader.ok()) << reader.status();
    std::unique_ptr<IndexReader> current = std::move(*reader);
    while (!done.load()) {
      auto newer = current->OpenIfChanged();
      ASSERT_TRUE(newer.ok()) << newer.status();
      if (*newer != nullptr) current = std::move(*newer);
      const uint64_t n = current->max_doc();
      absl::StatusOr<TermStatistics> all = current->TermStats("body", "all");
      ASSERT_TRUE(all.ok());
      EXPECT_EQ(all->doc_freq, n);
      uint64_t seen = 0;
      for (const LeafReader* leaf : current->leaves()) {
        auto p = leaf->Postings("body", "all", kPostingsPositions);
        ASSERT_TRUE(p.ok() && *p != nullptr);
        for (uint32_t d = (*p)->NextDoc(); d != PostingsEnum::kNoMoreDocs; d = (*p)->NextDoc()) {
          ASSERT_TRUE((*p)->NextPosition());
          EXPECT_EQ((*p)->position(), 0u);
          ++seen;
        }
      }
      EXPECT_EQ(seen, n);
      EXPECT_EQ(*current->Document(n - 1)->Get("id"), std::to_string(n - 1));
      ++views;
    }
  };
  std::thread a(read_loop), b(read_loop);
  for (int round = 0; round < 15; ++round) {
    WriteSmallIndex(scratch.path(), OpenMode::kAppend, 7, 20 + 7 * round);
  }
  done = true;
  a.join();
  b.join();
  EXPECT_GT(views.load(), 2);
}

}  // namespace
}  // namespace invert

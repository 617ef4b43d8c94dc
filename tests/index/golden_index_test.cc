// GoldenIndexTest: opens the committed golden tiny index
// (tests/data/golden_index/, written once by tests/golden/make_golden_index.cc)
// with the public reader and compares everything in it with the values
// written out below: schema, leaves, every term of every field with its
// statistics, every posting with its freq, positions, offsets and payloads,
// norms, stored values and term vectors; and CheckIndex passes on it.
//
// The expected values are what the generator put in, derived by hand from
// its documents, not copied from a reader's output. So any change to how the
// files are written or read fails here. If it does: a reader that cannot
// read the bytes it used to is a format break (give the layout a new
// version); regenerating the golden index is a deliberate format change
// (see the generator) and means updating this test and the byte-level
// examples in docs/format.md.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "invert/check_index.h"
#include "invert/field_type.h"
#include "invert/index_options.h"
#include "invert/index_reader.h"
#include "invert/leaf_reader.h"
#include "invert/postings_enum.h"
#include "invert/stored_document.h"
#include "invert/terms_enum.h"
#include "scratch_dir.h"

namespace invert {
namespace {

// ---------------------------------------------------------------- helpers

// The value of `s`, or T{} (and a failure) if it is an error.
template <typename T>
T ValueOf(absl::StatusOr<T> s) {
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : T{};
}

std::filesystem::path GoldenDir() {
  return std::filesystem::path(__FILE__).parent_path().parent_path() / "data" / "golden_index";
}

// Printable ASCII as is, other bytes as \xNN, in quotes.
std::string Quote(std::string_view bytes) {
  std::string out = "\"";
  for (unsigned char c : bytes) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      absl::StrAppend(&out, "\\x", absl::Hex(c, absl::kZeroPad2));
    }
  }
  out.push_back('"');
  return out;
}

std::string TypeString(const FieldType& t) {
  static constexpr const char* kOptions[] = {"none", "docs", "freqs", "positions", "offsets"};
  std::string out = kOptions[static_cast<int>(t.index_options)];
  if (t.tokenized) out.append(" tokenized");
  if (t.stored) out.append(" stored");
  if (t.norms) out.append(" norms");
  if (t.payloads) out.append(" payloads");
  if (t.term_vectors) out.append(" tv");
  if (t.term_vector_positions) out.append(" tv_positions");
  if (t.term_vector_offsets) out.append(" tv_offsets");
  if (t.term_vector_payloads) out.append(" tv_payloads");
  return out;
}

// The most a field's postings can be asked for.
uint32_t FullFlags(const FieldType& t) {
  if (HasOffsets(t.index_options)) {
    return t.payloads ? (kPostingsOffsets | kPostingsPayloads) : kPostingsOffsets;
  }
  if (HasPositions(t.index_options)) return kPostingsPositions;
  if (HasFreqs(t.index_options)) return kPostingsFreqs;
  return kPostingsDocs;
}

// Appends "position[start,end)payload" of the current position, as far as
// the field records them.
void AppendPosition(const PostingsEnum& p, const FieldType& t, std::string* out) {
  absl::StrAppend(out, p.position());
  if (HasOffsets(t.index_options)) {
    absl::StrAppend(out, "[", p.start_offset(), ",", p.end_offset(), ")");
  }
  if (t.payloads) out->append(Quote(p.payload()));
}

// One line per posting: "    doc D freq=F: positions".
void DumpPostings(PostingsEnum& p, const FieldType& t, std::string* out) {
  for (uint32_t doc = p.NextDoc(); doc != PostingsEnum::kNoMoreDocs; doc = p.NextDoc()) {
    absl::StrAppend(out, "    doc ", doc, " freq=", p.freq());
    if (HasPositions(t.index_options)) {
      out->append(":");
      for (uint32_t i = 0; i < p.freq(); ++i) {
        if (!p.NextPosition()) {
          out->append(" <no position>");
          break;
        }
        out->append(" ");
        AppendPosition(p, t, out);
      }
    }
    out->append("\n");
  }
  if (!p.status().ok()) absl::StrAppend(out, "    <", p.status().message(), ">\n");
}

void DumpTerms(const LeafReader& leaf, const FieldSchema& field, std::string* out) {
  absl::StatusOr<TermsStatistics> stats = leaf.TermsStats(field.name);
  ASSERT_TRUE(stats.ok()) << stats.status();
  absl::StrAppend(out, "terms ", field.name, ": count=", stats->term_count,
                  " sum_doc_freq=", stats->sum_doc_freq,
                  " sum_total_term_freq=", stats->sum_total_term_freq,
                  " doc_count=", stats->doc_count, "\n");
  absl::StatusOr<std::unique_ptr<TermsEnum>> terms = leaf.Terms(field.name);
  ASSERT_TRUE(terms.ok()) << terms.status();
  while (true) {
    absl::StatusOr<bool> more = (*terms)->Next();
    ASSERT_TRUE(more.ok()) << more.status();
    if (!*more) break;
    TermsEnum& te = **terms;
    absl::StrAppend(out, "  ", Quote(te.term()), " df=", te.doc_freq(),
                    " ttf=", te.total_term_freq(), "\n");
    absl::StatusOr<std::unique_ptr<PostingsEnum>> postings = te.Postings(FullFlags(field.type));
    ASSERT_TRUE(postings.ok()) << postings.status();
    EXPECT_EQ((*postings)->cost(), te.doc_freq());
    DumpPostings(**postings, field.type, out);
  }
}

std::string VectorString(const TermVector& v) {
  std::string out = absl::StrCat("vector ", v.field, ":");
  for (const TermVectorTerm& t : v.terms) {
    absl::StrAppend(&out, " ", Quote(t.term), "/", t.freq);
    for (size_t i = 0; i < t.positions.size() || i < t.start_offsets.size(); ++i) {
      out.append(i == 0 ? " " : ",");
      if (v.has_positions) absl::StrAppend(&out, t.positions[i]);
      if (v.has_offsets) absl::StrAppend(&out, "[", t.start_offsets[i], ",", t.end_offsets[i], ")");
      if (v.has_payloads) out.append(Quote(t.payloads[i]));
    }
  }
  return out;
}

std::string StoredString(const StoredDocument& doc) {
  std::string out = "stored:";
  for (const StoredValue& v : doc.values) absl::StrAppend(&out, " ", v.field, "=", Quote(v.value));
  return out;
}

// Everything of one leaf, in the order of the expectations below.
std::string DumpLeaf(const LeafReader& leaf) {
  std::string out =
      absl::StrCat("leaf ", leaf.name(), " doc_base=", leaf.doc_base(), " max_doc=", leaf.max_doc(),
                   " num_docs=", leaf.num_docs(), " created_by=", Quote(leaf.created_by()), "\n");
  for (const FieldSchema& f : leaf.fields()) {
    absl::StrAppend(&out, "field ", f.name, ": ", TypeString(f.type), "\n");
  }
  for (const FieldSchema& f : leaf.fields()) {
    if (f.type.indexed()) DumpTerms(leaf, f, &out);
  }
  for (const FieldSchema& f : leaf.fields()) {
    if (!f.type.has_norms()) continue;
    absl::StrAppend(&out, "norms ", f.name, ":");
    for (uint32_t doc = 0; doc < leaf.max_doc(); ++doc) {
      absl::StatusOr<uint8_t> norm = leaf.Norm(f.name, doc);
      if (norm.ok()) {
        absl::StrAppend(&out, " ", *norm);
      } else {
        absl::StrAppend(&out, " <", norm.status().message(), ">");
      }
    }
    out.append("\n");
  }
  for (uint32_t doc = 0; doc < leaf.max_doc(); ++doc) {
    absl::StatusOr<StoredDocument> stored = leaf.Document(doc);
    absl::StrAppend(&out, "doc ", doc, " ",
                    stored.ok() ? StoredString(*stored) : std::string(stored.status().message()),
                    "\n");
    absl::StatusOr<std::vector<TermVector>> vectors = leaf.TermVectors(doc);
    if (!vectors.ok()) {
      absl::StrAppend(&out, "  <", vectors.status().message(), ">\n");
      continue;
    }
    for (const TermVector& v : *vectors) absl::StrAppend(&out, "  ", VectorString(v), "\n");
  }
  return out;
}

class GoldenIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // A reader never writes, but the committed files are copied anyway.
    ASSERT_TRUE(std::filesystem::is_directory(GoldenDir())) << GoldenDir();
    for (const auto& entry : std::filesystem::directory_iterator(GoldenDir())) {
      std::filesystem::copy_file(entry.path(),
                                 std::filesystem::path(scratch_.path()) / entry.path().filename());
    }
  }

  std::unique_ptr<IndexReader> Open(uint64_t generation = 0) {
    IndexReaderOptions options;
    options.generation = generation;
    absl::StatusOr<std::unique_ptr<IndexReader>> reader =
        IndexReader::Open(scratch_.path(), options);
    EXPECT_TRUE(reader.ok()) << reader.status();
    return reader.ok() ? std::move(*reader) : nullptr;
  }

  testing::ScratchDir scratch_;
};

// ---------------------------------------------------------------- expected

// The schema of both commits, in order of first use.
const std::vector<std::pair<std::string, std::string>> kSchema = {
    {"id", "docs stored"},
    {"lang", "docs"},
    {"title", "positions tokenized stored norms tv"},
    {"body", "offsets tokenized norms tv tv_positions tv_offsets"},
    {"tags",
     "offsets tokenized stored norms payloads tv tv_positions "
     "tv_offsets tv_payloads"},
    {"note", "none stored"},
};

// Segment _0: docs 0 and 1.
constexpr std::string_view kLeaf0 =
    R"golden(leaf _0 doc_base=0 max_doc=2 num_docs=2 created_by="invert 0.1.0"
field id: docs stored
field lang: docs
field title: positions tokenized stored norms tv
field body: offsets tokenized norms tv tv_positions tv_offsets
field tags: offsets tokenized stored norms payloads tv tv_positions tv_offsets tv_payloads
field note: none stored
terms id: count=2 sum_doc_freq=2 sum_total_term_freq=2 doc_count=2
  "a1" df=1 ttf=1
    doc 0 freq=1
  "b2" df=1 ttf=1
    doc 1 freq=1
terms lang: count=1 sum_doc_freq=2 sum_total_term_freq=2 doc_count=2
  "en" df=2 ttf=2
    doc 0 freq=1
    doc 1 freq=1
terms title: count=5 sum_doc_freq=5 sum_total_term_freq=5 doc_count=2
  "brown" df=1 ttf=1
    doc 0 freq=1: 1
  "dog" df=1 ttf=1
    doc 1 freq=1: 1
  "fox" df=1 ttf=1
    doc 0 freq=1: 2
  "lazy" df=1 ttf=1
    doc 1 freq=1: 0
  "quick" df=1 ttf=1
    doc 0 freq=1: 0
terms body: count=6 sum_doc_freq=7 sum_total_term_freq=9 doc_count=2
  "dog" df=2 ttf=3
    doc 0 freq=1: 5[23,26)
    doc 1 freq=2: 0[0,3) 2[8,11)
  "eat" df=1 ttf=1
    doc 1 freq=1: 1[4,7)
  "fox" df=1 ttf=1
    doc 0 freq=1: 1[4,7)
  "jumps" df=1 ttf=1
    doc 0 freq=1: 2[8,13)
  "over" df=1 ttf=1
    doc 0 freq=1: 3[14,18)
  "the" df=1 ttf=2
    doc 0 freq=2: 0[0,3) 4[19,22)
terms tags: count=2 sum_doc_freq=3 sum_total_term_freq=3 doc_count=2
  "blue" df=1 ttf=1
    doc 0 freq=1: 1[4,8)""
  "red" df=2 ttf=2
    doc 0 freq=1: 0[0,3)"\x01"
    doc 1 freq=1: 0[0,3)"p2"
norms title: 3 2
norms body: 6 3
norms tags: 2 1
doc 0 stored: id="a1" title="Quick brown fox" tags="red blue" note="first"
  vector title: "brown"/1 "fox"/1 "quick"/1
  vector body: "dog"/1 5[23,26) "fox"/1 1[4,7) "jumps"/1 2[8,13) "over"/1 3[14,18) "the"/2 0[0,3),4[19,22)
  vector tags: "blue"/1 1[4,8)"" "red"/1 0[0,3)"\x01"
doc 1 stored: id="b2" title="Lazy dog" tags="red"
  vector title: "dog"/1 "lazy"/1
  vector body: "dog"/2 0[0,3),2[8,11) "eat"/1 1[4,7)
  vector tags: "red"/1 0[0,3)"p2"
)golden";

// Segment _1: docs 2 and 3. Its first document has no title, so title is
// its last field (field numbers are per segment).
constexpr std::string_view kLeaf1 =
    R"golden(leaf _1 doc_base=2 max_doc=2 num_docs=2 created_by="invert 0.1.0"
field id: docs stored
field lang: docs
field body: offsets tokenized norms tv tv_positions tv_offsets
field tags: offsets tokenized stored norms payloads tv tv_positions tv_offsets tv_payloads
field note: none stored
field title: positions tokenized stored norms tv
terms id: count=2 sum_doc_freq=2 sum_total_term_freq=2 doc_count=2
  "c3" df=1 ttf=1
    doc 0 freq=1
  "d4" df=1 ttf=1
    doc 1 freq=1
terms lang: count=1 sum_doc_freq=2 sum_total_term_freq=2 doc_count=2
  "de" df=2 ttf=2
    doc 0 freq=1
    doc 1 freq=1
terms body: count=1 sum_doc_freq=1 sum_total_term_freq=3 doc_count=1
  "fox" df=1 ttf=3
    doc 0 freq=3: 0[0,3) 1[4,7) 2[8,11)
terms tags: count=2 sum_doc_freq=2 sum_total_term_freq=2 doc_count=1
  "green" df=1 ttf=1
    doc 0 freq=1: 0[0,5)"g"
  "red" df=1 ttf=1
    doc 0 freq=1: 2[7,10)""
terms title: count=2 sum_doc_freq=2 sum_total_term_freq=2 doc_count=1
  "brown" df=1 ttf=1
    doc 1 freq=1: 0
  "dog" df=1 ttf=1
    doc 1 freq=1: 1
norms body: 3 0
norms tags: 2 0
norms title: 0 2
doc 0 stored: id="c3" tags="green  red" note="third"
  vector body: "fox"/3 0[0,3),1[4,7),2[8,11)
  vector tags: "green"/1 0[0,5)"g" "red"/1 2[7,10)""
doc 1 stored: id="d4" title="brown dog"
  vector title: "brown"/1 "dog"/1
)golden";

// ---------------------------------------------------------------- tests

TEST_F(GoldenIndexTest, CommitSchemaAndLeaves) {
  std::unique_ptr<IndexReader> reader = Open();
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->generation(), 2u);
  EXPECT_EQ(reader->index_id(), "c99e7db33a739a3c3d564b763dc1001f");
  EXPECT_EQ(reader->max_doc(), 4u);
  EXPECT_EQ(reader->num_docs(), 4u);
  EXPECT_THAT(reader->warnings(), ::testing::IsEmpty());
  std::vector<std::pair<std::string, std::string>> schema;
  for (const FieldSchema& f : reader->fields()) schema.emplace_back(f.name, TypeString(f.type));
  EXPECT_EQ(schema, kSchema);
  ASSERT_EQ(reader->leaves().size(), 2u);
  EXPECT_EQ(reader->leaves()[0]->name(), "_0");
  EXPECT_EQ(reader->leaves()[0]->doc_base(), 0u);
  EXPECT_EQ(reader->leaves()[0]->max_doc(), 2u);
  EXPECT_EQ(reader->leaves()[1]->name(), "_1");
  EXPECT_EQ(reader->leaves()[1]->doc_base(), 2u);
  EXPECT_EQ(reader->leaves()[1]->max_doc(), 2u);
  EXPECT_EQ(reader->LeafIndexOf(0), 0u);
  EXPECT_EQ(reader->LeafIndexOf(1), 0u);
  EXPECT_EQ(reader->LeafIndexOf(2), 1u);
  EXPECT_EQ(reader->LeafIndexOf(3), 1u);
  for (const LeafReader* leaf : reader->leaves()) {
    EXPECT_TRUE(leaf->CheckIntegrity().ok()) << leaf->name() << ": " << leaf->CheckIntegrity();
  }
}

TEST_F(GoldenIndexTest, EverythingInSegment0) {
  std::unique_ptr<IndexReader> reader = Open();
  ASSERT_NE(reader, nullptr);
  ASSERT_EQ(reader->leaves().size(), 2u);
  EXPECT_EQ(DumpLeaf(*reader->leaves()[0]), kLeaf0);
}

TEST_F(GoldenIndexTest, EverythingInSegment1) {
  std::unique_ptr<IndexReader> reader = Open();
  ASSERT_NE(reader, nullptr);
  ASSERT_EQ(reader->leaves().size(), 2u);
  EXPECT_EQ(DumpLeaf(*reader->leaves()[1]), kLeaf1);
}

TEST_F(GoldenIndexTest, IndexWideStatisticsDocumentsAndVectors) {
  std::unique_ptr<IndexReader> reader = Open();
  ASSERT_NE(reader, nullptr);
  struct FieldStats {
    const char* field;
    TermsStatistics stats;  // term_count stays 0 index-wide
  };
  for (const FieldStats& f : {FieldStats{"id", {0, 4, 4, 4}}, FieldStats{"lang", {0, 4, 4, 4}},
                              FieldStats{"title", {0, 7, 7, 3}}, FieldStats{"body", {0, 8, 12, 3}},
                              FieldStats{"tags", {0, 5, 5, 3}}}) {
    absl::StatusOr<TermsStatistics> stats = reader->FieldStatistics(f.field);
    ASSERT_TRUE(stats.ok()) << f.field << ": " << stats.status();
    EXPECT_EQ(*stats, f.stats) << f.field;
  }
  EXPECT_EQ(reader->FieldStatistics("note").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(reader->FieldStatistics("nope").status().code(), absl::StatusCode::kNotFound);

  struct Term {
    const char* field;
    const char* term;
    TermStatistics stats;
  };
  for (const Term& t :
       {Term{"body", "fox", {2, 4}}, Term{"body", "dog", {2, 3}}, Term{"body", "the", {1, 2}},
        Term{"title", "dog", {2, 2}}, Term{"title", "brown", {2, 2}}, Term{"tags", "red", {3, 3}},
        Term{"lang", "de", {2, 2}}, Term{"lang", "en", {2, 2}}, Term{"id", "d4", {1, 1}},
        Term{"body", "cat", {0, 0}}}) {
    absl::StatusOr<TermStatistics> stats = reader->TermStats(t.field, t.term);
    ASSERT_TRUE(stats.ok()) << t.field << ":" << t.term << ": " << stats.status();
    EXPECT_EQ(*stats, t.stats) << t.field << ":" << t.term;
  }

  // Index-wide document ids cross the leaves.
  const char* kStored[] = {
      R"(stored: id="a1" title="Quick brown fox" tags="red blue" note="first")",
      R"(stored: id="b2" title="Lazy dog" tags="red")",
      R"(stored: id="c3" tags="green  red" note="third")",
      R"(stored: id="d4" title="brown dog")",
  };
  for (uint64_t doc = 0; doc < 4; ++doc) {
    absl::StatusOr<StoredDocument> stored = reader->Document(doc);
    ASSERT_TRUE(stored.ok()) << stored.status();
    EXPECT_EQ(StoredString(*stored), kStored[doc]) << doc;
  }
  EXPECT_EQ(reader->Document(4).status().code(), absl::StatusCode::kOutOfRange);
  const uint64_t batch[] = {3, 0, 2, 0};
  absl::StatusOr<std::vector<StoredDocument>> docs = reader->Documents(batch);
  ASSERT_TRUE(docs.ok()) << docs.status();
  ASSERT_EQ(docs->size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(StoredString((*docs)[i]), kStored[batch[i]]) << i;

  absl::StatusOr<std::vector<TermVector>> vectors = reader->TermVectors(2);
  ASSERT_TRUE(vectors.ok()) << vectors.status();
  std::vector<std::string> lines;
  for (const TermVector& v : *vectors) lines.push_back(VectorString(v));
  EXPECT_THAT(lines,
              ::testing::ElementsAre(R"x(vector body: "fox"/3 0[0,3),1[4,7),2[8,11))x",
                                     R"x(vector tags: "green"/1 0[0,5)"g" "red"/1 2[7,10)"")x"));
}

TEST_F(GoldenIndexTest, SeeksAndAdvance) {
  std::unique_ptr<IndexReader> reader = Open();
  ASSERT_NE(reader, nullptr);
  const LeafReader& leaf = *reader->leaves()[0];
  absl::StatusOr<std::unique_ptr<TermsEnum>> terms = leaf.Terms("body");
  ASSERT_TRUE(terms.ok()) << terms.status();
  TermsEnum& te = **terms;
  EXPECT_TRUE(ValueOf(te.SeekExact("the")));
  EXPECT_EQ(te.term(), "the");
  EXPECT_EQ(te.doc_freq(), 1u);
  EXPECT_EQ(te.total_term_freq(), 2u);
  EXPECT_FALSE(ValueOf(te.SeekExact("cat")));
  EXPECT_EQ(ValueOf(te.SeekCeil("e")), TermsEnum::SeekStatus::kNotFound);
  EXPECT_EQ(te.term(), "eat");
  EXPECT_EQ(ValueOf(te.SeekCeil("fox")), TermsEnum::SeekStatus::kFound);
  EXPECT_TRUE(ValueOf(te.Next()));
  EXPECT_EQ(te.term(), "jumps");
  EXPECT_EQ(ValueOf(te.SeekCeil("zebra")), TermsEnum::SeekStatus::kEnd);

  absl::StatusOr<std::unique_ptr<PostingsEnum>> dog =
      leaf.Postings("body", "dog", kPostingsOffsets);
  ASSERT_TRUE(dog.ok()) << dog.status();
  ASSERT_NE(*dog, nullptr);
  EXPECT_EQ((*dog)->doc(), PostingsEnum::kNoMoreDocs);
  EXPECT_EQ((*dog)->Advance(1), 1u);
  EXPECT_EQ((*dog)->freq(), 2u);
  ASSERT_TRUE((*dog)->NextPosition());
  ASSERT_TRUE((*dog)->NextPosition());
  EXPECT_EQ((*dog)->position(), 2u);
  EXPECT_EQ((*dog)->start_offset(), 8u);
  EXPECT_EQ((*dog)->end_offset(), 11u);
  EXPECT_EQ((*dog)->NextDoc(), PostingsEnum::kNoMoreDocs);
  EXPECT_TRUE((*dog)->status().ok()) << (*dog)->status();

  absl::StatusOr<std::unique_ptr<PostingsEnum>> absent =
      leaf.Postings("body", "cat", kPostingsFreqs);
  ASSERT_TRUE(absent.ok()) << absent.status();
  EXPECT_EQ(*absent, nullptr);
}

TEST_F(GoldenIndexTest, AskingForMoreThanWasIndexedIsAnError) {
  std::unique_ptr<IndexReader> reader = Open();
  ASSERT_NE(reader, nullptr);
  const LeafReader& leaf = *reader->leaves()[0];
  EXPECT_EQ(leaf.Postings("id", "a1", kPostingsFreqs).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(leaf.Postings("title", "fox", kPostingsOffsets).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(leaf.Postings("body", "fox", kPostingsPayloads).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(leaf.Terms("note").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(leaf.Terms("nope").status().code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(leaf.Norm("id", 0).ok());
  EXPECT_EQ(leaf.Norm("body", 2).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(leaf.Document(2).status().code(), absl::StatusCode::kOutOfRange);
}

TEST_F(GoldenIndexTest, OlderCommitAndOpenIfChanged) {
  std::unique_ptr<IndexReader> first = Open(/*generation=*/1);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->generation(), 1u);
  EXPECT_EQ(first->index_id(), "c99e7db33a739a3c3d564b763dc1001f");
  EXPECT_EQ(first->max_doc(), 2u);
  ASSERT_EQ(first->leaves().size(), 1u);
  EXPECT_EQ(DumpLeaf(*first->leaves()[0]), kLeaf0);

  absl::StatusOr<std::unique_ptr<IndexReader>> newer = first->OpenIfChanged();
  ASSERT_TRUE(newer.ok()) << newer.status();
  ASSERT_NE(*newer, nullptr);
  EXPECT_EQ((*newer)->generation(), 2u);
  EXPECT_EQ((*newer)->max_doc(), 4u);
  ASSERT_EQ((*newer)->leaves().size(), 2u);
  EXPECT_EQ(DumpLeaf(*(*newer)->leaves()[1]), kLeaf1);

  absl::StatusOr<std::unique_ptr<IndexReader>> same = (*newer)->OpenIfChanged();
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(*same, nullptr);
}

TEST_F(GoldenIndexTest, CheckIndexPasses) {
  const CheckReport report = CheckIndex(scratch_.path());
  EXPECT_TRUE(report.ok) << FormatCheckReport(report);
  EXPECT_THAT(report.problems, ::testing::IsEmpty());
  EXPECT_EQ(report.generation, 2u);
  EXPECT_EQ(report.segments, 2u);
  EXPECT_EQ(report.docs, 4u);
  EXPECT_EQ(report.index_bytes, 1293u + 1066u);
  EXPECT_EQ(report.doc_file_bytes, 65u + 60u);
  EXPECT_EQ(report.pos_file_bytes, 105u + 78u);
  EXPECT_THAT(report.segment_stats,
              ::testing::ElementsAre(SegmentCheckStats{"_0", 2, 1293, "invert 0.1.0"},
                                     SegmentCheckStats{"_1", 2, 1066, "invert 0.1.0"}));
  EXPECT_THAT(report.not_in_index, ::testing::ElementsAre("segments_1"));
  struct Expected {
    const char* field;
    uint64_t terms, postings, positions;
  };
  for (const Expected& e :
       {Expected{"id", 4, 4, 0}, Expected{"lang", 2, 4, 0}, Expected{"title", 7, 7, 7},
        Expected{"body", 7, 8, 12}, Expected{"tags", 4, 5, 5}}) {
    auto it = report.fields.find(e.field);
    ASSERT_NE(it, report.fields.end()) << e.field;
    EXPECT_EQ(it->second.terms, e.terms) << e.field;
    EXPECT_EQ(it->second.postings, e.postings) << e.field;
    EXPECT_EQ(it->second.positions, e.positions) << e.field;
  }
}

TEST_F(GoldenIndexTest, TheCommittedFilesAreTheOnesTheExamplesShow) {
  // The golden directory holds exactly these files, of these sizes
  // (docs/format.md annotates some of them byte by byte).
  const std::pair<const char*, uintmax_t> kSizes[] = {
      {"segments_1", 126}, {"segments_2", 154}, {"_0.doc", 65},  {"_0.fdt", 130}, {"_0.fdx", 69},
      {"_0.fnm", 105},     {"_0.nvd", 63},      {"_0.pos", 105}, {"_0.si", 229},  {"_0.tim", 456},
      {"_0.tvd", 230},     {"_0.tvx", 70},      {"_1.doc", 60},  {"_1.fdt", 111}, {"_1.fdx", 69},
      {"_1.fnm", 105},     {"_1.nvd", 63},      {"_1.pos", 78},  {"_1.si", 228},  {"_1.tim", 381},
      {"_1.tvd", 131},     {"_1.tvx", 68}};
  std::vector<std::string> expected;
  for (const auto& [name, size] : kSizes) {
    expected.push_back(name);
    EXPECT_EQ(std::filesystem::file_size(GoldenDir() / name), size) << name;
  }
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::directory_iterator(GoldenDir())) {
    found.push_back(entry.path().filename().string());
  }
  EXPECT_THAT(found, ::testing::UnorderedElementsAreArray(expected));
}

}  // namespace
}  // namespace invert

// Tests of the public reader over an index with deleted documents. The index
// is built by IndexWriter (three segments), then documents are deleted by
// hand, as the writer will: a live-docs file per segment and a new commit
// point (testing::CommitDeletions), twice. Checked against a plain reference
// (every document's id, body tokens and group): num_docs / IsDeleted
// everywhere; postings (NextDoc and Advance, freqs, positions) never contain
// a deleted doc; a term whose docs are all deleted still enumerates, with no
// postings; statistics are those of the index before the deletions;
// Document(s) / TermVectors of a deleted doc are kNotFound; norms stay;
// OpenIfChanged shares the segments and sees the new deletions while the
// old reader keeps its own; a damaged, missing or swapped .liv is reported
// by Open and CheckIndex, never a crash; CheckIndex counts and lists the
// deletions. Fixed, printed seed.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/segment_files.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "index/commit_reader.h"
#include "index/leaf_reader_impl.h"
#include "invert/check_index.h"
#include "invert/index_reader.h"
#include "invert/index_writer.h"
#include "live_docs_test_util.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "testing/segment_dump.h"
#include "util/random.h"

namespace invert {
namespace {

using ::testing::HasSubstr;

constexpr int kDocs = 1200;
constexpr int kDocsPerCommit = 400;
constexpr int kVocabulary = 50;

std::string Message(const absl::Status& s) { return std::string(s.message()); }

// One document of the reference.
struct RefDoc {
  std::string id;                   // "id<n>", stored keyword
  std::vector<std::string> tokens;  // body, whitespace-separated
  std::string group;                // "g<n % 7>", keyword (docs only)
  std::string solo;                 // "s<n / 3>": three documents per term
};

struct RefPosting {
  int doc;  // reference doc number
  std::vector<uint32_t> positions;
  bool operator==(const RefPosting&) const = default;
};

std::vector<RefDoc> MakeDocs(Random& rng) {
  std::vector<RefDoc> docs(kDocs);
  for (int n = 0; n < kDocs; ++n) {
    RefDoc& d = docs[n];
    d.id = "id" + std::to_string(n);
    d.tokens.push_back("common");  // in every document: several blocks per segment
    const int length = static_cast<int>(rng.Range(1, 20));
    for (int i = 0; i < length; ++i) {
      const uint64_t w = std::min(rng.Uniform(kVocabulary), rng.Uniform(kVocabulary));
      d.tokens.push_back("w" + std::to_string(w));
    }
    d.group = "g" + std::to_string(n % 7);
    d.solo = "s" + std::to_string(n / 3);
  }
  return docs;
}

// body term -> postings in reference doc order.
std::map<std::string, std::vector<RefPosting>> BodyPostings(const std::vector<RefDoc>& docs) {
  std::map<std::string, std::vector<RefPosting>> out;
  for (int n = 0; n < static_cast<int>(docs.size()); ++n) {
    for (uint32_t p = 0; p < docs[n].tokens.size(); ++p) {
      std::vector<RefPosting>& list = out[docs[n].tokens[p]];
      if (list.empty() || list.back().doc != n) list.push_back({n, {}});
      list.back().positions.push_back(p);
    }
  }
  return out;
}

FieldType BodyType() {
  FieldType t = FieldType::Text();
  t.term_vectors = true;
  t.term_vector_positions = true;
  return t;
}

class IndexReaderDeletionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Random rng(testing::TestSeed(1212));
    docs_ = MakeDocs(rng);
    postings_ = BodyPostings(docs_);
    IndexWriterOptions o;
    o.analyzer = [] { return NewWhitespaceAnalyzer(); };
    o.ram_buffer_mb = 16;
    auto writer = IndexWriter::Open(scratch_.path(), o);
    ASSERT_TRUE(writer.ok()) << writer.status();
    for (int n = 0; n < kDocs; ++n) {
      std::string body;
      for (const std::string& t : docs_[n].tokens)
        absl::StrAppend(&body, body.empty() ? "" : " ", t);
      Document doc;
      doc.Add(Field::Keyword("id", docs_[n].id, FieldType::Keyword(/*stored=*/true)))
          .Add(Field::Text("body", body, BodyType()))
          .Add(Field::Keyword("group", docs_[n].group))
          .Add(Field::Keyword("solo", docs_[n].solo));
      ASSERT_TRUE((*writer)->AddDocument(doc).ok());
      if ((n + 1) % kDocsPerCommit == 0) {
        ASSERT_TRUE((*writer)->Commit().ok());
      }
    }
    ASSERT_TRUE((*writer)->Close().ok());
    dir_ = scratch_.Open();
    auto base = IndexReader::Open(scratch_.path());
    ASSERT_TRUE(base.ok()) << base.status();
    base_ = std::move(*base);
    ASSERT_EQ(base_->max_doc(), static_cast<uint64_t>(kDocs));
    // Which reference doc each index doc is (a merge may have reordered).
    for (uint64_t g = 0; g < base_->max_doc(); ++g) {
      absl::StatusOr<StoredDocument> stored = base_->Document(g);
      ASSERT_TRUE(stored.ok()) << stored.status();
      ASSERT_TRUE(stored->Get("id").has_value());
      const std::string id(*stored->Get("id"));
      ref_of_.push_back(std::stoi(id.substr(2)));
      global_of_[ref_of_.back()] = g;
    }
  }

  // Deletes the reference docs `refs` (on top of the newest commit).
  void Delete(const std::set<int>& refs) {
    std::map<std::string, std::vector<uint32_t>> by_segment;
    for (int ref : refs) {
      const uint64_t g = global_of_.at(ref);
      const LeafReader* leaf = base_->leaves()[base_->LeafIndexOf(g)];
      by_segment[leaf->name()].push_back(static_cast<uint32_t>(g - leaf->doc_base()));
    }
    absl::StatusOr<CommitPoint> commit = testing::CommitDeletions(dir_.get(), by_segment);
    ASSERT_TRUE(commit.ok()) << commit.status();
    deleted_.insert(refs.begin(), refs.end());
  }

  // Everything a reader says about deletions equals the reference.
  void ExpectMatches(const IndexReader& reader, const std::set<int>& deleted) {
    ASSERT_EQ(reader.max_doc(), static_cast<uint64_t>(kDocs));
    EXPECT_EQ(reader.num_docs(), kDocs - deleted.size());
    uint64_t leaf_live = 0;
    for (const LeafReader* leaf : reader.leaves()) {
      uint32_t leaf_deleted = 0;
      for (uint32_t d = 0; d < leaf->max_doc(); ++d) {
        const int ref = ref_of_[leaf->doc_base() + d];
        ASSERT_EQ(leaf->IsDeleted(d), deleted.contains(ref)) << leaf->name() << " doc " << d;
        ASSERT_EQ(reader.IsDeleted(leaf->doc_base() + d), deleted.contains(ref));
        leaf_deleted += deleted.contains(ref);
      }
      EXPECT_EQ(leaf->num_docs(), leaf->max_doc() - leaf_deleted) << leaf->name();
      EXPECT_EQ(leaf->has_deletions(), leaf_deleted > 0) << leaf->name();
      leaf_live += leaf->num_docs();
    }
    EXPECT_EQ(leaf_live, reader.num_docs());
    EXPECT_FALSE(reader.IsDeleted(reader.max_doc()));

    // Postings by NextDoc, with freqs and positions.
    for (const auto& [term, ref_list] : postings_) {
      std::vector<RefPosting> want;
      for (const RefPosting& p : ref_list) {
        if (!deleted.contains(p.doc)) want.push_back(p);
      }
      std::vector<RefPosting> got;
      for (const LeafReader* leaf : reader.leaves()) {
        auto postings = leaf->Postings("body", term, kPostingsPositions);
        ASSERT_TRUE(postings.ok()) << postings.status();
        if (*postings == nullptr) continue;
        for (uint32_t d = (*postings)->NextDoc(); d != PostingsEnum::kNoMoreDocs;
             d = (*postings)->NextDoc()) {
          ASSERT_FALSE(leaf->IsDeleted(d)) << term << ": deleted doc " << d << " in postings";
          RefPosting p{ref_of_[leaf->doc_base() + d], {}};
          for (uint32_t i = 0; i < (*postings)->freq(); ++i) {
            ASSERT_TRUE((*postings)->NextPosition());
            p.positions.push_back((*postings)->position());
          }
          got.push_back(std::move(p));
        }
        ASSERT_TRUE((*postings)->status().ok()) << (*postings)->status();
      }
      std::sort(got.begin(), got.end(),
                [](const RefPosting& a, const RefPosting& b) { return a.doc < b.doc; });
      ASSERT_EQ(got, want) << "term " << term;
    }
  }

  // Advance (mixed with NextDoc) lands on the first live doc >= target.
  void ExpectAdvanceSkipsDeleted(const IndexReader& reader, Random& rng) {
    for (const std::string term : {"common", "w0", "w1", "w7", "w30"}) {
      for (size_t i = 0; i < reader.leaves().size(); ++i) {
        const LeafReader* leaf = reader.leaves()[i];
        // The leaf's live docs with the term, in leaf ids.
        std::vector<uint32_t> live;
        {
          auto all = base_->leaves()[i]->Postings("body", term, 0);
          ASSERT_TRUE(all.ok());
          if (*all == nullptr) continue;
          for (uint32_t d = (*all)->NextDoc(); d != PostingsEnum::kNoMoreDocs;
               d = (*all)->NextDoc()) {
            if (!leaf->IsDeleted(d)) live.push_back(d);
          }
        }
        for (int run = 0; run < 20; ++run) {
          auto postings = leaf->Postings("body", term, kPostingsFreqs);
          ASSERT_TRUE(postings.ok());
          ASSERT_NE(*postings, nullptr);
          uint32_t current = 0;
          bool started = false;
          for (;;) {
            uint32_t got;
            uint32_t target;
            if (rng.Bernoulli(0.3)) {
              target = started ? current + 1 : 0;
              got = (*postings)->NextDoc();
            } else {
              target = static_cast<uint32_t>(
                  rng.Range(started ? current : 0, (started ? current : 0) + 300));
              got = (*postings)->Advance(target);
              if (started && target <= current) target = current;  // never backwards
            }
            auto it = std::lower_bound(live.begin(), live.end(), target);
            const uint32_t want = it == live.end() ? PostingsEnum::kNoMoreDocs : *it;
            ASSERT_EQ(got, want) << term << " in " << leaf->name() << ", target " << target;
            if (got == PostingsEnum::kNoMoreDocs) break;
            current = got;
            started = true;
          }
        }
      }
    }
  }

  testing::ScratchDir scratch_;
  std::unique_ptr<FSDirectory> dir_;
  std::vector<RefDoc> docs_;
  std::map<std::string, std::vector<RefPosting>> postings_;
  std::unique_ptr<IndexReader> base_;
  std::vector<int> ref_of_;            // index doc -> reference doc
  std::map<int, uint64_t> global_of_;  // reference doc -> index doc
  std::set<int> deleted_;              // reference docs deleted so far
};

// Rewrites `name` in `path` with one byte changed.
void FlipByte(const std::string& path, size_t at) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  bytes[at % bytes.size()] ^= 0x20;
  std::filesystem::remove(path);
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST_F(IndexReaderDeletionsTest, ReadersSkipDeletedDocumentsEverywhere) {
  Random rng(testing::TestSeed(1213));
  // Round 1: a third of the documents at random, and every doc of s10.
  std::set<int> round1 = {30, 31, 32};
  for (int n = 0; n < kDocs; ++n) {
    if (rng.Bernoulli(0.33)) round1.insert(n);
  }
  Delete(round1);
  const std::set<int> after1 = deleted_;
  // Round 2: more of them, some again, and the whole first segment.
  std::set<int> round2;
  for (int n = 0; n < kDocs; ++n) {
    if (rng.Bernoulli(0.2)) round2.insert(n);
  }
  const LeafReader* first = base_->leaves()[0];
  for (uint32_t d = 0; d < first->max_doc(); ++d) round2.insert(ref_of_[first->doc_base() + d]);
  Delete(round2);

  auto reader = IndexReader::Open(scratch_.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->generation(), base_->generation() + 2);
  ExpectMatches(**reader, deleted_);
  ExpectAdvanceSkipsDeleted(**reader, rng);
  EXPECT_EQ((*reader)->leaves()[0]->num_docs(), 0u);

  // The older commit, by generation, sees only the first round.
  IndexReaderOptions older;
  older.generation = base_->generation() + 1;
  auto reader1 = IndexReader::Open(scratch_.path(), older);
  ASSERT_TRUE(reader1.ok()) << reader1.status();
  ExpectMatches(**reader1, after1);

  // Statistics count deleted documents: they equal the base's.
  for (const std::string field : {"body", "group", "solo", "id"}) {
    EXPECT_EQ(*(*reader)->FieldStatistics(field), *base_->FieldStatistics(field)) << field;
    for (size_t i = 0; i < base_->leaves().size(); ++i) {
      EXPECT_EQ(*(*reader)->leaves()[i]->TermsStats(field), *base_->leaves()[i]->TermsStats(field));
    }
  }
  for (const auto& [term, list] : postings_) {
    EXPECT_EQ(*(*reader)->TermStats("body", term), *base_->TermStats("body", term)) << term;
  }
  // "s10" (docs 30..32) has every doc deleted: still a term, with its doc
  // freq, but no postings.
  const uint64_t g30 = global_of_.at(30);
  const LeafReader* leaf30 = (*reader)->leaves()[(*reader)->LeafIndexOf(g30)];
  auto terms = leaf30->Terms("solo");
  ASSERT_TRUE(terms.ok());
  ASSERT_TRUE(*(*terms)->SeekExact("s10"));
  EXPECT_EQ((*terms)->doc_freq(), 3u);
  auto none = (*terms)->Postings(kPostingsDocs);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ((*none)->NextDoc(), PostingsEnum::kNoMoreDocs);
  EXPECT_EQ((*none)->cost(), 3u);
  EXPECT_EQ((*reader)->TermStats("solo", "s10")->doc_freq, 3u);

  // Stored fields and term vectors: deleted docs refused, live ones read.
  const uint64_t deleted_doc = global_of_.at(*deleted_.begin());
  uint64_t live_doc = 0;
  while ((*reader)->IsDeleted(live_doc)) ++live_doc;
  absl::StatusOr<StoredDocument> gone = (*reader)->Document(deleted_doc);
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Message(gone.status()), HasSubstr(absl::StrCat("index doc ", deleted_doc)));
  EXPECT_THAT(Message(gone.status()), HasSubstr("deleted"));
  EXPECT_EQ((*reader)->TermVectors(deleted_doc).status().code(), absl::StatusCode::kNotFound);
  absl::StatusOr<StoredDocument> kept = (*reader)->Document(live_doc);
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(*kept->Get("id"), docs_[ref_of_[live_doc]].id);
  EXPECT_TRUE((*reader)->TermVectors(live_doc).ok());
  const uint64_t batch_bad[] = {live_doc, deleted_doc};
  absl::StatusOr<std::vector<StoredDocument>> batch = (*reader)->Documents(batch_bad);
  ASSERT_FALSE(batch.ok());
  EXPECT_EQ(batch.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Message(batch.status()), HasSubstr(absl::StrCat("doc ", deleted_doc)));
  std::vector<uint64_t> live_docs;
  for (uint64_t g = 0; g < (*reader)->max_doc() && live_docs.size() < 40; g += 7) {
    if (!(*reader)->IsDeleted(g)) live_docs.push_back(g);
  }
  batch = (*reader)->Documents(live_docs);
  ASSERT_TRUE(batch.ok()) << batch.status();
  for (size_t i = 0; i < live_docs.size(); ++i) {
    EXPECT_EQ(*(*batch)[i].Get("id"), docs_[ref_of_[live_docs[i]]].id);
  }
  // The leaf's calls, the same; norms of deleted docs as stored.
  const LeafReader* leaf = (*reader)->leaves()[(*reader)->LeafIndexOf(deleted_doc)];
  const uint32_t local = static_cast<uint32_t>(deleted_doc - leaf->doc_base());
  EXPECT_EQ(leaf->Document(local).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(leaf->TermVectors(local).status().code(), absl::StatusCode::kNotFound);
  const uint32_t locals[] = {local};
  EXPECT_EQ(leaf->Documents(locals).status().code(), absl::StatusCode::kNotFound);
  const LeafReader* base_leaf = base_->leaves()[base_->LeafIndexOf(deleted_doc)];
  ASSERT_TRUE(leaf->Norm("body", local).ok());
  EXPECT_EQ(*leaf->Norm("body", local), *base_leaf->Norm("body", local));
  EXPECT_GT(*leaf->Norm("body", local), 0);
  // Out of range stays kOutOfRange.
  EXPECT_EQ((*reader)->Document(kDocs).status().code(), absl::StatusCode::kOutOfRange);

  // The checker agrees.
  const CheckReport report = CheckIndex(dir_.get());
  EXPECT_TRUE(report.ok) << FormatCheckReport(report);
}

TEST_F(IndexReaderDeletionsTest, OpenIfChangedSharesSegmentsAndSeesNewDeletions) {
  Random rng(testing::TestSeed(1214));
  std::set<int> round1;
  for (int n = 0; n < kDocs; n += 5) round1.insert(n);
  Delete(round1);
  absl::StatusOr<std::unique_ptr<IndexReader>> r1 = base_->OpenIfChanged();
  ASSERT_TRUE(r1.ok()) << r1.status();
  ASSERT_NE(*r1, nullptr);
  ExpectMatches(**r1, deleted_);
  ExpectMatches(*base_, {});  // the old reader keeps its commit
  auto segment = [](const LeafReader* leaf) {
    return dynamic_cast<const LeafReaderImpl*>(leaf)->segment().get();
  };
  auto live_docs = [](const LeafReader* leaf) {
    return dynamic_cast<const LeafReaderImpl*>(leaf)->live_docs().get();
  };
  ASSERT_EQ((*r1)->leaves().size(), base_->leaves().size());
  for (size_t i = 0; i < base_->leaves().size(); ++i) {
    EXPECT_EQ(segment((*r1)->leaves()[i]), segment(base_->leaves()[i])) << i;
  }
  // Only the last segment changes next: the others share their live docs.
  const LeafReader* last = base_->leaves().back();
  std::set<int> round2;
  for (uint32_t d = 0; d < last->max_doc(); ++d) {
    if (rng.Bernoulli(0.5)) round2.insert(ref_of_[last->doc_base() + d]);
  }
  Delete(round2);
  absl::StatusOr<std::unique_ptr<IndexReader>> r2 = (*r1)->OpenIfChanged();
  ASSERT_TRUE(r2.ok()) << r2.status();
  ASSERT_NE(*r2, nullptr);
  ExpectMatches(**r2, deleted_);
  ExpectMatches(**r1, round1);
  for (size_t i = 0; i < base_->leaves().size(); ++i) {
    EXPECT_EQ(segment((*r2)->leaves()[i]), segment(base_->leaves()[i])) << i;
    const bool changed = i + 1 == base_->leaves().size();
    EXPECT_EQ(live_docs((*r2)->leaves()[i]) == live_docs((*r1)->leaves()[i]), !changed) << i;
  }
  EXPECT_EQ(*(*r2)->OpenIfChanged(), nullptr);
  // A cursor of the old reader keeps its commit's view.
  auto old_postings = (*r1)->leaves().back()->Postings("body", "common", 0);
  ASSERT_TRUE(old_postings.ok());
  uint32_t count = 0;
  while ((*old_postings)->NextDoc() != PostingsEnum::kNoMoreDocs) ++count;
  EXPECT_EQ(count, (*r1)->leaves().back()->num_docs());
}

TEST_F(IndexReaderDeletionsTest, CheckIndexVerifiesAndReportsDeletions) {
  const CheckReport before = CheckIndex(dir_.get());
  ASSERT_TRUE(before.ok) << FormatCheckReport(before);
  EXPECT_EQ(before.deleted_docs, 0u);
  std::set<int> round1, round2;
  for (int n = 0; n < kDocs; n += 4) round1.insert(n);
  Delete(round1);
  const LeafReader* last = base_->leaves().back();
  for (uint32_t d = 0; d < last->max_doc(); d += 3) round2.insert(ref_of_[last->doc_base() + d]);
  Delete(round2);

  const CheckReport report = CheckIndex(dir_.get());
  ASSERT_TRUE(report.ok) << FormatCheckReport(report);
  EXPECT_EQ(report.docs, kDocs - deleted_.size());
  EXPECT_EQ(report.deleted_docs, deleted_.size());
  // Statistics from the postings still count the deleted documents.
  EXPECT_EQ(report.fields, before.fields);
  ASSERT_EQ(report.segment_stats.size(), base_->leaves().size());
  for (size_t i = 0; i < base_->leaves().size(); ++i) {
    const LeafReader* leaf = base_->leaves()[i];
    const SegmentCheckStats& s = report.segment_stats[i];
    uint32_t deleted = 0;
    for (uint32_t d = 0; d < leaf->max_doc(); ++d) {
      deleted += deleted_.contains(ref_of_[leaf->doc_base() + d]);
    }
    EXPECT_EQ(s.name, leaf->name());
    EXPECT_EQ(s.docs, leaf->max_doc());
    EXPECT_EQ(s.deleted, deleted) << s.name;
    EXPECT_EQ(s.del_gen, i + 1 == base_->leaves().size() ? 2u : 1u) << s.name;
    EXPECT_EQ(s.bytes, before.segment_stats[i].bytes);
  }
  const std::string text = FormatCheckReport(report);
  EXPECT_THAT(text, HasSubstr(absl::StrCat("deleted: ", deleted_.size(), " documents")));
  EXPECT_THAT(
      text, HasSubstr(absl::StrCat("segment ", last->name(), ": ", last->max_doc(), " documents, ",
                                   report.segment_stats.back().deleted, " deleted (del_gen 2)")));
  // The replaced generation is not part of the index; the current ones are.
  EXPECT_THAT(report.not_in_index, ::testing::Contains(LiveDocsFileName(last->name(), 1)));
  for (const LeafReader* leaf : base_->leaves()) {
    EXPECT_THAT(report.not_in_index,
                ::testing::Not(::testing::Contains(LiveDocsFileName(leaf->name(), 2))));
    EXPECT_THAT(report.not_in_index,
                ::testing::Not(::testing::Contains(SegmentFileName(leaf->name(), "doc"))));
  }
  EXPECT_THAT(report.not_in_index,
              ::testing::Not(::testing::Contains(LiveDocsFileName(base_->leaves()[0]->name(), 1))));

  // A damaged .liv is one problem naming it; the rest is still checked.
  const std::string liv = LiveDocsFileName(base_->leaves()[0]->name(), 1);
  FlipByte(scratch_.path() + "/" + liv, 50);
  const CheckReport damaged = CheckIndex(dir_.get());
  EXPECT_FALSE(damaged.ok);
  ASSERT_EQ(damaged.problems.size(), 1u) << FormatCheckReport(damaged);
  EXPECT_THAT(damaged.problems[0], HasSubstr(liv));
  EXPECT_THAT(damaged.problems[0], HasSubstr("checksum"));
  EXPECT_EQ(damaged.segment_stats, report.segment_stats);
  EXPECT_EQ(damaged.fields, report.fields);
}

TEST_F(IndexReaderDeletionsTest, SegmentDumpMarksDeletedDocuments) {
  std::set<int> some;
  for (int n = 0; n < kDocs; n += 9) some.insert(n);
  Delete(some);
  auto reader = CommitReader::Open(dir_.get());
  ASSERT_TRUE(reader.ok()) << reader.status();
  for (size_t i = 0; i < (*reader)->segment_count(); ++i) {
    const SegmentReader& seg = (*reader)->segment(i);
    const LiveDocs* live = (*reader)->live_docs(i);
    ASSERT_NE(live, nullptr);
    absl::StatusOr<std::string> plain = DumpSegment(seg);
    absl::StatusOr<std::string> marked =
        DumpSegment(seg, live, (*reader)->commit().segments[i].del_gen);
    ASSERT_TRUE(plain.ok() && marked.ok());
    EXPECT_THAT(*marked,
                HasSubstr(absl::StrCat("\ndeleted: ", live->del_count(), " (del_gen 1)\n")));
    // Without the additions, the same text.
    std::string stripped = *marked;
    stripped.erase(stripped.find("deleted: "), stripped.find('\n', stripped.find("deleted: ")) -
                                                   stripped.find("deleted: ") + 1);
    for (size_t at; (at = stripped.find(" (deleted)")) != std::string::npos;) {
      stripped.erase(at, 10);
    }
    EXPECT_EQ(stripped, *plain);
    for (uint32_t d = 0; d < seg.doc_count(); ++d) {
      const std::string line = absl::StrCat("\ndoc ", d, " (deleted)\n");
      EXPECT_EQ(marked->find(line) != std::string::npos, !live->IsLive(d)) << d;
    }
  }
}

TEST_F(IndexReaderDeletionsTest, DamagedMissingOrSwappedLiveDocsAreReported) {
  std::set<int> some;
  for (int n = 0; n < kDocs; n += 3) some.insert(n);
  Delete(some);
  ASSERT_GE(base_->leaves().size(), 2u);
  const std::string liv_name = LiveDocsFileName(base_->leaves()[1]->name(), 1);
  const std::string liv = scratch_.path() + "/" + liv_name;
  std::ifstream in(liv, std::ios::binary);
  const std::string original((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  in.close();
  ASSERT_FALSE(original.empty());
  auto restore = [&] {
    std::filesystem::remove(liv);
    std::ofstream(liv, std::ios::binary) << original;
  };
  auto expect_refused = [&](absl::StatusCode code, const std::string& what) {
    auto reader = IndexReader::Open(scratch_.path());
    ASSERT_FALSE(reader.ok());
    EXPECT_EQ(reader.status().code(), code) << reader.status();
    EXPECT_THAT(Message(reader.status()), HasSubstr(liv_name));
    EXPECT_THAT(Message(reader.status()), HasSubstr(what));
    auto reopened = base_->OpenIfChanged();
    EXPECT_FALSE(reopened.ok());
    const CheckReport report = CheckIndex(dir_.get());
    EXPECT_FALSE(report.ok);
    std::string problems;
    for (const std::string& p : report.problems) problems += p + "\n";
    EXPECT_THAT(problems, HasSubstr(liv_name));
  };
  // Every byte flipped, one at a time (sampled: header, counts, bits, footer).
  for (size_t at : {size_t{0}, size_t{20}, size_t{40}, size_t{41}, size_t{45}, original.size() / 2,
                    original.size() - 20, original.size() - 1}) {
    FlipByte(liv, at);
    auto reader = IndexReader::Open(scratch_.path());
    ASSERT_FALSE(reader.ok()) << "byte " << at;
    EXPECT_THAT(Message(reader.status()), HasSubstr(liv_name)) << "byte " << at;
    restore();
  }
  FlipByte(liv, original.size() / 2);
  expect_refused(absl::StatusCode::kDataLoss, "");
  restore();
  // Missing.
  std::filesystem::remove(liv);
  expect_refused(absl::StatusCode::kNotFound, "");
  restore();
  // Swapped for a valid file of the same segment, generation and counts but
  // other bits: only the commit's checksum tells.
  {
    const LeafReader* leaf = base_->leaves()[1];
    absl::StatusOr<NewestCommit> newest = ReadNewestCommit(dir_.get());
    ASSERT_TRUE(newest.ok());
    const CommitSegment& entry = newest->commit.segments[1];
    LiveDocs other(leaf->max_doc());
    for (uint32_t d = 0; d < entry.del_count; ++d) other.Delete(leaf->max_doc() - 1 - d);
    std::filesystem::remove(liv);
    ASSERT_TRUE(WriteLiveDocs(dir_.get(), entry.name, entry.id, 1, other).ok());
    expect_refused(absl::StatusCode::kDataLoss, "not the ones the commit recorded");
    restore();
  }
  auto reader = IndexReader::Open(scratch_.path());
  ASSERT_TRUE(reader.ok()) << reader.status();
  ExpectMatches(**reader, deleted_);
}

}  // namespace
}  // namespace invert

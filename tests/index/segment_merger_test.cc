// MergeSegments (index/segment_merger.h): random documents of random field
// types flushed as many small segments (each with its own field first-use
// order) and merged must equal one segment flushed from all the documents:
// every field, term, doc_freq, total_term_freq, posting, position, offset,
// payload, norm, stored field, term vector and field statistic. With random
// deletions, the merged segment must equal a flush of the live documents
// and the naive model of tests/index/chain_model.h built from them, and the
// doc maps must say where each document went. Both term-byte layouts, fixed
// printed seed. Then: schema mismatches, cancellation, a damaged input, every
// write/fsync of a merge failed in turn (nothing left behind), throttling.
#include "index/segment_merger.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "codec/segment_reader.h"
#include "gtest/gtest.h"
#include "index/chain_model.h"
#include "index/indexing_chain.h"
#include "index/random_docs.h"
#include "index/segment_flush.h"
#include "scratch_dir.h"
#include "test_scale.h"
#include "test_seed.h"
#include "testing/fault_injecting_directory.h"
#include "testing/segment_dump.h"
#include "util/random.h"

namespace invert {
namespace {

using testing::TestDoc;

IndexingChainOptions ChainOptions(TermBytesLayout layout) {
  IndexingChainOptions o;
  o.layout = layout;
  o.analyzer = [] { return NewWhitespaceAnalyzer(); };
  return o;
}

std::string Escape(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

// Everything a segment holds, by field name (so segments that number their
// fields differently compare equal), statistics included. A field appears
// if it has terms or a nonzero norm; stored values and vectors per document.
std::string NamedDump(const SegmentReader& seg) {
  std::string out = "docs " + std::to_string(seg.doc_count()) + "\n";
  std::vector<const FieldInfo*> fields;
  for (const FieldInfo& f : seg.fields()) fields.push_back(&f);
  std::sort(fields.begin(), fields.end(),
            [](const FieldInfo* a, const FieldInfo* b) { return a->name < b->name; });
  for (const FieldInfo* f : fields) {
    const TermDictReader* dict = seg.Terms(f->number);
    const std::span<const uint8_t> norms = seg.NormBytes(f->number);
    const bool any_norm = std::any_of(norms.begin(), norms.end(), [](uint8_t b) { return b != 0; });
    if (dict == nullptr && !any_norm) continue;
    const FieldType& t = f->type;
    out += "field " + f->name + " idx=" + std::to_string(static_cast<int>(t.index_options)) +
           " st=" + std::to_string(t.stored) + " norms=" + std::to_string(t.norms) +
           " pay=" + std::to_string(t.payloads) + " tv=" + std::to_string(t.term_vectors) + "\n";
    if (dict != nullptr) {
      const FieldTermsStats* s = seg.TermsStats(f->number);
      out += "  stats terms=" + std::to_string(s->term_count) +
             " sum_df=" + std::to_string(s->sum_doc_freq) +
             " sum_ttf=" + std::to_string(s->sum_total_term_freq) +
             " doc_count=" + std::to_string(s->doc_count) + "\n";
      TermDictCursor cursor = dict->NewCursor();
      for (;;) {
        absl::StatusOr<bool> next = cursor.Next();
        EXPECT_TRUE(next.ok()) << next.status();
        if (!next.ok() || !*next) break;
        const TermStats& ts = cursor.stats();
        out += "  term \"" + Escape(cursor.term()) + "\" df=" + std::to_string(ts.doc_freq) +
               " ttf=" + std::to_string(ts.total_term_freq) + "\n";
        PostingsCursor it = seg.Postings(f->number, ts);
        while (it.NextDoc()) {
          out += "    doc " + std::to_string(it.doc()) + " freq " + std::to_string(it.freq());
          if (HasPositions(t.index_options)) {
            for (uint32_t i = 0; i < it.freq() && it.NextPosition(); ++i) {
              out += " " + std::to_string(it.position()) + "[" + std::to_string(it.start_offset()) +
                     "," + std::to_string(it.end_offset()) + ")<" + Escape(it.payload()) + ">";
            }
          }
          out += "\n";
        }
        EXPECT_TRUE(it.status().ok()) << it.status();
      }
    }
    if (any_norm) {
      out += "  norms";
      for (uint8_t b : norms) out += " " + std::to_string(b);
      out += "\n";
    }
  }
  for (uint32_t doc = 0; doc < seg.doc_count(); ++doc) {
    out += "doc " + std::to_string(doc) + "\n";
    absl::StatusOr<std::vector<StoredField>> stored = seg.stored_fields().Document(doc);
    EXPECT_TRUE(stored.ok()) << stored.status();
    if (stored.ok()) {
      for (const StoredField& v : *stored) {
        out +=
            "  stored " + seg.fields().at(v.field_number).name + " \"" + Escape(v.value) + "\"\n";
      }
    }
    absl::StatusOr<std::vector<TermVectorFieldData>> vectors = seg.term_vectors().Get(doc);
    EXPECT_TRUE(vectors.ok()) << vectors.status();
    if (!vectors.ok()) continue;
    std::map<std::string, std::string> by_name;
    for (const TermVectorFieldData& f : *vectors) {
      std::string& v = by_name[seg.fields().at(f.field_number).name];
      v += " flags " + std::to_string(f.has_positions) + std::to_string(f.has_offsets) +
           std::to_string(f.has_payloads) + "\n";
      for (const TermVectorTermData& term : f.terms) {
        v += "    \"" + Escape(term.term) + "\" " + std::to_string(term.freq);
        for (uint32_t p : term.positions) v += " p" + std::to_string(p);
        for (size_t i = 0; i < term.start_offsets.size(); ++i) {
          v += " o" + std::to_string(term.start_offsets[i]) + "-" +
               std::to_string(term.end_offsets[i]);
        }
        for (const std::string& payload : term.payloads) v += " <" + Escape(payload) + ">";
        v += "\n";
      }
    }
    for (const auto& [name, v] : by_name) out += "  vector " + name + v;
  }
  return out;
}

// The naive model's postings, norms, stored values and vectors against a
// segment, by field name.
void ExpectSegmentMatchesModel(const SegmentReader& seg, const testing::Model& m,
                               const std::map<std::string, FieldType>& types) {
  ASSERT_EQ(seg.doc_count(), m.docs);
  for (const auto& [name, type] : types) {
    const FieldInfo* info = seg.FieldByName(name);
    const auto expected = m.postings.find(name);
    if (info == nullptr) {
      EXPECT_TRUE(expected == m.postings.end() || expected->second.empty()) << name;
      continue;
    }
    std::map<std::string, std::vector<testing::Posting>> got;
    if (const TermDictReader* dict = seg.Terms(info->number); dict != nullptr) {
      TermDictCursor cursor = dict->NewCursor();
      for (;;) {
        absl::StatusOr<bool> next = cursor.Next();
        ASSERT_TRUE(next.ok()) << next.status();
        if (!*next) break;
        std::vector<testing::Posting>& list = got[std::string(cursor.term())];
        PostingsCursor it = seg.Postings(info->number, cursor.stats());
        while (it.NextDoc()) {
          testing::Posting p{it.doc(), it.freq(), {}};
          if (HasPositions(type.index_options)) {
            for (uint32_t i = 0; i < it.freq(); ++i) {
              ASSERT_TRUE(it.NextPosition());
              p.occurrences.push_back(
                  {it.position(), it.start_offset(), it.end_offset(), std::string(it.payload())});
            }
          }
          list.push_back(std::move(p));
        }
        ASSERT_TRUE(it.status().ok()) << it.status();
      }
    }
    if (expected == m.postings.end()) {
      EXPECT_TRUE(got.empty()) << name;
    } else {
      ASSERT_EQ(got.size(), expected->second.size()) << name;
      for (const auto& [term, list] : expected->second) {
        ASSERT_EQ(got[term], list) << name << " term " << Escape(term);
      }
    }
    const auto norms = m.norms.find(name);
    for (uint32_t doc = 0; doc < m.docs; ++doc) {
      const uint8_t want =
          norms != m.norms.end() && doc < norms->second.size() ? norms->second[doc] : 0;
      ASSERT_EQ(seg.Norm(info->number, doc), want) << name << " doc " << doc;
    }
  }
  for (uint32_t doc = 0; doc < m.docs; ++doc) {
    absl::StatusOr<std::vector<StoredField>> stored = seg.stored_fields().Document(doc);
    ASSERT_TRUE(stored.ok()) << stored.status();
    std::vector<std::pair<std::string, std::string>> values;
    for (const StoredField& v : *stored) {
      values.emplace_back(seg.fields().at(v.field_number).name, v.value);
    }
    ASSERT_EQ(values, m.stored[doc]) << "doc " << doc;
    absl::StatusOr<std::vector<TermVectorFieldData>> vectors = seg.term_vectors().Get(doc);
    ASSERT_TRUE(vectors.ok()) << vectors.status();
    ASSERT_EQ(vectors->size(), m.vectors[doc].size()) << "doc " << doc;
    for (const TermVectorFieldData& f : *vectors) {
      const std::string& name = seg.fields().at(f.field_number).name;
      const auto want = m.vectors[doc].find(name);
      ASSERT_NE(want, m.vectors[doc].end()) << name;
      ASSERT_EQ(f.terms.size(), want->second.size()) << name;
      for (const TermVectorTermData& t : f.terms) {
        const auto vt = want->second.find(t.term);
        ASSERT_NE(vt, want->second.end()) << name << " " << Escape(t.term);
        EXPECT_EQ(t.freq, vt->second.freq);
        EXPECT_EQ(t.positions, vt->second.positions);
        EXPECT_EQ(t.start_offsets, vt->second.starts);
        EXPECT_EQ(t.end_offsets, vt->second.ends);
        EXPECT_EQ(t.payloads, vt->second.payloads);
      }
    }
  }
}

std::set<std::string> Files(Directory* dir) {
  absl::StatusOr<std::vector<std::string>> all = dir->ListAll();
  EXPECT_TRUE(all.ok()) << all.status();
  return all.ok() ? std::set<std::string>(all->begin(), all->end()) : std::set<std::string>();
}

// Random documents in segments, each segment's documents built with the
// field specs in its own order (so each numbers its fields differently),
// flushed; plus everything needed to build references.
struct Fixture {
  std::map<std::string, FieldType> types;
  std::vector<std::vector<TestDoc>> segment_docs;
  std::vector<SegmentInfo> infos;
  std::vector<std::unique_ptr<SegmentReader>> readers;
  testing::ScratchDir scratch;
  std::unique_ptr<FSDirectory> dir = scratch.Open();

  // `layouts[s]` is segment s's layout (and the count of segments).
  void Build(Random& rng, const std::vector<TermBytesLayout>& layouts, int fields = 8) {
    std::vector<testing::FieldSpec> specs;
    for (int i = 0; i < fields; ++i) {
      testing::FieldSpec s{"f" + std::to_string(i), testing::RandomType(rng)};
      types[s.name] = s.type;
      specs.push_back(s);
    }
    for (size_t s = 0; s < layouts.size(); ++s) {
      if (s > 0) {
        for (size_t i = specs.size(); i > 1; --i) std::swap(specs[i - 1], specs[rng.Uniform(i)]);
      }
      // Mostly small segments; some large enough that frequent terms
      // span several 128-doc blocks in each.
      const size_t n = rng.Bernoulli(0.25) ? rng.Range(150, 400) : rng.Range(1, 60);
      std::vector<TestDoc> docs;
      for (size_t d = 0; d < n; ++d) docs.push_back(testing::RandomDoc(rng, specs));
      IndexingChain chain(ChainOptions(layouts[s]));
      for (const TestDoc& td : docs) {
        ASSERT_TRUE(chain.AddDocument(testing::ToDocument(td, types)).ok());
      }
      const std::string name = "_" + std::to_string(s);
      absl::StatusOr<SegmentInfo> info = FlushSegment(chain, dir.get(), name);
      ASSERT_TRUE(info.ok()) << info.status();
      absl::StatusOr<std::unique_ptr<SegmentReader>> reader =
          SegmentReader::Open(dir.get(), name, info->id);
      ASSERT_TRUE(reader.ok()) << reader.status();
      infos.push_back(*info);
      readers.push_back(std::move(*reader));
      segment_docs.push_back(std::move(docs));
    }
  }

  // Flushes the given documents as one segment `name` and opens it.
  std::unique_ptr<SegmentReader> Reference(const std::vector<const TestDoc*>& docs,
                                           std::string_view name, TermBytesLayout layout) {
    IndexingChain chain(ChainOptions(layout));
    for (const TestDoc* td : docs) {
      EXPECT_TRUE(chain.AddDocument(testing::ToDocument(*td, types)).ok());
    }
    absl::StatusOr<SegmentInfo> info = FlushSegment(chain, dir.get(), name);
    EXPECT_TRUE(info.ok()) << info.status();
    if (!info.ok()) return nullptr;
    absl::StatusOr<std::unique_ptr<SegmentReader>> reader =
        SegmentReader::Open(dir.get(), name, info->id);
    EXPECT_TRUE(reader.ok()) << reader.status();
    return reader.ok() ? std::move(*reader) : nullptr;
  }

  std::vector<const TestDoc*> AllDocs() const {
    std::vector<const TestDoc*> all;
    for (const auto& docs : segment_docs) {
      for (const TestDoc& td : docs) all.push_back(&td);
    }
    return all;
  }

  std::vector<MergeInput> Inputs(const std::vector<LiveDocs>* live = nullptr) const {
    std::vector<MergeInput> inputs;
    for (size_t i = 0; i < readers.size(); ++i) {
      inputs.push_back({readers[i].get(), live == nullptr ? nullptr : &(*live)[i]});
    }
    return inputs;
  }

  std::unique_ptr<SegmentReader> Open(const MergeResult& result) const {
    absl::StatusOr<std::unique_ptr<SegmentReader>> reader =
        SegmentReader::Open(dir.get(), result.info.name, result.info.id);
    EXPECT_TRUE(reader.ok()) << reader.status();
    if (!reader.ok()) return nullptr;
    EXPECT_TRUE((*reader)->CheckIntegrity().ok());
    return std::move(*reader);
  }
};

std::vector<TermBytesLayout> Same(TermBytesLayout layout, size_t n) {
  return std::vector<TermBytesLayout>(n, layout);
}

TEST(SegmentMergerTest, ManySmallSegmentsEqualOneFlush) {
  const uint64_t seed = testing::TestSeed(1212);
  const int rounds = testing::Scaled(3, 1);
  for (TermBytesLayout layout : {TermBytesLayout::kShared, TermBytesLayout::kSeparate}) {
    for (int round = 0; round < rounds; ++round) {
      SCOPED_TRACE(std::string(TermBytesLayoutName(layout)) + " round " + std::to_string(round));
      Random rng(seed * 31 + round);
      Fixture fx;
      fx.Build(rng, Same(layout, 3 + rng.Uniform(8)));
      std::unique_ptr<SegmentReader> ref = fx.Reference(fx.AllDocs(), "_ref", layout);
      ASSERT_NE(ref, nullptr);

      MergeOptions options;
      options.fields = ref->fields();  // the reference's numbering
      MergeStats stats;
      absl::StatusOr<MergeResult> merged =
          MergeSegments(fx.Inputs(), fx.dir.get(), "_m", {}, options, &stats);
      ASSERT_TRUE(merged.ok()) << merged.status();
      EXPECT_EQ(merged->info.term_bytes_layout, TermBytesLayoutName(layout));
      std::unique_ptr<SegmentReader> seg = fx.Open(*merged);
      ASSERT_NE(seg, nullptr);
      // Same numbering, so the canonical dump must match byte for byte too.
      absl::StatusOr<std::string> want = DumpSegment(*ref);
      absl::StatusOr<std::string> got = DumpSegment(*seg);
      ASSERT_TRUE(want.ok() && got.ok());
      ASSERT_EQ(*got, *want);
      ASSERT_EQ(NamedDump(*seg), NamedDump(*ref));

      // Doc maps: input i's doc d is at its base + d.
      uint32_t base = 0;
      ASSERT_EQ(merged->doc_maps.size(), fx.readers.size());
      for (size_t i = 0; i < fx.readers.size(); ++i) {
        ASSERT_EQ(merged->doc_maps[i].size(), fx.readers[i]->doc_count());
        for (uint32_t d = 0; d < fx.readers[i]->doc_count(); ++d) {
          ASSERT_EQ(merged->doc_maps[i][d], base + d);
        }
        base += fx.readers[i]->doc_count();
      }
      EXPECT_EQ(stats.docs, ref->doc_count());
      EXPECT_EQ(stats.terms_dropped, 0u);
      // Segment 0 numbers its fields as the reference (it holds the
      // reference's first documents): its blocks are copied as they are.
      EXPECT_GE(stats.stored_blocks_copied, fx.readers[0]->stored_fields().block_count());
      EXPECT_GE(stats.vector_blocks_copied, fx.readers[0]->term_vectors().block_count());
      uint64_t written = 0;
      for (const SegmentFile& f : merged->info.files) written += f.length;
      EXPECT_GT(stats.bytes_written, written);  // .si on top
      EXPECT_GT(stats.peak_memory_bytes, 0);
      std::printf(
          "[   INFO   ] %s round %d: %zu segments, %u docs, %llu terms, %llu/%llu stored "
          "blocks copied/recompressed, peak ~%lld bytes\n",
          std::string(TermBytesLayoutName(layout)).c_str(), round, fx.readers.size(),
          seg->doc_count(), static_cast<unsigned long long>(stats.terms),
          static_cast<unsigned long long>(stats.stored_blocks_copied),
          static_cast<unsigned long long>(stats.stored_blocks_recompressed),
          static_cast<long long>(stats.peak_memory_bytes));
    }
  }
}

TEST(SegmentMergerTest, DeletedDocumentsAreDropped) {
  const uint64_t seed = testing::TestSeed(3434);
  const int rounds = testing::Scaled(3, 1);
  for (TermBytesLayout layout : {TermBytesLayout::kShared, TermBytesLayout::kSeparate}) {
    for (int round = 0; round < rounds; ++round) {
      SCOPED_TRACE(std::string(TermBytesLayoutName(layout)) + " round " + std::to_string(round));
      Random rng(seed * 37 + round);
      Fixture fx;
      fx.Build(rng, Same(layout, 3 + rng.Uniform(8)));
      // The schema: every field of every segment.
      std::unique_ptr<SegmentReader> all = fx.Reference(fx.AllDocs(), "_all", layout);
      ASSERT_NE(all, nullptr);

      // Deletions: none in some segments, all in one now and then, else a
      // random share.
      std::vector<LiveDocs> live;
      std::vector<const TestDoc*> kept;
      std::vector<std::vector<uint32_t>> want_maps;
      testing::Model model;
      uint32_t next = 0;
      for (size_t s = 0; s < fx.readers.size(); ++s) {
        const uint32_t n = fx.readers[s]->doc_count();
        live.emplace_back(n);
        const double p = rng.Bernoulli(0.3) ? 0 : rng.Bernoulli(0.15) ? 1 : rng.NextDouble();
        want_maps.emplace_back(n, kDeletedDoc);
        for (uint32_t d = 0; d < n; ++d) {
          if (rng.Bernoulli(p)) {
            live.back().Delete(d);
          } else {
            want_maps.back()[d] = next++;
            kept.push_back(&fx.segment_docs[s][d]);
            testing::ApplyToModel(fx.segment_docs[s][d], fx.types, model);
          }
        }
      }
      if (kept.empty()) continue;
      std::unique_ptr<SegmentReader> ref = fx.Reference(kept, "_ref", layout);
      ASSERT_NE(ref, nullptr);

      MergeOptions options;
      options.fields = all->fields();
      MergeStats stats;
      absl::StatusOr<MergeResult> merged =
          MergeSegments(fx.Inputs(&live), fx.dir.get(), "_m", {}, options, &stats);
      ASSERT_TRUE(merged.ok()) << merged.status();
      EXPECT_EQ(merged->doc_maps, want_maps);
      std::unique_ptr<SegmentReader> seg = fx.Open(*merged);
      ASSERT_NE(seg, nullptr);
      ASSERT_EQ(NamedDump(*seg), NamedDump(*ref));
      ExpectSegmentMatchesModel(*seg, model, fx.types);
      std::printf(
          "[   INFO   ] %s round %d: %u of %zu docs live, %llu terms written, %llu "
          "dropped, %llu/%llu stored blocks copied/recompressed\n",
          std::string(TermBytesLayoutName(layout)).c_str(), round, seg->doc_count(),
          fx.AllDocs().size(), static_cast<unsigned long long>(stats.terms),
          static_cast<unsigned long long>(stats.terms_dropped),
          static_cast<unsigned long long>(stats.stored_blocks_copied),
          static_cast<unsigned long long>(stats.stored_blocks_recompressed));
    }
  }
}

TEST(SegmentMergerTest, SegmentsOfBothLayoutsMergeAsMixed) {
  Random rng(testing::TestSeed(5656));
  Fixture fx;
  fx.Build(rng, {TermBytesLayout::kShared, TermBytesLayout::kSeparate, TermBytesLayout::kShared});
  std::unique_ptr<SegmentReader> ref = fx.Reference(fx.AllDocs(), "_ref", TermBytesLayout::kShared);
  ASSERT_NE(ref, nullptr);
  MergeOptions options;
  options.fields = ref->fields();
  absl::StatusOr<MergeResult> merged = MergeSegments(fx.Inputs(), fx.dir.get(), "_m", {}, options);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(merged->info.term_bytes_layout, kMixedTermBytesLayout);
  std::unique_ptr<SegmentReader> seg = fx.Open(*merged);
  ASSERT_NE(seg, nullptr);
  EXPECT_EQ(seg->info().term_bytes_layout, "mixed");
  EXPECT_EQ(NamedDump(*seg), NamedDump(*ref));
}

TEST(SegmentMergerTest, LargeDictionariesAndLongPostingsMerge) {
  // Unique ids (dictionaries of ~0.5 MB, streamed to the .tim in 64 KiB
  // pieces) and a few words in every document (postings of thousands of
  // 128-doc blocks), in three segments, one with deletions.
  Random rng(testing::TestSeed(5151));
  const FieldType id_type = FieldType::Keyword(/*stored=*/true);
  const FieldType text_type = FieldType::Text();
  std::vector<std::string> ids, texts;
  for (int d = 0; d < 60000; ++d) {
    ids.push_back("id" + std::to_string(rng.Next()));
    texts.push_back("w" + std::to_string(rng.Uniform(20)) + " x" + std::to_string(rng.Uniform(3)) +
                    " w" + std::to_string(rng.Uniform(20)));
  }
  auto doc_of = [&](int d) {
    Document doc;
    doc.Add(Field::Keyword("id", ids[d], id_type));
    doc.Add(Field::Text("text", texts[d], text_type));
    return doc;
  };
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  std::vector<std::unique_ptr<SegmentReader>> readers;
  std::vector<LiveDocs> live;
  IndexingChain reference(ChainOptions(TermBytesLayout::kSeparate));
  for (int s = 0; s < 3; ++s) {
    IndexingChain chain(ChainOptions(TermBytesLayout::kSeparate));
    live.emplace_back(20000);
    for (int d = s * 20000; d < (s + 1) * 20000; ++d) {
      ASSERT_TRUE(chain.AddDocument(doc_of(d)).ok());
      if (s == 1 && rng.Bernoulli(0.3)) {
        live.back().Delete(static_cast<uint32_t>(d - s * 20000));
      } else {
        ASSERT_TRUE(reference.AddDocument(doc_of(d)).ok());
      }
    }
    const std::string name = "_" + std::to_string(s);
    absl::StatusOr<SegmentInfo> info = FlushSegment(chain, dir.get(), name);
    ASSERT_TRUE(info.ok()) << info.status();
    auto reader = SegmentReader::Open(dir.get(), name, info->id);
    ASSERT_TRUE(reader.ok()) << reader.status();
    readers.push_back(std::move(*reader));
  }
  absl::StatusOr<SegmentInfo> ref_info = FlushSegment(reference, dir.get(), "_ref");
  ASSERT_TRUE(ref_info.ok()) << ref_info.status();
  auto ref = SegmentReader::Open(dir.get(), "_ref", ref_info->id);
  ASSERT_TRUE(ref.ok()) << ref.status();

  MergeOptions options;
  options.fields = (*ref)->fields();
  MergeStats stats;
  std::vector<MergeInput> inputs;
  for (size_t i = 0; i < readers.size(); ++i) inputs.push_back({readers[i].get(), &live[i]});
  absl::StatusOr<MergeResult> merged = MergeSegments(inputs, dir.get(), "_m", {}, options, &stats);
  ASSERT_TRUE(merged.ok()) << merged.status();
  auto seg = SegmentReader::Open(dir.get(), "_m", merged->info.id);
  ASSERT_TRUE(seg.ok()) << seg.status();
  ASSERT_TRUE((*seg)->CheckIntegrity().ok());
  absl::StatusOr<std::string> want = DumpSegment(**ref);
  absl::StatusOr<std::string> got = DumpSegment(**seg);
  ASSERT_TRUE(want.ok() && got.ok());
  ASSERT_TRUE(*got == *want) << "merged segment differs from the reference flush";
  ASSERT_EQ(NamedDump(**seg), NamedDump(**ref));
  EXPECT_GT(stats.terms_dropped, 1000u);
  EXPECT_EQ(stats.stored_blocks_copied,
            readers[0]->stored_fields().block_count() + readers[2]->stored_fields().block_count());
  // The dictionaries were streamed: far less than the ~0.5 MB id dictionary
  // (and the 240 KB doc maps) was held at once beyond the doc maps.
  EXPECT_LT(stats.peak_memory_bytes, 240000 + 900000);
  std::printf("[   INFO   ] %llu terms, peak ~%lld bytes\n",
              static_cast<unsigned long long>(stats.terms),
              static_cast<long long>(stats.peak_memory_bytes));
}

TEST(SegmentMergerTest, FieldsMustMatchTheSchemaByNameAndType) {
  Random rng(testing::TestSeed(7878));
  Fixture fx;
  fx.Build(rng, Same(TermBytesLayout::kSeparate, 3));
  std::unique_ptr<SegmentReader> ref =
      fx.Reference(fx.AllDocs(), "_ref", TermBytesLayout::kSeparate);
  ASSERT_NE(ref, nullptr);
  const std::set<std::string> before = Files(fx.dir.get());

  // A field left out.
  MergeOptions missing;
  missing.fields = ref->fields();
  const std::string dropped = missing.fields.back().name;
  missing.fields.pop_back();
  absl::StatusOr<MergeResult> r = MergeSegments(fx.Inputs(), fx.dir.get(), "_m", {}, missing);
  ASSERT_TRUE(absl::IsInvalidArgument(r.status())) << r.status();
  EXPECT_NE(r.status().message().find("\"" + dropped + "\""), std::string::npos) << r.status();
  EXPECT_EQ(Files(fx.dir.get()), before);

  // A field of another type.
  MergeOptions retyped;
  retyped.fields = ref->fields();
  FieldInfo& f = retyped.fields[0];
  f.type.stored = !f.type.stored;
  r = MergeSegments(fx.Inputs(), fx.dir.get(), "_m", {}, retyped);
  ASSERT_TRUE(absl::IsInvalidArgument(r.status())) << r.status();
  EXPECT_NE(r.status().message().find("\"" + f.name + "\""), std::string::npos) << r.status();
  EXPECT_NE(r.status().message().find("type"), std::string::npos) << r.status();
  EXPECT_EQ(Files(fx.dir.get()), before);

  // Numbers not 0..n-1.
  MergeOptions misnumbered;
  misnumbered.fields = ref->fields();
  misnumbered.fields[0].number = 7;
  r = MergeSegments(fx.Inputs(), fx.dir.get(), "_m", {}, misnumbered);
  EXPECT_TRUE(absl::IsInvalidArgument(r.status())) << r.status();

  // Extra fields in the schema are fine: the merged segment lists them.
  MergeOptions extra;
  extra.fields = ref->fields();
  extra.fields.push_back(
      {"zz_unused", static_cast<uint32_t>(extra.fields.size()), FieldType::Text()});
  r = MergeSegments(fx.Inputs(), fx.dir.get(), "_m", {}, extra);
  ASSERT_TRUE(r.ok()) << r.status();
  std::unique_ptr<SegmentReader> seg = fx.Open(*r);
  ASSERT_NE(seg, nullptr);
  EXPECT_NE(seg->FieldByName("zz_unused"), nullptr);
  EXPECT_EQ(NamedDump(*seg), NamedDump(*ref));
}

// Sets `flag` when a file with the given extension is created.
class TripwireDirectory final : public Directory {
 public:
  TripwireDirectory(Directory* base, std::string extension, std::atomic<bool>* flag)
      : base_(base), extension_(std::move(extension)), flag_(flag) {}
  absl::StatusOr<std::unique_ptr<WritableFile>> CreateFile(std::string_view name) override {
    if (name.ends_with(extension_)) flag_->store(true);
    return base_->CreateFile(name);
  }
  absl::StatusOr<std::shared_ptr<const MappedFile>> OpenFile(std::string_view name) override {
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
  std::string DebugString() const override { return base_->DebugString(); }

 private:
  Directory* base_;
  std::string extension_;
  std::atomic<bool>* flag_;
};

TEST(SegmentMergerTest, CancelStopsTheMergeAndDeletesItsFiles) {
  Random rng(testing::TestSeed(9898));
  Fixture fx;
  fx.Build(rng, Same(TermBytesLayout::kSeparate, 4));
  std::unique_ptr<SegmentReader> ref =
      fx.Reference(fx.AllDocs(), "_ref", TermBytesLayout::kSeparate);
  ASSERT_NE(ref, nullptr);
  const std::set<std::string> before = Files(fx.dir.get());
  // Cancelled before it starts, and as each file of the merge is created
  // (so while postings, norms, stored fields, vectors, the .si are written).
  for (std::string trip : {"", ".fnm", ".doc", ".nvd", ".fdt", ".tvd", ".si"}) {
    SCOPED_TRACE("cancel at " + trip);
    std::atomic<bool> cancel{trip.empty()};
    TripwireDirectory dir(fx.dir.get(), trip.empty() ? "never" : trip, &cancel);
    MergeOptions options;
    options.fields = ref->fields();
    options.cancel = &cancel;
    absl::StatusOr<MergeResult> r = MergeSegments(fx.Inputs(), &dir, "_m", {}, options);
    ASSERT_TRUE(absl::IsCancelled(r.status())) << r.status();
    EXPECT_EQ(Files(fx.dir.get()), before);
  }
  // Not cancelled: succeeds.
  std::atomic<bool> cancel{false};
  MergeOptions options;
  options.fields = ref->fields();
  options.cancel = &cancel;
  absl::StatusOr<MergeResult> r = MergeSegments(fx.Inputs(), fx.dir.get(), "_m", {}, options);
  ASSERT_TRUE(r.ok()) << r.status();
}

TEST(SegmentMergerTest, EveryFailedWriteOrSyncLeavesNothingBehind) {
  Random rng(testing::TestSeed(4545));
  Fixture fx;
  fx.Build(rng, Same(TermBytesLayout::kSeparate, 4));
  std::unique_ptr<SegmentReader> ref =
      fx.Reference(fx.AllDocs(), "_ref", TermBytesLayout::kSeparate);
  ASSERT_NE(ref, nullptr);
  std::vector<LiveDocs> live;
  for (const auto& r : fx.readers) {
    live.emplace_back(r->doc_count());
    if (live.size() % 2 == 0) live.back().Delete(0);  // both copy paths
  }
  const std::set<std::string> before = Files(fx.dir.get());
  MergeOptions options;
  options.fields = ref->fields();
  FaultInjectingDirectory faulty(fx.dir.get());
  faulty.set_max_write_size(2048);  // several numbered writes per file
  faulty.set_skip_syncs(true);
  uint64_t n = 1;
  for (;; ++n) {
    faulty.ResetCounters();
    faulty.FailAt(n);
    absl::StatusOr<MergeResult> r = MergeSegments(fx.Inputs(&live), &faulty, "_m", {}, options);
    if (r.ok()) {
      EXPECT_EQ(faulty.faults_injected(), 0u);
      break;
    }
    ASSERT_EQ(faulty.faults_injected(), 1u) << r.status();
    ASSERT_NE(r.status().message().find("injected fault"), std::string::npos) << r.status();
    ASSERT_EQ(Files(fx.dir.get()), before) << "after failing op " << n << ": " << r.status();
  }
  std::printf("[   INFO   ] failed each of %llu ops in turn; nothing was left behind\n",
              static_cast<unsigned long long>(n - 1));
  EXPECT_GT(n, 20u);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST(SegmentMergerTest, DamagedInputFailsNamingItsSegment) {
  Random rng(testing::TestSeed(6767));
  Fixture fx;
  fx.Build(rng, Same(TermBytesLayout::kSeparate, 3));
  std::unique_ptr<SegmentReader> ref =
      fx.Reference(fx.AllDocs(), "_ref", TermBytesLayout::kSeparate);
  ASSERT_NE(ref, nullptr);
  MergeOptions options;
  options.fields = ref->fields();
  const std::set<std::string> before = Files(fx.dir.get());

  // Damage segment _1's files one byte at a time (after the header, before
  // the footer), reopen it, merge. With checksums verified every damaged
  // copy fails with kDataLoss naming _1; without, the decoders' own checks
  // must never crash (ASan) and any error still names the segment.
  size_t cases = 0, failed_unverified = 0;
  const int flips = testing::Scaled(40, 12);
  for (const char* ext : {"doc", "pos", "tim", "nvd", "fdt", "tvd"}) {
    const std::string name = std::string("_1.") + ext;
    const std::string path = fx.scratch.path() + "/" + name;
    const std::string original = ReadFile(path);
    ASSERT_GT(original.size(), 60u) << name;
    for (int k = 0; k < flips; ++k) {
      std::string damaged = original;
      const size_t at = rng.Range(48, original.size() - 17);
      damaged[at] = static_cast<char>(damaged[at] ^ (1 + rng.Uniform(255)));
      WriteFile(path, damaged);
      absl::StatusOr<std::unique_ptr<SegmentReader>> reader =
          SegmentReader::Open(fx.dir.get(), "_1", fx.infos[1].id);
      if (!reader.ok()) continue;  // the open caught it
      std::vector<MergeInput> inputs = fx.Inputs();
      inputs[1].segment = reader->get();
      for (bool verify : {true, false}) {
        MergeOptions o = options;
        o.verify_checksums = verify;
        absl::StatusOr<MergeResult> r = MergeSegments(inputs, fx.dir.get(), "_m", {}, o);
        if (verify) {
          ASSERT_TRUE(absl::IsDataLoss(r.status())) << name << " byte " << at << ": " << r.status();
        }
        if (!r.ok()) {
          EXPECT_NE(r.status().message().find("_1"), std::string::npos) << r.status();
          EXPECT_EQ(Files(fx.dir.get()), before) << r.status();
          if (!verify) ++failed_unverified;
        } else {
          for (const SegmentFile& f : r->info.files) ASSERT_TRUE(fx.dir->DeleteFile(f.name).ok());
          ASSERT_TRUE(fx.dir->DeleteFile("_m.si").ok());
        }
      }
      ++cases;
    }
    WriteFile(path, original);
  }
  std::printf(
      "[   INFO   ] %zu damaged inputs merged; without checksums %zu failed in the "
      "decoders, the rest copied garbage as data\n",
      cases, failed_unverified);
  EXPECT_GT(cases, static_cast<size_t>(flips) * 6 * 5 / 12);  // 100 at full size
}

TEST(SegmentMergerTest, ThrottleSleepsToTheRate) {
  Random rng(testing::TestSeed(2323));
  Fixture fx;
  fx.Build(rng, Same(TermBytesLayout::kSeparate, 4));
  std::unique_ptr<SegmentReader> ref =
      fx.Reference(fx.AllDocs(), "_ref", TermBytesLayout::kSeparate);
  ASSERT_NE(ref, nullptr);
  MergeOptions options;
  options.fields = ref->fields();
  MergeStats fast;
  absl::StatusOr<MergeResult> r =
      MergeSegments(fx.Inputs(), fx.dir.get(), "_fast", {}, options, &fast);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(fast.throttled_seconds, 0);
  // Half a second's worth of writes at the limit.
  options.max_write_bytes_per_second = static_cast<double>(fast.bytes_written) * 2;
  MergeStats slow;
  r = MergeSegments(fx.Inputs(), fx.dir.get(), "_slow", {}, options, &slow);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(slow.bytes_written, fast.bytes_written);
  EXPECT_GT(slow.throttled_seconds, 0.2);
  EXPECT_GE(slow.seconds, 0.45);
  EXPECT_GE(slow.seconds, slow.throttled_seconds);
}

}  // namespace
}  // namespace invert

// PostingsCursor::ReadPositions (a doc's positions in one call) against
// NextPosition (one at a time), differentially: random terms whose docs have
// freqs of 1, a few, around one position block (127-129) and several blocks,
// so docs start, end and span the blocks anywhere; in every field with
// positions (with and without offsets and payloads); docs reached by NextDoc
// and by Advance, some with their positions read one way, some the other,
// some not at all (their blocks skipped). On damaged files the two ways must
// agree too: where ReadPositions succeeds NextPosition gives the same
// positions, where it fails NextPosition fails within the doc.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "codec/postings_format.h"
#include "gtest/gtest.h"
#include "scratch_dir.h"
#include "test_scale.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

struct TermDocs {
  std::string term;
  std::vector<uint32_t> docs;
  std::vector<std::vector<uint32_t>> positions;  // per doc, increasing
};

// A freq from every regime: 1, a few, around a 128-position block, several.
uint32_t RandomFreq(Random& rng) {
  switch (rng.Uniform(6)) {
    case 0:
    case 1:
      return 1;
    case 2:
      return static_cast<uint32_t>(rng.Range(2, 9));
    case 3:
      return static_cast<uint32_t>(rng.Range(127, 129));
    case 4:
      return static_cast<uint32_t>(rng.Range(10, 126));
    default:
      return static_cast<uint32_t>(rng.Range(130, 700));
  }
}

std::vector<TermDocs> RandomTerms(Random& rng) {
  std::vector<TermDocs> terms;
  const size_t n = rng.Range(8, 20);
  for (size_t t = 0; t < n; ++t) {
    TermDocs td;
    td.term = "t" + std::to_string(1000 + t);  // increasing byte order
    // Doc counts around the doc blocks too (a singleton, a tail, full blocks).
    const uint64_t kind = rng.Uniform(4);
    const size_t docs = kind == 0 ? 1 : kind == 1 ? rng.Range(2, 127) : rng.Range(128, 400);
    uint32_t doc = static_cast<uint32_t>(rng.Uniform(4));
    for (size_t d = 0; d < docs; ++d) {
      const uint32_t freq = RandomFreq(rng);
      std::vector<uint32_t> positions;
      uint32_t position = static_cast<uint32_t>(rng.Uniform(3));
      for (uint32_t f = 0; f < freq; ++f) {
        positions.push_back(position);
        position +=
            static_cast<uint32_t>(rng.Bernoulli(0.1) ? rng.Range(1000, 100000) : rng.Range(1, 12));
      }
      td.docs.push_back(doc);
      td.positions.push_back(std::move(positions));
      doc += static_cast<uint32_t>(rng.Range(1, 30));
    }
    terms.push_back(std::move(td));
  }
  return terms;
}

std::span<const uint8_t> Body(const IndexInput& in) {
  return in.bytes().first(in.length() - kFooterLength);
}

struct Field {
  FieldInfo info;
  std::vector<TermDocs> terms;
};

// One segment's postings with one field per (offsets, payloads) pair.
std::vector<Field> WriteFields(Random& rng, Directory* dir, const SegmentId& id) {
  std::vector<Field> fields;
  uint32_t number = 0;
  for (IndexOptions o : {IndexOptions::kDocsAndFreqsAndPositions,
                         IndexOptions::kDocsAndFreqsAndPositionsAndOffsets}) {
    for (bool payloads : {false, true}) {
      FieldType type = FieldType::Text();
      type.index_options = o;
      type.payloads = payloads;
      fields.push_back({FieldInfo{"f" + std::to_string(number), number, type}, RandomTerms(rng)});
      ++number;
    }
  }
  auto writer = PostingsWriter::Create(dir, "_0", id);
  EXPECT_TRUE(writer.ok()) << writer.status();
  for (const Field& f : fields) {
    (*writer)->StartField(f.info);
    for (const TermDocs& td : f.terms) {
      (*writer)->StartTerm();
      for (size_t d = 0; d < td.docs.size(); ++d) {
        (*writer)->AddDoc(td.docs[d], static_cast<uint32_t>(td.positions[d].size()));
        uint32_t start = 0;
        for (uint32_t p : td.positions[d]) {
          std::string payload(rng.Bernoulli(0.3) ? rng.Range(1, 4) : 0, 'p');
          (*writer)->AddPosition(p, start, start + 3, payload);
          start += 5;
        }
      }
      EXPECT_TRUE((*writer)->FinishTerm(td.term).ok());
    }
    EXPECT_TRUE((*writer)->FinishField(1000).ok());
  }
  EXPECT_TRUE((*writer)->Finish().ok());
  return fields;
}

TEST(PostingsReadPositionsTest, SameAsNextPositionAcrossBlocks) {
  Random rng(testing::TestSeed(1313));
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  SegmentId id{};
  id[0] = 13;
  const std::vector<Field> fields = WriteFields(rng, dir.get(), id);
  auto terms = TermsReader::Open(dir.get(), "_0", id);
  ASSERT_TRUE(terms.ok()) << terms.status();
  auto doc_in = OpenInput(dir.get(), "_0.doc");
  auto pos_in = OpenInput(dir.get(), "_0.pos");
  ASSERT_TRUE(doc_in.ok() && pos_in.ok());
  std::vector<uint32_t> bulk = {7, 7, 7};  // stale values are overwritten
  uint64_t bulk_docs = 0;
  uint64_t spanning = 0;  // docs read in bulk whose positions span two or more blocks
  for (const Field& f : fields) {
    TermDictCursor cursor = (*terms)->Field(f.info.number)->NewCursor();
    for (const TermDocs& td : f.terms) {
      auto found = cursor.SeekExact(td.term);
      ASSERT_TRUE(found.ok() && *found) << td.term;
      PostingsCursor a(Body(*doc_in), Body(*pos_in), cursor.stats(), f.info.type);
      PostingsCursor b(Body(*doc_in), Body(*pos_in), cursor.stats(), f.info.type);
      uint64_t pos_index = 0;  // the term's positions before doc d
      size_t d = 0;
      while (d < td.docs.size()) {
        // Now and then jump ahead: Advance past whole doc and position blocks.
        size_t next = d;
        if (rng.Bernoulli(0.03)) next = std::min(td.docs.size() - 1, d + rng.Range(1, 200));
        const bool moved = next == d ? (a.NextDoc() && b.NextDoc())
                                     : (a.Advance(td.docs[next]) && b.Advance(td.docs[next]));
        ASSERT_TRUE(moved) << a.status() << b.status();
        for (; d < next; ++d) pos_index += td.positions[d].size();
        ASSERT_EQ(a.doc(), td.docs[d]);
        const std::vector<uint32_t>& want = td.positions[d];
        ASSERT_EQ(a.freq(), want.size());
        const uint64_t r = rng.Uniform(4);
        if (r == 0) {
          // Neither reads: both skip these positions later.
        } else if (r == 1) {
          // a one at a time too: their position state stays in step.
          for (uint32_t p : want) {
            ASSERT_TRUE(a.NextPosition() && b.NextPosition());
            ASSERT_EQ(a.position(), p);
            ASSERT_EQ(b.position(), p);
          }
        } else {
          ASSERT_TRUE(a.ReadPositions(&bulk)) << a.status();
          ASSERT_GE(bulk.size(), want.size());
          for (size_t k = 0; k < want.size(); ++k) {
            ASSERT_TRUE(b.NextPosition()) << b.status();
            ASSERT_EQ(b.position(), want[k]);
            ASSERT_EQ(bulk[k], want[k]) << td.term << " doc " << td.docs[d] << " position " << k;
          }
          ASSERT_EQ(a.position(), want.back());
          ASSERT_FALSE(a.NextPosition()) << "ReadPositions read the whole doc";
          ASSERT_FALSE(a.ReadPositions(&bulk)) << "a second ReadPositions of one doc";
          ++bulk_docs;
          if (pos_index / kForBlockSize != (pos_index + want.size() - 1) / kForBlockSize) {
            ++spanning;
          }
        }
        pos_index += want.size();
        ++d;
      }
      ASSERT_FALSE(a.NextDoc());
      ASSERT_TRUE(a.status().ok()) << a.status();
    }
  }
  std::printf("%llu docs read in one call, %llu of them spanning position blocks\n",
              static_cast<unsigned long long>(bulk_docs),
              static_cast<unsigned long long>(spanning));
  EXPECT_GT(bulk_docs, 500u);
  EXPECT_GT(spanning, 100u) << "too few docs spanning position blocks";
}

TEST(PostingsReadPositionsTest, AfterNextPositionRefusesAndKeepsStatus) {
  Random rng(testing::TestSeed(1314));
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  SegmentId id{};
  const std::vector<Field> fields = WriteFields(rng, dir.get(), id);
  auto terms = TermsReader::Open(dir.get(), "_0", id);
  ASSERT_TRUE(terms.ok());
  auto doc_in = OpenInput(dir.get(), "_0.doc");
  auto pos_in = OpenInput(dir.get(), "_0.pos");
  TermDictCursor cursor = (*terms)->Field(0)->NewCursor();
  ASSERT_TRUE(*cursor.Next());
  PostingsCursor a(Body(*doc_in), Body(*pos_in), cursor.stats(), fields[0].info.type);
  std::vector<uint32_t> bulk;
  ASSERT_TRUE(a.NextDoc());
  ASSERT_TRUE(a.NextPosition());
  EXPECT_FALSE(a.ReadPositions(&bulk));
  EXPECT_TRUE(a.status().ok());
}

TEST(PostingsReadPositionsTest, DamagedFilesAgreeWithNextPosition) {
  Random rng(testing::TestSeed(1315));
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  SegmentId id{};
  const std::vector<Field> fields = WriteFields(rng, dir.get(), id);
  auto terms = TermsReader::Open(dir.get(), "_0", id);
  ASSERT_TRUE(terms.ok());
  auto doc_in = OpenInput(dir.get(), "_0.doc");
  auto pos_in = OpenInput(dir.get(), "_0.pos");
  const std::vector<uint8_t> doc(Body(*doc_in).begin(), Body(*doc_in).end());
  const std::vector<uint8_t> pos(Body(*pos_in).begin(), Body(*pos_in).end());
  std::vector<std::pair<const FieldType*, TermStats>> all;
  for (const Field& f : fields) {
    TermDictCursor cursor = (*terms)->Field(f.info.number)->NewCursor();
    while (*cursor.Next()) all.push_back({&f.info.type, cursor.stats()});
  }
  std::vector<uint32_t> bulk;
  uint64_t failed = 0;
  uint64_t read = 0;
  const int trials = testing::Scaled(300, 60);
  for (int trial = 0; trial < trials; ++trial) {
    std::vector<uint8_t> d = doc;
    std::vector<uint8_t> p = pos;
    std::vector<uint8_t>& target = rng.Bernoulli(0.3) ? d : p;
    if (rng.Bernoulli(0.7)) {
      for (int k = 0; k < 3; ++k) {
        target[rng.Uniform(target.size())] ^= static_cast<uint8_t>(1 + rng.Uniform(255));
      }
    } else {
      target.resize(rng.Uniform(target.size()));
    }
    for (const auto& [type, stats] : all) {
      PostingsCursor a(d, p, stats, *type);
      PostingsCursor b(d, p, stats, *type);
      for (int steps = 0; steps < 5000 && a.NextDoc(); ++steps) {
        ASSERT_TRUE(b.NextDoc());
        ASSERT_EQ(a.doc(), b.doc());
        ASSERT_EQ(a.freq(), b.freq());
        if (a.freq() > 100000) break;  // a damaged freq: not walked one by one
        const bool ok = a.ReadPositions(&bulk);
        uint32_t k = 0;
        for (; k < b.freq() && b.NextPosition(); ++k) {
          if (ok) {
            ASSERT_EQ(bulk[k], b.position()) << "position " << k;
          }
        }
        ASSERT_EQ(ok, k == b.freq()) << a.status() << " / " << b.status();
        if (!ok) {
          EXPECT_FALSE(a.status().ok());
          ++failed;
          break;
        }
        ++read;
      }
    }
  }
  EXPECT_GT(failed, 0u);
  EXPECT_GT(read, 0u);
}

}  // namespace
}  // namespace invert

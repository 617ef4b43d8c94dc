// Tests of the postings files (PostingsWriter, PostingsCursor, TermsReader)
// against a std::map model: random terms with random postings for every
// index option, read back by NextDoc and by Advance (which must skip blocks
// by their headers), positions read for some docs and not others; and
// damaged files give errors, never crashes.
#include "codec/postings_format.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/byte_io.h"
#include "gtest/gtest.h"
#include "scratch_dir.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

struct Pos {
  uint32_t position, start, end;
  std::string payload;
  bool operator==(const Pos&) const = default;
};
struct Doc {
  uint32_t doc, freq;
  std::vector<Pos> positions;
};
using Model = std::map<std::string, std::vector<Doc>>;

Model RandomModel(Random& rng, const FieldType& type, uint32_t max_doc) {
  Model model;
  const size_t terms = rng.Range(1, 60);
  for (size_t t = 0; t < terms; ++t) {
    std::string term(rng.Range(0, 8), 'a');
    for (char& c : term) c = static_cast<char>(rng.Uniform(256));
    // Posting list sizes around every block boundary.
    const uint64_t kind = rng.Uniform(6);
    size_t n = kind == 0   ? 1
               : kind == 1 ? rng.Range(2, 127)
               : kind == 2 ? 128
               : kind == 3 ? 129
               : kind == 4 ? 256
                           : rng.Range(300, 3000);  // up to 2 level-1 groups
    n = std::min<size_t>(n, max_doc);
    std::vector<Doc> docs;
    uint32_t doc = static_cast<uint32_t>(rng.Uniform(3));
    for (size_t i = 0; i < n && doc < max_doc; ++i) {
      Doc d{doc,
            HasFreqs(type.index_options)
                ? static_cast<uint32_t>(rng.Bernoulli(0.7) ? 1 : rng.Range(2, 6))
                : 1,
            {}};
      if (HasPositions(type.index_options)) {
        uint32_t position = static_cast<uint32_t>(rng.Uniform(5));
        uint32_t start = static_cast<uint32_t>(rng.Uniform(5));
        for (uint32_t f = 0; f < d.freq; ++f) {
          Pos p{position, 0, 0, ""};
          if (HasOffsets(type.index_options)) {
            p.start = start;
            p.end = start + static_cast<uint32_t>(rng.Uniform(9));
            start += static_cast<uint32_t>(rng.Uniform(20));
          }
          if (type.payloads && rng.Bernoulli(0.4)) {
            p.payload.resize(rng.Range(1, 5));
            for (char& c : p.payload) c = static_cast<char>(rng.Uniform(256));
          }
          d.positions.push_back(p);
          position += static_cast<uint32_t>(rng.Uniform(1000));
        }
      }
      docs.push_back(d);
      doc += static_cast<uint32_t>(rng.Bernoulli(0.5) ? 1 : rng.Range(2, 40));
    }
    if (!docs.empty()) model[term] = docs;
  }
  return model;
}

FieldType TypeFor(IndexOptions options, bool payloads) {
  FieldType t = FieldType::Text();
  t.index_options = options;
  t.payloads = payloads;
  return t;
}

// All of a term's docs as one .doc VInt tail (docs/format.md): what the
// flush hands FinishTerm from its in-memory doc stream.
std::vector<uint8_t> PlainDocTail(const std::vector<Doc>& docs, bool freqs) {
  std::vector<uint8_t> out;
  auto put = [&out](uint32_t v) {
    for (; v >= 0x80; v >>= 7) out.push_back(static_cast<uint8_t>(v | 0x80));
    out.push_back(static_cast<uint8_t>(v));
  };
  uint32_t previous = 0;
  for (const Doc& d : docs) {
    const uint32_t delta = d.doc - previous;
    previous = d.doc;
    if (!freqs) {
      put(delta);
    } else if (d.freq == 1) {
      put(delta << 1 | 1);
    } else {
      put(delta << 1);
      put(d.freq);
    }
  }
  return out;
}

// Adds a term's positions from the `skip`-th on (counted over all its docs)
// as the .pos tail encodes them, to *tail, and the first `skip` to `writer`
// with AddPositionDeltas: the flush's way for a term of under 127 docs in a
// field without payloads.
void SplitPositions(const std::vector<Doc>& docs, bool offsets, size_t skip, PostingsWriter* writer,
                    std::vector<uint8_t>* tail) {
  size_t n = 0;
  for (const Doc& d : docs) {
    uint32_t last_position = 0;
    uint32_t last_start = 0;
    for (const Pos& p : d.positions) {
      const uint32_t delta = p.position - last_position;
      const uint32_t start_delta = offsets ? p.start - last_start : 0;
      const uint32_t length = offsets ? p.end - p.start : 0;
      last_position = p.position;
      last_start = p.start;
      if (n++ < skip) {
        writer->AddPositionDeltas(delta, {}, start_delta, length);
        continue;
      }
      uint8_t buf[3 * kMaxVInt32Bytes];
      size_t k = EncodeVInt(delta, buf);
      if (offsets) {
        k += EncodeVInt(start_delta, buf + k);
        k += EncodeVInt(length, buf + k);
      }
      tail->insert(tail->end(), buf, buf + k);
    }
  }
}

// `hand_doc_tails`: every term finishes with FinishTerm(term, its
// PlainDocTail) instead of FinishTerm(term). `hand_pos_tails`: in fields
// with positions and no payloads, a term of under 127 docs adds all its
// docs first, then the positions that fill whole blocks, and hands the rest
// to FinishTerm as its .pos tail.
void Write(Directory* dir, const SegmentId& id,
           const std::vector<std::pair<FieldInfo, Model>>& fields, bool hand_doc_tails = false,
           bool hand_pos_tails = false) {
  auto writer = PostingsWriter::Create(dir, "_0", id);
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (const auto& [info, model] : fields) {
    (*writer)->StartField(info);
    const IndexOptions o = info.type.index_options;
    for (const auto& [term, docs] : model) {
      (*writer)->StartTerm();
      if (hand_pos_tails && HasPositions(o) && !info.type.payloads && docs.size() < 127) {
        size_t positions = 0;
        for (const Doc& d : docs) {
          (*writer)->AddDoc(d.doc, d.freq);
          positions += d.positions.size();
        }
        std::vector<uint8_t> pos_tail;
        SplitPositions(docs, HasOffsets(o), positions - positions % kForBlockSize, writer->get(),
                       &pos_tail);
        const std::vector<uint8_t> doc_tail =
            hand_doc_tails ? PlainDocTail(docs, HasFreqs(o)) : std::vector<uint8_t>();
        ASSERT_TRUE((*writer)->FinishTerm(term, doc_tail, pos_tail).ok());
        continue;
      }
      for (const Doc& d : docs) {
        (*writer)->AddDoc(d.doc, d.freq);
        for (const Pos& p : d.positions)
          (*writer)->AddPosition(p.position, p.start, p.end, p.payload);
      }
      if (hand_doc_tails) {
        const std::vector<uint8_t> tail = PlainDocTail(docs, HasFreqs(info.type.index_options));
        ASSERT_TRUE((*writer)->FinishTerm(term, tail).ok());
      } else {
        ASSERT_TRUE((*writer)->FinishTerm(term).ok());
      }
    }
    ASSERT_TRUE((*writer)->FinishField(7).ok());
  }
  ASSERT_TRUE((*writer)->Finish().ok());
}

std::span<const uint8_t> Body(const IndexInput& in) {
  return in.bytes().first(in.length() - kFooterLength);
}

// One random field (up to 60,000 postings) per index option, with and
// without payloads where there are positions: f0, f1, ...
std::vector<std::pair<FieldInfo, Model>> FieldPerOption(Random& rng) {
  std::vector<std::pair<FieldInfo, Model>> fields;
  uint32_t number = 0;
  for (IndexOptions o :
       {IndexOptions::kDocs, IndexOptions::kDocsAndFreqs, IndexOptions::kDocsAndFreqsAndPositions,
        IndexOptions::kDocsAndFreqsAndPositionsAndOffsets}) {
    for (bool payloads : {false, true}) {
      if (payloads && !HasPositions(o)) continue;
      const FieldType type = TypeFor(o, payloads);
      fields.push_back(
          {FieldInfo{absl::StrCat("f", number), number, type}, RandomModel(rng, type, 60000)});
      ++number;
    }
  }
  return fields;
}

TEST(PostingsFormatTest, RoundTripsEveryOptionAndSkipsBlocks) {
  Random rng(testing::TestSeed(4242));
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  SegmentId id{};
  id[0] = 7;
  const std::vector<std::pair<FieldInfo, Model>> fields = FieldPerOption(rng);
  Write(dir.get(), id, fields);
  auto terms = TermsReader::Open(dir.get(), "_0", id);
  ASSERT_TRUE(terms.ok()) << terms.status();
  ASSERT_TRUE((*terms)->CheckIntegrity().ok());
  auto doc_in = OpenInput(dir.get(), "_0.doc");
  auto pos_in = OpenInput(dir.get(), "_0.pos");
  ASSERT_TRUE(doc_in.ok() && pos_in.ok());
  uint64_t skipped = 0;
  for (const auto& [info, model] : fields) {
    const TermDictReader* dict = (*terms)->Field(info.number);
    ASSERT_NE(dict, nullptr);
    EXPECT_EQ(dict->term_count(), model.size());
    TermDictCursor cursor = dict->NewCursor();
    for (const auto& [term, docs] : model) {
      auto found = cursor.SeekExact(term);
      ASSERT_TRUE(found.ok() && *found) << term;
      EXPECT_EQ(cursor.stats().doc_freq, docs.size());
      // Full iteration, reading positions of every other doc.
      PostingsCursor e(Body(*doc_in), Body(*pos_in), cursor.stats(), info.type);
      for (size_t i = 0; i < docs.size(); ++i) {
        ASSERT_TRUE(e.NextDoc()) << e.status();
        ASSERT_EQ(e.doc(), docs[i].doc);
        ASSERT_EQ(e.freq(), docs[i].freq);
        if (HasPositions(info.type.index_options) && i % 2 == 0) {
          for (const Pos& p : docs[i].positions) {
            ASSERT_TRUE(e.NextPosition()) << e.status();
            ASSERT_EQ(e.position(), p.position);
            if (HasOffsets(info.type.index_options)) {
              ASSERT_EQ(e.start_offset(), p.start);
              ASSERT_EQ(e.end_offset(), p.end);
            }
            if (info.type.payloads) {
              ASSERT_EQ(e.payload(), p.payload);
            }
          }
        }
      }
      ASSERT_FALSE(e.NextDoc());
      ASSERT_TRUE(e.status().ok()) << e.status();
      // Advance to random targets, then check the positions there.
      PostingsCursor a(Body(*doc_in), Body(*pos_in), cursor.stats(), info.type);
      size_t at = 0;
      while (at < docs.size()) {
        const uint32_t target =
            docs[at].doc + static_cast<uint32_t>(rng.Uniform(rng.Bernoulli(0.2) ? 20000 : 400));
        while (at < docs.size() && docs[at].doc < target) ++at;
        const bool ok = a.Advance(target);
        ASSERT_EQ(ok, at < docs.size()) << a.status();
        if (!ok) break;
        ASSERT_EQ(a.doc(), docs[at].doc);
        ASSERT_EQ(a.freq(), docs[at].freq);
        for (const Pos& p : docs[at].positions) {
          ASSERT_TRUE(a.NextPosition()) << a.status();
          ASSERT_EQ(a.position(), p.position);
          if (info.type.payloads) {
            ASSERT_EQ(a.payload(), p.payload);
          }
        }
        ++at;
      }
      ASSERT_TRUE(a.status().ok()) << a.status();
      skipped += a.blocks_skipped();
    }
  }
  EXPECT_GT(skipped, 0u) << "Advance never used the skip headers";
}

// Terms of fewer than 128 docs and positions are written whole as VInt
// tails: their bytes must be exactly what a plain encoder writes
// (docs/format.md), term after term, for every option.
TEST(PostingsFormatTest, TailsAreThePlainVInts) {
  Random rng(testing::TestSeed(4444));
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  SegmentId id{};
  id[0] = 9;
  auto put = [](std::string* out, uint32_t v) {
    while (v >= 0x80) {
      out->push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    out->push_back(static_cast<char>(v));
  };
  std::vector<std::pair<FieldInfo, Model>> fields;
  uint32_t number = 0;
  for (IndexOptions o :
       {IndexOptions::kDocs, IndexOptions::kDocsAndFreqs, IndexOptions::kDocsAndFreqsAndPositions,
        IndexOptions::kDocsAndFreqsAndPositionsAndOffsets}) {
    for (bool payloads : {false, true}) {
      if (payloads && !HasPositions(o)) continue;
      const FieldType type = TypeFor(o, payloads);
      Model model;
      for (int t = 0; t < 200; ++t) {
        std::string term(rng.Range(1, 6), 'a');
        for (char& c : term) c = static_cast<char>(rng.Uniform(256));
        std::vector<Doc> docs;
        uint32_t doc = static_cast<uint32_t>(rng.Uniform(100000));
        size_t positions = 0;
        const size_t n = rng.Range(1, 40);
        for (size_t i = 0; i < n && positions < 100; ++i) {
          Doc d{doc, HasFreqs(o) ? static_cast<uint32_t>(rng.Range(1, 3)) : 1, {}};
          uint32_t position = static_cast<uint32_t>(rng.Uniform(300));
          uint32_t start = static_cast<uint32_t>(rng.Uniform(300));
          for (uint32_t f = 0; HasPositions(o) && f < d.freq; ++f, ++positions) {
            Pos p{position, HasOffsets(o) ? start : 0, 0, ""};
            if (HasOffsets(o)) p.end = start + static_cast<uint32_t>(rng.Uniform(300));
            if (payloads && rng.Bernoulli(0.4)) p.payload.assign(rng.Range(1, 4), 'p');
            d.positions.push_back(p);
            position += static_cast<uint32_t>(rng.Uniform(200000));
            start += static_cast<uint32_t>(rng.Uniform(200000));
          }
          docs.push_back(d);
          doc += static_cast<uint32_t>(rng.Range(1, 300000));
        }
        model[term] = docs;
      }
      fields.push_back({FieldInfo{"f" + std::to_string(number), number, type}, model});
      ++number;
    }
  }
  Write(dir.get(), id, fields);
  auto terms = TermsReader::Open(dir.get(), "_0", id);
  ASSERT_TRUE(terms.ok()) << terms.status();
  auto doc_in = OpenInput(dir.get(), "_0.doc");
  auto pos_in = OpenInput(dir.get(), "_0.pos");
  ASSERT_TRUE(doc_in.ok() && pos_in.ok());
  const std::span<const uint8_t> doc_file = Body(*doc_in);
  const std::span<const uint8_t> pos_file = Body(*pos_in);
  for (const auto& [info, model] : fields) {
    const IndexOptions o = info.type.index_options;
    TermDictCursor cursor = (*terms)->Field(info.number)->NewCursor();
    uint64_t doc_end = 0;  // where the previous term's bytes ended
    uint64_t pos_end = 0;
    bool first = true;
    for (const auto& [term, docs] : model) {
      auto found = cursor.SeekExact(term);
      ASSERT_TRUE(found.ok() && *found);
      const TermStats& stats = cursor.stats();
      std::string doc_bytes;
      std::string pos_bytes;
      uint32_t previous = 0;
      for (const Doc& d : docs) {
        const uint32_t delta = d.doc - previous;
        previous = d.doc;
        if (!HasFreqs(o)) {
          put(&doc_bytes, delta);
        } else if (d.freq == 1) {
          put(&doc_bytes, delta << 1 | 1);
        } else {
          put(&doc_bytes, delta << 1);
          put(&doc_bytes, d.freq);
        }
        uint32_t last_position = 0;
        uint32_t last_start = 0;
        for (const Pos& p : d.positions) {
          put(&pos_bytes, p.position - last_position);
          last_position = p.position;
          if (info.type.payloads) {
            put(&pos_bytes, static_cast<uint32_t>(p.payload.size()));
            pos_bytes += p.payload;
          }
          if (HasOffsets(o)) {
            put(&pos_bytes, p.start - last_start);
            put(&pos_bytes, p.end - p.start);
            last_start = p.start;
          }
        }
      }
      if (docs.size() == 1) doc_bytes.clear();  // the dictionary keeps a singleton's doc
      if (!first) {
        ASSERT_EQ(stats.doc_offset, doc_end) << info.name;
        if (HasPositions(o)) {
          ASSERT_EQ(stats.pos_offset, pos_end) << info.name;
        }
      }
      first = false;
      ASSERT_LE(stats.doc_offset + doc_bytes.size(), doc_file.size());
      EXPECT_EQ(AsChars(doc_file.subspan(stats.doc_offset, doc_bytes.size())), doc_bytes)
          << info.name;
      doc_end = stats.doc_offset + doc_bytes.size();
      if (HasPositions(o)) {
        ASSERT_LE(stats.pos_offset + pos_bytes.size(), pos_file.size());
        EXPECT_EQ(AsChars(pos_file.subspan(stats.pos_offset, pos_bytes.size())), pos_bytes)
            << info.name;
        pos_end = stats.pos_offset + pos_bytes.size();
      }
    }
  }
}

// FinishTerm with the term's docs already encoded as one tail (the flush's
// path) writes exactly the files FinishTerm alone writes: the bytes are used
// for terms of 2..127 docs and ignored for a singleton and for terms with a
// full block (128, 129, 256 and more docs), for every option.
TEST(PostingsFormatTest, HandedDocTailsWriteTheSameFiles) {
  Random rng(testing::TestSeed(4545));
  const std::vector<std::pair<FieldInfo, Model>> fields = FieldPerOption(rng);
  SegmentId id{};
  id[0] = 5;
  testing::ScratchDir plain_scratch;
  testing::ScratchDir handed_scratch;
  auto plain = plain_scratch.Open();
  auto handed = handed_scratch.Open();
  Write(plain.get(), id, fields);
  Write(handed.get(), id, fields, /*hand_doc_tails=*/true);
  for (const char* name : {"_0.doc", "_0.pos", "_0.tim"}) {
    auto a = OpenInput(plain.get(), name);
    auto b = OpenInput(handed.get(), name);
    ASSERT_TRUE(a.ok() && b.ok()) << name;
    EXPECT_TRUE(std::ranges::equal(a->bytes(), b->bytes())) << name;
  }
}

// The same for positions: a term of under 127 docs that adds its docs first,
// then only the positions that fill whole blocks, and hands the rest to
// FinishTerm as its encoded .pos tail, writes exactly the files of the
// interleaved AddDoc/AddPosition calls, with and without offsets (and with
// handed doc tails or not); the random fields must hold terms of under 127
// docs with a full position block and a tail.
TEST(PostingsFormatTest, HandedPosTailsWriteTheSameFiles) {
  Random rng(testing::TestSeed(4646));
  const std::vector<std::pair<FieldInfo, Model>> fields = FieldPerOption(rng);
  size_t split = 0;  // terms that went the handed way with a full block and a tail
  for (const auto& [info, model] : fields) {
    if (!HasPositions(info.type.index_options) || info.type.payloads) continue;
    for (const auto& [term, docs] : model) {
      size_t n = 0;
      for (const Doc& d : docs) n += d.positions.size();
      split += docs.size() < 127 && n > kForBlockSize && n % kForBlockSize != 0;
    }
  }
  EXPECT_GT(split, 0u) << "no term has both a full position block and a tail";
  SegmentId id{};
  id[0] = 6;
  testing::ScratchDir plain_scratch;
  auto plain = plain_scratch.Open();
  Write(plain.get(), id, fields);
  for (bool hand_doc_tails : {false, true}) {
    testing::ScratchDir scratch;
    auto handed = scratch.Open();
    Write(handed.get(), id, fields, hand_doc_tails, /*hand_pos_tails=*/true);
    for (const char* name : {"_0.doc", "_0.pos", "_0.tim"}) {
      auto a = OpenInput(plain.get(), name);
      auto b = OpenInput(handed.get(), name);
      ASSERT_TRUE(a.ok() && b.ok()) << name;
      EXPECT_TRUE(std::ranges::equal(a->bytes(), b->bytes())) << name << " " << hand_doc_tails;
    }
  }
}

TEST(PostingsFormatTest, DamagedPostingsNeverCrash) {
  Random rng(testing::TestSeed(4343));
  testing::ScratchDir scratch;
  auto dir = scratch.Open();
  SegmentId id{};
  const FieldType type = TypeFor(IndexOptions::kDocsAndFreqsAndPositionsAndOffsets, true);
  std::vector<std::pair<FieldInfo, Model>> fields = {
      {FieldInfo{"f", 0, type}, RandomModel(rng, type, 3000)}};
  Write(dir.get(), id, fields);
  auto terms = TermsReader::Open(dir.get(), "_0", id);
  ASSERT_TRUE(terms.ok());
  auto doc_in = OpenInput(dir.get(), "_0.doc");
  auto pos_in = OpenInput(dir.get(), "_0.pos");
  std::vector<uint8_t> doc(Body(*doc_in).begin(), Body(*doc_in).end());
  std::vector<uint8_t> pos(Body(*pos_in).begin(), Body(*pos_in).end());
  const Model& model = fields[0].second;
  TermDictCursor cursor = (*terms)->Field(0)->NewCursor();
  std::vector<TermStats> all;
  while (*cursor.Next()) all.push_back(cursor.stats());
  size_t errors = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> d = doc, p = pos;
    std::vector<uint8_t>& target = rng.Bernoulli(0.5) ? d : p;
    if (target.empty()) continue;
    if (rng.Bernoulli(0.5)) {
      target[rng.Uniform(target.size())] ^= static_cast<uint8_t>(1 + rng.Uniform(255));
    } else {
      target.resize(rng.Uniform(target.size()));
    }
    for (const TermStats& stats : all) {
      PostingsCursor e(d, p, stats, type);
      uint64_t steps = 0;
      int64_t previous = -1;
      // Whatever the damage, the docs a cursor returns increase and their
      // freqs are >= 1 (the block checks' guarantee to every caller).
      while (steps++ < 100000 && (rng.Bernoulli(0.5) ? e.NextDoc() : e.Advance(e.doc() + 3))) {
        ASSERT_GT(int64_t{e.doc()}, previous) << "trial " << trial;
        ASSERT_GE(e.freq(), 1u) << "trial " << trial;
        previous = e.doc();
        while (e.NextPosition()) {
        }
      }
      if (!e.status().ok()) ++errors;
    }
  }
  EXPECT_GT(errors, 0u);
  (void)model;
}

}  // namespace
}  // namespace invert

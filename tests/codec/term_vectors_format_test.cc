// Tests of the term-vectors files (.tvd/.tvx): randomized round trips against
// a std::vector model with every flag combination (empty terms, 0x00/0xFF
// bytes, empty and non-empty payloads, documents without vectors, fields
// without terms, positions and offsets up to 2^32 - 1), every codec, batched
// reads and their prefetches, the exact bytes of the documented entry,
// rejected input, and corruption: every truncation and flipped byte of a small
// segment is caught, corrupt entries decode to kDataLoss, never a crash (the
// ASan build runs the same tests).
#include "codec/term_vectors_format.h"

#include <stdlib.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/byte_io.h"
#include "gtest/gtest.h"
#include "invert/directory.h"
#include "test_seed.h"
#include "util/random.h"

namespace invert {
namespace {

using Vectors = std::vector<TermVectorFieldData>;

SegmentId MakeId(uint8_t first) {
  SegmentId id;
  for (size_t i = 0; i < id.size(); ++i) id[i] = static_cast<uint8_t>(first + i);
  return id;
}

// The six valid flag combinations (payloads need positions).
constexpr uint8_t kValidFlags[] = {0, 1, 2, 3, 5, 7};

std::string RandomBytes(Random& rng, size_t max_length) {
  std::string s(rng.Range(0, max_length), '\0');
  for (char& c : s) {
    const uint64_t kind = rng.Uniform(8);
    c = static_cast<char>(kind == 0 ? 0x00 : kind == 1 ? 0xff : 'a' + rng.Uniform(4));
  }
  return s;
}

TermVectorFieldData RandomField(Random& rng, uint32_t number, uint8_t flags) {
  TermVectorFieldData field;
  field.field_number = number;
  field.has_positions = (flags & kTermVectorHasPositions) != 0;
  field.has_offsets = (flags & kTermVectorHasOffsets) != 0;
  field.has_payloads = (flags & kTermVectorHasPayloads) != 0;
  // std::string orders bytes as unsigned char, as the format does.
  std::set<std::string> terms;
  const size_t count = rng.Bernoulli(0.1)   ? 0
                       : rng.Bernoulli(0.1) ? rng.Range(50, 200)
                                            : rng.Range(1, 12);
  while (terms.size() < count) terms.insert(RandomBytes(rng, rng.Bernoulli(0.9) ? 6 : 40));
  const bool extreme = rng.Bernoulli(0.1);  // positions and offsets near 2^32
  for (const std::string& term : terms) {
    TermVectorTermData t;
    t.term = term;
    t.freq = static_cast<uint32_t>(rng.Bernoulli(0.05) ? rng.Range(20, 300) : rng.Range(1, 4));
    uint32_t position = extreme ? UINT32_MAX - 400 : static_cast<uint32_t>(rng.Uniform(100));
    uint32_t start = extreme ? UINT32_MAX - 3000 : static_cast<uint32_t>(rng.Uniform(100));
    for (uint32_t i = 0; i < t.freq; ++i) {
      if (field.has_positions) {
        t.positions.push_back(position);
        position += static_cast<uint32_t>(rng.Uniform(extreme ? 2 : 1000));  // 0: a repeat
      }
      if (field.has_offsets) {
        t.start_offsets.push_back(start);
        t.end_offsets.push_back(start + static_cast<uint32_t>(rng.Uniform(extreme ? 8 : 30)));
        start += static_cast<uint32_t>(rng.Uniform(extreme ? 2 : 5000));
      }
      if (field.has_payloads) t.payloads.push_back(rng.Bernoulli(0.4) ? "" : RandomBytes(rng, 9));
    }
    field.terms.push_back(std::move(t));
  }
  return field;
}

Vectors RandomVectors(Random& rng) {
  Vectors doc;
  if (rng.Bernoulli(0.2)) return doc;  // a document without vectors
  uint32_t number = static_cast<uint32_t>(rng.Uniform(4));
  for (uint64_t n = rng.Range(1, 4); n > 0; --n) {
    doc.push_back(RandomField(rng, number, kValidFlags[rng.Uniform(std::size(kValidFlags))]));
    number += static_cast<uint32_t>(rng.Range(1, rng.Bernoulli(0.1) ? 100000 : 3));
  }
  return doc;
}

class TermVectorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "invert_tv_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    path_ = pattern;
    auto dir = FSDirectory::Open(path_, false);
    ASSERT_TRUE(dir.ok()) << dir.status();
    dir_ = *std::move(dir);
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

  void Write(const std::string& segment, const std::vector<Vectors>& docs,
             const TermVectorsWriterOptions& options = {}) {
    auto writer = TermVectorsWriter::Create(dir_.get(), segment, MakeId(0x10), options);
    ASSERT_TRUE(writer.ok()) << writer.status();
    for (const Vectors& doc : docs) {
      const absl::Status s = (*writer)->AddDocument(doc);
      ASSERT_TRUE(s.ok()) << s;
    }
    ASSERT_TRUE((*writer)->Finish().ok());
    EXPECT_EQ((*writer)->file_names(),
              (std::vector<std::string>{segment + ".tvd", segment + ".tvx"}));
  }

  std::unique_ptr<TermVectorsReader> Open(const std::string& segment, uint32_t num_docs) {
    auto reader = TermVectorsReader::Open(dir_.get(), segment, MakeId(0x10), num_docs);
    EXPECT_TRUE(reader.ok()) << reader.status();
    return reader.ok() ? *std::move(reader) : nullptr;
  }

  std::vector<uint8_t> ReadFile(const std::string& name) {
    auto in = OpenInput(dir_.get(), name);
    EXPECT_TRUE(in.ok()) << in.status();
    if (!in.ok()) return {};
    return std::vector<uint8_t>(in->bytes().begin(), in->bytes().end());
  }

  void ReplaceFile(const std::string& name, std::span<const uint8_t> bytes) {
    (void)dir_->DeleteFile(name);
    auto file = dir_->CreateFile(name);
    ASSERT_TRUE(file.ok()) << file.status();
    ASSERT_TRUE((*file)->Append(bytes).ok());
    ASSERT_TRUE((*file)->Close().ok());
  }

  std::string path_;
  std::unique_ptr<FSDirectory> dir_;
};

void ExpectAllVectors(const TermVectorsReader& reader, const std::vector<Vectors>& model,
                      Random& rng) {
  ASSERT_EQ(reader.num_docs(), model.size());
  for (uint32_t doc = 0; doc < model.size(); ++doc) {
    auto got = reader.Get(doc);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(*got, model[doc]) << "doc " << doc;
  }
  for (size_t i = 0; i < model.size(); ++i) {
    const uint32_t doc = static_cast<uint32_t>(rng.Uniform(model.size()));
    auto got = reader.Get(doc);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(*got, model[doc]) << "doc " << doc;
  }
  for (int round = 0; round < 20; ++round) {
    std::vector<uint32_t> docs(rng.Range(0, 30));
    for (uint32_t& d : docs) d = static_cast<uint32_t>(rng.Uniform(model.size()));
    auto got = reader.Get(docs);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(got->size(), docs.size());
    for (size_t i = 0; i < docs.size(); ++i) ASSERT_EQ((*got)[i], model[docs[i]]);
  }
}

TEST_F(TermVectorsTest, RoundTripsRandomDocuments) {
  Random rng(testing::TestSeed(401));
  struct Config {
    CompressionCodec codec;
    size_t block_bytes;
    size_t docs;
  };
  const Config configs[] = {
      {CompressionCodec::kLz4, 60 * 1024, 400},  {CompressionCodec::kNone, 60 * 1024, 200},
      {CompressionCodec::kZstd, 60 * 1024, 200}, {CompressionCodec::kLz4, 1, 100},
      {CompressionCodec::kNone, 700, 150},       {CompressionCodec::kLz4, 60 * 1024, 1},
  };
  int segment = 0;
  for (const Config& c : configs) {
    SCOPED_TRACE(::testing::Message()
                 << "codec " << static_cast<int>(c.codec) << " block_bytes " << c.block_bytes);
    std::vector<Vectors> model;
    for (size_t i = 0; i < c.docs; ++i) model.push_back(RandomVectors(rng));
    const std::string name = absl::StrCat("_", segment++);
    TermVectorsWriterOptions options;
    options.codec = c.codec;
    options.block_bytes = c.block_bytes;
    Write(name, model, options);
    auto reader = Open(name, static_cast<uint32_t>(model.size()));
    ASSERT_NE(reader, nullptr);
    EXPECT_TRUE(reader->CheckIntegrity().ok());
    if (c.block_bytes == 1) {
      EXPECT_EQ(reader->block_count(), model.size());
    }
    ExpectAllVectors(*reader, model, rng);
  }
}

TEST_F(TermVectorsTest, EveryFlagCombinationAndEdgeCases) {
  Random rng(testing::TestSeed(402));
  std::vector<Vectors> model;
  for (uint8_t flags : kValidFlags) {
    Vectors doc;
    // Empty term, 0x00 and 0xFF bytes, a term that extends the previous one.
    TermVectorFieldData field = RandomField(rng, 5, flags);
    field.terms.clear();
    const std::string terms[] = {"",   std::string(1, '\0'),  std::string("\0\0", 2), "a",
                                 "ab", std::string(3, '\xff')};
    uint32_t position = 0;
    for (const std::string& term : terms) {
      TermVectorTermData t;
      t.term = term;
      t.freq = 2;
      if (field.has_positions) t.positions = {position, position + 1};
      if (field.has_offsets) {
        t.start_offsets = {position, position};  // equal starts are fine
        t.end_offsets = {position, position + 7};
      }
      if (field.has_payloads) t.payloads = {"", std::string("\0\xff", 2)};
      position += 3;
      field.terms.push_back(t);
    }
    doc.push_back(field);
    TermVectorFieldData empty_field;  // no terms at all
    empty_field.field_number = UINT32_MAX;
    empty_field.has_positions = true;
    doc.push_back(empty_field);
    model.push_back(doc);
    model.push_back({});  // a document without vectors
  }
  Write("_0", model);
  auto reader = Open("_0", static_cast<uint32_t>(model.size()));
  ASSERT_NE(reader, nullptr);
  ExpectAllVectors(*reader, model, rng);
}

TEST_F(TermVectorsTest, EncodeDecodeRoundTrips) {
  Random rng(testing::TestSeed(403));
  for (int i = 0; i < 300; ++i) {
    const Vectors doc = RandomVectors(rng);
    std::string bytes;
    ASSERT_TRUE(internal::EncodeTermVectors(doc, &bytes).ok());
    Vectors decoded = {TermVectorFieldData{}};  // overwritten
    ASSERT_TRUE(internal::DecodeTermVectors(AsBytes(bytes), &decoded).ok());
    ASSERT_EQ(decoded, doc);
  }
}

// The worked example of docs/format-docfiles.md.
TEST_F(TermVectorsTest, GoldenEntryBytes) {
  Vectors doc(2);
  doc[0].field_number = 3;
  doc[0].has_positions = doc[0].has_offsets = true;
  doc[0].terms = {{"apple", 2, {0, 5}, {0, 30}, {5, 35}, {}}, {"apply", 1, {7}, {42}, {47}, {}}};
  doc[1].field_number = 7;
  doc[1].has_positions = doc[1].has_payloads = true;
  doc[1].terms = {{"", 1, {2}, {}, {}, {"\xff"}}, {"z", 2, {0, 1}, {}, {}, {"", "p"}}};
  std::string bytes;
  ASSERT_TRUE(internal::EncodeTermVectors(doc, &bytes).ok());
  const std::vector<uint8_t> expected = {
      0x02,                                         // 2 fields
      0x03, 0x03, 0x02,                             // field 3, flags positions|offsets, 2 terms
      0x00, 0x05, 'a',  'p',  'p', 'l', 'e', 0x02,  // "apple", freq 2
      0x00, 0x05,                                   //   positions 0, 5
      0x00, 0x05, 0x1e, 0x05,                       //   offsets [0, 5), [30, 35)
      0x04, 0x01, 'y',  0x01,                       // "appl" + "y", freq 1
      0x07,                                         //   position 7
      0x2a, 0x05,                                   //   offsets [42, 47)
      0x07, 0x05, 0x02,                             // field 7, flags positions|payloads, 2 terms
      0x00, 0x00, 0x01,                             // "", freq 1
      0x02, 0x01, 0xff,                             //   position 2, payload "\xff"
      0x00, 0x01, 'z',  0x02,                       // "z", freq 2
      0x00, 0x00, 0x01, 0x01, 'p',  //   position 0 payload "", position 1 payload "p"
  };
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.end()), expected);
  Vectors decoded;
  ASSERT_TRUE(internal::DecodeTermVectors(AsBytes(bytes), &decoded).ok());
  EXPECT_EQ(decoded, doc);

  Write("_0", {doc});
  const std::vector<uint8_t> tvd = ReadFile("_0.tvd");
  ASSERT_GT(tvd.size(), 27u);
  EXPECT_EQ(std::string(tvd.begin() + 5, tvd.begin() + 26), "InvertTermVectorsData");
}

TEST_F(TermVectorsTest, RejectsInvalidInputWithoutWriting) {
  auto writer = TermVectorsWriter::Create(dir_.get(), "_0", MakeId(0x10));
  ASSERT_TRUE(writer.ok());
  Vectors good(1);
  good[0].field_number = 2;
  good[0].has_positions = good[0].has_offsets = good[0].has_payloads = true;
  good[0].terms = {{"a", 2, {1, 4}, {0, 9}, {3, 12}, {"x", ""}}, {"b", 1, {2}, {5}, {6}, {""}}};
  std::vector<Vectors> bad;
  auto mutate = [&](auto fn) {
    Vectors v = good;
    fn(v);
    bad.push_back(v);
  };
  mutate([](Vectors& v) { v[0].terms[1].term = "a"; });  // duplicate term
  mutate([](Vectors& v) { std::swap(v[0].terms[0], v[0].terms[1]); });
  mutate([](Vectors& v) { v[0].terms[0].term = "\xff"; });  // 0xff > 'b' unsigned
  mutate([](Vectors& v) { v.push_back(v[0]); });            // same field twice
  mutate([](Vectors& v) {
    v.insert(v.begin(), v[0]);
    v[0].field_number = 3;  // decreasing numbers
  });
  mutate([](Vectors& v) { v[0].has_positions = false; });  // payloads without positions
  mutate([](Vectors& v) { v[0].terms[0].freq = 0; });
  mutate([](Vectors& v) { v[0].terms[0].freq = 3; });  // sizes do not match freq
  mutate([](Vectors& v) { v[0].terms[0].positions.pop_back(); });
  mutate([](Vectors& v) { v[0].terms[0].end_offsets.pop_back(); });
  mutate([](Vectors& v) { v[0].terms[0].payloads.pop_back(); });
  mutate([](Vectors& v) { v[0].terms[0].positions = {4, 1}; });      // backwards
  mutate([](Vectors& v) { v[0].terms[0].start_offsets = {9, 0}; });  // backwards
  mutate([](Vectors& v) { v[0].terms[0].end_offsets = {3, 8}; });    // end < start
  mutate([](Vectors& v) {
    v[0].has_offsets = false;  // offsets given without the flag
  });
  for (size_t i = 0; i < bad.size(); ++i) {
    EXPECT_EQ((*writer)->AddDocument(bad[i]).code(), absl::StatusCode::kInvalidArgument)
        << "case " << i;
    EXPECT_EQ((*writer)->num_docs(), 0u);
  }
  ASSERT_TRUE((*writer)->AddDocument(good).ok());
  ASSERT_TRUE((*writer)->AddDocument({}).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  auto reader = Open("_0", 2);
  ASSERT_NE(reader, nullptr);
  Random rng(testing::TestSeed(404));
  ExpectAllVectors(*reader, {good, {}}, rng);
}

TEST_F(TermVectorsTest, GetManyPrefetchesAndMatchesGet) {
  Random rng(testing::TestSeed(405));
  std::vector<Vectors> model;
  for (int i = 0; i < 150; ++i) model.push_back(RandomVectors(rng));
  TermVectorsWriterOptions options;
  options.block_bytes = 1;  // one block per document
  Write("_0", model, options);
  for (int round = 0; round < 20; ++round) {
    auto reader = Open("_0", static_cast<uint32_t>(model.size()));
    ASSERT_NE(reader, nullptr);
    reader->data_input().set_prefetch_policy(PrefetchPolicy::kAlways);
    std::vector<uint32_t> docs(rng.Range(1, 12));
    for (uint32_t& d : docs) d = static_cast<uint32_t>(rng.Uniform(model.size()));
    const std::set<uint32_t> distinct(docs.begin(), docs.end());
    auto batch = reader->Get(docs);
    ASSERT_TRUE(batch.ok()) << batch.status();
    const PrefetchStats stats = reader->data_input().prefetch_stats();
    EXPECT_EQ(stats.calls, distinct.size());  // one per block to decode
    EXPECT_EQ(stats.madvise, stats.calls);
    for (size_t i = 0; i < docs.size(); ++i) {
      auto single = reader->Get(docs[i]);
      ASSERT_TRUE(single.ok());
      EXPECT_EQ(*single, (*batch)[i]);
      EXPECT_EQ(*single, model[docs[i]]);
    }
  }
}

TEST_F(TermVectorsTest, MissingFilesAndOutOfRange) {
  auto missing = TermVectorsReader::Open(dir_.get(), "_5", MakeId(0x10), 0);
  ASSERT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("_5.tvd"), absl::string_view::npos);
  EXPECT_NE(missing.status().message().find("term vectors"), absl::string_view::npos);

  Write("_0", {{}, {}});
  auto reader = Open("_0", 2);
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->Get(2).status().code(), absl::StatusCode::kOutOfRange);
  // Stored-fields files are not term-vector files.
  auto sf = StoredFieldsWriter::Create(dir_.get(), "_1", MakeId(0x10));
  ASSERT_TRUE(sf.ok());
  ASSERT_TRUE((*sf)->Finish().ok());
  ASSERT_TRUE(dir_->Rename("_1.fdt", "_1.tvd").ok());
  ASSERT_TRUE(dir_->Rename("_1.fdx", "_1.tvx").ok());
  EXPECT_EQ(TermVectorsReader::Open(dir_.get(), "_1", MakeId(0x10), 0).status().code(),
            absl::StatusCode::kDataLoss);
}

// ---- corruption

absl::Status OpenAndGetAll(Directory* dir, uint32_t num_docs, bool verify) {
  DocFilesReaderOptions options;
  options.verify_index_checksum = verify;
  auto reader = TermVectorsReader::Open(dir, "_0", MakeId(0x10), num_docs, options);
  if (!reader.ok()) return reader.status();
  if (verify) {
    if (absl::Status s = (*reader)->CheckIntegrity(); !s.ok()) return s;
  }
  absl::Status first;
  for (uint32_t doc = 0; doc < num_docs; ++doc) {
    auto got = (*reader)->Get(doc);
    if (!got.ok()) {
      EXPECT_EQ(got.status().code(), absl::StatusCode::kDataLoss) << got.status();
      if (first.ok()) first = got.status();
    }
  }
  std::vector<uint32_t> all(num_docs);
  for (uint32_t i = 0; i < num_docs; ++i) all[i] = i;
  auto batch = (*reader)->Get(all);
  if (!batch.ok() && first.ok()) first = batch.status();
  return first;
}

class TermVectorsCorruptionTest : public TermVectorsTest {
 protected:
  void SetUp() override {
    TermVectorsTest::SetUp();
    Random rng(testing::TestSeed(406));
    for (int i = 0; i < 5; ++i) {
      Vectors doc;
      if (i != 2) {
        TermVectorFieldData field = RandomField(rng, static_cast<uint32_t>(i), kValidFlags[5]);
        if (field.terms.size() > 3) field.terms.resize(3);
        for (TermVectorTermData& t : field.terms) {
          if (t.freq > 2) {
            t.freq = 2;
            t.positions.resize(2);
            t.start_offsets.resize(2);
            t.end_offsets.resize(2);
            t.payloads.resize(2);
          }
        }
        doc.push_back(field);
      }
      model_.push_back(doc);
    }
    TermVectorsWriterOptions options;
    options.block_bytes = 40;
    Write("_0", model_, options);
    tvd_ = ReadFile("_0.tvd");
    tvx_ = ReadFile("_0.tvx");
  }
  void Restore() {
    ReplaceFile("_0.tvd", tvd_);
    ReplaceFile("_0.tvx", tvx_);
  }
  uint32_t num_docs() const { return static_cast<uint32_t>(model_.size()); }

  std::vector<Vectors> model_;
  std::vector<uint8_t> tvd_, tvx_;
};

TEST_F(TermVectorsCorruptionTest, EveryTruncationIsDetected) {
  ASSERT_TRUE(OpenAndGetAll(dir_.get(), num_docs(), true).ok());
  for (const std::string name : {"_0.tvd", "_0.tvx"}) {
    const std::vector<uint8_t>& full = name == "_0.tvd" ? tvd_ : tvx_;
    for (size_t length = 0; length < full.size(); ++length) {
      Restore();
      ReplaceFile(name, std::span<const uint8_t>(full.data(), length));
      EXPECT_FALSE(OpenAndGetAll(dir_.get(), num_docs(), true).ok())
          << name << " cut to " << length;
      (void)OpenAndGetAll(dir_.get(), num_docs(), false);
      Restore();
      ReplaceFile(name, std::span<const uint8_t>(full.data() + full.size() - length, length));
      EXPECT_FALSE(OpenAndGetAll(dir_.get(), num_docs(), true).ok());
      (void)OpenAndGetAll(dir_.get(), num_docs(), false);
    }
  }
}

TEST_F(TermVectorsCorruptionTest, EveryFlippedByteIsDetected) {
  Random rng(testing::TestSeed(407));
  int unverified_errors = 0, total = 0;
  for (const std::string name : {"_0.tvd", "_0.tvx"}) {
    const std::vector<uint8_t>& full = name == "_0.tvd" ? tvd_ : tvx_;
    for (size_t pos = 0; pos < full.size(); ++pos) {
      for (uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}, static_cast<uint8_t>(rng.Range(1, 255))}) {
        std::vector<uint8_t> bad = full;
        bad[pos] ^= mask;
        Restore();
        ReplaceFile(name, bad);
        ++total;
        EXPECT_FALSE(OpenAndGetAll(dir_.get(), num_docs(), true).ok())
            << name << " byte " << pos << " ^ " << int{mask};
        if (!OpenAndGetAll(dir_.get(), num_docs(), false).ok()) ++unverified_errors;
      }
    }
  }
  std::printf("[  FLIPS   ] %d flips; without checksums %d give an error, the rest decode\n", total,
              unverified_errors);
}

TEST_F(TermVectorsCorruptionTest, CorruptEntriesNeverCrashTheDecoder) {
  Random rng(testing::TestSeed(408));
  int errors = 0;
  for (int round = 0; round < 3000; ++round) {
    const Vectors doc = RandomVectors(rng);
    std::string bytes;
    ASSERT_TRUE(internal::EncodeTermVectors(doc, &bytes).ok());
    const uint64_t kind = rng.Uniform(3);
    if (kind == 0 && !bytes.empty()) {  // cut
      bytes.resize(rng.Uniform(bytes.size()));
    } else if (kind == 1) {  // overwrite bytes
      for (uint64_t k = rng.Range(1, 4); k > 0; --k) {
        bytes[rng.Uniform(bytes.size())] = static_cast<char>(rng.Uniform(256));
      }
    } else {  // garbage
      bytes = RandomBytes(rng, 64);
      for (char& c : bytes) c = static_cast<char>(rng.Uniform(256));
    }
    Vectors decoded;
    const absl::Status s = internal::DecodeTermVectors(AsBytes(bytes), &decoded);
    if (!s.ok()) {
      EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
      ++errors;
    }
  }
  EXPECT_GT(errors, 1000);
}

}  // namespace
}  // namespace invert

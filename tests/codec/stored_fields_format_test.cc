// Tests of the stored-fields files (.fdt/.fdx): randomized round trips
// against a std::vector model (every codec, many block sizes, empty and
// 1 MiB values, binary bytes), batched reads and their prefetches, the exact
// bytes of the documented example, writer errors, and corruption: every
// truncation and every flipped byte of a small segment is caught, and reads of
// corrupt files without checksum verification return errors, never crash
// (the ASan build runs the same tests).
#include "codec/stored_fields_format.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "invert/directory.h"
#include "test_seed.h"
#include "testing/fault_injecting_directory.h"
#include "util/random.h"
#include "util/varint.h"

namespace invert {
namespace {

using Doc = std::vector<StoredField>;

SegmentId MakeId(uint8_t first) {
  SegmentId id;
  for (size_t i = 0; i < id.size(); ++i) id[i] = static_cast<uint8_t>(first + i);
  return id;
}

std::string RandomValue(Random& rng) {
  const uint64_t kind = rng.Uniform(100);
  if (kind < 10) return "";
  const size_t length = kind < 70 ? rng.Range(1, 40) : rng.Range(41, 3000);
  std::string value(length, '\0');
  const bool binary = rng.Bernoulli(0.3);
  for (char& c : value) {
    if (binary) {
      const uint64_t b = rng.Uniform(4);
      c = static_cast<char>(b == 0 ? 0x00 : b == 1 ? 0xff : rng.Uniform(256));
    } else {
      c = static_cast<char>('a' + rng.Uniform(8));  // compressible
    }
  }
  return value;
}

// 1 MiB of random bytes: a document larger than any block.
std::string HugeValue(Random& rng) {
  std::string huge(size_t{1} << 20, '\0');
  for (char& c : huge) c = static_cast<char>(rng.Uniform(256));
  return huge;
}

Doc RandomDoc(Random& rng) {
  Doc doc;
  const uint64_t shape = rng.Uniform(10);
  const size_t fields = shape == 0 ? 0 : shape < 8 ? rng.Range(1, 5) : rng.Range(6, 60);
  for (size_t i = 0; i < fields; ++i) {
    const uint32_t number = rng.Bernoulli(0.05) ? static_cast<uint32_t>(rng.Next())
                                                : static_cast<uint32_t>(rng.Uniform(8));
    doc.push_back({number, RandomValue(rng)});
  }
  return doc;
}

std::vector<StoredFieldValue> Values(const Doc& doc) {
  std::vector<StoredFieldValue> values;
  for (const StoredField& f : doc) values.push_back({f.field_number, f.value});
  return values;
}

// The block of each document under the writer's policy: a document that
// does not fit the rest of a block starts the next; a block closes at
// block_bytes or kMaxDocsPerBlock documents.
std::vector<uint32_t> ExpectedBlocks(const std::vector<Doc>& docs, size_t block_bytes) {
  std::vector<uint32_t> block_of;
  uint32_t block = 0;
  size_t pending = 0, pending_docs = 0;
  for (const Doc& doc : docs) {
    size_t size = VIntSize(doc.size());
    for (const StoredField& f : doc) {
      size += VIntSize(f.field_number) + VIntSize(f.value.size()) + f.value.size();
    }
    if (pending_docs > 0 && pending + size > block_bytes) {
      ++block;
      pending = pending_docs = 0;
    }
    block_of.push_back(block);
    pending += size;
    ++pending_docs;
    if (pending >= block_bytes || pending_docs >= kMaxDocsPerBlock) {
      ++block;
      pending = pending_docs = 0;
    }
  }
  return block_of;
}

class StoredFieldsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "invert_stored_XXXXXX";
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

  void Write(const std::string& segment, const std::vector<Doc>& docs,
             const StoredFieldsWriterOptions& options = {}, const SegmentId& id = MakeId(0xa0)) {
    auto writer = StoredFieldsWriter::Create(dir_.get(), segment, id, options);
    ASSERT_TRUE(writer.ok()) << writer.status();
    for (const Doc& doc : docs) {
      const std::vector<StoredFieldValue> values = Values(doc);
      ASSERT_TRUE((*writer)->AddDocument(values).ok());
    }
    ASSERT_EQ((*writer)->num_docs(), docs.size());
    ASSERT_TRUE((*writer)->Finish().ok());
    EXPECT_EQ((*writer)->file_names(),
              (std::vector<std::string>{segment + ".fdt", segment + ".fdx"}));
  }

  std::unique_ptr<StoredFieldsReader> Open(const std::string& segment, uint32_t num_docs,
                                           const SegmentId& id = MakeId(0xa0)) {
    auto reader = StoredFieldsReader::Open(dir_.get(), segment, id, num_docs);
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

void ExpectAllDocuments(const StoredFieldsReader& reader, const std::vector<Doc>& model,
                        Random& rng) {
  ASSERT_EQ(reader.num_docs(), model.size());
  for (uint32_t doc = 0; doc < model.size(); ++doc) {  // sequential: the block cache
    auto got = reader.Document(doc);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(*got, model[doc]) << "doc " << doc;
  }
  for (size_t i = 0; i < model.size(); ++i) {  // random order
    const uint32_t doc = static_cast<uint32_t>(rng.Uniform(model.size()));
    auto got = reader.Document(doc);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(*got, model[doc]) << "doc " << doc;
  }
  for (int round = 0; round < 20; ++round) {  // batches, repeats allowed
    std::vector<uint32_t> docs(rng.Range(0, 40));
    for (uint32_t& d : docs) d = static_cast<uint32_t>(rng.Uniform(model.size()));
    auto got = reader.Documents(docs);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(got->size(), docs.size());
    for (size_t i = 0; i < docs.size(); ++i) ASSERT_EQ((*got)[i], model[docs[i]]);
  }
}

TEST_F(StoredFieldsTest, RoundTripsRandomDocuments) {
  Random rng(testing::TestSeed(301));
  struct Config {
    CompressionCodec codec;
    size_t block_bytes;
    size_t docs;
    bool huge;
  };
  const Config configs[] = {
      {CompressionCodec::kLz4, 60 * 1024, 1500, true},
      {CompressionCodec::kZstd, 60 * 1024, 400, true},
      {CompressionCodec::kNone, 60 * 1024, 400, true},
      {CompressionCodec::kLz4, 1, 300, false},
      {CompressionCodec::kLz4, 100, 300, false},
      {CompressionCodec::kNone, 4096, 300, false},
      {CompressionCodec::kZstd, 4096, 300, false},
      {CompressionCodec::kLz4, 60 * 1024, 1, false},
  };
  int segment = 0;
  for (const Config& c : configs) {
    SCOPED_TRACE(::testing::Message() << "codec " << static_cast<int>(c.codec) << " block_bytes "
                                      << c.block_bytes << " docs " << c.docs);
    std::vector<Doc> model;
    for (size_t i = 0; i < c.docs; ++i) model.push_back(RandomDoc(rng));
    if (c.huge) {  // three documents get a 1 MiB value, one of them the last
      for (size_t doc : {rng.Uniform(c.docs), rng.Uniform(c.docs), c.docs - 1}) {
        model[doc].insert(model[doc].begin() + rng.Uniform(model[doc].size() + 1),
                          {static_cast<uint32_t>(rng.Uniform(8)), HugeValue(rng)});
      }
    }
    const std::string name = absl::StrCat("_", segment++);
    StoredFieldsWriterOptions options;
    options.codec = c.codec;
    options.block_bytes = c.block_bytes;
    Write(name, model, options);
    auto reader = Open(name, static_cast<uint32_t>(model.size()));
    ASSERT_NE(reader, nullptr);
    EXPECT_TRUE(reader->CheckIntegrity().ok());
    EXPECT_EQ(reader->block_count(), size_t{ExpectedBlocks(model, c.block_bytes).back()} + 1);
    if (c.block_bytes == 1) {
      EXPECT_EQ(reader->block_count(), model.size());
    }
    ExpectAllDocuments(*reader, model, rng);
  }
}

TEST_F(StoredFieldsTest, TinyDocumentsCapBlocksAtMaxDocs) {
  std::vector<Doc> model(3 * kMaxDocsPerBlock + 5);  // all without fields: 1 byte each
  Write("_0", model);
  auto reader = Open("_0", static_cast<uint32_t>(model.size()));
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->block_count(), 4u);
  Random rng(testing::TestSeed(302));
  ExpectAllDocuments(*reader, model, rng);
}

TEST_F(StoredFieldsTest, BlocksStayUnderBlockBytesUnlessOneDocumentIsLarger) {
  // 30 documents of ~1000 bytes with block_bytes 4096: 4 per block, never 5.
  std::vector<Doc> model;
  for (int i = 0; i < 30; ++i)
    model.push_back({{0, std::string(1000, static_cast<char>('a' + i))}});
  model.push_back({{1, std::string(10000, 'z')}});  // its own block
  model.push_back({{1, "tail"}});
  StoredFieldsWriterOptions options;
  options.block_bytes = 4096;
  Write("_0", model, options);
  auto reader = Open("_0", static_cast<uint32_t>(model.size()));
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->block_count(), 8u + 1 + 1);  // 7 x 4 + 2, the large one, the tail
  Random rng(testing::TestSeed(303));
  ExpectAllDocuments(*reader, model, rng);
}

TEST_F(StoredFieldsTest, DocumentsPrefetchesEveryBlockItDecodes) {
  Random rng(testing::TestSeed(304));
  std::vector<Doc> model;
  for (int i = 0; i < 200; ++i) model.push_back(RandomDoc(rng));
  StoredFieldsWriterOptions options;
  options.block_bytes = 2048;
  Write("_0", model, options);
  const std::vector<uint32_t> block_of = ExpectedBlocks(model, options.block_bytes);
  for (int round = 0; round < 30; ++round) {
    auto reader = Open("_0", static_cast<uint32_t>(model.size()));  // fresh: nothing cached
    ASSERT_NE(reader, nullptr);
    ASSERT_EQ(reader->block_count(), size_t{block_of.back()} + 1);
    reader->data_input().set_prefetch_policy(PrefetchPolicy::kAlways);
    std::vector<uint32_t> docs(rng.Range(2, 16));
    const uint32_t base = static_cast<uint32_t>(rng.Uniform(model.size()));
    for (uint32_t& d : docs) {  // half the rounds: neighbors, often one block
      d = round % 2 == 0 ? static_cast<uint32_t>(rng.Uniform(model.size()))
                         : std::min<uint32_t>(base + static_cast<uint32_t>(rng.Uniform(3)),
                                              static_cast<uint32_t>(model.size() - 1));
    }
    std::set<uint32_t> blocks;
    for (uint32_t d : docs) blocks.insert(block_of[d]);
    auto batch = reader->Documents(docs);
    ASSERT_TRUE(batch.ok()) << batch.status();
    const PrefetchStats stats = reader->data_input().prefetch_stats();
    // One prefetch (one madvise under kAlways) per block to decode, even a
    // single one: the fresh reader has no block cached.
    EXPECT_EQ(stats.calls, blocks.size());
    EXPECT_EQ(stats.madvise, stats.calls);
    for (size_t i = 0; i < docs.size(); ++i) {
      auto single = reader->Document(docs[i]);
      ASSERT_TRUE(single.ok());
      EXPECT_EQ((*batch)[i], *single);
      EXPECT_EQ(*single, model[docs[i]]);
    }
  }
  // Far-apart docs are in different blocks: exactly one prefetch per doc.
  auto reader = Open("_0", static_cast<uint32_t>(model.size()));
  ASSERT_NE(reader, nullptr);
  const std::vector<uint32_t> far = {199, 0, 100, 50};
  ASSERT_TRUE(reader->Documents(far).ok());
  EXPECT_EQ(reader->data_input().prefetch_stats().calls, 4u);
  EXPECT_EQ(reader->data_input().prefetch_stats().madvise, 4u);
  // kOff: the calls are counted, no system call is made.
  auto off = Open("_0", static_cast<uint32_t>(model.size()));
  ASSERT_NE(off, nullptr);
  off->data_input().set_prefetch_policy(PrefetchPolicy::kOff);
  ASSERT_TRUE(off->Documents(far).ok());
  EXPECT_EQ(off->data_input().prefetch_stats().calls, 4u);
  EXPECT_EQ(off->data_input().prefetch_stats().madvise, 0u);
  // A single document in an uncached block is prefetched too (under
  // MADV_RANDOM its pages would otherwise fault in one by one) ...
  ASSERT_TRUE(off->Document(150).ok());
  EXPECT_EQ(off->data_input().prefetch_stats().calls, 5u);
  // ... but not again while its block is the decoded one.
  ASSERT_TRUE(off->Document(150).ok());
  EXPECT_EQ(off->data_input().prefetch_stats().calls, 5u);
}

TEST_F(StoredFieldsTest, ConcurrentReadersAgree) {
  Random rng(testing::TestSeed(305));
  std::vector<Doc> model;
  for (int i = 0; i < 300; ++i) model.push_back(RandomDoc(rng));
  StoredFieldsWriterOptions options;
  options.block_bytes = 4096;
  Write("_0", model, options);
  auto reader = Open("_0", static_cast<uint32_t>(model.size()));
  ASSERT_NE(reader, nullptr);
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Random local(1000 + t);
      for (int i = 0; i < 400; ++i) {
        const uint32_t doc = static_cast<uint32_t>(local.Uniform(model.size()));
        auto got = reader->Document(doc);
        if (!got.ok() || *got != model[doc]) ++mismatches[t];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(mismatches, std::vector<int>(4, 0));
}

TEST_F(StoredFieldsTest, EmptySegmentAndOutOfRange) {
  Write("_0", {});
  auto reader = Open("_0", 0);
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->block_count(), 0u);
  EXPECT_TRUE(reader->CheckIntegrity().ok());
  EXPECT_EQ(reader->Document(0).status().code(), absl::StatusCode::kOutOfRange);

  Write("_1", {{{3, "x"}}, {}});
  auto one = Open("_1", 2);
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->Document(2).status().code(), absl::StatusCode::kOutOfRange);
  const std::vector<uint32_t> docs = {0, 7, 1};
  EXPECT_EQ(one->Documents(docs).status().code(), absl::StatusCode::kOutOfRange);
  auto none = one->Documents({});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST_F(StoredFieldsTest, OpenReportsMissingAndMismatchedFiles) {
  Write("_0", {{{0, "a"}}, {{1, "b"}}});
  auto missing = StoredFieldsReader::Open(dir_.get(), "_9", MakeId(0xa0), 2);
  ASSERT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("_9.fdt"), absl::string_view::npos) << missing.status();
  EXPECT_NE(missing.status().message().find("stored fields"), absl::string_view::npos);

  // Only the index is missing.
  Write("_1", {{{0, "a"}}});
  ASSERT_TRUE(dir_->DeleteFile("_1.fdx").ok());
  auto no_index = StoredFieldsReader::Open(dir_.get(), "_1", MakeId(0xa0), 1);
  ASSERT_EQ(no_index.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(no_index.status().message().find("_1.fdx"), absl::string_view::npos);

  Write("_2", {{{0, "a"}}, {{1, "b"}}});
  EXPECT_EQ(StoredFieldsReader::Open(dir_.get(), "_2", MakeId(0xb0), 2).status().code(),
            absl::StatusCode::kDataLoss);  // another segment's id
  auto wrong_count = StoredFieldsReader::Open(dir_.get(), "_2", MakeId(0xa0), 3);
  EXPECT_EQ(wrong_count.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(wrong_count.status().message().find("2 documents"), absl::string_view::npos)
      << wrong_count.status();
}

TEST_F(StoredFieldsTest, WriterRejectsBadOptionsAndLeavesNoFiles) {
  StoredFieldsWriterOptions bad_size;
  bad_size.block_bytes = 0;
  EXPECT_EQ(StoredFieldsWriter::Create(dir_.get(), "_0", MakeId(0), bad_size).status().code(),
            absl::StatusCode::kInvalidArgument);
  StoredFieldsWriterOptions bad_codec;
  bad_codec.codec = static_cast<CompressionCodec>(7);
  EXPECT_EQ(StoredFieldsWriter::Create(dir_.get(), "_0", MakeId(0), bad_codec).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(StoredFieldsWriter::Create(dir_.get(), "bad/name", MakeId(0)).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto files = dir_->ListAll();
  ASSERT_TRUE(files.ok());
  EXPECT_TRUE(files->empty());

  // The index file already exists: the data file just created is removed
  // again, the existing file is left alone.
  ReplaceFile("_1.fdx", std::vector<uint8_t>{1, 2, 3});
  EXPECT_EQ(StoredFieldsWriter::Create(dir_.get(), "_1", MakeId(0)).status().code(),
            absl::StatusCode::kAlreadyExists);
  files = dir_->ListAll();
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(*files, std::vector<std::string>{"_1.fdx"});
}

TEST_F(StoredFieldsTest, WriterStateErrors) {
  auto writer = StoredFieldsWriter::Create(dir_.get(), "_0", MakeId(0));
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->AddDocument({}).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  EXPECT_TRUE((*writer)->Finish().ok());  // again: the first result
  EXPECT_EQ((*writer)->AddDocument({}).code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(StoredFieldsTest, InjectedFaultsReachTheCaller) {
  Random rng(testing::TestSeed(306));
  std::vector<Doc> model;
  for (int i = 0; i < 40; ++i) model.push_back(RandomDoc(rng));
  for (uint64_t n = 1;; ++n) {
    FaultInjectingDirectory faulty(dir_.get());
    faulty.FailAt(n);
    const std::string name = absl::StrCat("_f", n);
    StoredFieldsWriterOptions options;
    options.block_bytes = 1024;
    absl::Status status;
    auto writer = StoredFieldsWriter::Create(&faulty, name, MakeId(0), options);
    status = writer.status();
    for (size_t i = 0; status.ok() && i < model.size(); ++i) {
      status = (*writer)->AddDocument(Values(model[i]));
    }
    if (status.ok()) status = (*writer)->Finish();
    if (faulty.faults_injected() == 0) {
      ASSERT_TRUE(status.ok()) << status;
      auto reader = Open(name, static_cast<uint32_t>(model.size()), MakeId(0));
      ASSERT_NE(reader, nullptr);
      EXPECT_TRUE(reader->CheckIntegrity().ok());
      break;
    }
    ASSERT_FALSE(status.ok()) << "fault " << n << " was not reported";
    EXPECT_NE(status.message().find("injected fault"), absl::string_view::npos) << status;
    if (writer.ok()) {  // sticky
      EXPECT_EQ((*writer)->AddDocument({}).code(), status.code());
      EXPECT_EQ((*writer)->Finish().code(), status.code());
    }
    ASSERT_LT(n, 1000u);
  }
}

TEST_F(StoredFieldsTest, TooLargeDocumentIsRejectedWithoutChange) {
  auto writer = StoredFieldsWriter::Create(dir_.get(), "_0", MakeId(0));
  ASSERT_TRUE(writer.ok());
  // Views need no memory: a value of kMaxDocumentBytes bytes never gets read.
  const char byte = 'x';
  const std::string_view huge(&byte, kMaxDocumentBytes);
  const StoredFieldValue values[] = {{0, huge}};
  EXPECT_EQ((*writer)->AddDocument(values).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((*writer)->num_docs(), 0u);
  const StoredFieldValue small[] = {{0, "ok"}};
  ASSERT_TRUE((*writer)->AddDocument(small).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  auto reader = Open("_0", 1, MakeId(0));
  ASSERT_NE(reader, nullptr);
  auto doc = reader->Document(0);
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(*doc, (Doc{{0, "ok"}}));
}

// The worked example of docs/format-docfiles.md, byte for byte.
TEST_F(StoredFieldsTest, GoldenBytes) {
  SegmentId id;
  for (size_t i = 0; i < id.size(); ++i) id[i] = static_cast<uint8_t>(0xa0 + i);
  StoredFieldsWriterOptions options;
  options.block_bytes = 16;
  auto writer = StoredFieldsWriter::Create(dir_.get(), "_0", id, options);
  ASSERT_TRUE(writer.ok());
  const StoredFieldValue doc0[] = {{0, "hi"}, {2, "abc"}};
  const StoredFieldValue doc1[] = {{1, std::string_view("\x00\xff", 2)}};
  const StoredFieldValue doc2[] = {{0, "a longer value"}};
  ASSERT_TRUE((*writer)->AddDocument(doc0).ok());
  ASSERT_TRUE((*writer)->AddDocument(doc1).ok());
  ASSERT_TRUE((*writer)->AddDocument({}).ok());
  ASSERT_TRUE((*writer)->AddDocument(doc2).ok());
  ASSERT_TRUE((*writer)->Finish().ok());

  const std::vector<uint8_t> header_fdt = {
      0x49, 0x4e, 0x56, 0x48, 0x16, 'I',  'n',  'v',  'e',  'r',  't',  'S',
      't',  'o',  'r',  'e',  'd',  'F',  'i',  'e',  'l',  'd',  's',  'D',
      'a',  't',  'a',  0x01, 0x00, 0x00, 0x00, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4,
      0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf};
  const std::vector<uint8_t> body_fdt = {
      0x01,                                      // compression: kLz4
      0x00, 0x03, 0x0a, 0x05, 0x01, 0x12,        // block 0: first doc 0, 3 docs, lengths, 18
      0xf0, 0x01,                                // LZ4 token: 15 + 1 literals, no match
      0x02, 0x00, 0x02, 'h',  'i',  0x02, 0x03,  // doc 0: 2 fields: 0 "hi", 2 "abc"
      'a',  'b',  'c',                           //
      0x01, 0x01, 0x02, 0x00, 0xff,              // doc 1: 1 field: 1 "\x00\xff"
      0x00,                                      // doc 2: no fields
      0x03, 0x01, 0x11, 0x13,                    // block 1: first doc 3, 1 doc, 17, 19
      0xf0, 0x02,                                // LZ4 token: 15 + 2 literals
      0x01, 0x00, 0x0e, 'a',  ' ',  'l',  'o',  'n', 'g', 'e', 'r', ' ', 'v', 'a', 'l', 'u', 'e'};
  std::vector<uint8_t> fdt = ReadFile("_0.fdt");
  ASSERT_EQ(fdt.size(), header_fdt.size() + body_fdt.size() + kFooterLength);
  EXPECT_EQ(std::vector<uint8_t>(fdt.begin(), fdt.begin() + header_fdt.size()), header_fdt);
  EXPECT_EQ(std::vector<uint8_t>(fdt.begin() + header_fdt.size(), fdt.end() - kFooterLength),
            body_fdt);

  const std::vector<uint8_t> body_fdx = {
      0x04,        // num_docs
      0x02,        // block_count
      0x11,        // max_block_bytes: 17
      0x03, 0x18,  // block 0: 3 docs, 24 bytes
      0x01, 0x17,  // block 1: 1 doc, 23 bytes
  };
  std::vector<uint8_t> fdx = ReadFile("_0.fdx");
  const size_t fdx_header = HeaderLength(kStoredFieldsIndexCodec);
  ASSERT_EQ(fdx.size(), fdx_header + body_fdx.size() + kFooterLength);
  EXPECT_EQ(std::vector<uint8_t>(fdx.begin() + fdx_header, fdx.end() - kFooterLength), body_fdx);
  // Footers: magic "INVF", algorithm 1.
  const std::vector<uint8_t> footer_start = {0x49, 0x4e, 0x56, 0x46, 0x01, 0x00, 0x00, 0x00};
  EXPECT_EQ(std::vector<uint8_t>(fdt.end() - 16, fdt.end() - 8), footer_start);
  EXPECT_EQ(std::vector<uint8_t>(fdx.end() - 16, fdx.end() - 8), footer_start);

  auto reader = Open("_0", 4, id);
  ASSERT_NE(reader, nullptr);
  auto d1 = reader->Document(1);
  ASSERT_TRUE(d1.ok());
  EXPECT_EQ(*d1, (Doc{{1, std::string("\x00\xff", 2)}}));
}

// ---- corruption

// Opens and reads everything; returns OK iff every step succeeded. Never
// crashes on corrupt input (that is what the ASan build checks).
absl::Status OpenAndReadAll(Directory* dir, uint32_t num_docs, bool verify, bool check_integrity,
                            std::vector<Doc>* out) {
  DocFilesReaderOptions options;
  options.verify_index_checksum = verify;
  auto reader = StoredFieldsReader::Open(dir, "_0", MakeId(0xa0), num_docs, options);
  if (!reader.ok()) return reader.status();
  if (check_integrity) {
    if (absl::Status s = (*reader)->CheckIntegrity(); !s.ok()) return s;
  }
  absl::Status first;
  out->clear();
  for (uint32_t doc = 0; doc < num_docs; ++doc) {
    auto got = (*reader)->Document(doc);
    if (!got.ok()) {
      EXPECT_EQ(got.status().code(), absl::StatusCode::kDataLoss) << got.status();
      if (first.ok()) first = got.status();
      continue;
    }
    out->push_back(*std::move(got));
  }
  std::vector<uint32_t> all(num_docs);
  for (uint32_t i = 0; i < num_docs; ++i) all[i] = num_docs - 1 - i;
  auto batch = (*reader)->Documents(all);
  if (!batch.ok() && first.ok()) first = batch.status();
  return first;
}

class StoredFieldsCorruptionTest : public StoredFieldsTest {
 protected:
  void SetUp() override {
    StoredFieldsTest::SetUp();
    Random rng(testing::TestSeed(307));
    for (int i = 0; i < 7; ++i) {
      Doc doc;
      for (uint64_t f = rng.Uniform(4); f > 0; --f) {
        doc.push_back({static_cast<uint32_t>(rng.Uniform(300)), RandomValue(rng).substr(0, 30)});
      }
      model_.push_back(doc);
    }
    StoredFieldsWriterOptions options;
    options.block_bytes = 48;  // several blocks
    Write("_0", model_, options);
    fdt_ = ReadFile("_0.fdt");
    fdx_ = ReadFile("_0.fdx");
  }
  void Restore() {
    ReplaceFile("_0.fdt", fdt_);
    ReplaceFile("_0.fdx", fdx_);
  }

  std::vector<Doc> model_;
  std::vector<uint8_t> fdt_, fdx_;
};

TEST_F(StoredFieldsCorruptionTest, EveryTruncationIsDetected) {
  const uint32_t n = static_cast<uint32_t>(model_.size());
  std::vector<Doc> got;
  ASSERT_TRUE(OpenAndReadAll(dir_.get(), n, true, true, &got).ok());
  ASSERT_EQ(got, model_);
  for (const std::string name : {"_0.fdt", "_0.fdx"}) {
    const std::vector<uint8_t>& full = name == "_0.fdt" ? fdt_ : fdx_;
    for (size_t length = 0; length < full.size(); ++length) {
      Restore();
      ReplaceFile(name, std::span<const uint8_t>(full.data(), length));
      const absl::Status checked = OpenAndReadAll(dir_.get(), n, true, true, &got);
      EXPECT_FALSE(checked.ok()) << name << " cut to " << length;
      EXPECT_TRUE(checked.code() == absl::StatusCode::kDataLoss ||
                  checked.code() == absl::StatusCode::kFailedPrecondition)
          << checked;
      (void)OpenAndReadAll(dir_.get(), n, false, false, &got);  // must not crash
      // Cut from the front.
      Restore();
      ReplaceFile(name, std::span<const uint8_t>(full.data() + full.size() - length, length));
      EXPECT_FALSE(OpenAndReadAll(dir_.get(), n, true, true, &got).ok());
      (void)OpenAndReadAll(dir_.get(), n, false, false, &got);
    }
  }
}

TEST_F(StoredFieldsCorruptionTest, EveryFlippedByteIsDetected) {
  const uint32_t n = static_cast<uint32_t>(model_.size());
  Random rng(testing::TestSeed(308));
  std::vector<Doc> got;
  int open_errors = 0, read_errors = 0, silent = 0, total = 0;
  for (const std::string name : {"_0.fdt", "_0.fdx"}) {
    const std::vector<uint8_t>& full = name == "_0.fdt" ? fdt_ : fdx_;
    for (size_t pos = 0; pos < full.size(); ++pos) {
      for (uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}, static_cast<uint8_t>(rng.Range(1, 255))}) {
        std::vector<uint8_t> bad = full;
        bad[pos] ^= mask;
        Restore();
        ReplaceFile(name, bad);
        ++total;
        EXPECT_FALSE(OpenAndReadAll(dir_.get(), n, true, true, &got).ok())
            << name << " byte " << pos << " ^ " << int{mask};
        // Without checksums: an error or some documents, never a crash.
        DocFilesReaderOptions options;
        options.verify_index_checksum = false;
        if (!StoredFieldsReader::Open(dir_.get(), "_0", MakeId(0xa0), n, options).ok()) {
          ++open_errors;
        } else if (!OpenAndReadAll(dir_.get(), n, false, false, &got).ok()) {
          ++read_errors;
        } else {
          ++silent;  // e.g. a flipped value byte: only the checksum sees it
        }
      }
    }
  }
  std::printf(
      "[  FLIPS   ] %d flips, without checksums: %d fail at open, %d on a read, %d read"
      " back different or equal data\n",
      total, open_errors, read_errors, silent);
}

TEST_F(StoredFieldsCorruptionTest, RandomGarbageNeverCrashes) {
  const uint32_t n = static_cast<uint32_t>(model_.size());
  Random rng(testing::TestSeed(309));
  std::vector<Doc> got;
  for (int round = 0; round < 1500; ++round) {
    std::vector<uint8_t> fdt = fdt_, fdx = fdx_;
    std::vector<uint8_t>& target = rng.Bernoulli(0.7) ? fdt : fdx;
    // Overwrite a few bytes after the header (headers are checked first).
    for (uint64_t k = rng.Range(1, 4); k > 0; --k) {
      target[rng.Uniform(target.size())] = static_cast<uint8_t>(rng.Uniform(256));
    }
    ReplaceFile("_0.fdt", fdt);
    ReplaceFile("_0.fdx", fdx);
    (void)OpenAndReadAll(dir_.get(), n, false, false, &got);
  }
}

}  // namespace
}  // namespace invert

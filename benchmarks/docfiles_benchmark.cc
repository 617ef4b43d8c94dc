// The per-document files on the bundled sample corpus (data/sample.lines, or
// $INVERT_CORPUS), docs/format-docfiles.md:
//   stored/write/<codec>/<block>   title + body of every document into
//                                  .fdt/.fdx: bytes per document, ratio
//                                  (value bytes / file bytes), MB/s
//   stored/document/<codec>/{random,sequential}   one Document() per iteration
//   stored/documents16/<codec>     Documents() of 16 random docs per iteration
//   tv/write/<codec>               the body's term vectors (positions and
//                                  offsets, from the indexing chain) into
//                                  .tvd/.tvx: bytes per document, MB/s
//   tv/get/<codec>/random          one Get() per iteration
// The files live in a temporary folder and stay in the page cache: reads
// measure decoding, not I/O. Run with --benchmark_repetitions=5 and quote
// medians.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/stored_fields_format.h"
#include "codec/term_vectors_format.h"
#include "index/indexing_chain.h"
#include "invert/line_docs.h"
#include "util/random.h"

namespace invert::bench {
namespace {

struct Corpus {
  std::vector<std::string> titles, bodies;
  std::vector<std::vector<TermVectorFieldData>> vectors;  // of the body
  uint64_t stored_bytes = 0;                              // title + body bytes
};

std::string CorpusPath() {
  if (const char* env = std::getenv("INVERT_CORPUS"); env != nullptr && *env) return env;
  return std::string(INVERT_SOURCE_DIR) + "/data/sample.lines";
}

[[noreturn]] void Die(const std::string& what, const absl::Status& status) {
  std::fprintf(stderr, "%s: %s\n", what.c_str(), std::string(status.message()).c_str());
  std::exit(1);
}

const Corpus& GetCorpus() {
  static const Corpus* corpus = [] {
    auto* c = new Corpus;
    auto source = OpenLineDocs(CorpusPath());
    if (!source.ok()) Die("cannot open corpus " + CorpusPath(), source.status());
    LineDocSchemaOptions schema_options;
    schema_options.body_term_vectors = true;
    const LineDocSchema schema(schema_options);
    IndexingChain chain(IndexingChainOptions{});
    Document doc;
    for (;;) {
      auto d = (*source)->Next();
      if (absl::IsOutOfRange(d.status())) break;
      if (!d.ok()) continue;
      schema.Build(d->id, d->title, d->date, d->body, &doc);
      if (!chain.AddDocument(doc).ok()) continue;
      c->titles.emplace_back(d->title);
      c->bodies.emplace_back(d->body);
      c->stored_bytes += d->title.size() + d->body.size();
    }
    for (uint32_t i = 0; i < chain.num_docs(); ++i) {
      std::vector<TermVectorFieldData> fields;
      for (const BufferedVectorField& f : chain.TermVectors(i)) {
        TermVectorFieldData out;
        out.field_number = f.field_number;
        out.has_positions = schema.body_type().term_vector_positions;
        out.has_offsets = schema.body_type().term_vector_offsets;
        for (const BufferedVectorTerm& t : f.terms) {
          out.terms.push_back({std::string(t.term), t.freq, t.positions, t.start_offsets,
                               t.end_offsets, t.payloads});
        }
        fields.push_back(std::move(out));
      }
      c->vectors.push_back(std::move(fields));
    }
    return c;
  }();
  return *corpus;
}

const std::string& TempPath() {
  static const std::string* path = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "invert_docfiles_XXXXXX");
    if (::mkdtemp(pattern.data()) == nullptr) std::exit(1);
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(TempPath(), ignored);
    });
    return new std::string(pattern);
  }();
  return *path;
}

std::unique_ptr<FSDirectory> OpenDir() {
  auto dir = FSDirectory::Open(TempPath(), false);
  if (!dir.ok()) Die("open temp dir", dir.status());
  return *std::move(dir);
}

const char* CodecName(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::kNone:
      return "none";
    case CompressionCodec::kLz4:
      return "lz4";
    case CompressionCodec::kZstd:
      return "zstd1";
  }
  return "?";
}

uint64_t FilesBytes(Directory* dir, const std::vector<std::string>& names) {
  uint64_t total = 0;
  for (const std::string& name : names) total += *dir->FileLength(name);
  return total;
}

int segment_counter = 0;

// Writes the corpus' stored fields; returns the file names.
std::vector<std::string> WriteStored(Directory* dir, const std::string& segment,
                                     CompressionCodec codec, size_t block_bytes) {
  const Corpus& corpus = GetCorpus();
  StoredFieldsWriterOptions options;
  options.codec = codec;
  options.block_bytes = block_bytes;
  auto writer = StoredFieldsWriter::Create(dir, segment, SegmentId{}, options);
  if (!writer.ok()) Die("create", writer.status());
  for (size_t i = 0; i < corpus.titles.size(); ++i) {
    const StoredFieldValue values[] = {{1, corpus.titles[i]}, {3, corpus.bodies[i]}};
    if (absl::Status s = (*writer)->AddDocument(values); !s.ok()) Die("add", s);
  }
  if (absl::Status s = (*writer)->Finish(); !s.ok()) Die("finish", s);
  return (*writer)->file_names();
}

std::vector<std::string> WriteVectors(Directory* dir, const std::string& segment,
                                      CompressionCodec codec) {
  const Corpus& corpus = GetCorpus();
  TermVectorsWriterOptions options;
  options.codec = codec;
  auto writer = TermVectorsWriter::Create(dir, segment, SegmentId{}, options);
  if (!writer.ok()) Die("create", writer.status());
  for (const auto& doc : corpus.vectors) {
    if (absl::Status s = (*writer)->AddDocument(doc); !s.ok()) Die("add", s);
  }
  if (absl::Status s = (*writer)->Finish(); !s.ok()) Die("finish", s);
  return (*writer)->file_names();
}

void DeleteAll(Directory* dir, const std::vector<std::string>& names) {
  for (const std::string& name : names) (void)dir->DeleteFile(name);
}

void BM_StoredWrite(benchmark::State& state, CompressionCodec codec, size_t block_bytes) {
  const Corpus& corpus = GetCorpus();
  auto dir = OpenDir();
  uint64_t bytes = 0;
  for (auto _ : state) {
    const auto names =
        WriteStored(dir.get(), absl::StrCat("_w", segment_counter++), codec, block_bytes);
    state.PauseTiming();
    bytes = FilesBytes(dir.get(), names);
    DeleteAll(dir.get(), names);
    state.ResumeTiming();
  }
  const double docs = static_cast<double>(corpus.titles.size());
  state.counters["bytes_per_doc"] = static_cast<double>(bytes) / docs;
  state.counters["ratio"] = static_cast<double>(corpus.stored_bytes) / static_cast<double>(bytes);
  state.counters["MB_per_s"] = benchmark::Counter(static_cast<double>(corpus.stored_bytes) / 1e6,
                                                  benchmark::Counter::kIsIterationInvariantRate);
}

// One stored segment per codec, written on first use, and its reader.
StoredFieldsReader& StoredReader(CompressionCodec codec) {
  static std::map<CompressionCodec, std::unique_ptr<StoredFieldsReader>> readers;
  std::unique_ptr<StoredFieldsReader>& reader = readers[codec];
  if (reader == nullptr) {
    static std::unique_ptr<FSDirectory> dir = OpenDir();
    const std::string segment = absl::StrCat("_s", CodecName(codec));
    WriteStored(dir.get(), segment, codec, 60 * 1024);
    auto opened = StoredFieldsReader::Open(dir.get(), segment, SegmentId{},
                                           static_cast<uint32_t>(GetCorpus().titles.size()));
    if (!opened.ok()) Die("open", opened.status());
    reader = *std::move(opened);
    reader->data_input().set_prefetch_policy(PrefetchPolicy::kOff);  // cached: measure decoding
  }
  return *reader;
}

void BM_StoredDocument(benchmark::State& state, CompressionCodec codec, bool sequential) {
  const StoredFieldsReader& reader = StoredReader(codec);
  const uint32_t n = reader.num_docs();
  Random rng(42);
  uint32_t next = 0;
  for (auto _ : state) {
    const uint32_t doc = sequential ? next++ % n : static_cast<uint32_t>(rng.Uniform(n));
    auto fields = reader.Document(doc);
    if (!fields.ok()) Die("document", fields.status());
    benchmark::DoNotOptimize(fields);
  }
  state.counters["blocks"] = static_cast<double>(reader.block_count());
}

void BM_StoredDocuments16(benchmark::State& state, CompressionCodec codec) {
  const StoredFieldsReader& reader = StoredReader(codec);
  const uint32_t n = reader.num_docs();
  Random rng(43);
  std::vector<uint32_t> docs(16);
  for (auto _ : state) {
    for (uint32_t& d : docs) d = static_cast<uint32_t>(rng.Uniform(n));
    auto got = reader.Documents(docs);
    if (!got.ok()) Die("documents", got.status());
    benchmark::DoNotOptimize(got);
  }
}

uint64_t VectorsNoneBytes() {
  static const uint64_t bytes = [] {
    auto dir = OpenDir();
    const auto names = WriteVectors(dir.get(), "_tvsize", CompressionCodec::kNone);
    const uint64_t total = FilesBytes(dir.get(), names);
    DeleteAll(dir.get(), names);
    return total;
  }();
  return bytes;
}

void BM_TvWrite(benchmark::State& state, CompressionCodec codec) {
  const Corpus& corpus = GetCorpus();
  auto dir = OpenDir();
  uint64_t bytes = 0;
  for (auto _ : state) {
    const auto names = WriteVectors(dir.get(), absl::StrCat("_t", segment_counter++), codec);
    state.PauseTiming();
    bytes = FilesBytes(dir.get(), names);
    DeleteAll(dir.get(), names);
    state.ResumeTiming();
  }
  const double docs = static_cast<double>(corpus.vectors.size());
  state.counters["bytes_per_doc"] = static_cast<double>(bytes) / docs;
  double terms = 0;
  for (const auto& doc : corpus.vectors) {
    for (const TermVectorFieldData& f : doc) terms += static_cast<double>(f.terms.size());
  }
  state.counters["terms_per_doc"] = terms / docs;
  state.counters["ratio_vs_none"] =
      static_cast<double>(VectorsNoneBytes()) / static_cast<double>(bytes);
  state.counters["docs_per_s"] =
      benchmark::Counter(docs, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_TvGet(benchmark::State& state, CompressionCodec codec) {
  static std::map<CompressionCodec, std::unique_ptr<TermVectorsReader>> readers;
  std::unique_ptr<TermVectorsReader>& reader = readers[codec];
  if (reader == nullptr) {
    static std::unique_ptr<FSDirectory> dir = OpenDir();
    const std::string segment = absl::StrCat("_v", CodecName(codec));
    WriteVectors(dir.get(), segment, codec);
    auto opened = TermVectorsReader::Open(dir.get(), segment, SegmentId{},
                                          static_cast<uint32_t>(GetCorpus().vectors.size()));
    if (!opened.ok()) Die("open", opened.status());
    reader = *std::move(opened);
    reader->data_input().set_prefetch_policy(PrefetchPolicy::kOff);
  }
  const uint32_t n = reader->num_docs();
  Random rng(44);
  for (auto _ : state) {
    auto got = reader->Get(static_cast<uint32_t>(rng.Uniform(n)));
    if (!got.ok()) Die("get", got.status());
    benchmark::DoNotOptimize(got);
  }
  state.counters["blocks"] = static_cast<double>(reader->block_count());
}

void RegisterAll() {
  const CompressionCodec codecs[] = {CompressionCodec::kLz4, CompressionCodec::kZstd,
                                     CompressionCodec::kNone};
  for (CompressionCodec codec : codecs) {
    for (size_t block : {size_t{16} << 10, size_t{60} << 10}) {
      benchmark::RegisterBenchmark(
          absl::StrCat("stored/write/", CodecName(codec), "/", block >> 10, "K").c_str(),
          BM_StoredWrite, codec, block)
          ->Unit(benchmark::kMillisecond);
    }
  }
  for (CompressionCodec codec : codecs) {
    for (bool sequential : {false, true}) {
      benchmark::RegisterBenchmark(absl::StrCat("stored/document/", CodecName(codec), "/",
                                                sequential ? "sequential" : "random")
                                       .c_str(),
                                   BM_StoredDocument, codec, sequential)
          ->Unit(benchmark::kMicrosecond);
    }
    benchmark::RegisterBenchmark(absl::StrCat("stored/documents16/", CodecName(codec)).c_str(),
                                 BM_StoredDocuments16, codec)
        ->Unit(benchmark::kMicrosecond);
  }
  for (CompressionCodec codec : codecs) {
    benchmark::RegisterBenchmark(absl::StrCat("tv/write/", CodecName(codec)).c_str(), BM_TvWrite,
                                 codec)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(absl::StrCat("tv/get/", CodecName(codec), "/random").c_str(),
                                 BM_TvGet, codec)
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace
}  // namespace invert::bench

int main(int argc, char** argv) {
#ifndef NDEBUG
  std::fprintf(stderr, "WARNING: assertions are enabled; benchmarks are unnecessarily slow\n");
#endif
  invert::bench::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

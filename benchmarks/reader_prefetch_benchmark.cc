// Reader prefetch benchmark (design notes, benchmarks section 3; seeds 000
// and 001 on a real index; results in docs/prefetch.md). The microbenchmark
// in prefetch_benchmark.cc reads random bytes of one file; this one builds an
// index with invert::IndexWriter from a corpus written by invert-gen and
// measures what a query does with it:
//
//   terms/k<K>/<cache>/<path>   K random terms of "body" looked up in every
//       segment (IndexTermLookup), then for each term found the first doc
//       and first position of its postings (what a query's setup reads).
//       Terms are drawn uniformly from the segments' dictionaries (so mostly
//       rare terms, whose postings are a few bytes).
//   docs/k<K>/<cache>/<path>    K random documents fetched
//       (CommitReader::FetchDocuments: stored fields, and term vectors when
//       the index has them).
//   mixed<hit%>/<terms|docs>/k16/<path>   seed 000's pattern on the index:
//       the index evicted once, a hot set of 512 terms or docs read once,
//       then each iteration's 16 terms or docs come from the hot set with
//       probability hit%, else are random ones (almost always cold).
//   advance/df<N>k/<cache>/<path>   one long PostingsCursor::Advance over the
//       skip headers of a frequent term (doc_freq >= N * 1024: 16k = at least
//       128 blocks, 64k = the longest lists) to a random target in
//       the last three quarters of its segment; timed alone. "off" has no
//       skip prefetch; the others prefetch through the policy.
//
// cache: "warm" = every page of the index cached and mapped by the reader
// before the run; "cold" = before every iteration (untimed) the whole index
// is evicted while the reader stays open (EvictAll: the reader's mappings
// drop their pages, then posix_fadvise(POSIX_FADV_DONTNEED) on every file;
// resident_pct: what mincore still finds, the most over the iterations).
// The reader's in-memory parts (dictionary block indexes, doc-file block
// tables) stay, as they would in a long-lived reader.
// path: off, always, backoff (PrefetchPolicy of the reader), uring (policy
// off, and the ranges the prefetching passes would advise are read with a
// BatchReader per file and segment instead: io_uring where it works).
// ReadAdvice kRandom on every file, as a reader of an index larger than
// memory would set (--reader_read_advice=normal: the kernel's default
// read-around, read_ahead_kb of the disk: 8 MiB on the development VM).
//
// Counters: p50_ns p90_ns p99_ns per iteration, madvise/mincore/syscalls
// (io_uring_enter or pread) per iteration, resident_pct. Warm runs also do
// every iteration's work through a second reader with policy off (advance:
// the same enum walk without skip prefetch), before or after the measured
// one in turn, and report its p50_off_ns and p50_vs_off = p50_ns /
// p50_off_ns: a ratio to "off" measured under the same load, which on a
// shared machine moves less than runs measured minutes apart.
//
// Flags (before Google Benchmark's own): --reader_docs=N (default 100000:
// ~100 MB of text), --reader_dir=DIR (default <temp>/invert_reader_prefetch_
// <docs>; the index is built once and reused), --reader_gen=PATH (invert-gen;
// default the one built with this binary), --reader_ram_mb=M (IndexWriter
// buffer, default 512), --reader_term_vectors=0|1 (default 1),
// --reader_iterations_scale=X, --reader_read_advice=random|normal.
//   invert_reader_prefetch_benchmark --reader_docs=400000
//       --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codec/segment_files.h"
#include "codec/stored_fields_format.h"
#include "codec/term_lookup.h"
#include "codec/term_vectors_format.h"
#include "index/commit_reader.h"
#include "invert/directory.h"
#include "invert/index_writer.h"
#include "invert/line_docs.h"
#include "latency_report.h"
#include "store/batch_reader.h"
#include "store/codec_util.h"
#include "store/index_input.h"
#include "util/random.h"

#ifndef INVERT_GEN_PATH
#define INVERT_GEN_PATH "invert-gen"
#endif

namespace invert::bench {
namespace {

constexpr std::string_view kField = "body";
constexpr size_t kHotSet = 512;
constexpr uint32_t kFrequentDocFreq = 16384;
constexpr size_t kTermPool = 50000;

enum class Path { kOff, kAlways, kBackoff, kUring };

const char* PathName(Path path) {
  switch (path) {
    case Path::kOff:
      return "off";
    case Path::kAlways:
      return "always";
    case Path::kBackoff:
      return "backoff";
    case Path::kUring:
      return "uring";
  }
  return "?";
}

PrefetchPolicy PolicyOf(Path path) {
  return path == Path::kAlways    ? PrefetchPolicy::kAlways
         : path == Path::kBackoff ? PrefetchPolicy::kBackoff
                                  : PrefetchPolicy::kOff;
}

struct Flags {
  uint64_t docs = 100000;
  std::string dir;
  std::string gen = INVERT_GEN_PATH;
  double ram_mb = 512;
  bool term_vectors = true;
  double iterations_scale = 1.0;
  ReadAdvice advice = ReadAdvice::kRandom;
};
Flags flags;

void Die(const std::string& what, const absl::Status& status) {
  std::fprintf(stderr, "reader prefetch benchmark: %s: %s\n", what.c_str(),
               status.ToString().c_str());
  std::exit(1);
}

// A per-document file's block table, parsed from its index file (format:
// docs/format-docfiles.md), for the io_uring path: block b holds docs
// [first_docs[b], first_docs[b + 1]) at data offsets [offsets[b], offsets[b + 1]).
struct BlockTable {
  std::vector<uint32_t> first_docs;
  std::vector<uint64_t> offsets;
};

BlockTable ReadBlockTable(Directory* dir, const std::string& segment, std::string_view index_ext,
                          std::string_view index_codec, std::string_view data_codec) {
  const std::string name = SegmentFileName(segment, index_ext);
  absl::StatusOr<IndexInput> in = OpenInput(dir, name);
  if (!in.ok()) Die("open " + name, in.status());
  BlockTable table;
  uint32_t num_docs = 0, block_count = 0, max_block_bytes = 0;
  if (!in->Seek(HeaderLength(index_codec)).ok() || !in->ReadVInt32(&num_docs) ||
      !in->ReadVInt32(&block_count) || !in->ReadVInt32(&max_block_bytes)) {
    Die("read " + name, in->status());
  }
  table.first_docs.push_back(0);
  table.offsets.push_back(HeaderLength(data_codec) + 1);
  for (uint32_t b = 0; b < block_count; ++b) {
    uint32_t docs = 0;
    uint64_t length = 0;
    if (!in->ReadVInt32(&docs) || !in->ReadVInt64(&length)) Die("read " + name, in->status());
    table.first_docs.push_back(table.first_docs.back() + docs);
    table.offsets.push_back(table.offsets.back() + length);
  }
  return table;
}

// What the io_uring path needs of one segment.
struct SegmentUring {
  std::unique_ptr<BatchReader> tim, doc, pos, fdt, tvd;
  BlockTable stored, vectors;
};

// The index, its reader and the inputs of the runs.
struct Bench {
  std::string path;
  std::unique_ptr<FSDirectory> dir;  // for eviction checks (own mappings)
  std::vector<std::string> files;    // every file of the index
  std::unique_ptr<CommitReader> reader;
  std::unique_ptr<IndexTermLookup> lookup;
  bool warm = false;  // every page read through the reader's mappings
  // A second reader, policy off, that warm runs interleave with the first
  // for a same-conditions baseline (counter p50_vs_off).
  std::unique_ptr<CommitReader> off_reader;
  std::unique_ptr<IndexTermLookup> off_lookup;
  bool off_warm = false;
  std::vector<uint32_t> field;  // "body"'s number per segment
  bool positions = false;
  bool vectors = false;
  std::vector<SegmentUring> uring;
  std::vector<std::string> terms;  // pool, drawn uniformly
  struct Frequent {
    size_t segment;
    std::string term;
    uint32_t doc_freq;
  };
  std::vector<Frequent> frequent;  // doc_freq >= kFrequentDocFreq
  std::vector<uint8_t> scratch;    // io_uring destination
  uint64_t sink = 0;
};
Bench* bench = nullptr;

// --------------------------------------------------------------- the index

bool IndexIsUsable() {
  auto reader = CommitReader::Open(bench->path);
  if (!reader.ok() || (*reader)->doc_count() != flags.docs) return false;
  const FieldInfo* body = (*reader)->segment(0).FieldByName(kField);
  return body != nullptr && body->type.term_vectors == flags.term_vectors;
}

void BuildIndex() {
  std::error_code ec;
  std::filesystem::remove_all(bench->path, ec);
  const std::string corpus = bench->path + ".lines";
  const std::string command = "'" + flags.gen + "' --docs " + std::to_string(flags.docs) +
                              " --seed 1 --quiet -o '" + corpus + "'";
  std::fprintf(stderr, "reader prefetch benchmark: %s\n", command.c_str());
  if (std::system(command.c_str()) != 0) Die("invert-gen", absl::UnknownError(command));
  auto source = OpenLineDocs(corpus);
  if (!source.ok()) Die("open corpus", source.status());
  IndexWriterOptions options;
  options.ram_buffer_mb = flags.ram_mb;
  options.threads = 1;
  auto writer = IndexWriter::Open(bench->path, options);
  if (!writer.ok()) Die("open writer", writer.status());
  LineDocSchemaOptions schema_options;
  schema_options.store_body = true;
  schema_options.body_term_vectors = flags.term_vectors;
  const LineDocSchema schema(schema_options);
  Document doc;
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    absl::StatusOr<SourceDoc> next = (*source)->Next();
    if (absl::IsOutOfRange(next.status())) break;
    if (!next.ok()) Die("read corpus", next.status());
    schema.Build(next->id, next->title, next->date, next->body, &doc);
    if (absl::Status s = (*writer)->AddDocument(doc); !s.ok()) Die("add document", s);
  }
  if (absl::Status s = (*writer)->Close(); !s.ok()) Die("close writer", s);
  std::filesystem::remove(corpus, ec);
  std::fprintf(stderr, "reader prefetch benchmark: indexed %llu docs in %.0f s\n",
               static_cast<unsigned long long>(flags.docs),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

std::unique_ptr<CommitReader> OpenReader(PrefetchPolicy policy) {
  auto reader = CommitReader::Open(bench->dir.get());
  if (!reader.ok()) Die("open reader", reader.status());
  (*reader)->SetPrefetchPolicy(policy);
  if (absl::Status s = (*reader)->SetReadAdvice(flags.advice); !s.ok()) Die("advise", s);
  return *std::move(reader);
}

// Gives the runs' reader `policy` and both readers fresh lookups (counters,
// backoff state).
void UsePolicy(PrefetchPolicy policy) {
  bench->reader->SetPrefetchPolicy(policy);
  bench->lookup = std::make_unique<IndexTermLookup>(bench->reader.get());
  bench->off_lookup = std::make_unique<IndexTermLookup>(bench->off_reader.get());
}

// Percentage of the index's pages in memory, by mincore over fresh mappings.
double ResidentPercent() {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  uint64_t pages = 0, resident = 0;
  std::vector<unsigned char> vec;
  for (const std::string& name : bench->files) {
    auto file = bench->dir->OpenFile(name);
    if (!file.ok() || (*file)->size() == 0) continue;
    const uint64_t n = ((*file)->size() + page - 1) / page;
    vec.assign(n, 0);
    if (::mincore(const_cast<uint8_t*>((*file)->bytes().data()), (*file)->size(), vec.data()) < 0) {
      return -1;
    }
    pages += n;
    for (unsigned char v : vec) resident += v & 1;
  }
  return pages == 0 ? 0 : 100.0 * static_cast<double>(resident) / static_cast<double>(pages);
}

// Drops every index file's pages from the page cache, except those a live
// mapping maps (the kernel skips them).
void EvictFiles() {
  for (const std::string& name : bench->files) {
    const std::string file = bench->path + "/" + name;
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) Die("open for eviction", absl::ErrnoToStatus(errno, file));
    const int error = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
    if (error != 0) Die("posix_fadvise", absl::ErrnoToStatus(error, file));
  }
}

// Drops the index from the page cache while the reader stays open (as a
// long-lived reader whose pages memory pressure evicted). The kernel does not
// drop pages that a mapping maps, so first the reader's mappings of the files
// the runs read lose their page table entries (madvise(MADV_DONTNEED) on a
// shared file mapping: the next access faults the page back in from the
// file), then every file gets posix_fadvise(POSIX_FADV_DONTNEED). Returns
// what mincore still finds resident.
double EvictAll() {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  for (const CommitReader* reader : {bench->reader.get(), bench->off_reader.get()}) {
    for (size_t s = 0; s < reader->segment_count(); ++s) {
      const SegmentReader& segment = reader->segment(s);
      for (std::span<const uint8_t> bytes :
           {segment.terms_input().bytes(), segment.doc_file(), segment.pos_file(),
            segment.stored_fields().data_input().bytes(),
            segment.term_vectors().data_input().bytes()}) {
        if (bytes.empty()) continue;
        const uintptr_t begin = reinterpret_cast<uintptr_t>(bytes.data()) & ~(page - 1);
        const uintptr_t end = reinterpret_cast<uintptr_t>(bytes.data() + bytes.size());
        if (::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED) != 0) {
          Die("madvise(MADV_DONTNEED)", absl::ErrnoToStatus(errno, "index mapping"));
        }
      }
    }
  }
  EvictFiles();
  bench->warm = bench->off_warm = false;
  return ResidentPercent();
}

// Reads one byte of every page of every file the runs read, through the
// reader's own mappings (so warm runs take no page faults at all).
void WarmEverything(const CommitReader& reader, bool* warm) {
  if (*warm) return;
  uint64_t sum = 0;
  for (size_t s = 0; s < reader.segment_count(); ++s) {
    const SegmentReader& segment = reader.segment(s);
    for (std::span<const uint8_t> bytes :
         {segment.terms_input().bytes(), segment.doc_file(), segment.pos_file()}) {
      for (size_t i = 0; i < bytes.size(); i += 4096) sum += bytes[i];
    }
  }
  // The stored fields and term vectors: fetch every document once.
  std::vector<uint64_t> docs;
  CommitReader::FetchOptions options;
  options.term_vectors = bench->vectors;
  for (uint64_t d = 0; d < reader.doc_count(); d += 1024) {
    docs.clear();
    for (uint64_t i = d; i < std::min(reader.doc_count(), d + 1024); ++i) docs.push_back(i);
    auto fetched = reader.FetchDocuments(docs, options);
    if (!fetched.ok()) Die("warm", fetched.status());
    sum += fetched->size();
  }
  benchmark::DoNotOptimize(sum);
  *warm = true;
}

void WarmBoth() {
  WarmEverything(*bench->reader, &bench->warm);
  WarmEverything(*bench->off_reader, &bench->off_warm);
}

void PrepareIndex() {
  if (!IndexIsUsable()) BuildIndex();
  auto dir = FSDirectory::Open(bench->path, /*create=*/false);
  if (!dir.ok()) Die("open index", dir.status());
  bench->dir = *std::move(dir);
  bench->reader = OpenReader(PrefetchPolicy::kOff);
  bench->off_reader = OpenReader(PrefetchPolicy::kOff);
  UsePolicy(PrefetchPolicy::kOff);
  const CommitReader& reader = *bench->reader;
  for (size_t s = 0; s < reader.segment_count(); ++s) {
    for (const SegmentFile& f : reader.segment(s).info().files) bench->files.push_back(f.name);
    bench->files.push_back(reader.segment(s).info().name + ".si");
  }
  // Sizes, for the record.
  uint64_t total = 0;
  std::string by_ext;
  for (const char* ext : {"tim", "doc", "pos", "fdt", "tvd"}) {
    uint64_t bytes = 0;
    for (const std::string& f : bench->files) {
      if (f.ends_with(std::string(".") + ext)) bytes += *bench->dir->FileLength(f);
    }
    by_ext += std::string(" .") + ext + " " + std::to_string(bytes >> 20) + " MiB";
  }
  for (const std::string& f : bench->files) total += *bench->dir->FileLength(f);
  std::fprintf(stderr, "reader prefetch benchmark: %llu docs, %zu segments, %llu MiB:%s\n",
               static_cast<unsigned long long>(reader.doc_count()), reader.segment_count(),
               static_cast<unsigned long long>(total >> 20), by_ext.c_str());

  // Fields, term pools, io_uring readers.
  Random rng(20240521);
  std::vector<uint64_t> term_counts;
  for (size_t s = 0; s < reader.segment_count(); ++s) {
    const SegmentReader& segment = reader.segment(s);
    const FieldInfo* body = segment.FieldByName(kField);
    if (body == nullptr || segment.Terms(body->number) == nullptr) Die("no body", {});
    bench->field.push_back(body->number);
    bench->positions = HasPositions(body->type.index_options);
    bench->vectors = body->type.term_vectors;
    term_counts.push_back(segment.Terms(body->number)->term_count());
  }
  uint64_t all_terms = 0;
  for (uint64_t c : term_counts) all_terms += c;
  for (size_t i = 0; i < kTermPool; ++i) {
    uint64_t pick = rng.Uniform(all_terms);
    size_t s = 0;
    while (pick >= term_counts[s]) pick -= term_counts[s++];
    TermDictCursor cursor = reader.segment(s).Terms(bench->field[s])->NewCursor();
    if (!cursor.SeekOrdinal(pick).ok()) Die("sample terms", {});
    bench->terms.emplace_back(cursor.term());
  }
  for (size_t s = 0; s < reader.segment_count(); ++s) {
    TermDictCursor cursor = reader.segment(s).Terms(bench->field[s])->NewCursor();
    for (;;) {
      absl::StatusOr<bool> next = cursor.Next();
      if (!next.ok() || !*next) break;
      if (cursor.stats().doc_freq >= kFrequentDocFreq) {
        bench->frequent.push_back({s, std::string(cursor.term()), cursor.stats().doc_freq});
      }
    }
  }
  for (size_t s = 0; s < reader.segment_count(); ++s) {
    const std::string& name = reader.segment(s).info().name;
    SegmentUring u;
    BatchReader::Options options;
    options.queue_depth = 64;
    auto open = [&](const char* ext) {
      auto r = BatchReader::Open(bench->path + "/" + SegmentFileName(name, ext), options);
      if (!r.ok()) Die("batch reader", r.status());
      return *std::move(r);
    };
    u.tim = open("tim");
    u.doc = open("doc");
    u.pos = open("pos");
    u.fdt = open("fdt");
    u.tvd = open("tvd");
    u.stored = ReadBlockTable(bench->dir.get(), name, kStoredFieldsIndexExtension,
                              kStoredFieldsIndexCodec, kStoredFieldsDataCodec);
    u.vectors = ReadBlockTable(bench->dir.get(), name, kTermVectorsIndexExtension,
                               kTermVectorsIndexCodec, kTermVectorsDataCodec);
    bench->uring.push_back(std::move(u));
  }
  std::fprintf(stderr,
               "reader prefetch benchmark: %llu body terms, %zu frequent (doc_freq >= %u), "
               "io_uring %s, read advice %s\n",
               static_cast<unsigned long long>(all_terms), bench->frequent.size(), kFrequentDocFreq,
               IoUringAvailable() ? "available" : "unavailable (pread pool)",
               flags.advice == ReadAdvice::kRandom ? "random" : "normal");
}

// ------------------------------------------------------------- iterations

// Reads `ranges` of one file with one batch (io_uring: one enter).
void ReadRanges(BatchReader& reader, const std::vector<FileRange>& ranges) {
  if (ranges.empty()) return;
  uint64_t total = 0;
  for (const FileRange& r : ranges) total += r.length;
  if (bench->scratch.size() < total) bench->scratch.resize(total);
  std::vector<ReadRequest> requests;
  uint64_t at = 0;
  for (const FileRange& r : ranges) {
    requests.push_back({r.offset, {bench->scratch.data() + at, static_cast<size_t>(r.length)}});
    at += r.length;
  }
  if (absl::Status s = reader.Read(requests); !s.ok()) Die("batch read", s);
}

// K term lookups in every segment, then the first doc and position of each
// term found.
void LookUpTerms(Path path, IndexTermLookup& lookup, std::span<const std::string_view> terms) {
  std::vector<std::vector<std::optional<TermStats>>> found;
  if (path == Path::kUring) {
    // The same passes, with reads instead of prefetches (policy off).
    const size_t segments = lookup.segment_count();
    for (size_t s = 0; s < segments; ++s) {
      ReadRanges(*bench->uring[s].tim, lookup.segment(s).BlockRanges(bench->field[s], terms));
    }
    found.resize(segments);
    for (size_t s = 0; s < segments; ++s) {
      auto f = lookup.segment(s).SeekAndPrefetch(bench->field[s], terms);
      if (!f.ok()) Die("lookup", f.status());
      found[s] = *std::move(f);
      std::vector<FileRange> doc_ranges, pos_ranges;
      for (const std::optional<TermStats>& stats : found[s]) {
        if (!stats) continue;
        std::optional<FileRange> doc, pos;
        lookup.segment(s).PostingsRanges(bench->field[s], *stats, &doc, &pos);
        if (doc) doc_ranges.push_back(*doc);
        if (pos) pos_ranges.push_back(*pos);
      }
      ReadRanges(*bench->uring[s].doc, doc_ranges);
      ReadRanges(*bench->uring[s].pos, pos_ranges);
    }
  } else {
    auto f = lookup.Lookup(kField, terms);
    if (!f.ok()) Die("lookup", f.status());
    found = *std::move(f);
  }
  uint64_t sum = 0;
  for (size_t s = 0; s < found.size(); ++s) {
    for (const std::optional<TermStats>& stats : found[s]) {
      if (!stats) continue;
      PostingsCursor postings = lookup.segment(s).Postings(bench->field[s], *stats, false);
      if (!postings.NextDoc()) Die("postings", postings.status());
      sum += postings.doc();
      if (bench->positions) {
        if (!postings.NextPosition()) Die("positions", postings.status());
        sum += postings.position();
      }
    }
  }
  bench->sink += sum;
}

void AddBlocks(const BlockTable& table, uint32_t doc, std::vector<FileRange>* ranges) {
  const size_t b =
      static_cast<size_t>(std::upper_bound(table.first_docs.begin(), table.first_docs.end(), doc) -
                          table.first_docs.begin() - 1);
  ranges->push_back({table.offsets[b], table.offsets[b + 1] - table.offsets[b]});
}

void FetchDocs(Path path, const CommitReader& reader, std::span<const uint64_t> docs) {
  if (path == Path::kUring) {
    for (size_t s = 0; s < reader.segment_count(); ++s) {
      std::vector<FileRange> stored, vectors;
      for (uint64_t doc : docs) {
        if (reader.SegmentOf(doc) != s) continue;
        const uint32_t local = static_cast<uint32_t>(doc - reader.doc_base(s));
        AddBlocks(bench->uring[s].stored, local, &stored);
        if (bench->vectors) AddBlocks(bench->uring[s].vectors, local, &vectors);
      }
      for (std::vector<FileRange>* ranges : {&stored, &vectors}) {
        std::sort(ranges->begin(), ranges->end(),
                  [](const FileRange& a, const FileRange& b) { return a.offset < b.offset; });
        ranges->erase(std::unique(ranges->begin(), ranges->end()), ranges->end());
      }
      ReadRanges(*bench->uring[s].fdt, stored);
      ReadRanges(*bench->uring[s].tvd, vectors);
    }
  }
  CommitReader::FetchOptions options;
  options.term_vectors = bench->vectors;
  auto fetched = reader.FetchDocuments(docs, options);
  if (!fetched.ok()) Die("fetch", fetched.status());
  uint64_t sum = 0;
  for (const CommitReader::FetchedDocument& d : *fetched)
    sum += d.stored.size() + d.term_vectors.size();
  bench->sink += sum;
}

// ------------------------------------------------------------- reporting

using Clock = std::chrono::steady_clock;

uint64_t Nanos(Clock::time_point a, Clock::time_point b) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count());
}

// madvise, mincore and batch syscalls of the current reader so far.
struct Calls {
  uint64_t madvise = 0, mincore = 0, syscalls = 0;
};

Calls CurrentCalls() {
  Calls c;
  const PrefetchStats terms = bench->lookup->prefetch_stats();
  const SegmentReader::DocFilesPrefetchStats docs = bench->reader->doc_files_prefetch_stats();
  c.madvise = terms.madvise + docs.stored.madvise + docs.vectors.madvise;
  c.mincore = terms.mincore + docs.stored.mincore + docs.vectors.mincore;
  for (const SegmentUring& u : bench->uring) {
    for (const BatchReader* r : {u.tim.get(), u.doc.get(), u.pos.get(), u.fdt.get(), u.tvd.get()}) {
      c.syscalls += r->syscalls();
    }
  }
  return c;
}

struct Run {
  std::vector<uint64_t> latencies;
  std::vector<uint64_t> off_latencies;  // interleaved baseline (warm runs)
  Calls calls;
  double resident_pct = 0;  // warm: at the start; cold: the most after an eviction
  void Add(const Calls& before, const Calls& after) {
    calls.madvise += after.madvise - before.madvise;
    calls.mincore += after.mincore - before.mincore;
    calls.syscalls += after.syscalls - before.syscalls;
  }
};

void Report(benchmark::State& state, Run& run) {
  const double n = static_cast<double>(std::max<size_t>(run.latencies.size(), 1));
  ReportLatencyPercentiles(state, run.latencies);
  if (!run.off_latencies.empty()) {
    std::sort(run.off_latencies.begin(), run.off_latencies.end());
    state.counters["p50_off_ns"] = QuantileOfSorted(run.off_latencies, 0.50);
    state.counters["p50_vs_off"] = state.counters["p50_ns"] / state.counters["p50_off_ns"];
  }
  state.counters["madvise_per_iter"] = static_cast<double>(run.calls.madvise) / n;
  state.counters["mincore_per_iter"] = static_cast<double>(run.calls.mincore) / n;
  state.counters["syscalls_per_iter"] = static_cast<double>(run.calls.syscalls) / n;
  state.counters["resident_pct"] = run.resident_pct;
  benchmark::DoNotOptimize(bench->sink);
}

// ------------------------------------------------------------- scenarios

enum class Work { kTerms, kDocs };

// One iteration's inputs.
struct Inputs {
  std::vector<std::string_view> terms;
  std::vector<uint64_t> docs;
};

void Draw(Work work, size_t k, Random& rng, Inputs* in) {
  in->terms.clear();
  in->docs.clear();
  for (size_t i = 0; i < k; ++i) {
    if (work == Work::kTerms) {
      in->terms.push_back(bench->terms[rng.Uniform(bench->terms.size())]);
    } else {
      in->docs.push_back(rng.Uniform(bench->reader->doc_count()));
    }
  }
}

void Execute(Work work, Path path, const Inputs& in) {
  if (work == Work::kTerms) {
    LookUpTerms(path, *bench->lookup, in.terms);
  } else {
    FetchDocs(path, *bench->reader, in.docs);
  }
}

// The same work through the policy-off reader.
void ExecuteOff(Work work, const Inputs& in) {
  if (work == Work::kTerms) {
    LookUpTerms(Path::kOff, *bench->off_lookup, in.terms);
  } else {
    FetchDocs(Path::kOff, *bench->off_reader, in.docs);
  }
}

void RandomReads(benchmark::State& state, Work work, size_t k, bool cold, Path path) {
  const PrefetchPolicy policy = PolicyOf(path);
  Random rng(0x5eed + k * 31 + static_cast<uint64_t>(work));
  Run run;
  Inputs in;
  UsePolicy(policy);
  if (!cold) {
    WarmBoth();
    for (int i = 0; i < 50; ++i) {  // untimed warm-up of the code paths
      Draw(work, k, rng, &in);
      Execute(work, path, in);
      ExecuteOff(work, in);
    }
    run.resident_pct = ResidentPercent();
  }
  bool off_first = false;
  for (auto _ : state) {
    Draw(work, k, rng, &in);
    if (cold) {
      state.PauseTiming();
      run.resident_pct = std::max(run.resident_pct, EvictAll());
      state.ResumeTiming();
    }
    // Warm: the same inputs through the policy-off reader too, first every
    // other iteration, for a baseline measured under the same conditions.
    off_first = !off_first;
    if (!cold && off_first) {
      const Clock::time_point start = Clock::now();
      ExecuteOff(work, in);
      run.off_latencies.push_back(Nanos(start, Clock::now()));
    }
    const Calls before = CurrentCalls();
    const Clock::time_point start = Clock::now();
    Execute(work, path, in);
    const Clock::time_point end = Clock::now();
    run.latencies.push_back(Nanos(start, end));
    run.Add(before, CurrentCalls());
    if (!cold && !off_first) {
      const Clock::time_point off_start = Clock::now();
      ExecuteOff(work, in);
      run.off_latencies.push_back(Nanos(off_start, Clock::now()));
    }
  }
  Report(state, run);
}

void Mixed(benchmark::State& state, Work work, int hit_pct, Path path) {
  const PrefetchPolicy policy = PolicyOf(path);
  Random rng(0x5eed0000 + static_cast<uint64_t>(hit_pct) + static_cast<uint64_t>(work));
  Run run;
  UsePolicy(policy);
  run.resident_pct = EvictAll();
  // The hot set, read once (through the same path).
  std::vector<std::string_view> hot_terms;
  std::vector<uint64_t> hot_docs;
  for (size_t i = 0; i < kHotSet; ++i) {
    hot_terms.push_back(bench->terms[rng.Uniform(bench->terms.size())]);
    hot_docs.push_back(rng.Uniform(bench->reader->doc_count()));
  }
  Inputs in;
  for (size_t i = 0; i < kHotSet; i += 16) {
    in.terms.assign(hot_terms.begin() + i, hot_terms.begin() + i + 16);
    in.docs.assign(hot_docs.begin() + i, hot_docs.begin() + i + 16);
    LookUpTerms(path, *bench->lookup, in.terms);
    FetchDocs(path, *bench->reader, in.docs);
  }
  for (auto _ : state) {
    in.terms.clear();
    in.docs.clear();
    for (int i = 0; i < 16; ++i) {
      const bool hit = rng.Uniform(100) < static_cast<uint64_t>(hit_pct);
      if (work == Work::kTerms) {
        in.terms.push_back(hit ? hot_terms[rng.Uniform(kHotSet)]
                               : std::string_view(bench->terms[rng.Uniform(bench->terms.size())]));
      } else {
        in.docs.push_back(hit ? hot_docs[rng.Uniform(kHotSet)]
                              : rng.Uniform(bench->reader->doc_count()));
      }
    }
    const Calls before = CurrentCalls();
    const Clock::time_point start = Clock::now();
    Execute(work, path, in);
    const Clock::time_point end = Clock::now();
    run.latencies.push_back(Nanos(start, end));
    run.Add(before, CurrentCalls());
  }
  Report(state, run);
}

void Advance(benchmark::State& state, uint32_t min_df, bool cold, Path path) {
  std::vector<const Bench::Frequent*> terms;
  for (const Bench::Frequent& f : bench->frequent) {
    if (f.doc_freq >= min_df) terms.push_back(&f);
  }
  if (terms.empty()) {
    state.SkipWithError("no term that frequent: index more documents");
    return;
  }
  const PrefetchPolicy policy = PolicyOf(path);
  Random rng(0xadfa + static_cast<uint64_t>(path));
  Run run;
  UsePolicy(policy);
  if (!cold) {
    WarmBoth();
    run.resident_pct = ResidentPercent();
  }
  bool off_first = false;
  for (auto _ : state) {
    const Bench::Frequent& pick = *terms[rng.Uniform(terms.size())];
    const size_t s = pick.segment;
    const std::string& term = pick.term;
    const uint32_t docs = bench->reader->segment(s).doc_count();
    const uint32_t target = docs / 4 + static_cast<uint32_t>(rng.Uniform(docs - docs / 4));
    if (cold) {
      state.PauseTiming();
      run.resident_pct = std::max(run.resident_pct, EvictAll());
      state.ResumeTiming();
    }
    // The stats through a plain cursor (no postings prefetch), untimed.
    TermDictCursor cursor = bench->reader->segment(s).Terms(bench->field[s])->NewCursor();
    if (!*cursor.SeekExact(term)) Die("frequent term", {});
    TermLookup& lookup = bench->lookup->segment(s);
    PostingsCursor postings = lookup.Postings(bench->field[s], cursor.stats());
    // Warm: the same advance without skip prefetch, interleaved (baseline).
    off_first = !off_first;
    auto advance_off = [&] {
      PostingsCursor plain = lookup.Postings(bench->field[s], cursor.stats(), false);
      const Clock::time_point start = Clock::now();
      const bool found = plain.Advance(target);
      run.off_latencies.push_back(Nanos(start, Clock::now()));
      bench->sink += found ? plain.doc() : 0;
    };
    if (!cold && off_first) advance_off();
    const Calls before = CurrentCalls();
    const Clock::time_point start = Clock::now();
    const bool found = postings.Advance(target);
    const Clock::time_point end = Clock::now();
    bench->sink += found ? postings.doc() : 0;
    run.latencies.push_back(Nanos(start, end));
    run.Add(before, CurrentCalls());
    if (!cold && !off_first) advance_off();
  }
  Report(state, run);
}

int64_t Scaled(int64_t iterations) {
  return std::max<int64_t>(5, static_cast<int64_t>(iterations * flags.iterations_scale));
}

void RegisterAll() {
  constexpr Path kPaths[] = {Path::kOff, Path::kAlways, Path::kBackoff, Path::kUring};
  // Warm runs first (the reader stays warm between them), then cold.
  for (bool cold : {false, true}) {
    for (Work work : {Work::kTerms, Work::kDocs}) {
      for (size_t k : {1, 16, 64}) {
        for (Path path : kPaths) {
          const std::string name = std::string(work == Work::kTerms ? "terms" : "docs") + "/k" +
                                   std::to_string(k) + (cold ? "/cold/" : "/warm/") +
                                   PathName(path);
          int64_t iterations = cold ? (k == 1    ? 60
                                       : k == 16 ? 40
                                                 : 25)
                                    : (k == 1    ? 20000
                                       : k == 16 ? 3000
                                                 : 1000);
          if (!cold && work == Work::kDocs) iterations /= 4;
          benchmark::RegisterBenchmark(
              name.c_str(),
              [=](benchmark::State& state) { RandomReads(state, work, k, cold, path); })
              ->Iterations(Scaled(iterations))
              ->UseRealTime()
              ->Unit(benchmark::kMicrosecond);
        }
      }
    }
    for (uint32_t min_df : {kFrequentDocFreq, 4 * kFrequentDocFreq}) {
      for (Path path : {Path::kOff, Path::kAlways, Path::kBackoff}) {
        const std::string name = "advance/df" + std::to_string(min_df / 1024) + "k" +
                                 (cold ? "/cold/" : "/warm/") + PathName(path);
        benchmark::RegisterBenchmark(
            name.c_str(), [=](benchmark::State& state) { Advance(state, min_df, cold, path); })
            ->Iterations(Scaled(cold ? 40 : 20000))
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
  for (Work work : {Work::kTerms, Work::kDocs}) {
    for (int hit_pct : {50, 90}) {
      for (Path path : kPaths) {
        const std::string name = "mixed" + std::to_string(hit_pct) +
                                 (work == Work::kTerms ? "/terms" : "/docs") + "/k16/" +
                                 PathName(path);
        benchmark::RegisterBenchmark(
            name.c_str(), [=](benchmark::State& state) { Mixed(state, work, hit_pct, path); })
            ->Iterations(Scaled(200))
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
}

// Removes --reader_* flags from argv (Google Benchmark rejects unknown ones).
void ParseFlags(int* argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* flag) -> const char* {
      const std::string prefix = std::string(flag) + "=";
      return arg.rfind(prefix, 0) == 0 ? argv[i] + prefix.size() : nullptr;
    };
    if (const char* v = value("--reader_docs")) {
      flags.docs = std::strtoull(v, nullptr, 10);
    } else if (const char* v2 = value("--reader_dir")) {
      flags.dir = v2;
    } else if (const char* v3 = value("--reader_gen")) {
      flags.gen = v3;
    } else if (const char* v4 = value("--reader_ram_mb")) {
      flags.ram_mb = std::strtod(v4, nullptr);
    } else if (const char* v5 = value("--reader_term_vectors")) {
      flags.term_vectors = std::string(v5) != "0" && std::string(v5) != "false";
    } else if (const char* v6 = value("--reader_iterations_scale")) {
      flags.iterations_scale = std::strtod(v6, nullptr);
    } else if (const char* v7 = value("--reader_read_advice")) {
      flags.advice = std::string(v7) == "normal" ? ReadAdvice::kNormal : ReadAdvice::kRandom;
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  if (flags.docs < 1000) flags.docs = 1000;
  if (flags.dir.empty()) {
    flags.dir = (std::filesystem::temp_directory_path() /
                 ("invert_reader_prefetch_" + std::to_string(flags.docs) +
                  (flags.term_vectors ? "_tv" : "")))
                    .string();
  }
}

}  // namespace
}  // namespace invert::bench

int main(int argc, char** argv) {
  using namespace invert::bench;
  ParseFlags(&argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
#ifndef NDEBUG
  std::fprintf(stderr,
               "reader prefetch benchmark: assertions are enabled; numbers are pessimistic\n");
#endif
  Bench state;
  bench = &state;
  state.path = flags.dir;
  PrepareIndex();
  RegisterAll();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// Benchmarks of the codec primitives (docs/codec-primitives.md quotes them):
//
//   ForDecode/bpv          DecodeForBlock (specialized unpacker per bit width)
//   ForDecodeGeneric/bpv   the same layout unpacked by one loop with a
//                          run-time bit width: what the specialization buys
//   ForEncode/bpv          EncodeForBlock
//   VIntDecode/bpv         the same values as VInts (DecodeVIntTail)
//     counter values_per_ns; 64 blocks (8,192 values) per iteration, in cache.
//
//   Compress/<codec>/<KiB>, Decompress/<codec>/<KiB>
//     a 4 MiB corpus cut into blocks of 16, 60 or 80 KiB; counters ratio
//     (input / output bytes) and MB_per_s (input bytes, 10^6). The corpus is
//     $INVERT_CODEC_CORPUS, else data/sample.lines if present, else
//     generated English-like line documents (see GenerateText).
//
//   TermDictSeekExact/<block_terms>, TermDictSeekExactNoVerify/<bt> (block
//   checksums off), TermDictSeekAbsent/<bt>, TermDictIterate/<bt>,
//   TermDictBuild/<bt>, SortedVectorSeek (baseline: std::lower_bound over a
//   std::vector<std::string> of the same terms)
//     ~1M generated terms; counters ns_per_op, bytes_per_term (file),
//     index_bytes_per_term (reader RAM).
//
// Run with repetitions and quote medians, e.g.
//   invert_codec_benchmark --benchmark_repetitions=5
//     --benchmark_report_aggregates_only=true --benchmark_min_time=0.1
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "codec/block_compressor.h"
#include "codec/byte_io.h"
#include "codec/for_block.h"
#include "codec/term_dict_reader.h"
#include "codec/term_dict_writer.h"
#include "util/random.h"

namespace invert::bench {
namespace {

// ---------------------------------------------------------------- FOR blocks

constexpr size_t kBlocks = 64;

std::vector<uint32_t> RandomValues(int bpv, uint64_t seed) {
  Random rng(seed);
  std::vector<uint32_t> values(kBlocks * kForBlockSize);
  const uint64_t limit = uint64_t{1} << bpv;
  for (uint32_t& v : values) v = static_cast<uint32_t>(rng.Uniform(limit));
  // Force the width: every block holds 0 and 2^bpv - 1.
  for (size_t b = 0; b < kBlocks && bpv > 0; ++b) {
    values[b * kForBlockSize] = 0;
    values[b * kForBlockSize + 1] = static_cast<uint32_t>(limit - 1);
  }
  return values;
}

std::string EncodeAll(const std::vector<uint32_t>& values) {
  std::string out;
  for (size_t b = 0; b < kBlocks; ++b) {
    EncodeForBlock(
        std::span<const uint32_t, kForBlockSize>(values.data() + b * kForBlockSize, kForBlockSize),
        &out);
  }
  return out;
}

void SetValueCounters(benchmark::State& state) {
  state.counters["values_per_ns"] =
      benchmark::Counter(static_cast<double>(kBlocks * kForBlockSize) * 1e-9,
                         benchmark::Counter::kIsIterationInvariantRate);
}

void BM_ForDecode(benchmark::State& state) {
  const int bpv = static_cast<int>(state.range(0));
  const std::string encoded = EncodeAll(RandomValues(bpv, 1));
  std::array<uint32_t, kForBlockSize> out;
  for (auto _ : state) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(encoded.data());
    const uint8_t* end = p + encoded.size();
    for (size_t b = 0; b < kBlocks; ++b) {
      if (!DecodeForBlock(&p, end, out)) state.SkipWithError("decode failed");
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
  }
  SetValueCounters(state);
}

// One loop for every width: 64-bit window, run-time shift and mask.
void UnpackGeneric(int bpv, const uint8_t* in, uint32_t* out) {
  const uint32_t mask = bpv == 32 ? ~uint32_t{0} : (uint32_t{1} << bpv) - 1;
  for (int j = 0; j < 32; ++j) {
    const int bit = j * bpv;
    const int k = bit >> 5;
    const int s = bit & 31;
    for (int l = 0; l < 4; ++l) {
      uint64_t w = LoadFixed32(in + 4 * (4 * k + l));
      if (s + bpv > 32) w |= uint64_t{LoadFixed32(in + 4 * (4 * (k + 1) + l))} << 32;
      out[4 * j + l] = static_cast<uint32_t>(w >> s) & mask;
    }
  }
}

void BM_ForDecodeGeneric(benchmark::State& state) {
  const int bpv = static_cast<int>(state.range(0));
  const std::string encoded = EncodeAll(RandomValues(bpv, 1));
  std::array<uint32_t, kForBlockSize> out;
  for (auto _ : state) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(encoded.data());
    for (size_t b = 0; b < kBlocks; ++b) {
      const int width = *p & kForHeaderBitsMask;
      ++p;
      UnpackGeneric(width, p, out.data());
      p += 16 * width;
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
  }
  SetValueCounters(state);
}

void BM_ForEncode(benchmark::State& state) {
  const int bpv = static_cast<int>(state.range(0));
  const std::vector<uint32_t> values = RandomValues(bpv, 1);
  std::string out;
  out.reserve(kBlocks * kMaxForBlockBytes);
  for (auto _ : state) {
    out.clear();
    for (size_t b = 0; b < kBlocks; ++b) {
      EncodeForBlock(std::span<const uint32_t, kForBlockSize>(values.data() + b * kForBlockSize,
                                                              kForBlockSize),
                     &out);
    }
    benchmark::DoNotOptimize(out.data());
  }
  SetValueCounters(state);
}

void BM_VIntDecode(benchmark::State& state) {
  const int bpv = static_cast<int>(state.range(0));
  const std::vector<uint32_t> values = RandomValues(bpv, 1);
  std::string encoded;
  EncodeVIntTail(values, &encoded);
  std::array<uint32_t, kForBlockSize> out;
  for (auto _ : state) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(encoded.data());
    const uint8_t* end = p + encoded.size();
    for (size_t b = 0; b < kBlocks; ++b) {
      if (!DecodeVIntTail(&p, end, out)) state.SkipWithError("decode failed");
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
  }
  SetValueCounters(state);
}

BENCHMARK(BM_ForDecode)->Name("ForDecode")->DenseRange(0, 32);
BENCHMARK(BM_ForDecodeGeneric)->Name("ForDecodeGeneric")->DenseRange(0, 32);
BENCHMARK(BM_ForEncode)->Name("ForEncode")->DenseRange(0, 32);
BENCHMARK(BM_VIntDecode)
    ->Name("VIntDecode")
    ->Arg(1)
    ->Arg(4)
    ->Arg(7)
    ->Arg(8)
    ->Arg(14)
    ->Arg(21)
    ->Arg(32);

// -------------------------------------------------------------- compression

// English-like text: a Zipf(1.0) mix of the most common English words and
// ~60k syllable-built words, sentences of 6-30 words with capitalization,
// commas, years and numbers, one line document (title TAB date TAB body of
// ~1 KB) per line, as in luceneutil's Wikipedia line files.
const char* const kCommonWords[] = {
    "the",        "of",       "and",      "in",        "to",         "a",          "was",
    "is",         "for",      "as",       "on",        "by",         "with",       "he",
    "that",       "at",       "from",     "his",       "it",         "an",         "were",
    "are",        "which",    "this",     "also",      "be",         "or",         "has",
    "had",        "first",    "one",      "their",     "its",        "new",        "after",
    "but",        "who",      "not",      "they",      "have",       "her",        "she",
    "two",        "been",     "other",    "when",      "there",      "all",        "during",
    "into",       "school",   "time",     "may",       "years",      "more",       "most",
    "only",       "over",     "city",     "some",      "world",      "would",      "where",
    "later",      "up",       "such",     "used",      "many",       "can",        "state",
    "about",      "national", "out",      "known",     "university", "united",     "then",
    "made",       "team",     "season",   "film",      "war",        "american",   "between",
    "under",      "series",   "three",    "area",      "while",      "district",   "second",
    "part",       "since",    "album",    "early",     "released",   "year",       "these",
    "both",       "county",   "john",     "each",      "born",       "music",      "through",
    "government", "history",  "became",   "including", "following",  "population", "several",
    "him",        "north",    "being",    "south",     "family",     "same",       "before",
    "game",       "under",    "river",    "original",  "number",     "high",       "played",
    "life",       "company",  "church",   "group",     "based",      "league",     "however",
    "well",       "work",     "member",   "st",        "any",        "located",    "four",
    "house",      "where",    "age",      "village",   "due",        "town",       "station",
    "club",       "party",    "although", "york",      "public",     "home",       "named",
    "did",        "received", "own",      "number",    "included",   "west",       "east",
    "de",         "career",   "order",    "members",   "french",     "around",     "began",
    "final",      "best",     "five",     "small",     "death",      "british",    "until",
    "end",        "local",    "species",  "served",    "than",       "will",       "third",
    "system",     "main",     "book",     "built",     "great",      "college",    "song",
    "century",    "large",    "road",     "language",  "german",     "side",       "international"};

std::string SyllableWord(Random& rng) {
  static const char* const kOnsets[] = {"b",  "c",  "d",  "f",  "g",  "h",  "j",  "k",  "l",
                                        "m",  "n",  "p",  "r",  "s",  "t",  "v",  "w",  "br",
                                        "ch", "cl", "cr", "dr", "gr", "pl", "pr", "sh", "st",
                                        "th", "tr", "wh", "",   "",   "",   "sp", "str"};
  static const char* const kVowels[] = {"a",  "e",  "i",  "o",  "u",  "ea", "ou",
                                        "ai", "ee", "oo", "io", "ia", "y",  "ie"};
  static const char* const kCodas[] = {"",   "",   "",   "n",  "r",    "s",    "t",   "l",
                                       "nd", "st", "ng", "ck", "rt",   "nt",   "ll",  "m",
                                       "ss", "th", "rd", "ld", "tion", "ment", "ing", "ed"};
  std::string w;
  const int syllables = 1 + static_cast<int>(rng.Uniform(3)) + (rng.Bernoulli(0.2) ? 1 : 0);
  for (int i = 0; i < syllables; ++i) {
    w += kOnsets[rng.Uniform(std::size(kOnsets))];
    w += kVowels[rng.Uniform(std::size(kVowels))];
    if (i + 1 == syllables || rng.Bernoulli(0.3)) w += kCodas[rng.Uniform(std::size(kCodas))];
  }
  return w;
}

std::string GenerateText(size_t bytes) {
  Random rng(20240601);
  std::vector<std::string> vocabulary(std::begin(kCommonWords), std::end(kCommonWords));
  vocabulary.erase(std::remove(vocabulary.begin(), vocabulary.end(), std::string("century")),
                   vocabulary.end());
  while (vocabulary.size() < 60000) vocabulary.push_back(SyllableWord(rng));
  std::vector<double> cdf(vocabulary.size());
  double total = 0;
  for (size_t r = 0; r < cdf.size(); ++r) cdf[r] = total += 1.0 / static_cast<double>(r + 1);
  const auto word = [&]() -> const std::string& {
    const double u = rng.NextDouble() * total;
    return vocabulary[std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin()];
  };
  const auto capitalized = [](std::string w) {
    if (!w.empty() && w[0] >= 'a' && w[0] <= 'z') w[0] = static_cast<char>(w[0] - 'a' + 'A');
    return w;
  };
  std::string text;
  text.reserve(bytes + 2048);
  while (text.size() < bytes) {
    // title TAB date TAB body
    const int title_words = 1 + static_cast<int>(rng.Uniform(3));
    for (int i = 0; i < title_words; ++i) {
      if (i > 0) text += ' ';
      text += capitalized(word());
    }
    text += '\t';
    text += std::to_string(1 + rng.Uniform(28)) + "-" +
            std::array{"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                       "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}[rng.Uniform(12)] +
            "-20" + std::to_string(10 + rng.Uniform(14)) + " 00:00:00.000";
    text += '\t';
    const size_t body_end = text.size() + 600 + rng.Uniform(900);
    while (text.size() < body_end) {
      const int words = 6 + static_cast<int>(rng.Uniform(25));
      for (int i = 0; i < words; ++i) {
        if (i > 0) text += rng.Bernoulli(0.06) ? ", " : " ";
        if (rng.Bernoulli(0.03)) {
          text += std::to_string(rng.Bernoulli(0.6) ? 1800 + rng.Uniform(225) : rng.Uniform(10000));
        } else {
          text += i == 0 || rng.Bernoulli(0.08) ? capitalized(word()) : word();
        }
      }
      text += ". ";
    }
    text += '\n';
  }
  text.resize(bytes);
  return text;
}

struct Corpus {
  std::string bytes;
  std::string source;
};

const Corpus& GetCorpus() {
  static const Corpus corpus = [] {
    constexpr size_t kSize = 4 << 20;
    Corpus c;
    std::string path = "data/sample.lines";
    if (const char* env = std::getenv("INVERT_CODEC_CORPUS"); env != nullptr && *env != '\0') {
      path = env;
    }
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::ostringstream s;
      s << in.rdbuf();
      c.bytes = s.str();
      c.source = path;
    }
    if (c.bytes.size() < kSize / 4) {
      c.bytes = GenerateText(kSize);
      c.source = "generated";
    } else if (c.bytes.size() > kSize) {
      c.bytes.resize(kSize);
    }
    return c;
  }();
  return corpus;
}

std::unique_ptr<BlockCompressor> MakeCompressor(int id) {
  switch (id) {
    case 0:
      return NewLz4Compressor();
    case 1:
      return NewLz4HcCompressor(9);
    case 2:
      return NewZstdCompressor(1);
    default:
      return NewZstdCompressor(3);
  }
}

struct Compressed {
  std::vector<std::string> blocks;
  std::vector<size_t> sizes;
  size_t input = 0;
  size_t output = 0;
};

Compressed CompressAll(BlockCompressor& compressor, size_t block_size) {
  const std::string& corpus = GetCorpus().bytes;
  Compressed c;
  for (size_t at = 0; at < corpus.size(); at += block_size) {
    const std::string_view block = std::string_view(corpus).substr(at, block_size);
    std::string out;
    if (!compressor.Compress(AsBytes(block), &out).ok()) std::abort();
    c.input += block.size();
    c.output += out.size();
    c.sizes.push_back(block.size());
    c.blocks.push_back(std::move(out));
  }
  return c;
}

void SetCompressionCounters(benchmark::State& state, const Compressed& c) {
  state.counters["ratio"] = static_cast<double>(c.input) / static_cast<double>(c.output);
  state.counters["MB_per_s"] = benchmark::Counter(static_cast<double>(c.input) * 1e-6,
                                                  benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(GetCorpus().source);
}

void BM_Compress(benchmark::State& state) {
  auto compressor = MakeCompressor(static_cast<int>(state.range(0)));
  const size_t block_size = static_cast<size_t>(state.range(1)) * 1024;
  const std::string& corpus = GetCorpus().bytes;
  Compressed c = CompressAll(*compressor, block_size);
  std::string out;
  for (auto _ : state) {
    for (size_t at = 0; at < corpus.size(); at += block_size) {
      out.clear();
      (void)compressor->Compress(AsBytes(std::string_view(corpus).substr(at, block_size)), &out);
      benchmark::DoNotOptimize(out.data());
    }
  }
  SetCompressionCounters(state, c);
}

void BM_Decompress(benchmark::State& state) {
  auto compressor = MakeCompressor(static_cast<int>(state.range(0)));
  const size_t block_size = static_cast<size_t>(state.range(1)) * 1024;
  Compressed c = CompressAll(*compressor, block_size);
  std::vector<uint8_t> out(block_size);
  for (auto _ : state) {
    for (size_t i = 0; i < c.blocks.size(); ++i) {
      if (!compressor->DecompressTo(AsBytes(c.blocks[i]), std::span(out.data(), c.sizes[i])).ok()) {
        state.SkipWithError("decompress failed");
      }
      benchmark::DoNotOptimize(out.data());
    }
  }
  SetCompressionCounters(state, c);
}

void CompressionArgs(benchmark::internal::Benchmark* b) {
  b->ArgNames({"codec", "KiB"});
  for (int codec = 0; codec < 4; ++codec) {
    for (int kib : {16, 60, 80}) b->Args({codec, kib});
  }
}

BENCHMARK(BM_Compress)->Name("Compress")->Apply(CompressionArgs)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Decompress)->Name("Decompress")->Apply(CompressionArgs)->Unit(benchmark::kMillisecond);

// ---------------------------------------------------------- term dictionary

constexpr size_t kDictTerms = 1'000'000;

// ~1M distinct terms shaped like an index's vocabulary: syllable words,
// words with suffixes, numbers and a few long identifiers; sorted.
const std::vector<std::string>& DictTerms() {
  static const std::vector<std::string> terms = [] {
    Random rng(777);
    std::vector<std::string> t;
    // Syllable words repeat, so draw until enough distinct terms remain.
    while (t.size() < kDictTerms) {
      while (t.size() < kDictTerms * 12 / 10) {
        const uint64_t kind = rng.Uniform(10);
        if (kind < 6) {
          t.push_back(SyllableWord(rng));
        } else if (kind < 8) {
          t.push_back(SyllableWord(rng) + SyllableWord(rng));
        } else if (kind < 9) {
          t.push_back(std::to_string(rng.Uniform(100'000'000)));
        } else {
          std::string id = "id_" + SyllableWord(rng) + "_";
          for (int i = 0; i < 12; ++i) id += "0123456789abcdef"[rng.Uniform(16)];
          t.push_back(std::move(id));
        }
      }
      std::sort(t.begin(), t.end());
      t.erase(std::unique(t.begin(), t.end()), t.end());
    }
    // Keep kDictTerms spread over the whole range.
    std::vector<std::string> kept;
    kept.reserve(kDictTerms);
    const double step = static_cast<double>(t.size()) / kDictTerms;
    for (size_t i = 0; i < kDictTerms; ++i) {
      kept.push_back(std::move(t[static_cast<size_t>(i * step)]));
    }
    return kept;
  }();
  return terms;
}

std::string BuildDict(uint32_t block_terms) {
  const std::vector<std::string>& terms = DictTerms();
  std::string out;
  TermDictWriter writer(&out, {.block_terms = block_terms});
  Random rng(5);
  TermStats stats;
  for (const std::string& term : terms) {
    // Zipf-like: most terms are rare.
    stats.doc_freq = static_cast<uint32_t>(1 + (rng.Next() >> (40 + rng.Uniform(24))));
    stats.total_term_freq = stats.doc_freq + (rng.Bernoulli(0.5) ? rng.Uniform(stats.doc_freq) : 0);
    stats.singleton_doc.reset();
    if (stats.doc_freq == 1) stats.singleton_doc = static_cast<uint32_t>(rng.Uniform(10'000'000));
    stats.doc_offset += stats.doc_freq == 1 ? 0 : 2 + stats.doc_freq;
    stats.pos_offset += stats.total_term_freq + 1;
    stats.pay_offset += rng.Bernoulli(0.1) ? 3 : 0;
    if (!writer.Add(term, stats).ok()) std::abort();
  }
  if (!writer.Finish().ok()) std::abort();
  return out;
}

const std::string& Dict(uint32_t block_terms) {
  static std::vector<std::pair<uint32_t, std::unique_ptr<std::string>>> cache;
  for (auto& [bt, bytes] : cache) {
    if (bt == block_terms) return *bytes;
  }
  cache.emplace_back(block_terms, std::make_unique<std::string>(BuildDict(block_terms)));
  return *cache.back().second;
}

constexpr size_t kLookups = 4096;

std::vector<std::string> Lookups(bool present) {
  const std::vector<std::string>& terms = DictTerms();
  Random rng(present ? 11 : 12);
  std::vector<std::string> out;
  for (size_t i = 0; i < kLookups; ++i) {
    std::string t = terms[rng.Uniform(terms.size())];
    if (!present) t += "q";  // absent (or, rarely, present: still a valid lookup)
    out.push_back(std::move(t));
  }
  return out;
}

void SetDictCounters(benchmark::State& state, double ops, const std::string& dict,
                     const TermDictReader& reader) {
  state.counters["ns_per_op"] = benchmark::Counter(
      ops * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["bytes_per_term"] =
      static_cast<double>(dict.size()) / static_cast<double>(reader.term_count());
  state.counters["index_bytes_per_term"] =
      static_cast<double>(reader.index_bytes()) / static_cast<double>(reader.term_count());
}

void SeekBenchmark(benchmark::State& state, bool present, bool verify) {
  const std::string& dict = Dict(static_cast<uint32_t>(state.range(0)));
  auto reader = TermDictReader::Open(AsBytes(dict), {.verify_checksums = verify});
  if (!reader.ok()) std::abort();
  const std::vector<std::string> lookups = Lookups(present);
  TermDictCursor cursor = reader->NewCursor();
  size_t found = 0;
  for (auto _ : state) {
    for (const std::string& term : lookups) {
      absl::StatusOr<bool> r = cursor.SeekExact(term);
      found += r.ok() && *r;
    }
  }
  benchmark::DoNotOptimize(found);
  SetDictCounters(state, kLookups, dict, *reader);
}

void BM_TermDictSeekExact(benchmark::State& state) { SeekBenchmark(state, true, true); }
void BM_TermDictSeekExactNoVerify(benchmark::State& state) { SeekBenchmark(state, true, false); }
void BM_TermDictSeekAbsent(benchmark::State& state) { SeekBenchmark(state, false, true); }

void BM_TermDictIterate(benchmark::State& state) {
  const std::string& dict = Dict(static_cast<uint32_t>(state.range(0)));
  auto reader = TermDictReader::Open(AsBytes(dict));
  if (!reader.ok()) std::abort();
  uint64_t sum = 0;
  for (auto _ : state) {
    TermDictCursor cursor = reader->NewCursor();
    while (true) {
      absl::StatusOr<bool> next = cursor.Next();
      if (!next.ok() || !*next) break;
      sum += cursor.stats().doc_freq + cursor.term().size();
    }
  }
  benchmark::DoNotOptimize(sum);
  SetDictCounters(state, static_cast<double>(reader->term_count()), dict, *reader);
}

void BM_TermDictBuild(benchmark::State& state) {
  const uint32_t block_terms = static_cast<uint32_t>(state.range(0));
  Dict(block_terms);  // warm the term list
  size_t size = 0;
  for (auto _ : state) size = BuildDict(block_terms).size();
  benchmark::DoNotOptimize(size);
  auto reader = TermDictReader::Open(AsBytes(Dict(block_terms)));
  SetDictCounters(state, static_cast<double>(kDictTerms), Dict(block_terms), *reader);
}

void BM_SortedVectorSeek(benchmark::State& state) {
  const std::vector<std::string>& terms = DictTerms();
  const std::vector<std::string> lookups = Lookups(true);
  size_t found = 0;
  for (auto _ : state) {
    for (const std::string& term : lookups) {
      auto it = std::lower_bound(terms.begin(), terms.end(), term);
      found += it != terms.end() && *it == term;
    }
  }
  benchmark::DoNotOptimize(found);
  state.counters["ns_per_op"] = benchmark::Counter(
      static_cast<double>(kLookups) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_TermDictSeekExact)->Name("TermDictSeekExact")->Arg(16)->Arg(32)->Arg(64)->Arg(128);
BENCHMARK(BM_TermDictSeekExactNoVerify)->Name("TermDictSeekExactNoVerify")->Arg(32)->Arg(64);
BENCHMARK(BM_TermDictSeekAbsent)->Name("TermDictSeekAbsent")->Arg(32)->Arg(64);
BENCHMARK(BM_TermDictIterate)
    ->Name("TermDictIterate")
    ->Arg(32)
    ->Arg(64)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TermDictBuild)->Name("TermDictBuild")->Arg(32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SortedVectorSeek)->Name("SortedVectorSeek");

}  // namespace
}  // namespace invert::bench

int main(int argc, char** argv) {
#ifndef NDEBUG
  std::fprintf(stderr, "WARNING: assertions are enabled; benchmarks are unnecessarily slow\n");
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

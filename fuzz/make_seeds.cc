// invert-fuzz-seeds: writes the seed corpus of every fuzz target, from real
// files: the sample segment (fuzz_common.h) and its files, dictionaries,
// compressed blocks, commit points and stored-field/term-vector files made by
// the library's own writers, and the first documents of a line-docs file
// (data/sample.lines) when one is given. Deterministic.
//
//   invert-fuzz-seeds OUT_DIR [LINE_DOCS_FILE]
//
// creates OUT_DIR/<target>/seed-NNN for each target (the target names are the
// fuzzer binaries' names without "_fuzzer"). Exits non-zero if any writer
// fails.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codec/block_compressor.h"
#include "codec/commit_format.h"
#include "codec/for_block.h"
#include "codec/postings_format.h"
#include "codec/segment_reader.h"
#include "codec/stored_fields_format.h"
#include "codec/term_dict_reader.h"
#include "codec/term_dict_writer.h"
#include "codec/term_vectors_format.h"
#include "doc_files_input.h"
#include "fuzz_common.h"
#include "postings_input.h"
#include "segment_patch.h"
#include "util/absl_compat.h"
#include "util/random.h"

namespace invert::fuzz {
namespace {

void Die(std::string_view what) {
  std::fprintf(stderr, "invert-fuzz-seeds: %.*s\n", static_cast<int>(what.size()), what.data());
  std::exit(1);
}

template <typename T>
T Must(absl::StatusOr<T> v, std::string_view what) {
  if (!v.ok()) Die(absl::StrCat(Sv(what), ": ", v.status().ToString()));
  return *std::move(v);
}

void Must(const absl::Status& s, std::string_view what) {
  if (!s.ok()) Die(absl::StrCat(Sv(what), ": ", s.ToString()));
}

class Corpus {
 public:
  explicit Corpus(std::filesystem::path root) : root_(std::move(root)) {}

  void Add(const std::string& target, std::string_view bytes) {
    const std::filesystem::path dir = root_ / target;
    std::filesystem::create_directories(dir);
    int& n = counts_[target];
    char name[32];
    std::snprintf(name, sizeof(name), "seed-%03d", n++);
    std::ofstream out(dir / name, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) Die(absl::StrCat("cannot write ", (dir / name).string()));
  }

  void Report() const {
    for (const auto& [target, n] : counts_) std::printf("%-16s %d seeds\n", target.c_str(), n);
  }

 private:
  std::filesystem::path root_;
  std::map<std::string, int> counts_;
};

std::string WithFlags(uint8_t flags, std::string_view file) {
  std::string out;
  PutU8(&out, flags);
  out.append(file);
  return out;
}

// ------------------------------------------------------------- documents

struct LineDoc {
  std::string title, date, body;
};

std::vector<LineDoc> ReadLineDocs(const char* path, size_t count) {
  std::vector<LineDoc> docs;
  if (path != nullptr) {
    std::ifstream in(path, std::ios::binary);
    if (!in) Die(absl::StrCat("cannot read ", path));
    std::string line;
    while (docs.size() < count && std::getline(in, line)) {
      if (line.starts_with("FIELDS_HEADER_INDICATOR###")) continue;
      const size_t a = line.find('\t');
      const size_t b = a == std::string::npos ? a : line.find('\t', a + 1);
      if (b == std::string::npos) continue;
      LineDoc d{line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)};
      // Keep the seeds small: a body of at most ~300 bytes, cut at a space.
      if (d.body.size() > 300)
        d.body.resize(d.body.find(' ', 300) == std::string::npos ? d.body.size()
                                                                 : d.body.find(' ', 300));
      docs.push_back(std::move(d));
    }
  }
  if (docs.empty()) {
    docs.push_back({"River Thames", "06-OCT-2011 08:48:11.000", "The river flows east to London."});
    docs.push_back({"École", "01-JAN-2001 00:00:00.000", "Straße café ΣΊΣΥΦΟΣ 東京 naïve"});
    docs.push_back({"Numbers", "02-FEB-2002 12:00:00.000", "1747 1800s 3.14 2,000 x86-64"});
  }
  return docs;
}

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void LineDocsSeeds(const std::vector<LineDoc>& docs, Corpus& corpus) {
  std::string with_header = "FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\tbody\n";
  std::string plain;
  std::string crlf = "\xEF\xBB\xBF";  // BOM
  std::string with_id = "FIELDS_HEADER_INDICATOR###\tid\ttitle\tRandomLabel\ttimestamp\ttext\n";
  for (size_t i = 0; i < docs.size() && i < 4; ++i) {
    const LineDoc& d = docs[i];
    const std::string line = absl::StrCat(d.title, "\t", d.date, "\t", d.body);
    absl::StrAppend(&with_header, line, "\n");
    absl::StrAppend(&plain, line, "\n");
    absl::StrAppend(&crlf, line, "\r\n");
    absl::StrAppend(&with_id, "id", i, "\t", d.title, "\tlabel\t", d.date, "\t", d.body, "\n");
  }
  plain += "only\ttwo\n\nlast line without newline\tdate\tbody";
  for (const std::string& text : {with_header, plain, crlf, with_id}) {
    corpus.Add("line_docs", WithFlags(7, text));
  }
  corpus.Add("line_docs", WithFlags(8 | 3, with_header));  // 7-byte reads, 64-byte lines

  std::string json;
  for (size_t i = 0; i < docs.size() && i < 4; ++i) {
    const LineDoc& d = docs[i];
    absl::StrAppend(&json,
                    "{\"id\": ", i % 2 == 0 ? absl::StrCat(i) : JsonString(absl::StrCat("d", i)),
                    ", \"title\": ", JsonString(d.title), ", \"date\": ", JsonString(d.date),
                    ", \"body\": ", JsonString(d.body), "}\n");
  }
  std::string odd =
      "\xEF\xBB\xBF{\"body\": \"caf\\u00e9 \\ud83d\\ude00 tab\\t\", \"title\": null, \"id\": "
      "1.5e3}\n"
      "  \t\r\n"
      "{\"id\": null, \"body\": \"x\", \"extra\": [1, {\"a\": true}]}\r\n"
      "{\"body\": 12}\n"
      "not json\n"
      "{\"id\": \"last\", \"date\": \"d\", \"body\": \"no newline\"}";
  corpus.Add("json_lines", WithFlags(7, json));
  corpus.Add("json_lines", WithFlags(5, odd));
  corpus.Add("json_lines", WithFlags(8 | 2, json));
}

void AnalysisSeeds(const std::vector<LineDoc>& docs, Corpus& corpus) {
  std::vector<std::string> texts = {
      "He said \"café au lait\" and left.",
      "Straße ΣΊΣΥΦΟΣ İstanbul ﬁne ＡＢＣ１２３ ĳ soft\xC2\xADhyphen",
      "東京都 ひらがな カタカナ 한국어 ภาษาไทย العربية",
      "emoji 😀👍🏽 flags 🇫🇷 zwj 👩‍👩‍👧 keycap 1️⃣",
      "tabs\tand\nnewlines\r\n\v\f spaces\xC2\xA0nbsp\xE3\x80\x80ideographic",
      "U.S.A. e-mail foo@example.com http://x.y/z 3.14 1,000 don't",
      "verylongwordthatgoesonandonbeyondanyreasonablelimit",
      "\xC0\xAF overlong",
      "\xED\xA0\x80 surrogate",
      "\xF4\x90\x80\x80 too big",
      "trunc \xE2\x82",
      "stray \x80 continuation",
  };
  for (size_t i = 0; i < docs.size() && i < 3; ++i) texts.push_back(docs[i].body);
  for (size_t i = 0; i < texts.size(); ++i) {
    corpus.Add("analysis", WithFlags(static_cast<uint8_t>(i % 4), texts[i]));
  }
}

// ------------------------------------------------------- codec primitives

void ForBlockSeeds(Corpus& corpus) {
  Random rng(7);
  std::array<uint32_t, kForBlockSize> v{};
  std::string run;
  auto block = [&](auto fill) {
    for (size_t i = 0; i < kForBlockSize; ++i) v[i] = fill(i);
    EncodeForBlock(v, &run);
  };
  block([](size_t) { return 0u; });
  block([](size_t) { return 77u; });
  block([&](size_t) { return static_cast<uint32_t>(rng.Uniform(16)); });
  block([&](size_t) { return static_cast<uint32_t>(1000000 + rng.Uniform(100)); });
  block([&](size_t) { return static_cast<uint32_t>(rng.Next()); });
  block([](size_t i) { return static_cast<uint32_t>(i); });
  corpus.Add("for_block", WithFlags(5, run));
  std::string tail;
  const std::vector<uint32_t> values = {1, 127, 128, 16383, 16384, UINT32_MAX};
  EncodeVIntTail(values, &tail);
  corpus.Add("for_block", WithFlags(static_cast<uint8_t>(values.size()), tail));
  corpus.Add("for_block", WithFlags(32, run.substr(0, 200)));
}

void BlockCompressorSeeds(const std::vector<LineDoc>& docs, Corpus& corpus) {
  std::string text;
  for (const LineDoc& d : docs) absl::StrAppend(&text, d.title, "\t", d.body, "\n");
  text.resize(std::min<size_t>(text.size(), 2048));
  std::vector<std::unique_ptr<BlockCompressor>> compressors;
  compressors.push_back(NewNoneCompressor());
  compressors.push_back(NewLz4Compressor());
  compressors.push_back(NewZstdCompressor(1));
  for (const auto& c : compressors) {
    for (std::string_view src :
         {std::string_view(text), std::string_view("aaaaaaaaaaaaaaaaaaaa"), std::string_view()}) {
      std::string out;
      PutU8(&out, static_cast<uint8_t>(c->codec()));
      PutU32(&out, static_cast<uint32_t>(src.size()));
      Must(c->Compress({reinterpret_cast<const uint8_t*>(src.data()), src.size()}, &out),
           "compress");
      corpus.Add("block_compressor", out);
    }
  }
}

void TermDictSeeds(Corpus& corpus) {
  std::vector<std::string> terms;
  Random rng(11);
  for (const char* prefix : {"", "a", "ab", "abc", "b", "river", "rivers", "z"}) {
    for (int i = 0; i < 6; ++i) terms.push_back(absl::StrCat(prefix, i == 0 ? "" : "x", i * 7));
  }
  terms.push_back(std::string("\0\0", 2));
  terms.push_back("\xff\xff");
  terms.push_back("東京");
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());

  struct Variant {
    uint32_t block_terms;
    bool pos, pay;
  };
  for (const Variant& variant : {Variant{4, true, true}, Variant{32, true, false},
                                 Variant{1, false, false}, Variant{7, true, true}}) {
    TermDictOptions options;
    options.block_terms = variant.block_terms;
    options.has_pos_offsets = variant.pos;
    options.has_pay_offsets = variant.pay;
    std::string dict;
    TermDictWriter writer(&dict, options);
    uint64_t doc = 0, pos = 0, pay = 0;
    for (const std::string& term : terms) {
      TermStats s;
      s.doc_freq = static_cast<uint32_t>(1 + rng.Uniform(300));
      s.total_term_freq = s.doc_freq + rng.Uniform(3) * rng.Uniform(500);
      if (s.doc_freq == 1) s.singleton_doc = static_cast<uint32_t>(rng.Uniform(1000));
      s.doc_offset = doc;
      if (variant.pos) s.pos_offset = pos;
      if (variant.pay) s.pay_offset = pay;
      doc += rng.Uniform(200);
      pos += rng.Uniform(400);
      pay += rng.Uniform(50);
      Must(writer.Add(term, s), "term dictionary add");
    }
    Must(writer.Finish(), "term dictionary finish");
    std::string input;
    PutU8(&input, 1);  // verify checksums
    auto probe = [&](uint8_t kind, std::string_view target) {
      PutU8(&input, kind);
      PutU8(&input, static_cast<uint8_t>(target.size()));
      std::string slot(target);
      slot.resize(16, '\0');
      input += slot;
    };
    probe(0, terms[terms.size() / 2]);
    probe(1, "riv");
    probe(2, std::string("\x05", 1));
    probe(1, "zz");
    input += dict;
    corpus.Add("term_dict", input);
    input[0] = 0;  // the same without checksums
    corpus.Add("term_dict", input);
  }
}

void CommitSeeds(Corpus& corpus) {
  for (int segments : {0, 1, 3}) {
    MemDirectory dir;
    CommitPoint commit;
    commit.generation = static_cast<uint64_t>(segments + 1);
    commit.next_segment_number = static_cast<uint64_t>(segments);
    commit.index_id = kFuzzSegmentId;
    for (int i = 0; i < segments; ++i) {
      commit.schema.push_back(FieldInfo{absl::StrCat("field", i), static_cast<uint32_t>(i),
                                        i % 2 == 0 ? FieldType::Text() : FieldType::Keyword()});
      commit.segments.push_back({absl::StrCat("_", i), kFuzzSegmentId,
                                 static_cast<uint32_t>(10 * i + 1), 0x1122334455667788ull + i});
    }
    Must(WriteCommit(&dir, commit), "write commit");
    const std::string file = Must(dir.Get(commit.file_name()), "read commit");
    std::string input;
    PutU8(&input, segments == 1 ? 3 : 1);
    PutU8(&input, static_cast<uint8_t>(commit.generation));
    input += file;
    corpus.Add("commit", input);
  }
}

// ------------------------------------------------- per-document file pairs

void StoredFieldsSeeds(const std::vector<LineDoc>& docs, Corpus& corpus) {
  for (CompressionCodec codec :
       {CompressionCodec::kNone, CompressionCodec::kLz4, CompressionCodec::kZstd}) {
    MemDirectory dir;
    StoredFieldsWriterOptions options;
    options.codec = codec;
    options.block_bytes = 256;
    auto writer = Must(StoredFieldsWriter::Create(&dir, "_0", kFuzzSegmentId, options),
                       "stored fields create");
    uint32_t n = 0;
    for (const LineDoc& d : docs) {
      std::vector<StoredFieldValue> fields = {{0, d.title}, {1, d.date}, {2, d.body}};
      if (n % 3 == 0) fields.clear();  // a document without stored fields
      Must(writer->AddDocument(fields), "stored fields add");
      ++n;
    }
    Must(writer->Finish(), "stored fields finish");
    corpus.Add(
        "stored_fields",
        DocFilesInput::Encode(DocFilesInput::kFixChecksums | DocFilesInput::kVerifyIndexChecksum, n,
                              Must(dir.Get("_0.fdt"), "fdt"), Must(dir.Get("_0.fdx"), "fdx")));
  }
}

void TermVectorsSeeds(Corpus& corpus) {
  std::vector<std::vector<TermVectorFieldData>> docs;
  Random rng(13);
  for (int d = 0; d < 12; ++d) {
    std::vector<TermVectorFieldData> fields;
    for (uint32_t f = 0; f < 3; ++f) {
      if (rng.Uniform(3) == 0) continue;
      TermVectorFieldData field;
      field.field_number = f * 2;
      field.has_positions = f != 0;
      field.has_offsets = f != 1;
      field.has_payloads = f == 2;
      std::set<std::string> terms;
      for (int t = 0; t < 5; ++t) terms.insert(absl::StrCat("t", rng.Uniform(20)));
      for (const std::string& term : terms) {
        TermVectorTermData data;
        data.term = term;
        data.freq = static_cast<uint32_t>(1 + rng.Uniform(3));
        uint32_t position = 0, offset = 0;
        for (uint32_t i = 0; i < data.freq; ++i) {
          position += static_cast<uint32_t>(rng.Uniform(5));
          offset += static_cast<uint32_t>(rng.Uniform(9));
          if (field.has_positions) data.positions.push_back(position);
          if (field.has_offsets) {
            data.start_offsets.push_back(offset);
            data.end_offsets.push_back(offset + static_cast<uint32_t>(term.size()));
          }
          if (field.has_payloads) data.payloads.push_back(i == 0 ? "" : absl::StrCat("p", i));
        }
        field.terms.push_back(std::move(data));
      }
      fields.push_back(std::move(field));
    }
    docs.push_back(std::move(fields));
  }
  for (CompressionCodec codec : {CompressionCodec::kNone, CompressionCodec::kLz4}) {
    MemDirectory dir;
    TermVectorsWriterOptions options;
    options.codec = codec;
    options.block_bytes = 200;
    auto writer =
        Must(TermVectorsWriter::Create(&dir, "_0", kFuzzSegmentId, options), "term vectors create");
    for (const auto& fields : docs) Must(writer->AddDocument(fields), "term vectors add");
    Must(writer->Finish(), "term vectors finish");
    corpus.Add(
        "term_vectors",
        DocFilesInput::Encode(DocFilesInput::kFixChecksums | DocFilesInput::kVerifyIndexChecksum,
                              static_cast<uint32_t>(docs.size()), Must(dir.Get("_0.tvd"), "tvd"),
                              Must(dir.Get("_0.tvx"), "tvx")));
  }
  for (size_t d = 0; d < docs.size(); d += 3) {
    std::string entry;
    Must(internal::EncodeTermVectors(docs[d], &entry), "encode term vectors");
    corpus.Add("term_vectors", DocFilesInput::EncodeRawEntry(entry));
  }
}

// ------------------------------------------------------- sample segment

// Seeds for the postings target: for each inverted field, the most frequent
// term, a rare one and a singleton, each with its own slice of .doc and .pos
// (offsets rebased to the slice) so that the seeds stay small.
void PostingsSeeds(const SegmentReader& segment, Corpus& corpus) {
  const std::span<const uint8_t> doc = segment.doc_file();
  const std::span<const uint8_t> pos = segment.pos_file();
  const uint64_t doc_end = doc.size() - kFooterLength;
  const uint64_t pos_end = pos.size() - kFooterLength;
  std::set<uint64_t> doc_starts = {doc_end};
  std::set<uint64_t> pos_starts = {pos_end};
  struct Term {
    FieldType type;
    TermStats stats;
  };
  std::vector<std::vector<Term>> by_field;
  for (const FieldInfo& field : segment.fields()) {
    const TermDictReader* dict = segment.Terms(field.number);
    if (dict == nullptr) continue;
    std::vector<Term> terms;
    TermDictCursor cursor = dict->NewCursor();
    while (Must(cursor.Next(), "term dictionary next")) {
      terms.push_back({field.type, cursor.stats()});
      doc_starts.insert(cursor.stats().doc_offset);
      if (HasPositions(field.type.index_options)) pos_starts.insert(cursor.stats().pos_offset);
    }
    by_field.push_back(std::move(terms));
  }
  auto slice_end = [](const std::set<uint64_t>& starts, uint64_t start) {
    auto next = starts.upper_bound(start);
    return next == starts.end() ? start : *next;
  };
  auto as_view = [](std::span<const uint8_t> bytes, uint64_t from, uint64_t to) {
    return std::string_view(reinterpret_cast<const char*>(bytes.data()) + from, to - from);
  };
  for (const std::vector<Term>& terms : by_field) {
    const Term* most = nullptr;
    const Term* rare = nullptr;
    const Term* single = nullptr;
    for (const Term& t : terms) {
      if (most == nullptr || t.stats.doc_freq > most->stats.doc_freq) most = &t;
      if (t.stats.doc_freq >= 2 && t.stats.doc_freq < 20) rare = &t;
      if (t.stats.doc_freq == 1) single = &t;
    }
    int mode = 0;
    for (const Term* t : {most, rare, single}) {
      if (t == nullptr) continue;
      PostingsInput input;
      input.type = t->type;
      input.stats = t->stats;
      input.mode = static_cast<PostingsInput::Mode>(mode % 3);
      input.positions = static_cast<PostingsInput::Positions>(mode % 4);
      input.skip_prefetch = mode == 1;
      ++mode;
      input.step = 37;
      if (t->stats.doc_freq >= 2) {
        input.doc_bytes =
            as_view(doc, t->stats.doc_offset, slice_end(doc_starts, t->stats.doc_offset));
      }
      input.stats.doc_offset = 0;
      if (HasPositions(t->type.index_options)) {
        input.pos_bytes =
            as_view(pos, t->stats.pos_offset, slice_end(pos_starts, t->stats.pos_offset));
      }
      input.stats.pos_offset = 0;
      corpus.Add("postings", input.Encode());
    }
  }
}

// Long postings written by PostingsWriter directly: a term in 2600 docs
// (20 full doc blocks: two groups of 8 under level-1 skip headers, then 4
// blocks and a tail of 40 docs, so Advance() skips groups and runs of blocks
// by their headers, prefetching on the way) with positions, offsets and
// payloads, and norms for the impacts; and, in a docs-only field, a term in
// 9,000 docs (70 full blocks: a level-2 run of 64 under its header, with
// 8 groups under theirs, then 6 blocks), so a skip passes runs of every
// size; each seeded for plain advances and for the pruning calls
// (AdvanceShallow, AdvanceFiltered).
void LongPostingsSeeds(Corpus& corpus) {
  MemDirectory dir;
  FieldInfo field;
  field.name = "body";
  field.number = 0;
  field.type.index_options = IndexOptions::kDocsAndFreqsAndPositionsAndOffsets;
  field.type.payloads = true;
  auto writer = Must(PostingsWriter::Create(&dir, "_1", kFuzzSegmentId), "postings writer");
  Random rng(17);
  writer->StartField(field);
  for (const char* term : {"big", "small"}) {
    const uint32_t docs = term[0] == 'b' ? 2600 : 40;
    writer->StartTerm();
    uint32_t doc = 0;
    for (uint32_t i = 0; i < docs; ++i) {
      doc += 1 + static_cast<uint32_t>(rng.Uniform(3));
      const uint32_t freq = 1 + static_cast<uint32_t>(rng.Uniform(3));
      writer->AddDoc(doc, freq, static_cast<uint8_t>(1 + rng.Uniform(40)));
      uint32_t position = 0;
      uint32_t offset = 0;
      for (uint32_t f = 0; f < freq; ++f) {
        position += 1 + static_cast<uint32_t>(rng.Uniform(4));
        offset += 2 + static_cast<uint32_t>(rng.Uniform(6));
        writer->AddPosition(position, offset, offset + 3, f == 0 ? "" : "pl");
      }
    }
    Must(writer->FinishTerm(term), "postings finish term");
  }
  Must(writer->FinishField(3000), "postings finish field");
  FieldInfo tags;
  tags.name = "tag";
  tags.number = 1;
  tags.type.index_options = IndexOptions::kDocs;
  writer->StartField(tags);
  writer->StartTerm();
  uint32_t tagged = 0;
  for (uint32_t i = 0; i < 9000; ++i) {
    tagged += 1 + static_cast<uint32_t>(rng.Uniform(2));
    writer->AddDoc(tagged, 1);
  }
  Must(writer->FinishTerm("wide"), "postings finish term");
  Must(writer->FinishField(20000), "postings finish field");
  Must(writer->Finish(), "postings finish");
  auto terms = Must(TermsReader::Open(&dir, "_1", kFuzzSegmentId), "terms reader");
  const std::string doc_file = Must(dir.Get("_1.doc"), "doc");
  const std::string pos_file = Must(dir.Get("_1.pos"), "pos");
  for (const FieldInfo* f : {&field, &tags}) {
    TermDictCursor cursor = terms->Field(f->number)->NewCursor();
    while (Must(cursor.Next(), "term dictionary next")) {
      for (PostingsInput::Mode mode : {PostingsInput::kAdvanceBy, PostingsInput::kPruning}) {
        PostingsInput input;
        input.type = f->type;
        input.stats = cursor.stats();
        input.doc_bytes = std::string_view(doc_file).substr(0, doc_file.size() - kFooterLength);
        input.pos_bytes = std::string_view(pos_file).substr(0, pos_file.size() - kFooterLength);
        input.mode = mode;
        input.step = mode == PostingsInput::kAdvanceBy ? 1200 : 1602;  // pruning: freq threshold 2
        input.positions = PostingsInput::kSparse;
        input.skip_prefetch = mode == PostingsInput::kAdvanceBy;
        corpus.Add("postings", input.Encode());
      }
    }
  }
}

void SegmentSeeds(Corpus& corpus) {
  MemDirectory dir;
  const SegmentInfo info = Must(BuildSampleSegment(&dir), "sample segment");
  const std::vector<std::string> names = Must(dir.ListAll(), "list");
  auto file = [&](const std::string& name) { return Must(dir.Get(name), name); };

  corpus.Add("field_infos", WithFlags(1, file("_0.fnm")));
  corpus.Add("segment_info", WithFlags(1, file("_0.si")));
  std::string norms;
  PutU8(&norms, 1);
  PutU32(&norms, info.doc_count);
  norms += file("_0.nvd");
  corpus.Add("norms", norms);
  const uint8_t both = DocFilesInput::kFixChecksums | DocFilesInput::kVerifyIndexChecksum;
  corpus.Add("stored_fields",
             DocFilesInput::Encode(both, info.doc_count, file("_0.fdt"), file("_0.fdx")));
  corpus.Add("term_vectors",
             DocFilesInput::Encode(both, info.doc_count, file("_0.tvd"), file("_0.tvx")));

  auto reader = Must(SegmentReader::Open(&dir, "_0", kFuzzSegmentId), "open sample segment");
  PostingsSeeds(*reader, corpus);
  for (uint32_t doc : {0u, 1u, 7u}) {
    std::string entry;
    Must(internal::EncodeTermVectors(Must(reader->term_vectors().Get(doc), "vectors"), &entry),
         "encode term vectors");
    corpus.Add("term_vectors", DocFilesInput::EncodeRawEntry(entry));
  }

  // Whole segment: every file with a no-op edit (checksums fixed, segment
  // info rewritten), and every file cut short by one byte.
  for (size_t i = 0; i < names.size(); ++i) {
    SegmentPatch noop;
    noop.file = static_cast<uint8_t>(i);
    noop.flags = SegmentPatch::kFixChecksum | SegmentPatch::kRewriteSegmentInfo |
                 (i % 2 == 0 ? SegmentPatch::kCheckIndex : 0);
    noop.edits.push_back({SegmentPatch::kXor, 40, 0});
    corpus.Add("segment", noop.Encode());
    SegmentPatch cut = noop;
    cut.flags = 0;
    cut.edits = {{SegmentPatch::kTruncate, static_cast<uint32_t>(file(names[i]).size() - 1), 0}};
    corpus.Add("segment", cut.Encode());
  }
}

}  // namespace
}  // namespace invert::fuzz

int main(int argc, char** argv) {
  using namespace invert::fuzz;
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s OUT_DIR [LINE_DOCS_FILE]\n", argv[0]);
    return 2;
  }
  Corpus corpus(argv[1]);
  const std::vector<LineDoc> docs = ReadLineDocs(argc == 3 ? argv[2] : nullptr, 24);
  LineDocsSeeds(docs, corpus);
  AnalysisSeeds(docs, corpus);
  ForBlockSeeds(corpus);
  BlockCompressorSeeds(docs, corpus);
  TermDictSeeds(corpus);
  CommitSeeds(corpus);
  StoredFieldsSeeds(docs, corpus);
  TermVectorsSeeds(corpus);
  SegmentSeeds(corpus);
  LongPostingsSeeds(corpus);
  corpus.Report();
  return 0;
}

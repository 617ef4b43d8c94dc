// WikiGenerator: deterministic Wikipedia-like line documents (luceneutil's
// `title<TAB>date<TAB>body` shape) for benchmarks and tests where no dump can
// be downloaded. docs/corpus.md describes the model and its measured
// statistics; tools/gen (invert-gen) is the command-line front end.
//
// Model, per document:
//   title  1-4 capitalized words drawn from ranks > 100 (names), in a few
//          Wikipedia patterns ("List of ...", "X (film)", "X, Y", "1998 X").
//   date   uniform in [2001-01-15, 2012-05-02), luceneutil's format
//          `24-MAR-2012 04:19:53.000`.
//   body   log-normal target length (median 750 bytes, sigma 0.7, truncated
//          to [16, 32768]); sentences of 4-33 tokens (mean ~19) until the
//          target is reached. Tokens are words by rank from TwoRegimeZipf
//          spelled by Vocabulary, plus, per token, years (1.8%), small
//          numbers (1.0%, some with %), larger numbers (0.5%: log-uniform in
//          [100, 10^7), 40% rounded to two digits, some as 1,234,567, some
//          as 12.5), ordinals (0.2%), typos of frequent words (0.15%), codes
//          and ids (0.05%) and CJK words (0.05%). Typos and codes are
//          functions of a Pareto-distributed variant number (Variant()), so
//          they recur and add terms sublinearly, like words. Sentence-initial
//          and name words are capitalized, acronyms upper-cased; commas,
//          parentheses, quotes, hyphenated pairs, possessives and en-dash
//          year ranges give an analyzer punctuation to strip. No TAB, CR or
//          LF ever appears in a field.
//
// Determinism: the output is a function of the options (seed included) and of
// the Vocabulary, i.e. the same bytes for the same seed on every run of the
// same build. (Across C libraries, std::pow/exp/log may differ in the last
// bit, which could in rare cases change a rounded length.)
//
// Thread safety: one generator per thread.
#ifndef INVERT_CORPUS_WIKI_GEN_H_
#define INVERT_CORPUS_WIKI_GEN_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "corpus/vocabulary.h"
#include "corpus/zipf.h"
#include "util/random.h"

namespace invert {

struct GenOptions {
  uint64_t seed = 1;
  ZipfOptions zipf;
  // Body length in bytes: log-normal, truncated to [min, max].
  double body_median_bytes = 750;
  double body_sigma = 0.7;
  uint32_t body_min_bytes = 16;
  uint32_t body_max_bytes = 32768;
  // Fractions of body tokens that are not vocabulary words.
  double year_rate = 0.018;
  double small_number_rate = 0.010;
  double number_rate = 0.005;
  double ordinal_rate = 0.002;
  double typo_rate = 0.0015;
  double code_rate = 0.0005;
  double cjk_rate = 0.0005;
};

struct GenDoc {
  std::string title;
  std::string date;
  std::string body;
};

class WikiGenerator {
 public:
  // Lucene's WriteLineDocTask header line (without its LF).
  static constexpr std::string_view kHeader = "FIELDS_HEADER_INDICATOR###\tdoctitle\tdocdate\tbody";

  // `vocabulary` must outlive the generator.
  explicit WikiGenerator(const GenOptions& options,
                         const Vocabulary& vocabulary = Vocabulary::Default());

  // Overwrites *doc with the next document (its strings' capacity is reused).
  void Next(GenDoc* doc);

  // Appends `title\tdate\tbody\n` for `doc` to *out.
  static void AppendLine(const GenDoc& doc, std::string* out);

 private:
  void Title(std::string* out);
  void Date(std::string* out);
  void Body(std::string* out);
  void Sentence(std::string* out);
  // One body token (a word, number, ...); `capitalize` for a sentence start.
  void Token(std::string* out, bool capitalize);
  // A vocabulary word; returns its traits' proper flag.
  bool Word(std::string* out, uint64_t rank, bool capitalize);
  void Year(std::string* out);
  void SmallNumber(std::string* out, bool ordinal);
  void Number(std::string* out);
  void Typo(std::string* out);
  void Code(std::string* out);
  void Cjk(std::string* out);
  uint64_t NameRank();  // a rank > 100, for titles
  // A variant number >= 1, Pareto-distributed with the Zipf tail exponent:
  // typos and codes derived from it recur, and their number of distinct
  // forms grows like the vocabulary's.
  uint64_t Variant();
  uint64_t LogUniform(uint64_t lo, uint64_t hi);  // in [lo, hi)

  GenOptions options_;
  const Vocabulary& vocabulary_;
  TwoRegimeZipf zipf_;
  Random rng_;
  Vocabulary::WordBuffer word_buffer_;
  // Cumulative token-kind thresholds over NextDouble().
  double year_end_, small_end_, number_end_, ordinal_end_, typo_end_, code_end_, cjk_end_;
};

}  // namespace invert

#endif  // INVERT_CORPUS_WIKI_GEN_H_

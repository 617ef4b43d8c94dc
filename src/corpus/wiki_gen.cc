// WikiGenerator: titles, dates and bodies (model in wiki_gen.h).
#include "corpus/wiki_gen.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

namespace invert {
namespace {

constexpr std::string_view kMonths[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                        "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
constexpr std::string_view kTitleQualifiers[] = {
    "film",       "album",      "band",  "song",    "novel",     "disambiguation",
    "footballer", "politician", "river", "village", "TV series", "company"};
constexpr std::string_view kEnDash = "\u2013";
constexpr char kTypoLetters[] = "etaoinshrdlcumwfgypbvkjxqz";

// 2001-01-15 and 2012-05-02 as days since 1970-01-01.
constexpr int64_t kFirstDay = 11337;
constexpr int64_t kEndDay = 15462;

void AppendNumber(std::string* out, uint64_t n) {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), n);
  out->append(digits, end);
}

void AppendTwoDigits(std::string* out, uint64_t n) {
  out->push_back(static_cast<char>('0' + n / 10));
  out->push_back(static_cast<char>('0' + n % 10));
}

bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
char Upper(char c) { return IsLower(c) ? static_cast<char>(c - 'a' + 'A') : c; }

// Civil date of a day count (Howard Hinnant's days_from_civil inverse).
void CivilFromDays(int64_t z, int* year, unsigned* month, unsigned* day) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *day = doy - (153 * mp + 2) / 5 + 1;
  *month = mp < 10 ? mp + 3 : mp - 9;
  *year = static_cast<int>(yoe + era * 400 + (*month <= 2));
}

// UTF-8 of a code point in the Basic Multilingual Plane (>= U+0800).
void AppendUtf8Bmp(std::string* out, uint32_t cp) {
  out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
  out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
  out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
}

}  // namespace

WikiGenerator::WikiGenerator(const GenOptions& options, const Vocabulary& vocabulary)
    : options_(options), vocabulary_(vocabulary), zipf_(options.zipf), rng_(options.seed) {
  year_end_ = options.year_rate;
  small_end_ = year_end_ + options.small_number_rate;
  number_end_ = small_end_ + options.number_rate;
  ordinal_end_ = number_end_ + options.ordinal_rate;
  typo_end_ = ordinal_end_ + options.typo_rate;
  code_end_ = typo_end_ + options.code_rate;
  cjk_end_ = code_end_ + options.cjk_rate;
}

void WikiGenerator::Next(GenDoc* doc) {
  doc->title.clear();
  doc->date.clear();
  doc->body.clear();
  Title(&doc->title);
  Date(&doc->date);
  Body(&doc->body);
}

void WikiGenerator::AppendLine(const GenDoc& doc, std::string* out) {
  out->append(doc.title);
  out->push_back('\t');
  out->append(doc.date);
  out->push_back('\t');
  out->append(doc.body);
  out->push_back('\n');
}

uint64_t WikiGenerator::LogUniform(uint64_t lo, uint64_t hi) {
  const double x = std::exp(std::log(static_cast<double>(lo)) +
                            rng_.NextDouble() * std::log(static_cast<double>(hi) / lo));
  return std::clamp<uint64_t>(static_cast<uint64_t>(x), lo, hi - 1);
}

uint64_t WikiGenerator::NameRank() {
  for (;;) {
    const uint64_t rank = zipf_.Sample(rng_);
    if (rank > 100) return rank;
  }
}

void WikiGenerator::Title(std::string* out) {
  auto words = [&](int n) {
    for (int i = 0; i < n; ++i) {
      if (i > 0) out->push_back(' ');
      Word(out, NameRank(), /*capitalize=*/true);
    }
  };
  const uint64_t kind = rng_.Uniform(100);
  const int n = 1 + static_cast<int>(rng_.Uniform(3));
  if (kind < 55) {
    words(n + (rng_.Bernoulli(0.3) ? 1 : 0));
  } else if (kind < 65) {
    out->append("List of ");
    for (int i = 0; i < n; ++i) {
      if (i > 0) out->push_back(' ');
      Word(out, zipf_.Sample(rng_), /*capitalize=*/false);
    }
  } else if (kind < 75) {
    words(n);
    out->append(" (");
    out->append(kTitleQualifiers[rng_.Uniform(std::size(kTitleQualifiers))]);
    out->push_back(')');
  } else if (kind < 85) {
    words(n);
    out->append(", ");
    words(1);
  } else if (kind < 95) {
    if (rng_.Bernoulli(0.5)) {
      Year(out);
      out->push_back(' ');
      words(n);
    } else {
      words(n);
      out->append(" in ");
      Year(out);
    }
  } else {
    words(n);
    out->push_back(' ');
    AppendNumber(out, LogUniform(1, 1000));
  }
}

void WikiGenerator::Date(std::string* out) {
  const int64_t seconds = static_cast<int64_t>(rng_.Uniform((kEndDay - kFirstDay) * 86400));
  int year;
  unsigned month, day;
  CivilFromDays(kFirstDay + seconds / 86400, &year, &month, &day);
  const int64_t second_of_day = seconds % 86400;
  AppendTwoDigits(out, day);
  out->push_back('-');
  out->append(kMonths[month - 1]);
  out->push_back('-');
  AppendNumber(out, static_cast<uint64_t>(year));
  out->push_back(' ');
  AppendTwoDigits(out, static_cast<uint64_t>(second_of_day / 3600));
  out->push_back(':');
  AppendTwoDigits(out, static_cast<uint64_t>(second_of_day / 60 % 60));
  out->push_back(':');
  AppendTwoDigits(out, static_cast<uint64_t>(second_of_day % 60));
  out->append(".000");
}

void WikiGenerator::Body(std::string* out) {
  // Log-normal via Box-Muller.
  const double u1 = 1.0 - rng_.NextDouble();
  const double u2 = rng_.NextDouble();
  const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * M_PI * u2);
  const double target = std::clamp(options_.body_median_bytes * std::exp(options_.body_sigma * z),
                                   static_cast<double>(options_.body_min_bytes),
                                   static_cast<double>(options_.body_max_bytes));
  const size_t target_bytes = static_cast<size_t>(target);
  while (out->size() < target_bytes) {
    if (!out->empty()) out->push_back(' ');
    Sentence(out);
  }
  if (out->size() > options_.body_max_bytes) {
    // Cut at the last space within the limit, like a truncated article, or
    // (one giant token) at a UTF-8 character boundary.
    size_t cut = out->rfind(' ', options_.body_max_bytes);
    if (cut == std::string::npos) {
      cut = options_.body_max_bytes;
      while (cut > 0 && (static_cast<unsigned char>((*out)[cut]) & 0xC0) == 0x80) --cut;
    }
    out->resize(cut);
  }
}

void WikiGenerator::Sentence(std::string* out) {
  const uint64_t n = 4 + rng_.Uniform(12) + rng_.Uniform(12) + rng_.Uniform(8);
  int open_paren = -1;  // tokens left before ")" (-1: none open)
  int open_quote = -1;
  bool joined = false;  // the previous token asked for a hyphen
  for (uint64_t i = 0; i < n; ++i) {
    const bool last = i + 1 == n;
    if (i > 0) out->push_back(joined ? '-' : ' ');
    joined = false;
    if (!last && open_paren < 0 && open_quote < 0 && i > 0) {
      if (rng_.Bernoulli(0.012)) {
        out->push_back('(');
        open_paren = 1 + static_cast<int>(rng_.Uniform(5));
      } else if (rng_.Bernoulli(0.005)) {
        out->push_back('"');
        open_quote = 1 + static_cast<int>(rng_.Uniform(4));
      }
    }
    Token(out, /*capitalize=*/i == 0);
    if (open_paren >= 0 && (open_paren-- == 0 || last)) {
      out->push_back(')');
      open_paren = -1;
    }
    if (open_quote >= 0 && (open_quote-- == 0 || last)) {
      out->push_back('"');
      open_quote = -1;
    }
    if (last) break;
    const double u = rng_.NextDouble();
    if (u < 0.07) {
      out->push_back(',');
    } else if (u < 0.072) {
      out->push_back(';');
    } else if (u < 0.075) {
      out->push_back(':');
    } else if (u < 0.085) {
      joined = true;
    }
  }
  const double u = rng_.NextDouble();
  out->push_back(u < 0.002 ? '?' : u < 0.003 ? '!' : '.');
}

void WikiGenerator::Token(std::string* out, bool capitalize) {
  const double u = rng_.NextDouble();
  if (u >= cjk_end_) {
    const bool proper = Word(out, zipf_.Sample(rng_), capitalize);
    if (proper && rng_.Bernoulli(0.03)) out->append("'s");
  } else if (u < year_end_) {
    Year(out);
  } else if (u < small_end_) {
    SmallNumber(out, /*ordinal=*/false);
  } else if (u < number_end_) {
    Number(out);
  } else if (u < ordinal_end_) {
    SmallNumber(out, /*ordinal=*/true);
  } else if (u < typo_end_) {
    Typo(out);
  } else if (u < code_end_) {
    Code(out);
  } else {
    Cjk(out);
  }
}

bool WikiGenerator::Word(std::string* out, uint64_t rank, bool capitalize) {
  const std::string_view word = vocabulary_.Word(rank, &word_buffer_);
  const Vocabulary::Traits traits = vocabulary_.TraitsOf(rank);
  const size_t start = out->size();
  out->append(word);
  if (traits.acronym) {
    for (size_t i = start; i < out->size(); ++i) (*out)[i] = Upper((*out)[i]);
  } else if (capitalize || traits.proper) {
    (*out)[start] = Upper((*out)[start]);
  }
  return traits.proper;
}

void WikiGenerator::Year(std::string* out) {
  const double u = rng_.NextDouble();
  uint64_t year;
  if (u < 0.70) {
    year = 1900 + static_cast<uint64_t>(113 * std::sqrt(rng_.NextDouble()));
  } else if (u < 0.92) {
    year = 1800 + rng_.Uniform(100);
  } else if (u < 0.98) {
    year = 1500 + rng_.Uniform(300);
  } else {
    year = 1000 + rng_.Uniform(500);
  }
  const uint64_t form = rng_.Uniform(100);
  if (form < 8) {
    AppendNumber(out, year / 10 * 10);
    out->push_back('s');
  } else if (form < 14) {
    AppendNumber(out, year);
    out->append(kEnDash);
    AppendNumber(out, year + 1 + rng_.Uniform(10));
  } else {
    AppendNumber(out, year);
  }
}

void WikiGenerator::SmallNumber(std::string* out, bool ordinal) {
  const uint64_t n = LogUniform(1, 101);
  AppendNumber(out, n);
  if (ordinal) {
    const uint64_t tens = n % 100;
    const uint64_t ones = n % 10;
    const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                         : ones == 1                ? "st"
                         : ones == 2                ? "nd"
                         : ones == 3                ? "rd"
                                                    : "th";
    out->append(suffix);
  } else if (rng_.Bernoulli(0.1)) {
    out->push_back('%');
  }
}

void WikiGenerator::Number(std::string* out) {
  const uint64_t form = rng_.Uniform(100);
  if (form < 20) {  // 12.5
    const uint64_t n = LogUniform(10, 100000);
    AppendNumber(out, n / 10);
    out->push_back('.');
    AppendNumber(out, n % 10);
    return;
  }
  uint64_t n = LogUniform(100, 10000000);
  if (form < 60) {  // two significant digits, as most quoted amounts
    uint64_t scale = 1;
    while (n / scale >= 100) scale *= 10;
    n = n / scale * scale;
  }
  if (n >= 1000 && rng_.Bernoulli(0.7)) {  // 1,234,567
    char digits[24];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), n);
    const size_t length = end - digits;
    for (size_t i = 0; i < length; ++i) {
      if (i > 0 && (length - i) % 3 == 0) out->push_back(',');
      out->push_back(digits[i]);
    }
  } else {
    AppendNumber(out, n);
  }
}

uint64_t WikiGenerator::Variant() {
  const double u = 1.0 - rng_.NextDouble();  // (0, 1]
  const double x = std::pow(u, -1.0 / (options_.zipf.tail_exponent - 1));
  return x >= 0x1p40 ? uint64_t{1} << 40 : static_cast<uint64_t>(x);
}

void WikiGenerator::Typo(std::string* out) {
  std::string_view word;
  uint64_t rank = 0;
  for (int attempt = 0; attempt < 4; ++attempt) {
    rank = zipf_.Sample(rng_);
    if (rank > 10000) continue;
    word = vocabulary_.Word(rank, &word_buffer_);
    if (word.size() >= 4 && std::all_of(word.begin(), word.end(), IsLower)) break;
    word = {};
  }
  if (word.empty()) {
    Word(out, zipf_.Sample(rng_), /*capitalize=*/false);
    return;
  }
  char typo[Vocabulary::kMaxWordBytes + 1];
  size_t size = word.size();
  std::memcpy(typo, word.data(), size);
  // The edit is a function of (word, variant): common misspellings recur.
  Random edit(rank * 0x9E3779B97F4A7C15ull ^ Variant());
  const size_t at = edit.Uniform(size - 1);
  const char letter = kTypoLetters[edit.Uniform(sizeof(kTypoLetters) - 1)];
  switch (edit.Uniform(4)) {
    case 0:  // deletion
      std::memmove(typo + at, typo + at + 1, size - at - 1);
      --size;
      break;
    case 1:  // insertion
      std::memmove(typo + at + 1, typo + at, size - at);
      typo[at] = letter;
      ++size;
      break;
    case 2:  // substitution
      typo[at] = letter;
      break;
    default:  // transposition
      std::swap(typo[at], typo[at + 1]);
      break;
  }
  out->append(typo, size);
}

void WikiGenerator::Code(std::string* out) {
  // The code is a function of its variant number: popular ones recur.
  Random rng(Variant() * 0xD1B54A32D192ED03ull);
  const uint64_t kind = rng.Uniform(3);
  if (kind == 0) {  // B737, XK120
    for (uint64_t i = 1 + rng.Uniform(2); i > 0; --i) {
      out->push_back(static_cast<char>('A' + rng.Uniform(26)));
    }
    AppendNumber(out, 10 + rng.Uniform(1 + rng.Uniform(100000)));
  } else if (kind == 1) {  // q7x2kf: lowercase letters and digits
    for (uint64_t i = 6 + rng.Uniform(4); i > 0; --i) {
      out->push_back(rng.Bernoulli(0.35) ? static_cast<char>('0' + rng.Uniform(10))
                                         : static_cast<char>('a' + rng.Uniform(26)));
    }
  } else {  // 978-3-16-148410-0, an ISBN's shape
    out->append("978-");
    AppendNumber(out, rng.Uniform(10));
    out->push_back('-');
    AppendNumber(out, 10 + rng.Uniform(90));
    out->push_back('-');
    AppendNumber(out, 100000 + rng.Uniform(900000));
    out->push_back('-');
    AppendNumber(out, rng.Uniform(10));
  }
}

void WikiGenerator::Cjk(std::string* out) {
  // A few thousand CJK words, log-uniformly popular; each a fixed string of
  // 2-4 ideographs from U+4E00..U+9FFF.
  const uint64_t word = LogUniform(1, 5000);
  uint64_t h = word * 0x9E3779B97F4A7C15ull;
  const int length = 2 + static_cast<int>((h >> 60) % 3);
  for (int i = 0; i < length; ++i) {
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    AppendUtf8Bmp(out, 0x4E00 + static_cast<uint32_t>(h % 0x5200));
  }
}

}  // namespace invert

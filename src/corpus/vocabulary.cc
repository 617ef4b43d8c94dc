// Vocabulary: the syllable grammar, its counting and unranking, the slot
// permutation and the rank -> length assignment (design in vocabulary.h).
#include "corpus/vocabulary.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

namespace invert {
namespace {

using Count = VocabularyCount;

// Cluster inventories by byte length (index 0 unused). Onsets and codas are
// consonant runs, V0s and nuclei vowel runs; see vocabulary.h.
constexpr std::array<std::string_view, 4> kOnsets = {
    "", "b c d f g h j k l m n p r s t v w y z",
    "bl br ch cl cr dr fl fr gl gr kr ph pl pr sc sh sk sl sm sn sp st sw th tr tw wh wr",
    "chr sch scr shr spl spr str thr"};
constexpr std::array<std::string_view, 3> kNuclei = {"", "a e i o u",
                                                     "ai au ea ee ie io oa oi oo ou"};
// Word-initial vowels: single letters only, as most English words start with
// a consonant.
constexpr std::array<std::string_view, 2> kV0s = {"", "a e i o u"};
constexpr std::array<std::string_view, 4> kCodas = {
    "", "b c d f g k l m n p r s t x z",
    "ck ct ft ld lf lk ll lm lp lt mb mp nd ng nk ns nt pt rb rd rf rg rk rl rm rn rp rs rt sh "
    "sk sp ss st th ts wn ws ys",
    "nch nds ngs nth nts rch rds rst rth sts tch"};

std::vector<std::string_view> Split(std::string_view list) {
  std::vector<std::string_view> items;
  while (!list.empty()) {
    const size_t space = list.find(' ');
    items.push_back(list.substr(0, space));
    if (space == std::string_view::npos) break;
    list.remove_prefix(space + 1);
  }
  return items;
}

struct Grammar {
  std::array<std::vector<std::string_view>, 4> onsets, codas;
  std::array<std::vector<std::string_view>, 3> nuclei;
  std::array<std::vector<std::string_view>, 2> v0s;
  // Syllables (onset + nucleus) by combined length 2..5, as (onset, nucleus).
  std::array<std::vector<std::pair<std::string_view, std::string_view>>, 6> syllables;

  Grammar() {
    for (size_t n = 1; n < 4; ++n) onsets[n] = Split(kOnsets[n]);
    for (size_t n = 1; n < 4; ++n) codas[n] = Split(kCodas[n]);
    for (size_t n = 1; n < 3; ++n) nuclei[n] = Split(kNuclei[n]);
    v0s[1] = Split(kV0s[1]);
    for (size_t o = 1; o < 4; ++o) {
      for (size_t v = 1; v < 3; ++v) {
        for (std::string_view onset : onsets[o]) {
          for (std::string_view nucleus : nuclei[v]) syllables[o + v].emplace_back(onset, nucleus);
        }
      }
    }
  }

  // Choices for the optional V0 / coda of `length` bytes (length 0 = none).
  size_t V0Choices(size_t length) const { return length == 0 ? 1 : v0s[length].size(); }
  size_t CodaChoices(size_t length) const { return length == 0 ? 1 : codas[length].size(); }
};

const Grammar& TheGrammar() {
  static const Grammar* grammar = new Grammar();
  return *grammar;
}

uint64_t Mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Keys of the rank hashes; any fixed odd constants.
constexpr uint64_t kLengthKey = 0x6A09E667F3BCC909ull;
constexpr uint64_t kForeignKey = 0xBB67AE8584CAA73Bull;
constexpr uint64_t kProperKey = 0x3C6EF372FE94F82Bull;
constexpr uint64_t kAcronymKey = 0xA54FF53A5F1D36F1ull;
constexpr uint64_t kFeistelKey = 0x510E527FADE682D1ull;

uint64_t Hash(uint64_t rank, uint64_t key) { return Mix(rank * 0x9E3779B97F4A7C15ull ^ key); }

// Piecewise-linear interpolation over (log10 rank, value) knots.
struct Knot {
  double log_rank;
  double value;
};
double Interpolate(const Knot* knots, size_t n, double x) {
  if (x <= knots[0].log_rank) return knots[0].value;
  for (size_t i = 1; i < n; ++i) {
    if (x <= knots[i].log_rank) {
      const double f = (x - knots[i - 1].log_rank) / (knots[i].log_rank - knots[i - 1].log_rank);
      return knots[i - 1].value + f * (knots[i].value - knots[i - 1].value);
    }
  }
  return knots[n - 1].value;
}

// Preferred byte length of head rank r: mean and standard deviation by
// log10(rank), shaped after English word lengths by frequency (function
// words of 2-3 letters on top, ~7 letters around rank 10^4).
constexpr Knot kMeanLength[] = {{0, 2.5}, {1, 3.5}, {2, 5.1},  {3, 6.6},
                                {4, 7.6}, {5, 8.4}, {5.5, 9.0}};
constexpr Knot kLengthSpread[] = {{0, 0.5}, {1, 1.0}, {2, 1.8}, {3, 2.1}, {5.5, 2.3}};

size_t PreferredLength(uint64_t rank) {
  const double x = std::log10(static_cast<double>(rank));
  const double mean = Interpolate(kMeanLength, std::size(kMeanLength), x);
  const double spread = Interpolate(kLengthSpread, std::size(kLengthSpread), x);
  // Irwin-Hall(4) standardized: close to a standard normal, no libm calls.
  uint64_t h = Hash(rank, kLengthKey);
  double sum = 0;
  for (int i = 0; i < 4; ++i, h >>= 16) sum += static_cast<double>(h & 0xFFFF) / 65536.0;
  const double z = (sum - 2.0) * 1.7320508075688772;  // sqrt(3)
  const double length = std::round(mean + spread * z);
  return static_cast<size_t>(std::clamp(length, 1.0, 20.0));
}

// Head capacity of the short lengths (English has few 1-3 letter words).
Count HeadCap(size_t length) {
  switch (length) {
    case 1:
      return 2;
    case 2:
      return 40;
    case 3:
      return 600;
    default:
      return std::numeric_limits<Count>::max();
  }
}

constexpr size_t kTailMinLength = 6;
constexpr double kTailFirstQuota = 10000;
constexpr double kTailGrowth = 3.2;

// "Foreign" ranks get one accented letter: (ASCII letter, UTF-8 variants).
constexpr std::pair<char, std::array<std::string_view, 5>> kAccents[] = {
    {'a', {"á", "à", "â", "ä", "ã"}}, {'e', {"é", "è", "ê", "ë", "é"}},
    {'i', {"í", "ì", "î", "ï", "í"}}, {'o', {"ó", "ò", "ô", "ö", "õ"}},
    {'u', {"ú", "ù", "û", "ü", "ú"}}, {'n', {"ñ", "ñ", "ñ", "ñ", "ñ"}},
    {'c', {"ç", "ç", "ç", "ç", "ç"}}};

uint64_t Saturate(Count c) {
  return c > std::numeric_limits<uint64_t>::max() ? std::numeric_limits<uint64_t>::max()
                                                  : static_cast<uint64_t>(c);
}

}  // namespace

const Vocabulary& Vocabulary::Default() {
  static const Vocabulary* vocabulary = new Vocabulary();
  return *vocabulary;
}

Vocabulary::Vocabulary() {
  const Grammar& g = TheGrammar();
  // Body counts: bodies_[m] = sum over syllable lengths s of
  // |syllables of s bytes| * bodies_[m - s].
  bodies_.assign(kMaxLength + 1, 0);
  bodies_[0] = 1;
  for (size_t m = 1; m <= kMaxLength; ++m) {
    for (size_t s = 2; s <= 5 && s <= m; ++s) bodies_[m] += g.syllables[s].size() * bodies_[m - s];
  }
  words_.assign(kMaxLength + 1, 0);
  feistel_bits_.assign(kMaxLength + 1, 0);
  for (size_t length = 1; length <= kMaxLength; ++length) {
    for (size_t a = 0; a <= 1; ++a) {
      for (size_t c = 0; c <= 3; ++c) {
        if (a + c > length) continue;
        const size_t m = length - a - c;
        const Count bodies = (a == 0 && m == 0) ? 0 : bodies_[m];
        words_[length] += Count{g.V0Choices(a)} * g.CodaChoices(c) * bodies;
      }
    }
    const uint64_t high = static_cast<uint64_t>((words_[length] - 1) >> 64);
    const uint64_t low = static_cast<uint64_t>(words_[length] - 1);
    int bits = high != 0 ? 64 + std::bit_width(high) : std::bit_width(low);
    bits = std::max(2, bits + (bits & 1));
    assert(bits <= 128);
    feistel_bits_[length] = bits;
  }

  // Head: preferred lengths, next free slot (or the next longer length).
  head_used_.assign(kMaxLength + 1, 0);
  head_offsets_.reserve(kHeadRanks + 1);
  head_traits_.reserve(kHeadRanks);
  head_bytes_.reserve(size_t{kHeadRanks} * 10);
  head_offsets_.push_back(0);
  char word[kMaxWordBytes];
  for (uint64_t rank = 1; rank <= kHeadRanks; ++rank) {
    size_t length = PreferredLength(rank);
    while (head_used_[length] >= std::min(HeadCap(length), words_[length])) ++length;
    size_t size = SlotWord(length, head_used_[length]++, word);
    size = Accent(rank, word, size);
    uint8_t traits = 0;
    if (rank > 200 && Hash(rank, kProperKey) % 100 < 25) traits |= 1;
    if (rank > 100 && size == length && length <= 4 && Hash(rank, kAcronymKey) % 1000 < 15)
      traits |= 2;
    head_bytes_.append(word, size);
    head_offsets_.push_back(static_cast<uint32_t>(head_bytes_.size()));
    head_traits_.push_back(traits);
  }

  // Tail quotas from kTailMinLength on, until they cover kMaxRank.
  tail_end_.assign(kMaxLength + 1, 0);
  double quota = kTailFirstQuota;
  uint64_t end = 0;
  for (size_t length = kTailMinLength; length <= kMaxLength; ++length) {
    const Count free = words_[length] - head_used_[length];
    const uint64_t take = Saturate(std::min<Count>(free, static_cast<Count>(quota)));
    end = take > std::numeric_limits<uint64_t>::max() - end ? std::numeric_limits<uint64_t>::max()
                                                            : end + take;
    tail_end_[length] = end;
    quota = std::min(quota * kTailGrowth, 1e19);
  }
  assert(end >= kMaxRank);
}

std::string_view Vocabulary::Word(uint64_t rank, WordBuffer* buffer) const {
  assert(rank >= 1 && rank <= kMaxRank);
  if (rank <= kHeadRanks) {
    return std::string_view(head_bytes_.data() + head_offsets_[rank - 1],
                            head_offsets_[rank] - head_offsets_[rank - 1]);
  }
  const uint64_t t = rank - kHeadRanks - 1;
  size_t length = kTailMinLength;
  while (t >= tail_end_[length]) ++length;
  const uint64_t before = length == kTailMinLength ? 0 : tail_end_[length - 1];
  size_t size = SlotWord(length, head_used_[length] + (t - before), buffer->bytes);
  size = Accent(rank, buffer->bytes, size);
  return std::string_view(buffer->bytes, size);
}

Vocabulary::Traits Vocabulary::TraitsOf(uint64_t rank) const {
  Traits traits;
  if (rank <= kHeadRanks) {
    traits.proper = head_traits_[rank - 1] & 1;
    traits.acronym = head_traits_[rank - 1] & 2;
  } else {
    traits.proper = Hash(rank, kProperKey) % 100 < 25;
  }
  return traits;
}

uint64_t Vocabulary::GrammarWords(size_t length) const {
  return length <= kMaxLength ? Saturate(words_[length]) : 0;
}

std::string Vocabulary::GrammarWord(size_t length, uint64_t index) const {
  std::string word(length, '\0');
  Unrank(length, index, word.data());
  return word;
}

size_t Vocabulary::SlotWord(size_t length, Count slot, char* out) const {
  Unrank(length, Permute(length, slot), out);
  return length;
}

// Keyed Feistel network on [0, 2^bits) (bits even), cycle-walked into
// [0, W(length)): a bijection of the length's word numbers.
Vocabulary::Count Vocabulary::Permute(size_t length, Count slot) const {
  const int half = feistel_bits_[length] / 2;
  const Count mask = (Count{1} << half) - 1;
  const uint64_t key = Hash(length, kFeistelKey);
  Count x = slot;
  do {
    Count left = x >> half;
    Count right = x & mask;
    for (uint64_t round = 0; round < 4; ++round) {
      const Count f = Mix(static_cast<uint64_t>(right) ^ Mix(key + round)) & mask;
      const Count next_right = left ^ f;
      left = right;
      right = next_right;
    }
    x = (left << half) | right;
  } while (x >= words_[length]);
  return x;
}

void Vocabulary::Unrank(size_t length, Count index, char* out) const {
  const Grammar& g = TheGrammar();
  auto put = [&out](std::string_view s) {
    std::memcpy(out, s.data(), s.size());
    out += s.size();
  };
  for (size_t a = 0; a <= 1; ++a) {
    for (size_t c = 0; c <= 3; ++c) {
      if (a + c > length) continue;
      size_t m = length - a - c;
      const Count bodies = (a == 0 && m == 0) ? 0 : bodies_[m];
      const Count block = Count{g.V0Choices(a)} * g.CodaChoices(c) * bodies;
      if (index >= block) {
        index -= block;
        continue;
      }
      Count body = index % bodies;
      const Count rest = index / bodies;
      const size_t coda = static_cast<size_t>(rest % g.CodaChoices(c));
      const size_t v0 = static_cast<size_t>(rest / g.CodaChoices(c));
      if (a > 0) put(g.v0s[a][v0]);
      while (m > 0) {
        for (size_t s = 2;; ++s) {
          assert(s <= 5 && s <= m);
          const Count rest_bodies = bodies_[m - s];
          const Count syllable_block = Count{g.syllables[s].size()} * rest_bodies;
          if (body >= syllable_block) {
            body -= syllable_block;
            continue;
          }
          const auto& [onset, nucleus] = g.syllables[s][static_cast<size_t>(body / rest_bodies)];
          put(onset);
          put(nucleus);
          body %= rest_bodies;
          m -= s;
          break;
        }
      }
      if (c > 0) put(g.codas[c][coda]);
      return;
    }
  }
  assert(false && "index out of range");
}

size_t Vocabulary::Accent(uint64_t rank, char* word, size_t size) {
  if (rank <= 500 || Hash(rank, kForeignKey) % 1000 >= 12) return size;
  const uint64_t h = Hash(rank, kForeignKey ^ 1);
  // Candidates: positions >= 1 holding an accentable letter; vowels first.
  size_t candidates[kMaxLength];
  size_t n = 0;
  for (int pass = 0; pass < 2 && n == 0; ++pass) {
    for (size_t i = 1; i < size; ++i) {
      const bool vowel = std::strchr("aeiou", word[i]) != nullptr;
      if ((pass == 0 && vowel) || (pass == 1 && (word[i] == 'n' || word[i] == 'c'))) {
        candidates[n++] = i;
      }
    }
  }
  if (n == 0) return size;
  const size_t at = candidates[h % n];
  for (const auto& [letter, variants] : kAccents) {
    if (letter != word[at]) continue;
    const std::string_view accented = variants[(h >> 32) % variants.size()];
    std::memmove(word + at + accented.size(), word + at + 1, size - at - 1);
    std::memcpy(word + at, accented.data(), accented.size());
    return size - 1 + accented.size();
  }
  return size;
}

}  // namespace invert

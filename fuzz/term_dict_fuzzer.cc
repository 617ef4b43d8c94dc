// Fuzz target: the term dictionary reader (codec/term_dict_reader.h).
//
// Input: flags:u8 (bit 0: verify checksums), 4 probes of 18 bytes each
// (kind:u8, length:u8, 16 target bytes: kind % 3 is SeekExact / SeekCeil /
// SeekOrdinal, the target is the first length % 17 bytes, the ordinal the
// first 8 bytes), then the dictionary bytes.
//
// Open(), then on one cursor: Next() over every term (at most 4096),
// remembering some; the probes; then for each remembered term SeekExact,
// SeekCeil of the term, of the term plus a NUL byte and of the term minus
// its last byte, each followed by a Next(); then SeekOrdinal on a fresh
// cursor; and, where the library has it, BlockBytes() of each probe and
// remembered term, which must lie inside the dictionary. Errors are fine;
// crashes and out-of-bounds reads are not. Without checksum verification
// corrupt blocks reach the decoder itself.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "codec/term_dict_reader.h"
#include "fuzz_common.h"

namespace {

using invert::TermDictCursor;

// Where the library has TermDictReader::BlockBytes (a newer API; the target
// builds either way): the block it names must lie inside the dictionary.
template <typename Reader>
size_t MaybeBlockBytes(const Reader& reader, std::span<const uint8_t> dict, std::string_view term) {
  if constexpr (requires { reader.BlockBytes(term); }) {
    const std::span<const uint8_t> block = reader.BlockBytes(term);
    if (!block.empty() &&
        (block.data() < dict.data() || block.data() + block.size() > dict.data() + dict.size())) {
      std::fprintf(stderr, "term_dict_fuzzer: BlockBytes outside the dictionary\n");
      std::abort();
    }
    return block.size();
  } else {
    return 0;
  }
}

// Reads the cursor's state the way a caller would (term bytes, stats).
size_t Touch(const TermDictCursor& cursor) {
  if (!cursor.valid()) return 0;
  size_t sum = cursor.ordinal() + cursor.stats().doc_freq;
  for (char c : cursor.term()) sum += static_cast<unsigned char>(c);
  return sum;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace invert;
  fuzz::FuzzInput in(data, size);
  const uint8_t flags = in.U8();
  struct Probe {
    uint8_t kind;
    std::string target;
    uint64_t ordinal;
  };
  std::vector<Probe> probes;
  for (int i = 0; i < 4; ++i) {
    Probe p;
    p.kind = in.U8() % 3;
    const size_t length = in.U8() % 17;
    const std::string_view bytes = in.Bytes(16);
    p.target = std::string(bytes.substr(0, std::min(length, bytes.size())));
    p.ordinal = 0;
    for (size_t b = 0; b < 8 && b < bytes.size(); ++b) {
      p.ordinal |= uint64_t{static_cast<uint8_t>(bytes[b])} << (8 * b);
    }
    probes.push_back(std::move(p));
  }
  const fuzz::ExactBytes dict(in.Rest());

  TermDictReaderOptions options;
  options.verify_checksums = (flags & 1) != 0;
  absl::StatusOr<TermDictReader> reader = TermDictReader::Open(dict.span(), options);
  if (!reader.ok()) return 0;
  volatile size_t sink = reader->index_bytes() + reader->block_count();

  std::vector<std::string> remembered;
  TermDictCursor cursor = reader->NewCursor();
  for (int i = 0; i < 4096; ++i) {
    absl::StatusOr<bool> next = cursor.Next();
    if (!next.ok() || !*next) break;
    sink = sink + Touch(cursor);
    if (remembered.size() < 32 && (i % 7 == 0 || i < 4)) {
      remembered.emplace_back(cursor.term());
    }
  }

  for (const Probe& p : probes) {
    sink = sink + MaybeBlockBytes(*reader, dict.span(), p.target);
    switch (p.kind) {
      case 0:
        (void)cursor.SeekExact(p.target);
        break;
      case 1:
        (void)cursor.SeekCeil(p.target);
        break;
      default:
        (void)cursor.SeekOrdinal(p.ordinal % (reader->term_count() + 2));
        break;
    }
    sink = sink + Touch(cursor);
    (void)cursor.Next();
    sink = sink + Touch(cursor);
  }

  for (const std::string& term : remembered) {
    std::vector<std::string> targets = {term, term + '\0'};
    if (!term.empty()) targets.push_back(term.substr(0, term.size() - 1));
    sink = sink + MaybeBlockBytes(*reader, dict.span(), term);
    (void)cursor.SeekExact(term);
    sink = sink + Touch(cursor);
    for (const std::string& target : targets) {
      (void)cursor.SeekCeil(target);
      sink = sink + Touch(cursor);
      (void)cursor.Next();
      sink = sink + Touch(cursor);
    }
  }

  TermDictCursor by_ordinal = reader->NewCursor();
  const uint64_t count = reader->term_count();
  for (uint64_t ordinal : {uint64_t{0}, count / 2, count > 0 ? count - 1 : 0, count, count + 1}) {
    (void)by_ordinal.SeekOrdinal(ordinal);
    sink = sink + Touch(by_ordinal);
    (void)by_ordinal.Next();
    sink = sink + Touch(by_ordinal);
  }
  (void)sink;
  return 0;
}

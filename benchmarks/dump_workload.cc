// invert_dump_workload: writes the token streams of the terms-hash benchmark
// to files that the Lucene peer (benchmarks/peers/LuceneTermsHash.java) loads,
// so that both engines index byte-identical streams.
//
//   invert_dump_workload OUT_DIR [SIZE ...]      (sizes: light, scaled; default light)
//
// Writes OUT_DIR/<workload>-<size>.tokens for every workload (1.0, 3.0, 6.0,
// uuid) and prints one JSON line per file with its token count, distinct
// terms and StreamHash (the Java side prints the same three numbers for what
// it loaded, and the scripts compare them). File format, little-endian:
//
//   magic         8 bytes  "INVTOKS1"
//   tokens        u64
//   distinct      u64      distinct terms in the stream
//   hash          u64      StreamHash (workload.h)
//   tokens/doc    u32      1000
//   tokens times: u8 length, then length bytes
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "workload.h"

namespace invert::bench {
namespace {

void Put64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}

bool Dump(const std::string& dir, double skew, const WorkloadSize& size) {
  const WorkloadSpec spec = MakeSpec(skew, size);
  const Workload& w = GetWorkload(spec);
  const uint64_t hash = StreamHash(w);
  std::string out = "INVTOKS1";
  Put64(out, w.tokens.size());
  Put64(out, w.distinct_terms);
  Put64(out, hash);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(kTokensPerDoc >> (8 * i)));
  for (std::string_view token : w.tokens) {
    out.push_back(static_cast<char>(token.size()));
    out.append(token);
  }
  const std::string path = dir + "/" + spec.Name() + "-" + size.name + ".tokens";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) {
    std::fprintf(stderr, "cannot write %s: %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  const bool ok = std::fwrite(out.data(), 1, out.size(), f) == out.size();
  if (std::fclose(f) != 0 || !ok) {
    std::fprintf(stderr, "write failed: %s\n", path.c_str());
    return false;
  }
  std::printf(
      "{\"workload\":\"%s\",\"size\":\"%s\",\"file\":\"%s\",\"tokens\":%zu,\"distinct\":%zu,"
      "\"hash\":\"%016" PRIx64 "\"}\n",
      spec.Name().c_str(), size.name, path.c_str(), w.tokens.size(), w.distinct_terms, hash);
  return true;
}

}  // namespace
}  // namespace invert::bench

int main(int argc, char** argv) {
  using invert::bench::kWorkloadSizes;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR [light|scaled ...]\n", argv[0]);
    return 2;
  }
  std::vector<std::string> sizes(argv + 2, argv + argc);
  if (sizes.empty()) sizes.push_back("light");
  for (const std::string& name : sizes) {
    const invert::bench::WorkloadSize* size = nullptr;
    for (const auto& s : kWorkloadSizes) {
      if (name == s.name) size = &s;
    }
    if (size == nullptr) {
      std::fprintf(stderr, "unknown size: %s\n", name.c_str());
      return 2;
    }
    for (double skew : invert::bench::kWorkloadSkews) {
      if (!invert::bench::Dump(argv[1], skew, *size)) return 1;
    }
  }
  return 0;
}

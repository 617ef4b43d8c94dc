// MsbRadixSort: sorts entries by byte-string keys in unsigned byte order.
//
// The flush sorts every term of a field by its bytes. Comparison sorts pay a
// key fetch (usually a cache miss into the term pool) per comparison, so
// O(n log n) misses; this most-significant-byte radix sort fetches each key
// once per level instead and caches what it read.
//
// Algorithm, for a range of entries that share their first `depth` bytes:
//   1. Ranges of at most kComparisonSortThreshold entries, and ranges reached
//      after kMaxRadixLevels levels of recursion, are finished with a
//      comparison sort on the bytes from `depth` on.
//   2. Common prefix: the longest prefix (up to kMaxPrefixSkip bytes) shared
//      by every key of the range is skipped without a pass of its own.
//   3. Histogram: each entry's bucket at `depth` is computed once and cached
//      in `bucket_cache` (bucket 0 = the key ends here, bucket b + 1 = byte b),
//      so the reorder never touches the keys again.
//   4. Reorder in place by following permutation cycles (American flag sort),
//      moving entries and their cached buckets together.
//   5. Recurse into buckets 1..256 at depth + 1. Bucket 0 holds keys that are
//      all equal (they ended at the same depth), so it is already sorted.
// The sort is not stable; equal keys end in unspecified order.
//
// Memory: the caller passes the entries and a bucket cache of n uint16_t.
// Stack: at most kMaxRadixLevels frames of ~2 KiB each.
#ifndef INVERT_UTIL_RADIX_SORT_H_
#define INVERT_UTIL_RADIX_SORT_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

namespace invert {

inline constexpr size_t kComparisonSortThreshold = 48;
inline constexpr int kMaxRadixLevels = 8;
inline constexpr size_t kMaxPrefixSkip = 24;

// Returns a negative, zero or positive value as a's bytes from `depth` on sort
// before, equal to or after b's, comparing bytes as unsigned.
inline int CompareFrom(std::string_view a, std::string_view b, size_t depth) {
  const size_t la = a.size() - depth;
  const size_t lb = b.size() - depth;
  const size_t common = la < lb ? la : lb;
  int c = common == 0 ? 0 : std::memcmp(a.data() + depth, b.data() + depth, common);
  if (c != 0) return c;
  return la < lb ? -1 : (la > lb ? 1 : 0);
}

// KeyFn: std::string_view(const Entry&). Entry: cheap to copy and swap.
template <typename Entry, typename KeyFn>
class MsbRadixSorter {
 public:
  MsbRadixSorter(Entry* entries, uint16_t* bucket_cache, KeyFn key)
      : entries_(entries), cache_(bucket_cache), key_(std::move(key)) {}

  void Sort(size_t n) { SortRange(0, n, 0, 0); }

 private:
  static constexpr int kBuckets = 257;

  static uint16_t BucketAt(std::string_view key, size_t depth) {
    return depth < key.size() ? static_cast<uint16_t>(static_cast<uint8_t>(key[depth]) + 1) : 0;
  }

  // The 8 key bytes from `depth` on as a big-endian number, zero-padded past
  // the key's end. If two keys' numbers differ, they order the keys (a
  // zero pad sorts first, as the shorter key does); only equal numbers need
  // the bytes. REQUIRES: depth <= key.size().
  static uint64_t Prefix8(std::string_view key, size_t depth) {
    const size_t left = key.size() - depth;
    const auto* p = reinterpret_cast<const uint8_t*>(key.data() + depth);
    uint64_t v = 0;
    if (left >= 8) {
      for (int i = 0; i < 8; ++i) v = v << 8 | p[i];  // one bswap'd load with GCC and Clang
      return v;
    }
    for (size_t i = 0; i < left; ++i) v |= uint64_t{p[i]} << (56 - 8 * i);
    return v;
  }

  // Small ranges: each key is fetched once, and its next 8 bytes decide
  // almost every comparison (a comparison through key_() and memcmp cost
  // ~50 instructions, most of the flush's sort).
  void ComparisonSort(size_t lo, size_t hi, size_t depth) {
    const size_t n = hi - lo;
    if (n > kComparisonSortThreshold) {  // only after kMaxRadixLevels levels
      std::sort(entries_ + lo, entries_ + hi, [this, depth](const Entry& a, const Entry& b) {
        return CompareFrom(key_(a), key_(b), depth) < 0;
      });
      return;
    }
    struct Item {
      uint64_t prefix;
      Entry entry;
    };
    Item items[kComparisonSortThreshold];
    for (size_t i = 0; i < n; ++i) {
      items[i] = {Prefix8(key_(entries_[lo + i]), depth), entries_[lo + i]};
    }
    std::sort(items, items + n, [this, depth](const Item& a, const Item& b) {
      if (a.prefix != b.prefix) return a.prefix < b.prefix;
      return CompareFrom(key_(a.entry), key_(b.entry), depth) < 0;
    });
    for (size_t i = 0; i < n; ++i) entries_[lo + i] = items[i].entry;
  }

  // Fills counts and cache_ for [lo, hi) at `depth`, starting at entry `from`
  // (entries before it were already counted).
  void Histogram(size_t from, size_t hi, size_t depth, std::array<size_t, kBuckets>& counts) {
    for (size_t i = from; i < hi; ++i) {
      const uint16_t b = BucketAt(key_(entries_[i]), depth);
      cache_[i] = b;
      ++counts[b];
    }
  }

  // Computes the histogram of [lo, hi) at `depth`, first advancing `depth`
  // past the prefix (at most kMaxPrefixSkip bytes) that all keys share. One
  // pass in the common case: the prefix scan stops at the first key that
  // differs from the first one in byte `depth`, and every key before it is
  // known to fall in the first key's bucket.
  void PrefixAndHistogram(size_t lo, size_t hi, size_t& depth,
                          std::array<size_t, kBuckets>& counts) {
    const std::string_view first = key_(entries_[lo]);
    size_t common = first.size() > depth ? std::min(first.size() - depth, kMaxPrefixSkip) : 0;
    size_t i = lo + 1;
    for (; i < hi && common > 0; ++i) {
      const std::string_view key = key_(entries_[i]);
      const size_t limit = std::min(common, key.size() > depth ? key.size() - depth : 0);
      size_t j = 0;
      while (j < limit && key[depth + j] == first[depth + j]) ++j;
      common = j;
      if (common == 0) break;
    }
    if (common > 0) {
      // Every key shares `common` more bytes.
      depth += common;
      Histogram(lo, hi, depth, counts);
      return;
    }
    const uint16_t first_bucket = BucketAt(first, depth);
    for (size_t k = lo; k < i; ++k) cache_[k] = first_bucket;
    counts[first_bucket] = i - lo;
    Histogram(i, hi, depth, counts);
  }

  void SortRange(size_t lo, size_t hi, size_t depth, int level) {
    for (;;) {
      if (hi - lo <= kComparisonSortThreshold || level >= kMaxRadixLevels) {
        ComparisonSort(lo, hi, depth);
        return;
      }
      std::array<size_t, kBuckets> counts{};
      PrefixAndHistogram(lo, hi, depth, counts);
      const uint16_t first_bucket = cache_[lo];
      if (counts[first_bucket] == hi - lo) {
        // One bucket holds everything: the prefix was longer than the skip cap.
        if (first_bucket == 0) return;  // all keys ended: all equal
        ++depth;
        continue;
      }

      std::array<size_t, kBuckets> next{};
      std::array<size_t, kBuckets> end{};
      size_t pos = lo;
      for (int b = 0; b < kBuckets; ++b) {
        next[b] = pos;
        pos += counts[b];
        end[b] = pos;
      }
      for (int b = 0; b < kBuckets; ++b) {
        while (next[b] < end[b]) {
          Entry e = entries_[next[b]];
          uint16_t k = cache_[next[b]];
          while (k != b) {
            const size_t dst = next[k]++;
            std::swap(e, entries_[dst]);
            std::swap(k, cache_[dst]);
          }
          entries_[next[b]] = e;
          cache_[next[b]] = k;
          ++next[b];
        }
      }

      size_t start = lo + counts[0];
      for (int b = 1; b < kBuckets; ++b) {
        if (counts[b] > 1) SortRange(start, start + counts[b], depth + 1, level + 1);
        start += counts[b];
      }
      return;
    }
  }

  Entry* entries_;
  uint16_t* cache_;
  KeyFn key_;
};

// Sorts entries[0, n) by key(entry) in unsigned byte order. `bucket_cache`
// must hold n elements; its contents on return are unspecified.
template <typename Entry, typename KeyFn>
void MsbRadixSort(Entry* entries, size_t n, uint16_t* bucket_cache, KeyFn key) {
  MsbRadixSorter<Entry, KeyFn>(entries, bucket_cache, std::move(key)).Sort(n);
}

}  // namespace invert

#endif  // INVERT_UTIL_RADIX_SORT_H_

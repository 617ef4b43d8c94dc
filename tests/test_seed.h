// TestSeed: the seed of a randomized test. Fixed by default so runs repeat;
// INVERT_TEST_SEED=<n> overrides it to explore. The seed in use is printed and
// recorded in the test's XML/JSON properties so a failure can be replayed.
#ifndef INVERT_TESTS_TEST_SEED_H_
#define INVERT_TESTS_TEST_SEED_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gtest/gtest.h"

namespace invert::testing {

inline uint64_t TestSeed(uint64_t default_seed) {
  uint64_t seed = default_seed;
  if (const char* env = std::getenv("INVERT_TEST_SEED"); env != nullptr && *env != '\0') {
    seed = std::strtoull(env, nullptr, 0);
  }
  std::printf("[   SEED   ] %llu (replay with INVERT_TEST_SEED=%llu)\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return seed;
}

}  // namespace invert::testing

#endif  // INVERT_TESTS_TEST_SEED_H_

// TestScale: how large the slow randomized and exhaustive tests run. Full
// size by default; INVERT_TEST_SCALE=<f>, 0 < f <= 1, shrinks their loop
// counts. The sanitizer test presets (CMakePresets.json) use 0.25: there the
// code runs several times slower and the point is memory and UB errors, which
// small inputs find as well; the release run keeps the full sizes. A scaled
// count never drops below the minimum the test needs to mean what it says, and
// the count in use is printed beside the seed.
#ifndef INVERT_TESTS_TEST_SCALE_H_
#define INVERT_TESTS_TEST_SCALE_H_

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gtest/gtest.h"

namespace invert::testing {

// The factor INVERT_TEST_SCALE sets (1 when unset). A malformed value fails
// the calling test and counts as 1.
inline double TestScale() {
  const char* env = std::getenv("INVERT_TEST_SCALE");
  if (env == nullptr || *env == '\0') return 1.0;
  char* end = nullptr;
  const double scale = std::strtod(env, &end);
  if (*end != '\0' || !(scale > 0.0) || scale > 1.0) {
    ADD_FAILURE() << "INVERT_TEST_SCALE=" << env
                  << " is not a number in (0, 1]; unset it for full-size tests";
    return 1.0;
  }
  return scale;
}

// `full` scaled by TestScale(), at least `minimum` (and at most `full`).
inline int Scaled(int full, int minimum) {
  const double scale = TestScale();
  if (scale == 1.0) return full;
  const int scaled = static_cast<int>(std::lround(full * scale));
  const int n = std::clamp(scaled, std::min(minimum, full), full);
  std::printf("[  SCALE   ] %d of %d (INVERT_TEST_SCALE=%g; unset for full size)\n", n, full,
              scale);
  ::testing::Test::RecordProperty("scaled", std::to_string(n) + " of " + std::to_string(full));
  return n;
}

}  // namespace invert::testing

#endif  // INVERT_TESTS_TEST_SCALE_H_

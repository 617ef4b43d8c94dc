// testing::Scaled: the loop counts the slow tests run with under
// INVERT_TEST_SCALE (tests/test_scale.h).
#include "test_scale.h"

#include <cstdlib>
#include <optional>
#include <string>

#include "gtest/gtest-spi.h"
#include "gtest/gtest.h"

namespace invert {
namespace {

// Sets INVERT_TEST_SCALE for one test and puts the caller's value back.
class ScaleEnv {
 public:
  explicit ScaleEnv(const char* value) {
    if (const char* old = std::getenv("INVERT_TEST_SCALE")) old_ = old;
    if (value == nullptr) {
      unsetenv("INVERT_TEST_SCALE");
    } else {
      setenv("INVERT_TEST_SCALE", value, 1);
    }
  }
  ~ScaleEnv() {
    if (old_) {
      setenv("INVERT_TEST_SCALE", old_->c_str(), 1);
    } else {
      unsetenv("INVERT_TEST_SCALE");
    }
  }

 private:
  std::optional<std::string> old_;
};

TEST(TestScaleTest, UnsetMeansFullSize) {
  ScaleEnv env(nullptr);
  EXPECT_EQ(testing::TestScale(), 1.0);
  EXPECT_EQ(testing::Scaled(800, 300), 800);
  ScaleEnv empty("");
  EXPECT_EQ(testing::Scaled(40, 12), 40);
}

TEST(TestScaleTest, ScalesAndKeepsTheMinimum) {
  ScaleEnv env("0.25");
  EXPECT_EQ(testing::Scaled(300, 60), 75);
  EXPECT_EQ(testing::Scaled(800, 300), 300);  // 200 is below the minimum
  EXPECT_EQ(testing::Scaled(3, 1), 1);
  EXPECT_EQ(testing::Scaled(2, 5), 2);  // never above full
  ScaleEnv one("1");
  EXPECT_EQ(testing::Scaled(25, 6), 25);
}

TEST(TestScaleTest, MalformedValuesFailTheTestAndRunFullSize) {
  for (const char* bad : {"0", "-0.5", "1.5", "abc", "0.25x"}) {
    ScaleEnv env(bad);
    int n = 0;
    EXPECT_NONFATAL_FAILURE(n = testing::Scaled(40, 12), "INVERT_TEST_SCALE");
    EXPECT_EQ(n, 40) << bad;
  }
}

}  // namespace
}  // namespace invert

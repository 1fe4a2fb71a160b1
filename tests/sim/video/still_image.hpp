#pragma once
// The still image the video tests pan over: scikit-learn's china.jpg (640x427, from python3-sklearn).
// Tests that need it skip, with a warning naming the file, where it is missing.
#include <filesystem>
#include <string>

namespace coinfer::test {

inline const std::string kChinaJpg = "/usr/lib/python3/dist-packages/sklearn/datasets/images/china.jpg";

/// True when china.jpg is installed; otherwise the caller returns (the test is skipped).
inline bool have_china_jpg() { return std::filesystem::exists(kChinaJpg); }

}  // namespace coinfer::test

/// Ends the running TEST_CASE, with a visible warning, when china.jpg is not installed.
#define SKIP_WITHOUT_CHINA_JPG()                                                               \
  do {                                                                                         \
    if (!coinfer::test::have_china_jpg()) {                                                    \
      WARN("skipped: " << coinfer::test::kChinaJpg << " not found (install python3-sklearn)"); \
      return;                                                                                  \
    }                                                                                          \
  } while (false)

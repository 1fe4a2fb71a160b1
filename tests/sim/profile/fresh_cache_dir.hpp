#pragma once
// An empty profile cache directory of its own for a test, in the test's scratch folder.
#include <string>

#include "tests/scratch_dir.hpp"

namespace coinfer::test {

/// `<the test's scratch folder>/cache_<name>`, not there yet (the profiler makes it).
inline std::string fresh_cache_dir(const std::string& name) {
  return (scratch_dir() / ("cache_" + name)).string();
}

}  // namespace coinfer::test

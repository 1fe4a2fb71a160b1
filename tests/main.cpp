#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "tests/scratch_dir.hpp"

namespace {

// Each TEST_CASE gets its own scratch folder (tests/scratch_dir.hpp), removed when it ends, so no
// test sees another's files even when one process runs them all.
struct ScratchListener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    coinfer::test::current_scratch().reset();
    TestEventListenerBase::testCaseEnded(stats);
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(ScratchListener)

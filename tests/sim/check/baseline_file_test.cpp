// Baseline files: one metric per line for review, read back exactly.
#include <catch2/catch.hpp>

#include "sim/check/baseline_file.hpp"
#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "tests/sim/engine_test_support.hpp"

using namespace coinfer;
using namespace coinfer::check;
using Catch::Matchers::Contains;

TEST_CASE("a result baseline has one metric per line and reads back exactly") {
  test::TempDir dir;
  BaselineFile b;
  b.check = "quickstart";
  b.metrics = {
      {"local/latency_ms.mean", 15808.693828082403}, {"remote/completed", 39}, {"x/partitioner", "plan"}};
  const auto text = baseline_text(b);
  CHECK(text ==
        "{\n  \"format\": \"coinfer-check-baseline/1\",\n  \"check\": \"quickstart\",\n  \"metrics\": {\n"
        "    \"local/latency_ms.mean\": 15808.693828082403,\n    \"remote/completed\": 39,\n"
        "    \"x/partitioner\": \"plan\"\n  }\n}\n");
  const auto path = dir.path() + "/b.json";
  write_file_atomic(path, text);
  const auto back = read_baseline(path, "quickstart");
  REQUIRE(back.metric("local/latency_ms.mean") != nullptr);
  CHECK(back.metric("local/latency_ms.mean")->get<double>() == 15808.693828082403);
  CHECK(back.metric("nope") == nullptr);
}

TEST_CASE("a timing baseline keeps each machine's samples to 6 digits, and its setup") {
  test::TempDir dir;
  BaselineFile b;
  b.check = "speed";
  b.setup = Json{{"measure", "wall"}, {"a", "sleep 1"}, {"b", "sleep 1"}};
  b.put_machine({"CPU one (avx2, 2 CPUs)", {{"a/b", {1.0000001, 2.5, 0.5}}}});
  b.put_machine({"CPU two (avx512f, 2 CPUs)", {{"a/b", {3, 3, 3}}}});
  b.put_machine({"CPU one (avx2, 2 CPUs)", {{"a/b", {1.0000001, 2.5, 0.5}}}});  // replaces, keeps order
  const auto text = baseline_text(b);
  CHECK_THAT(text, Contains("  \"machines\": {\n    \"CPU one (avx2, 2 CPUs)\": {\n"
                            "      \"a/b\": {\"median\": 1, \"samples\": [1, 2.5, 0.5]}\n    },\n"
                            "    \"CPU two (avx512f, 2 CPUs)\": {\n"));
  const auto path = dir.path() + "/b.json";
  write_file_atomic(path, text);
  const auto back = read_baseline(path, "speed");
  REQUIRE(back.machines.size() == 2);
  CHECK(*back.machine("CPU one (avx2, 2 CPUs)")->ratio("a/b") == std::vector<double>{1, 2.5, 0.5});
  CHECK(*back.machine("CPU two (avx512f, 2 CPUs)")->ratio("a/b") == std::vector<double>{3, 3, 3});
  CHECK(back.machine("CPU three (avx2, 2 CPUs)") == nullptr);
  CHECK(back.setup == b.setup);
  CHECK(back.path == path);
}

TEST_CASE("an older timing baseline's recorded_on and ratios read as the one machine it names") {
  test::TempDir dir;
  const auto path = dir.write("b.json", R"js({"format": "coinfer-check-baseline/1", "check": "speed",
    "setup": {"measure": "cpu"}, "recorded_on": "Old CPU (2 CPUs)", "ratios": {"a/b": {"samples": [2, 4]}}})js");
  const auto back = read_baseline(path, "speed");
  REQUIRE(back.machines.size() == 1);
  CHECK(*back.machine("Old CPU (2 CPUs)")->ratio("a/b") == std::vector<double>{2, 4});
}

TEST_CASE("a timing baseline sample that is not a number is refused naming the file and key") {
  test::TempDir dir;
  const auto path = dir.write("b.json", R"({"format": "coinfer-check-baseline/1", "check": "speed",
    "setup": {"measure": "cpu"}, "machines": {"M": {"a/b": {"samples": [1, "2"]}}}})");
  CHECK_THROWS_WITH(read_baseline(path, "speed"), Contains("b.json: machines.M.a/b.samples[1]"));
}

TEST_CASE("the ISA of a machine is the widest SIMD set its CPU flags name") {
  CHECK(isa_of("fpu sse sse2 sse4_2 avx avx2 fma avx512f avx512bw") == "avx512f");
  CHECK(isa_of("fpu sse4_2 avx fma avx2") == "avx2");
  CHECK(isa_of("fp asimd evtstrm aes") == "asimd");  // an ARM `Features` line
  CHECK(isa_of("fpu vme") == "unknown ISA");
  CHECK(isa_of("avx512fx avx") == "avx");  // whole words only
}

TEST_CASE("a baseline of another check or a bad one is refused with its key path") {
  test::TempDir dir;
  const auto path =
      dir.write("b.json", R"({"format": "coinfer-check-baseline/1", "check": "a", "metrics": {}})");
  CHECK_THROWS_WITH(read_baseline(path, "b"),
                    Contains("b.json: check: the baseline of check 'a', not of 'b'"));
  const auto bad =
      dir.write("c.json", R"({"format": "coinfer-check-baseline/1", "check": "a", "metrics": {"x": [1]}})");
  CHECK_THROWS_WITH(read_baseline(bad, "a"), Contains("c.json: metrics.x: expected a number"));
  CHECK_THROWS_WITH(read_baseline(dir.path() + "/none.json", "a"), Contains("baseline not found"));
}

// Compare variants: labels, their `set`, and the variant document.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/scenario/compare.hpp"
#include "sim/scenario/yaml_json.hpp"

using namespace coinfer;
using Catch::Matchers::Contains;

namespace {

Json doc_of(const std::string& yaml) { return yaml_to_json(yaml, "s.yaml"); }

}  // namespace

TEST_CASE("duplicate compare labels are rejected naming the second") {
  const auto doc = doc_of("compare:\n  - {label: a}\n  - {label: b}\n  - {label: a}\n");
  CHECK_THROWS_WITH(parse_compare(doc), Contains("compare[2].label") && Contains("duplicate label 'a'"));
}

TEST_CASE("a compare label must be usable as a folder name") {
  CHECK_THROWS_WITH(parse_compare(doc_of("compare: [{label: a/b}]\n")), Contains("compare[0].label"));
  CHECK_THROWS_WITH(parse_compare(doc_of("compare: [{label: ..}]\n")), Contains("compare[0].label"));
  CHECK_NOTHROW(parse_compare(doc_of("compare: [{label: remote-wifi_2.4+}]\n")));
}

TEST_CASE("a malformed key path in a compare set is reported at the set key") {
  CHECK_THROWS_WITH(parse_compare(doc_of("compare: [{label: a, set: {'x..y': 1}}]\n")),
                    Contains("compare[0].set.x..y"));
}

TEST_CASE("a variant document applies the set and drops compare and report") {
  const auto doc = doc_of(
      "seed: 1\npartitioner: {name: local}\nreport: {}\ncompare:\n"
      "  - {label: a, set: {partitioner.name: remote, seed: 2}}\n");
  const auto v = compare_variant_doc(doc, parse_compare(doc)[0]);
  CHECK(v == Json{{"seed", 2}, {"partitioner", {{"name", "remote"}}}});
}

TEST_CASE("a variant set into a scalar names the compare entry") {
  const auto doc = doc_of("seed: 1\ncompare:\n  - {label: a, set: {seed.x: 2}}\n");
  CHECK_THROWS_WITH(compare_variant_doc(doc, parse_compare(doc)[0]), Contains("compare[0].set.seed.x"));
}

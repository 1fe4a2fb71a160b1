// PipelineFacts: the typed facts of a pipeline variant and the metadata results.json prints.
#include <catch2/catch.hpp>

#include "partitioners/pipeline/pipeline_facts.hpp"

using namespace coinfer;

TEST_CASE("pipeline facts print gamma at the compressed split and gamma_k only at other compressing splits") {
  PipelineFacts f;
  f.splits = {{40, 5000.0, 4.0, 1}, {90, 1000.0, 2.0, 3}};
  f.compress_split = 1;
  f.tp_fps = 46.0;
  const Json j = f.to_json();
  // Split 1 is `split`: its ratio is `gamma`; split 2 compresses too, so it gets gamma_2.
  CHECK(j.at("gamma") == 4.0);
  CHECK(j.at("split") == 1.0);
  CHECK(j.at("gamma_2") == 2.0);
  CHECK_FALSE(j.contains("gamma_1"));
  CHECK(j.at("bytes_2") == 1000.0);
  CHECK(j.at("split_2") == 90.0);
  CHECK_FALSE(j.contains("accuracy"));  // nu unknown
}

TEST_CASE("pipeline facts without split points print gamma 1") {
  PipelineFacts f;  // one device: no split, nothing compressed
  CHECK(f.to_json().at("gamma") == 1.0);
  CHECK(f.accuracy() == std::nullopt);
}

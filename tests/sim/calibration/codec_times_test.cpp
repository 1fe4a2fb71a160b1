// The optional `codec` block of a calibration file: a device's video encode / decode time per
// frame with its source (MobiEye's phones, [Mao-PhD §4.6.2]).
#include <cmath>

#include <catch2/catch.hpp>

#include "sim/calibration/calibration_json.hpp"
#include "sim/core/error.hpp"

using namespace coinfer;

namespace {

Json with_codec(const Json& codec) {
  Json j = Json::parse(R"({
    "format": "coinfer-calibration/1", "name": "dev", "kind": "phone_cpu", "precision": "fp32",
    "memory_bytes": 2147483648, "op_scale": {"default": 2.0},
    "power": {"idle_w": 0.5, "busy_w": 2.0}, "references": []})");
  j["codec"] = codec;
  return j;
}

}  // namespace

TEST_CASE("codec: the encode time is read with its source, the decode time left unknown") {
  const auto c = calibration_from_json(with_codec({{"encode_ms", 14.9}, {"source", "[Mao-PhD §4.6.2]"}}));
  REQUIRE(c.codec);
  CHECK(c.codec->encode_ms == 14.9);
  CHECK(std::isnan(c.codec->decode_ms));
  CHECK(calibration_from_json(calibration_to_json(c)) == c);
}

TEST_CASE("codec: the shipped phones carry the dissertation's encode times") {
  // [Mao-PhD §4.6.2]: Pixel 2 14.9 ms, Nexus 5 22.8 ms per frame on average.
  CHECK(load_calibration_file(COINFER_SOURCE_DIR "/platforms/calibration/pixel2.json").codec->encode_ms ==
        14.9);
  CHECK(load_calibration_file(COINFER_SOURCE_DIR "/platforms/calibration/nexus5.json").codec->encode_ms ==
        22.8);
}

TEST_CASE("codec: no time, a time out of range or no source is an error naming the key") {
  CHECK_THROWS_WITH(calibration_from_json(with_codec({{"source", "x"}})),
                    "codec: expected encode_ms or decode_ms (ms per frame)");
  CHECK_THROWS_WITH(calibration_from_json(with_codec({{"encode_ms", 0}, {"source", "x"}})),
                    Catch::Contains("codec.encode_ms"));
  CHECK_THROWS_WITH(calibration_from_json(with_codec({{"decode_ms", 3.9}})), Catch::Contains("codec.source"));
  CHECK_THROWS_WITH(calibration_from_json(with_codec({{"encode_ms", 1}, {"fps", 30}, {"source", "x"}})),
                    Catch::Contains("codec.fps"));
}

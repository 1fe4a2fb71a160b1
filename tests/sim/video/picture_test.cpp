// Frame sizes as the CLI's --size takes them.
#include <catch2/catch.hpp>

#include "sim/core/error.hpp"
#include "sim/video/picture.hpp"

using namespace coinfer::video;
using Catch::Matchers::Contains;

TEST_CASE("parse_size reads WxH and names the option it came from when wrong") {
  CHECK(parse_size("1280x960", "--size") == Size{1280, 960});
  for (const char* bad : {"640", "640x", "x480", "641x480", "640x480x2", "8x8", "9000x480", "-640x480"}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse_size(bad, "--size"), Contains("--size: expected WIDTHxHEIGHT"));
  }
}

TEST_CASE("a picture's chroma planes are half its size") {
  const Picture p({320, 240});
  CHECK(p.u.width == 160);
  CHECK(p.v.height == 120);
  CHECK(p.size() == Size{320, 240});
}

#include "partitioners/modnn/kmeans.hpp"

#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "sim/core/error.hpp"

using namespace coinfer;
using namespace coinfer::modnn;

namespace {

/// n points around each of `centres` (2-D), Gaussian noise sigma; returns points and true labels.
std::pair<std::vector<double>, std::vector<int>> blobs(const std::vector<std::pair<double, double>>& centres,
                                                       int n, double sigma, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g(0.0, sigma);
  std::vector<double> pts;
  std::vector<int> labels;
  for (int i = 0; i < n; ++i)
    for (std::size_t c = 0; c < centres.size(); ++c) {
      pts.push_back(centres[c].first + g(rng));
      pts.push_back(centres[c].second + g(rng));
      labels.push_back(int(c));
    }
  return {pts, labels};
}

}  // namespace

TEST_CASE("kmeans: well separated blobs are recovered exactly", "[modnn][kmeans]") {
  const auto [pts, truth] = blobs({{0, 0}, {10, 0}, {0, 10}, {10, 10}}, 50, 0.5, 1);
  const auto r = kmeans(pts, 2, {.clusters = 4, .restarts = 5, .seed = 42});
  // Same partition up to renaming: points with the same true label share a cluster and vice versa.
  for (std::size_t i = 0; i < truth.size(); ++i)
    for (std::size_t j = 0; j < truth.size(); ++j)
      CHECK((truth[i] == truth[j]) == (r.labels[i] == r.labels[j]));
  CHECK(r.centroids.size() == 8);
}

TEST_CASE("kmeans: hand example and determinism", "[modnn][kmeans]") {
  // {0,0},{0,1} vs {10,10},{10,11}: centroids (0, 0.5) and (10, 10.5), inertia 4 * 0.25 = 1.
  const std::vector<double> pts{0, 0, 0, 1, 10, 10, 10, 11};
  const auto r = kmeans(pts, 2, {.clusters = 2, .seed = 7});
  CHECK(r.labels[0] == r.labels[1]);
  CHECK(r.labels[2] == r.labels[3]);
  CHECK(r.labels[0] != r.labels[2]);
  CHECK(r.inertia == Approx(1.0));
  CHECK(kmeans(pts, 2, {.clusters = 2, .seed = 7}).labels == r.labels);
}

TEST_CASE("kmeans: more restarts never give a worse inertia", "[modnn][kmeans]") {
  std::mt19937_64 rng(8);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> pts(2 * 40);
    for (auto& x : pts) x = std::uniform_real_distribution<double>(0, 1)(rng);
    const auto seed = rng();
    // The first run of both calls is the same (same generator state), so the best of 8 is <= it.
    const auto one = kmeans(pts, 2, {.clusters = 5, .restarts = 1, .seed = seed});
    const auto eight = kmeans(pts, 2, {.clusters = 5, .restarts = 8, .seed = seed});
    CHECK(eight.inertia <= one.inertia);
  }
}

TEST_CASE("kmeans: fewer distinct points than clusters, and bad input", "[modnn][kmeans]") {
  const auto r = kmeans({1, 1, 1, 1, 2, 2}, 2, {.clusters = 3, .seed = 1});
  CHECK(r.labels[0] == r.labels[1]);
  CHECK(r.labels[0] != r.labels[2]);
  CHECK(r.inertia == 0.0);
  CHECK_THROWS_AS(kmeans({1, 2, 3}, 2, {.clusters = 2}), Error);
  CHECK_THROWS_AS(kmeans({1, 2}, 2, {.clusters = 0}), Error);
  CHECK_THROWS_AS(kmeans({1, NAN}, 2, {.clusters = 1}), Error);
}

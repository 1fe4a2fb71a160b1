#include "partitioners/modnn/kmeans.hpp"

#include <cmath>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

struct Points {
  const double* data;
  std::size_t n;
  std::size_t d;
  const double* at(std::size_t i) const { return data + i * d; }
};

double squared_distance(const double* a, const double* b, std::size_t d) {
  double s = 0.0;
  for (std::size_t t = 0; t < d; ++t) s += (a[t] - b[t]) * (a[t] - b[t]);
  return s;
}

/// k-means++: the first centre uniformly, each next one with probability proportional to the
/// squared distance to the nearest centre chosen so far (uniform when every distance is zero).
std::vector<double> seed_plus_plus(const Points& p, std::size_t k, std::mt19937_64& rng) {
  std::vector<double> centres;
  centres.reserve(k * p.d);
  std::vector<double> nearest(p.n, std::numeric_limits<double>::infinity());
  std::size_t pick = std::uniform_int_distribution<std::size_t>(0, p.n - 1)(rng);
  for (std::size_t c = 0; c < k; ++c) {
    centres.insert(centres.end(), p.at(pick), p.at(pick) + p.d);
    double total = 0.0;
    for (std::size_t i = 0; i < p.n; ++i) {
      nearest[i] = std::min(nearest[i], squared_distance(p.at(i), p.at(pick), p.d));
      total += nearest[i];
    }
    if (c + 1 == k) break;
    if (!(total > 0.0)) {
      pick = std::uniform_int_distribution<std::size_t>(0, p.n - 1)(rng);
      continue;
    }
    double target = std::uniform_real_distribution<double>(0.0, total)(rng);
    // Walk the cumulative distribution; rounding can leave `target` >= 0 at the end, so fall back
    // on the last point with a positive weight.
    for (std::size_t i = 0; i < p.n; ++i) {
      if (!(nearest[i] > 0.0)) continue;
      pick = i;
      target -= nearest[i];
      if (target < 0.0) break;
    }
  }
  return centres;
}

/// Assigns every point to its nearest centre; returns the inertia and whether a label changed.
std::pair<double, bool> assign(const Points& p, const std::vector<double>& centres, std::size_t k,
                               std::vector<int>& labels, std::vector<double>& dist) {
  double inertia = 0.0;
  bool changed = false;
  for (std::size_t i = 0; i < p.n; ++i) {
    int best = 0;
    double best_d = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < k; ++c) {
      const double dd = squared_distance(p.at(i), centres.data() + c * p.d, p.d);
      if (dd < best_d) best_d = dd, best = static_cast<int>(c);
    }
    changed |= labels[i] != best;
    labels[i] = best;
    dist[i] = best_d;
    inertia += best_d;
  }
  return {inertia, changed};
}

/// Centroids of the current labels; an empty cluster takes the point farthest from its centre
/// (which then leaves its old cluster on the next assignment).
void update(const Points& p, std::size_t k, const std::vector<int>& labels, std::vector<double>& dist,
            std::vector<double>& centres) {
  std::vector<double> sum(k * p.d, 0.0);
  std::vector<std::size_t> count(k, 0);
  for (std::size_t i = 0; i < p.n; ++i) {
    ++count[labels[i]];
    for (std::size_t t = 0; t < p.d; ++t) sum[labels[i] * p.d + t] += p.at(i)[t];
  }
  for (std::size_t c = 0; c < k; ++c) {
    if (count[c] > 0) {
      for (std::size_t t = 0; t < p.d; ++t) centres[c * p.d + t] = sum[c * p.d + t] / double(count[c]);
      continue;
    }
    std::size_t far = 0;
    for (std::size_t i = 1; i < p.n; ++i)
      if (dist[i] > dist[far]) far = i;
    std::copy(p.at(far), p.at(far) + p.d, centres.begin() + std::ptrdiff_t(c * p.d));
    dist[far] = 0.0;
  }
}

KMeansResult lloyd(const Points& p, std::size_t k, std::int64_t max_iterations, std::mt19937_64& rng) {
  KMeansResult r;
  r.centroids = seed_plus_plus(p, k, rng);
  r.labels.assign(p.n, -1);
  std::vector<double> dist(p.n, 0.0);
  for (r.iterations = 1;; ++r.iterations) {
    const auto [inertia, changed] = assign(p, r.centroids, k, r.labels, dist);
    r.inertia = inertia;
    if (!changed || r.iterations >= max_iterations) break;
    update(p, k, r.labels, dist, r.centroids);
  }
  return r;
}

}  // namespace

KMeansResult kmeans(const std::vector<double>& points, std::int64_t dims, const KMeansOptions& options) {
  if (dims < 1 || points.size() % std::size_t(dims) != 0)
    throw Error(
        fmt::format("kmeans: {} coordinates do not form points of dimension {}", points.size(), dims));
  if (options.clusters < 1 || options.restarts < 1 || options.max_iterations < 1)
    throw Error("kmeans: clusters, restarts and max_iterations must be >= 1");
  for (const double x : points)
    if (!std::isfinite(x)) throw Error("kmeans: coordinates must be finite");
  const Points p{points.data(), points.size() / std::size_t(dims), std::size_t(dims)};
  const auto k = std::size_t(options.clusters);
  KMeansResult best;
  if (p.n == 0) {
    best.centroids.assign(k * p.d, 0.0);
    return best;
  }
  std::mt19937_64 rng(options.seed);
  for (std::int64_t run = 0; run < options.restarts; ++run) {
    auto r = lloyd(p, k, options.max_iterations, rng);
    if (run == 0 || r.inertia < best.inertia) best = std::move(r);
  }
  return best;
}

}  // namespace coinfer::modnn

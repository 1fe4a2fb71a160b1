#pragma once
/// Seeded k-means (Lloyd's iterations) with k-means++ seeding (Arthur & Vassilvitskii 2007) and
/// restarts, the clustering step of MoDNN's MSCC (Dhillon's spectral co-clustering ends with
/// k-means on the rows of Z). Deterministic for a given seed: one std::mt19937_64 drives every
/// restart in turn.
#include <cstdint>
#include <vector>

namespace coinfer::modnn {

struct KMeansOptions {
  std::int64_t clusters = 2;          ///< k >= 1
  std::int64_t restarts = 10;         ///< independent k-means++ runs; the lowest inertia wins (>= 1)
  std::int64_t max_iterations = 300;  ///< Lloyd iterations per run (>= 1)
  std::uint64_t seed = 0;
};

struct KMeansResult {
  std::vector<int> labels;        ///< per point, in [0, k)
  std::vector<double> centroids;  ///< k x dims, row-major
  double inertia = 0.0;           ///< sum of squared distances to the assigned centroid
  std::int64_t iterations = 0;    ///< Lloyd iterations of the winning run
};

/// Clusters `n = points.size() / dims` points (row-major, n x dims). Ties between centroids go to
/// the lower index; a cluster that becomes empty is re-seeded with the point farthest from its
/// centroid. With fewer distinct points than k some clusters stay empty. Throws `Error` on
/// dims < 1, a size that is not a multiple of dims, non-finite coordinates or bad options.
///
///     auto r = kmeans({0, 0, 0, 1, 10, 10, 10, 11}, 2, {.clusters = 2, .seed = 7});   // {0,0,1,1} or
///     {1,1,0,0}
KMeansResult kmeans(const std::vector<double>& points, std::int64_t dims, const KMeansOptions& options);

}  // namespace coinfer::modnn

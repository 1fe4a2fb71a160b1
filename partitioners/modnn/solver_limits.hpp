#pragma once
// The largest inputs MoDNN's solvers accept (docs/guide/adding-an-algorithm.md, solver ranges),
// shared by FGCP, MSCC and the 1-D fc split so that one problem is accepted by all or by none.

#include <cstdint>

namespace coinfer::modnn {

// A sparse fc matrix's rows and cols in [1, 2^24]: the solvers keep arrays per row and column
// (2^24 entries of a few bytes each; fc layers have about 10^4: VGG-16 FC6 is 25088 x 4096), where
// 2^31 rows asked for tens of GiB before any work.
inline constexpr std::int64_t kMaxSparseMatrixDimension = std::int64_t{1} << 24;

// Workers (MSCC: clusters, one per worker) a layer is split among.
inline constexpr std::int64_t kMaxWorkers = 1024;

}  // namespace coinfer::modnn

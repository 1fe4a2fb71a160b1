#pragma once
/// The conventional 2-D grid partition of a convolutional layer (Coates et al., as described in the
/// MoDNN thesis [MoDNN §4.1, Fig. 4]; dissertation [Mao-PhD §2.2.3]):
/// the baseline BODP is compared with.
///
/// k nodes are arranged as a near-square grid of g_a x g_b tiles (g_a * g_b = k, g_a <= g_b the
/// factor pair closest to sqrt(k); a prime k degenerates to 1 x k); the larger grid dimension g_b
/// runs along the longer input axis (ties: height). The output is split EVENLY along both axes
/// (largest-remainder, sizes differ by at most one); node index = grid_row * grid_cols + grid_col.
/// Each tile's input is the receptive field of its output rows x output columns.
///
/// Transfer definition (the 2-D analogue of BODP's): node i owns the tile of the same even grid
/// applied to the input; its halo is every input element of its input tile outside its owned tile,
///     halo_elements[i] = area(input tile) - area(input tile ∩ owned tile)
///     transfer_bytes   = sum_i halo_elements[i] * channels * bytes_per_value.
/// `peers[i]` counts the other nodes whose owned tile intersects node i's input tile (the
/// transmission channels it needs: up to 8 in a grid, at most 2 in BODP).
///
/// Solve schema (`coinfer solve grid2d P.json`):
///   problem  {"height","width","channels","kernel","stride","padding","filters","bytes_per_value",
///             "nodes", optional "grid":[grid_rows, grid_cols]}  (conv keys as for `bodp`; nodes:
///             integer in [1, 1024]; "grid", when given, must multiply to nodes and overrides the
///             near-square choice)
///   solution {"grid":[grid_rows, grid_cols],
///             "tiles":[{"output_rows":[b,e],"output_cols":[b,e],"input_rows":[b,e],"input_cols":[b,e],
///                       "halo_elements":int,"peers":int}, ..] (one per node in order),
///             "transfer_bytes":int}
#include <cstdint>
#include <vector>

#include "partitioners/modnn/bodp.hpp"

namespace coinfer::modnn {

struct Grid2dProblem {
  ConvGeometry conv;
  std::int64_t nodes = 1;
  std::int64_t grid_rows = 0;  ///< 0: choose the near-square grid
  std::int64_t grid_cols = 0;
};

struct GridTile {
  IndexRange output_rows, output_cols;
  IndexRange input_rows, input_cols;
  IndexRange owned_rows, owned_cols;
  std::int64_t halo_elements = 0;  ///< per channel
  std::int64_t peers = 0;
};

struct Grid2dPlan {
  std::int64_t grid_rows = 1;
  std::int64_t grid_cols = 1;
  std::vector<GridTile> tiles;  ///< node order: row-major over the grid
  std::int64_t transfer_bytes = 0;
};

/// The factor pair (a, b), a * b = k, a <= b, with a the largest divisor of k not above sqrt(k).
/// Example: 4 -> (2, 2), 6 -> (2, 3), 5 -> (1, 5).
std::pair<std::int64_t, std::int64_t> near_square_grid(std::int64_t k);

/// Throws `InputError` naming the JSON path on a malformed problem.
Grid2dProblem parse_grid2d_problem(const Json& problem);

/// The 2-D grid split. Never throws for a problem from `parse_grid2d_problem`.
///
///     auto plan = grid2d_partition({conv, 4});   // 2 x 2 tiles
Grid2dPlan grid2d_partition(const Grid2dProblem& problem);

Json grid2d_plan_to_json(const Grid2dPlan& plan);

/// parse -> partition -> JSON; the `grid2d` solver.
Json solve_grid2d_json(const Json& problem);

}  // namespace coinfer::modnn

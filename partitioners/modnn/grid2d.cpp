#include "partitioners/modnn/grid2d.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

constexpr std::int64_t kMaxNodes = 1024;

std::vector<double> equal_weights(std::int64_t n) {
  return std::vector<double>(static_cast<std::size_t>(n), 1.0);
}

Json range_json(IndexRange r) { return Json::array({r.begin, r.end}); }

}  // namespace

std::pair<std::int64_t, std::int64_t> near_square_grid(std::int64_t k) {
  std::int64_t a = 1;
  for (std::int64_t d = 1; d * d <= k; ++d)
    if (k % d == 0) a = d;
  return {a, k / a};
}

Grid2dProblem parse_grid2d_problem(const Json& problem) {
  json_reject_unknown_keys(problem, "",
                           {"height", "width", "channels", "kernel", "stride", "padding", "filters",
                            "bytes_per_value", "nodes", "grid", "comment"});
  Grid2dProblem p;
  p.conv = parse_conv_geometry(problem);
  p.nodes = json_int(problem, "nodes", "", 1, kMaxNodes);
  if (json_find(problem, "grid", "")) {
    const auto grid = json_int_array(problem, "grid", "", 2, 1, kMaxNodes);
    if (grid[0] * grid[1] != p.nodes)
      throw InputError("", "grid",
                       fmt::format("expected grid_rows * grid_cols == nodes ({}), got {} x {}", p.nodes,
                                   grid[0], grid[1]));
    p.grid_rows = grid[0];
    p.grid_cols = grid[1];
  }
  return p;
}

Grid2dPlan grid2d_partition(const Grid2dProblem& problem) {
  if (problem.nodes < 1 || (problem.grid_rows > 0 && problem.grid_rows * problem.grid_cols != problem.nodes))
    throw Error(fmt::format("grid2d: {} nodes on a {} x {} grid", problem.nodes, problem.grid_rows,
                            problem.grid_cols));
  const auto& g = problem.conv;
  Grid2dPlan plan;
  if (problem.grid_rows > 0) {
    plan.grid_rows = problem.grid_rows;
    plan.grid_cols = problem.grid_cols;
  } else {
    const auto [a, b] = near_square_grid(problem.nodes);
    // The larger grid dimension runs along the longer input axis.
    plan.grid_rows = g.width > g.height ? a : b;
    plan.grid_cols = g.width > g.height ? b : a;
  }
  const auto out_rows = proportional_split(g.output_height(), equal_weights(plan.grid_rows));
  const auto out_cols = proportional_split(g.output_width(), equal_weights(plan.grid_cols));
  const auto own_rows = proportional_split(g.height, equal_weights(plan.grid_rows));
  const auto own_cols = proportional_split(g.width, equal_weights(plan.grid_cols));
  for (std::int64_t r = 0; r < plan.grid_rows; ++r)
    for (std::int64_t c = 0; c < plan.grid_cols; ++c) {
      GridTile t;
      t.output_rows = out_rows[r];
      t.output_cols = out_cols[c];
      t.input_rows = receptive_range(t.output_rows, g.kernel, g.stride, g.padding, g.height);
      t.input_cols = receptive_range(t.output_cols, g.kernel, g.stride, g.padding, g.width);
      t.owned_rows = own_rows[r];
      t.owned_cols = own_cols[c];
      t.halo_elements = t.input_rows.size() * t.input_cols.size() -
                        overlap(t.input_rows, t.owned_rows) * overlap(t.input_cols, t.owned_cols);
      plan.tiles.push_back(t);
    }
  for (std::size_t i = 0; i < plan.tiles.size(); ++i) {
    auto& t = plan.tiles[i];
    for (std::size_t j = 0; j < plan.tiles.size(); ++j)
      if (j != i && overlap(t.input_rows, plan.tiles[j].owned_rows) > 0 &&
          overlap(t.input_cols, plan.tiles[j].owned_cols) > 0)
        ++t.peers;
    plan.transfer_bytes += t.halo_elements * g.channels * g.bytes_per_value;
  }
  return plan;
}

Json grid2d_plan_to_json(const Grid2dPlan& plan) {
  Json tiles = Json::array();
  for (const auto& t : plan.tiles)
    tiles.push_back({{"output_rows", range_json(t.output_rows)},
                     {"output_cols", range_json(t.output_cols)},
                     {"input_rows", range_json(t.input_rows)},
                     {"input_cols", range_json(t.input_cols)},
                     {"halo_elements", t.halo_elements},
                     {"peers", t.peers}});
  return {
      {"grid", {plan.grid_rows, plan.grid_cols}}, {"tiles", tiles}, {"transfer_bytes", plan.transfer_bytes}};
}

Json solve_grid2d_json(const Json& problem) {
  return grid2d_plan_to_json(grid2d_partition(parse_grid2d_problem(problem)));
}

}  // namespace coinfer::modnn

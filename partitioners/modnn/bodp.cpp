#include "partitioners/modnn/bodp.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

constexpr std::int64_t kMaxExtent = 65536;  // keeps every byte count below 2^62
constexpr std::size_t kMaxNodes = 1024;

/// Ranges of the input owned by each node, its receptive ranges and the halo bookkeeping.
void fill_halos(BodpPlan& plan) {
  const std::size_t n = plan.input_ranges.size();
  plan.halo_rows.assign(n, 0);
  plan.peers.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    plan.halo_rows[i] = plan.input_ranges[i].size() - overlap(plan.input_ranges[i], plan.owned_ranges[i]);
    for (std::size_t j = 0; j < n; ++j)
      if (j != i && overlap(plan.input_ranges[i], plan.owned_ranges[j]) > 0) ++plan.peers[i];
  }
}

}  // namespace

std::int64_t overlap(IndexRange a, IndexRange b) {
  const auto lo = std::max(a.begin, b.begin), hi = std::min(a.end, b.end);
  return hi > lo ? hi - lo : 0;
}

ConvGeometry parse_conv_geometry(const Json& problem) {
  ConvGeometry g;
  g.height = json_int(problem, "height", "", 1, kMaxExtent);
  g.width = json_int(problem, "width", "", 1, kMaxExtent);
  g.channels = json_int(problem, "channels", "", 1, kMaxExtent);
  g.kernel = json_int(problem, "kernel", "", 1, kMaxExtent);
  g.stride = json_int(problem, "stride", "", 1, kMaxExtent);
  g.padding = json_int(problem, "padding", "", 0, kMaxExtent);
  g.filters = json_int(problem, "filters", "", 1, kMaxExtent);
  g.bytes_per_value = json_int(problem, "bytes_per_value", "", 1, 8);
  const auto smaller = std::min(g.height, g.width) + 2 * g.padding;
  if (g.kernel > smaller)
    throw InputError(
        "", "kernel",
        fmt::format("kernel {} is larger than the padded input ({} = min(height, width) + 2 * padding)",
                    g.kernel, smaller));
  return g;
}

std::vector<std::int64_t> proportional_sizes(std::int64_t total, const std::vector<double>& weights) {
  assert(!weights.empty());
  const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
  std::vector<std::int64_t> sizes(weights.size());
  std::vector<double> fraction(weights.size());
  std::int64_t assigned = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double share = double(total) * weights[i] / sum;
    sizes[i] = std::min<std::int64_t>(static_cast<std::int64_t>(std::floor(share)), total);
    fraction[i] = share - double(sizes[i]);
    assigned += sizes[i];
  }
  std::vector<std::size_t> order(weights.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return fraction[a] > fraction[b]; });
  // Rounding can leave the floors a few items off `total` in either direction; settle it on the
  // largest fractions first (adding) or the smallest first (removing).
  for (std::size_t t = 0; assigned < total; t = (t + 1) % order.size(), ++assigned) ++sizes[order[t]];
  for (std::size_t t = order.size(); assigned > total;) {
    t = (t == 0 ? order.size() : t) - 1;
    if (sizes[order[t]] > 0) --sizes[order[t]], --assigned;
  }
  return sizes;
}

void check_capabilities(const std::vector<double>& weights) {
  if (weights.empty()) throw Error("capabilities: expected at least one node");
  for (const double w : weights)
    if (!(w > 0.0) || !std::isfinite(w))
      throw Error(fmt::format("capabilities: expected finite numbers > 0, got {}", w));
}

std::vector<IndexRange> proportional_split(std::int64_t total, const std::vector<double>& weights) {
  const auto sizes = proportional_sizes(total, weights);
  std::vector<IndexRange> ranges;
  std::int64_t begin = 0;
  for (const auto s : sizes) {
    ranges.push_back({begin, begin + s});
    begin += s;
  }
  return ranges;
}

IndexRange receptive_range(IndexRange out, std::int64_t kernel, std::int64_t stride, std::int64_t padding,
                           std::int64_t input_size) {
  // Output o reads input rows o*stride - padding + t, t in [0, kernel). It reads at least one real
  // row iff o*stride - padding + kernel - 1 >= 0 and o*stride - padding <= input_size - 1, an
  // interval of outputs [o_lo, o_hi]; the field is the hull of the real rows those outputs read.
  const auto clip = [&](std::int64_t x) { return std::clamp<std::int64_t>(x, 0, input_size); };
  const auto floor_div = [](std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  const auto o_lo = -floor_div(kernel - 1 - padding, stride);  // ceil((padding - kernel + 1) / stride)
  const auto o_hi = floor_div(input_size - 1 + padding, stride);
  const auto first = std::max(out.begin, o_lo), last = std::min(out.end - 1, o_hi);
  if (first > last) return {clip(out.begin * stride - padding), clip(out.begin * stride - padding)};
  return {clip(first * stride - padding), clip(last * stride - padding + kernel)};
}

BodpProblem parse_bodp_problem(const Json& problem) {
  json_reject_unknown_keys(problem, "",
                           {"height", "width", "channels", "kernel", "stride", "padding", "filters",
                            "capabilities", "bytes_per_value", "comment"});
  BodpProblem p;
  p.conv = parse_conv_geometry(problem);
  p.capabilities = json_number_array(problem, "capabilities", "");
  if (p.capabilities.empty()) throw InputError("", "capabilities", "expected at least 1 entry");
  if (p.capabilities.size() > kMaxNodes)
    throw InputError("", "capabilities", fmt::format("expected at most {} entries", kMaxNodes));
  for (std::size_t i = 0; i < p.capabilities.size(); ++i)
    if (!(p.capabilities[i] > 0.0) || !(p.capabilities[i] < 1e300))
      throw InputError("", index_path("capabilities", i),
                       fmt::format("expected a finite number > 0, got {}", p.capabilities[i]));
  return p;
}

BodpPlan bodp_partition(const BodpProblem& problem) {
  check_capabilities(problem.capabilities);
  const auto& g = problem.conv;
  BodpPlan plan;
  // Sec. 4.2: cut along the longer edge of the input.
  plan.axis = g.width > g.height ? SplitAxis::Width : SplitAxis::Height;
  const bool by_height = plan.axis == SplitAxis::Height;
  const auto in_extent = by_height ? g.height : g.width;
  const auto out_extent = by_height ? g.output_height() : g.output_width();
  const auto across = by_height ? g.width : g.height;

  plan.output_ranges = proportional_split(out_extent, problem.capabilities);
  plan.owned_ranges = proportional_split(in_extent, problem.capabilities);
  for (const auto& r : plan.output_ranges)
    plan.input_ranges.push_back(receptive_range(r, g.kernel, g.stride, g.padding, in_extent));
  fill_halos(plan);
  const auto halo_total = std::accumulate(plan.halo_rows.begin(), plan.halo_rows.end(), std::int64_t{0});
  plan.transfer_bytes = halo_total * across * g.channels * g.bytes_per_value;
  return plan;
}

Json ranges_to_json(const std::vector<IndexRange>& ranges) {
  Json out = Json::array();
  for (const auto& r : ranges) out.push_back({r.begin, r.end});
  return out;
}

Json bodp_plan_to_json(const BodpPlan& plan) {
  Json out = Json::object();
  out["axis"] = plan.axis == SplitAxis::Height ? "height" : "width";
  out["output_ranges"] = ranges_to_json(plan.output_ranges);
  out["input_ranges"] = ranges_to_json(plan.input_ranges);
  out["transfer_bytes"] = plan.transfer_bytes;
  return out;
}

Json solve_bodp_json(const Json& problem) {
  return bodp_plan_to_json(bodp_partition(parse_bodp_problem(problem)));
}

}  // namespace coinfer::modnn

#include "partitioners/modnn/fc_split.hpp"

#include <algorithm>

#include "partitioners/modnn/fc_1d.hpp"
#include "partitioners/modnn/fgcp.hpp"
#include "partitioners/modnn/mscc.hpp"
#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

std::vector<std::int64_t> iota_range(IndexRange r) {
  std::vector<std::int64_t> v;
  for (auto i = r.begin; i < r.end; ++i) v.push_back(i);
  return v;
}

FcSplit dense_fc_1d(const FcLayerSpec& layer, const std::vector<double>& capabilities,
                    const FcRates& worker) {
  const auto plan = fc_1d_partition({{layer.inputs, layer.units, {}}, false, capabilities, 4});
  FcSplit s;
  for (std::size_t w = 0; w < plan.ranges.size(); ++w) {
    FcBlock b;
    const bool by_rows = plan.axis == MatrixAxis::Rows;
    b.input_rows = iota_range(by_rows ? plan.ranges[w] : IndexRange{0, layer.inputs});
    b.output_values = plan.output_values[w];
    const auto rows = static_cast<std::int64_t>(b.input_rows.size());
    b.nonzeros = rows * b.output_values;
    b.kind = MatVecKind::Gemv;
    b.time_s = worker.gemv_s_per_element * static_cast<double>(b.nonzeros);
    s.workers.push_back(std::move(b));
  }
  return s;
}

// Blocks from a per-entry owner (worker index or kGroupOwner).
FcSplit blocks_of(const SparsePattern& p, const std::vector<int>& owner, std::size_t k, const FcRates& worker,
                  const FcRates& go) {
  std::vector<std::vector<std::int64_t>> rows(k + 1), cols(k + 1);
  std::vector<std::int64_t> nnz(k + 1, 0);
  for (std::size_t e = 0; e < p.entries.size(); ++e) {
    const auto n = owner[e] == kGroupOwner ? k : static_cast<std::size_t>(owner[e]);
    rows[n].push_back(p.entries[e].row);
    cols[n].push_back(p.entries[e].col);
    ++nnz[n];
  }
  FcSplit s;
  for (std::size_t n = 0; n <= k; ++n) {
    for (auto* v : {&rows[n], &cols[n]}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    FcBlock b;
    b.input_rows = rows[n];
    b.output_values = static_cast<std::int64_t>(cols[n].size());
    b.nonzeros = nnz[n];
    cost_block(b, static_cast<std::int64_t>(rows[n].size()), b.output_values, n == k ? go : worker);
    if (n == k)
      s.go = std::move(b);
    else
      s.workers.push_back(std::move(b));
  }
  return s;
}

std::vector<int> fc_1d_owner(const SparsePattern& p, const std::vector<double>& capabilities) {
  const auto plan = fc_1d_partition({p, true, capabilities, 4});
  std::vector<int> owner(p.entries.size());
  for (std::size_t e = 0; e < p.entries.size(); ++e) {
    const auto x = plan.axis == MatrixAxis::Rows ? p.entries[e].row : p.entries[e].col;
    for (std::size_t w = 0; w < plan.ranges.size(); ++w)
      if (x >= plan.ranges[w].begin && x < plan.ranges[w].end) owner[e] = static_cast<int>(w);
  }
  return owner;
}

std::vector<int> mscc_fgcp_owner(const SparsePattern& p, std::uint64_t seed, const FcRates& worker,
                                 const FcRates& go, std::size_t k, double throughput_bps,
                                 std::int64_t bytes_per_value) {
  const auto clusters = mscc_cluster({p, static_cast<std::int64_t>(k), seed});
  FgcpProblem f{p,
                clusters.row_cluster,
                clusters.col_cluster,
                std::vector<double>(k, worker.spmv_s_per_nonzero),
                go.spmv_s_per_nonzero,
                throughput_bps,
                bytes_per_value};
  return fgcp_partition(f).assignment;
}

}  // namespace

std::vector<int> fc_owner(const SparsePattern& p, FcMethod method, const std::vector<double>& capabilities,
                          const FcRates& worker, const FcRates& go, double throughput_bps,
                          std::int64_t bytes_per_value, std::uint64_t seed) {
  check_capabilities(capabilities);
  return method == FcMethod::Fc1d
             ? fc_1d_owner(p, capabilities)
             : mscc_fgcp_owner(p, seed, worker, go, capabilities.size(), throughput_bps, bytes_per_value);
}

void cost_block(FcBlock& block, std::int64_t rows, std::int64_t cols, const FcRates& rates) {
  if (block.nonzeros == 0) {
    block.time_s = 0.0;
    return;
  }
  const SpmvTimeFit spt{0.0, rates.spmv_s_per_nonzero};
  const GemvTimeFit get{0.0, rates.gemv_s_per_element, 0.0, 0.0};
  block.kind = choose_matvec(spt, get, rows, cols, block.nonzeros);
  block.time_s = matvec_time_s(spt, get, rows, cols, block.nonzeros);
}

FcSplit split_fc_layer(const FcLayerSpec& layer, FcMethod method, const std::vector<double>& capabilities,
                       const FcRates& worker, const FcRates& go, double throughput_bps,
                       std::int64_t bytes_per_value) {
  check_capabilities(capabilities);
  FcSplit s;
  if (layer.sparsity <= 0.0) {
    if (method == FcMethod::MsccFgcp) throw Error("MSCC + FGCP partitions sparse fc layers only");
    s = dense_fc_1d(layer, capabilities, worker);
  } else {
    const auto weights =
        generate_sparse_weights({layer.inputs, layer.units, layer.sparsity, layer.seed, layer.planted_blocks,
                                 layer.block_scale, layer.planted_blocks > 0});
    const auto& p = weights.pattern;
    const auto owner =
        fc_owner(p, method, capabilities, worker, go, throughput_bps, bytes_per_value, layer.seed);
    s = blocks_of(p, owner, capabilities.size(), worker, go);
  }
  for (const auto& b : s.workers)
    s.transfer_values += static_cast<std::int64_t>(b.input_rows.size()) + b.output_values;
  return s;
}

}  // namespace coinfer::modnn

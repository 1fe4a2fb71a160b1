#include "partitioners/modnn/modnn_partitioner.hpp"

#include "partitioners/modnn/modnn_plan.hpp"
#include "sim/core/error.hpp"

namespace coinfer {
namespace {

using modnn::ConvSplit;
using modnn::FcMethod;
using modnn::ModnnOptions;

ModnnOptions parse_options(const Json& params, const std::string& name, bool fixed_methods) {
  std::vector<std::string> keys{"workers", "max_workers", "fc_sparsity", "fc_planted_blocks", "seed"};
  if (!fixed_methods) keys.insert(keys.end(), {"conv", "sparse_fc"});
  json_reject_unknown_keys(params, "partitioner", keys);
  ModnnOptions o;
  o.name = name;
  o.workers = static_cast<int>(json_int_or(params, "workers", "partitioner", 0, 1, 1024));
  o.max_workers = static_cast<int>(json_int_or(params, "max_workers", "partitioner", 0, 1, 1024));
  if (json_find(params, "fc_sparsity", "partitioner"))
    o.fc_sparsity = json_number(params, "fc_sparsity", "partitioner", 0.0, 0.999);
  o.fc_planted_blocks = json_int_or(params, "fc_planted_blocks", "partitioner", 0, 0, 1024);
  o.seed = static_cast<std::uint64_t>(json_int_or(params, "seed", "partitioner", 0, 0));
  if (json_find(params, "conv", "partitioner"))
    o.conv = json_enum(params, "conv", "partitioner", {"bodp", "grid2d"}) == "bodp" ? ConvSplit::Bodp
                                                                                    : ConvSplit::Grid2d;
  if (json_find(params, "sparse_fc", "partitioner"))
    o.sparse_fc = json_enum(params, "sparse_fc", "partitioner", {"mscc-fgcp", "fc-1d"}) == "fc-1d"
                      ? FcMethod::Fc1d
                      : FcMethod::MsccFgcp;
  return o;
}

template <class Adjust>
void add(PartitionerRegistry& registry, const std::string& name, const std::string& summary, Adjust adjust) {
  registry.add(name, summary, [name, adjust](const Json& params) {
    auto o = parse_options(params, name, name != "modnn");
    adjust(o);
    return make_partitioner([o](const PartitionContext& ctx) { return modnn::modnn_plan(ctx, o).plan; });
  });
}

}  // namespace

void register_modnn_partitioners(PartitionerRegistry& registry) {
  add(registry, "modnn",
      "MoDNN: conv by BODP, sparse fc by MSCC + FGCP, dense fc by fc-1d, workers at the sweet spot "
      "(params: workers, max_workers, conv, sparse_fc, fc_sparsity, seed)",
      [](ModnnOptions&) {});
  add(registry, "bodp", "MoDNN's BODP conv stripes over k workers, fc by fc-1d (params: workers, ...)",
      [](ModnnOptions& o) {
        o.conv = ConvSplit::Bodp;
        o.sparse_fc = FcMethod::Fc1d;
      });
  add(registry, "grid2d",
      "2-D grid conv tiles over k workers (MoDNN's baseline), fc by fc-1d (params: workers, ...)",
      [](ModnnOptions& o) {
        o.conv = ConvSplit::Grid2d;
        o.sparse_fc = FcMethod::Fc1d;
      });
}

}  // namespace coinfer

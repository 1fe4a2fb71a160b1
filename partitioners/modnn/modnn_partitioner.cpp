#include "partitioners/modnn/modnn_partitioner.hpp"

#include "partitioners/modnn/modnn_plan.hpp"
#include "sim/core/error.hpp"

namespace coinfer {
namespace {

using modnn::ConvSplit;
using modnn::FcMethod;
using modnn::ModnnOptions;

// The parameters shared by the three partitioners; `modnn` also takes `conv` and `sparse_fc`.
std::vector<ParamSpec> common_params() {
  return {
      ParamSpec::integer("workers", "worker phones k (unset: the sweet spot, the k of least estimated time)")
          .range(1, 1024),
      ParamSpec::integer("max_workers",
                         "largest k tried for the sweet spot (unset: every device the GO reaches)")
          .range(1, 1024),
      ParamSpec::number(
          "fc_sparsity",
          "overrides every fc layer's weight sparsity (unset: the model's); weights are generated")
          .range(0.0, 0.999),
      ParamSpec::integer("fc_planted_blocks", "diagonal blocks hidden in the generated sparse fc weights")
          .with_default(0)
          .range(0, 1024),
      ParamSpec::number("fc_block_scale",
                        "standard deviation of the weights inside the planted blocks, relative to the others "
                        "(1: the blocks are invisible)")
          .with_default(4.0)
          .range(1.0, 1000.0),
      ParamSpec::integer("seed", "seed of the generated sparse weights and of MSCC")
          .with_default(0)
          .at_least(0),
  };
}

ParamSchema modnn_schema() {
  auto params = common_params();
  params.push_back(
      ParamSpec::enumeration("conv", {"bodp", "grid2d"}, "how conv stages are split").with_default("bodp"));
  params.push_back(
      ParamSpec::enumeration("sparse_fc", {"mscc-fgcp", "fc-1d"}, "how sparse fc layers are split")
          .with_default("mscc-fgcp"));
  return ParamSchema(std::move(params));
}

// `params` come validated, with defaults, from the registry (the schemas above).
ModnnOptions options_from(const Json& params, const std::string& name) {
  ModnnOptions o;
  o.name = name;
  o.workers = params.at("workers").is_null() ? 0 : params.at("workers").get<int>();
  o.max_workers = params.at("max_workers").is_null() ? 0 : params.at("max_workers").get<int>();
  if (!params.at("fc_sparsity").is_null()) o.fc_sparsity = params.at("fc_sparsity").get<double>();
  o.fc_planted_blocks = params.at("fc_planted_blocks").get<std::int64_t>();
  o.fc_block_scale = params.at("fc_block_scale").get<double>();
  o.seed = params.at("seed").get<std::uint64_t>();
  if (params.contains("conv"))
    o.conv = params.at("conv").get<std::string>() == "grid2d" ? ConvSplit::Grid2d : ConvSplit::Bodp;
  if (params.contains("sparse_fc"))
    o.sparse_fc = params.at("sparse_fc").get<std::string>() == "fc-1d" ? FcMethod::Fc1d : FcMethod::MsccFgcp;
  return o;
}

template <class Adjust>
void add(PartitionerRegistry& registry, const std::string& name, const std::string& summary,
         ParamSchema schema, Adjust adjust) {
  registry.add(name, summary, std::move(schema), [name, adjust](const Json& params) {
    auto o = options_from(params, name);
    adjust(o);
    return make_partitioner([o](const PartitionContext& ctx) { return modnn::modnn_plan(ctx, o).plan; });
  });
}

}  // namespace

void register_modnn_partitioners(PartitionerRegistry& registry) {
  add(registry, "modnn",
      "MoDNN: conv by BODP, sparse fc by MSCC + FGCP, dense fc by fc-1d, workers at the sweet spot",
      modnn_schema(), [](ModnnOptions&) {});
  add(registry, "bodp", "MoDNN's BODP conv stripes over k workers, fc by fc-1d", ParamSchema(common_params()),
      [](ModnnOptions& o) {
        o.conv = ConvSplit::Bodp;
        o.sparse_fc = FcMethod::Fc1d;
      });
  add(registry, "grid2d", "2-D grid conv tiles over k workers (MoDNN's baseline), fc by fc-1d",
      ParamSchema(common_params()), [](ModnnOptions& o) {
        o.conv = ConvSplit::Grid2d;
        o.sparse_fc = FcMethod::Fc1d;
      });
}

}  // namespace coinfer

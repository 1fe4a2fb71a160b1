#include "partitioners/jointdnn/register.hpp"

#include "partitioners/jointdnn/ilp.hpp"
#include "partitioners/jointdnn/jointdnn_problem.hpp"
#include "partitioners/jointdnn/labels.hpp"
#include "partitioners/jointdnn/larac.hpp"
#include "partitioners/jointdnn/neurosurgeon.hpp"
#include "partitioners/jointdnn/scenario_problem.hpp"
#include "partitioners/jointdnn/shortest_path.hpp"
#include "partitioners/jointdnn/table.hpp"
#include "partitioners/jointdnn/training_problem.hpp"
#include "sim/core/error.hpp"

namespace coinfer {
namespace {

/// Parse -> solve -> serialise, each step its own function.
template <class Solve>
SolverRegistry::Factory jointdnn_solver(Solve solve) {
  return solver_factory([solve](const Json& json) {
    const auto problem = jointdnn::parse_problem(json);
    return jointdnn::solution_to_json(problem, solve(problem));
  });
}

// Every JointDNN solver reads the same problem JSON.
ParamSchema jointdnn_schema() { return problem_documented_in("partitioners/jointdnn/jointdnn_problem.hpp"); }

// Parameters shared by the scenario partitioners; `with_solver` adds `solver` (jointdnn only).
ParamSchema scenario_schema(bool with_solver) {
  std::vector<ParamSpec> specs = {
      ParamSpec::string("mobile", "the mobile device (unset: the scenario's source, which it must be)"),
      ParamSpec::string("cloud",
                        "the cloud device (unset: the first server or desktop other than the mobile)"),
      ParamSpec::string("network", "the network joining them (unset: the first one joining both)"),
      ParamSpec::enumeration("objective", {"latency", "energy"},
                             "what to minimise: latency, or the mobile's active energy (busy + radio)")
          .with_default("latency"),
      ParamSpec::number("max_latency_s", "QoS maximum on the latency of one inference (eq. 20)").at_least(0),
      ParamSpec::number("max_energy_j", "battery maximum on the mobile's energy per inference (eq. 18)")
          .at_least(0),
      ParamSpec::number("max_cloud_time_s", "maximum cloud compute time per inference (eq. 19)").at_least(0),
      ParamSpec::enumeration("compression", {"none", "png"},
                             "png: conv-shaped activations cross as real PNG (sec. 4.2), with compress and "
                             "decompress tasks timed by the real kernel")
          .with_default("none"),
      ParamSpec::enumeration("wire", {"fp32", "int8"},
                             "bytes per element on the wire without png: fp32, or int8 (the paper's 8-bit "
                             "fixed-point baseline, sec. 4.2)")
          .with_default("fp32"),
      ParamSpec::integer("batch",
                         "inputs per inference (Fig. 8): groups cost their layers' batch-B kernel "
                         "time, crossings carry B x the tensor")
          .at_least(1)
          .with_default(1),
      ParamSpec::integer("seed", "png: seed of the forward pass's weights and input")
          .at_least(0)
          .with_default(1),
      ParamSpec::path("weights_file",
                      "png: raw float32 weights file (format in partitioners/jointdnn/png_wire.hpp) "
                      "instead of seeded random weights"),
      ParamSpec::number(
          "relu_zero_ratio",
          "png: fraction of every conv relu's output set to zero by lowering its bias "
          "(trained CNNs: 0.5 to 0.9, sec. 4.2; unset: the weights' own). Like seed, an input of the "
          "forward pass only png runs: a sweep sets it on its baselines too")
          .range(0.01, 0.99),
      ParamSpec::value("table",
                       "lookup table (sec. 2.4.2): {uplink_mbps: [..], downlink_mbps: [..]}, increasing; one "
                       "plan variant per cell after the nominal plan (partitioners/jointdnn/table.hpp)"),
      ParamSpec::enumeration("mode", {"inference", "training"},
                             "inference, or training: one online training step as 2N layers, the mirrored "
                             "backward layers after the forward ones (sec. 2.3, eq. 12-17)")
          .with_default("inference"),
      ParamSpec::number("updated_fraction",
                        "training: fraction of a cloud-run backward layer's weights downloaded to the "
                        "mobile (Fig. 10a; unset: 1)")
          .range(0, 1),
  };
  if (with_solver)
    specs.push_back(ParamSpec::enumeration(
                        "solver",
                        {"auto", "shortest-path", "labels", "ilp", "status-quo", "mobile-only", "cloud-only"},
                        "auto: shortest path without maxima, labels with them; "
                        "status-quo: the better of mobile-only and cloud-only (baselines)")
                        .with_default("auto"));
  return ParamSchema(specs);
}

jointdnn::ScenarioSetup scenario_setup(const Json& params) {
  jointdnn::ScenarioSetup s;
  s.mobile = json_string_or(params, "mobile", "partitioner", "");
  s.cloud = json_string_or(params, "cloud", "partitioner", "");
  s.network = json_string_or(params, "network", "partitioner", "");
  s.objective = json_string_or(params, "objective", "partitioner", "latency") == "energy"
                    ? jointdnn::Objective::energy
                    : jointdnn::Objective::latency;
  s.max_latency_s = json_optional_number(params, "max_latency_s", "partitioner", 0.0);
  s.max_energy_j = json_optional_number(params, "max_energy_j", "partitioner", 0.0);
  s.max_cloud_time_s = json_optional_number(params, "max_cloud_time_s", "partitioner", 0.0);
  const auto solver = json_string_or(params, "solver", "partitioner", "auto");
  s.solver = solver == "shortest-path" ? jointdnn::SolverChoice::shortest_path
             : solver == "labels"      ? jointdnn::SolverChoice::labels
             : solver == "ilp"         ? jointdnn::SolverChoice::ilp
             : solver == "status-quo"  ? jointdnn::SolverChoice::status_quo
             : solver == "mobile-only" ? jointdnn::SolverChoice::mobile_only
             : solver == "cloud-only"  ? jointdnn::SolverChoice::cloud_only
                                       : jointdnn::SolverChoice::automatic;
  s.png = json_string_or(params, "compression", "partitioner", "none") == "png";
  s.int8_wire = json_string_or(params, "wire", "partitioner", "fp32") == "int8";
  s.seed = static_cast<std::uint64_t>(json_int_or(params, "seed", "partitioner", 1, 0));
  s.batch = json_int_or(params, "batch", "partitioner", 1, 1);
  s.weights = json_string_or(params, "weights_file", "partitioner", "");
  if (!s.weights.empty() && !s.png)
    throw InputError("", "partitioner.weights_file", "weights are read only with compression: png");
  s.relu_zero_ratio = json_optional_number(params, "relu_zero_ratio", "partitioner", 0.0);
  return s;
}

std::unique_ptr<Partitioner> training_partitioner(const char* name, const Json& params,
                                                  const jointdnn::ScenarioSetup& setup, double fraction) {
  if (params.contains("table") && !params.at("table").is_null())
    throw InputError("", "partitioner.table", "a lookup table is built for mode: inference only");
  return make_partitioner([name, setup, fraction](const PartitionContext& ctx) {
    const auto tp = jointdnn::build_training_problem(ctx, setup, fraction);
    return jointdnn::plan_of_training_schedule(
        tp, jointdnn::solve_scenario_problem(tp.scenario, setup.solver), name);
  });
}

// JointDNN and Neurosurgeon plan between the source (the mobile) and one cloud: `cloud`, else the
// first server or desktop other than the mobile, over `network`, else the first network joining
// the two. So sources alike plan alike, unless the default cloud could be one of them (sources
// that are servers or desktops themselves: the first of them picks the second, the others the
// first) or the mobile is named.
class AlikeSourcesAlike : public Partitioner {
 public:
  AlikeSourcesAlike(std::unique_ptr<Partitioner> inner, const jointdnn::ScenarioSetup& setup)
      : inner_(std::move(inner)), named_mobile_(!setup.mobile.empty()), named_cloud_(!setup.cloud.empty()) {}
  Plan partition(const PartitionContext& context) const override { return inner_->partition(context); }
  void check_model(const Graph& graph) const override { inner_->check_model(graph); }
  std::vector<Plan> partition_variants(const PartitionContext& context) const override {
    return inner_->partition_variants(context);
  }
  bool plans_alike_sources_alike(const PartitionContext& context) const override {
    if (named_mobile_) return false;
    if (named_cloud_) return true;
    const auto source = context.platform.device_index_or_null(context.source);
    if (!source) return false;
    const auto kind = context.platform.devices[*source].calibration->kind;
    return kind != DeviceKind::GpuServer && kind != DeviceKind::CpuServer && kind != DeviceKind::Desktop;
  }

 private:
  std::unique_ptr<Partitioner> inner_;
  bool named_mobile_, named_cloud_;
};

// The inference (or, with `table`, variant) or training partitioner `params` ask for.
std::unique_ptr<Partitioner> scenario_partitioner_of(const char* name, bool single_split,
                                                     const Json& params) {
  auto setup = scenario_setup(params);
  if (single_split) setup.solver = jointdnn::SolverChoice::neurosurgeon;
  const auto fraction = json_optional_number(params, "updated_fraction", "partitioner", 0.0);
  if (json_string_or(params, "mode", "partitioner", "inference") == "training")
    return training_partitioner(name, params, setup, fraction.value_or(1.0));
  if (fraction) throw InputError("", "partitioner.updated_fraction", "applies to mode: training only");
  if (params.contains("table") && !params.at("table").is_null()) {
    const auto grid = jointdnn::parse_bandwidth_grid(params.at("table"), "partitioner.table");
    return make_variant_partitioner([name, setup, grid](const PartitionContext& ctx) {
      return jointdnn::table_variants(ctx, setup, grid, name);
    });
  }
  return make_partitioner([name, setup](const PartitionContext& ctx) {
    const auto sp = jointdnn::build_scenario_problem(ctx, setup);
    return jointdnn::plan_of_schedule(ctx, sp, jointdnn::solve_scenario_problem(sp, setup.solver), name);
  });
}

PartitionerRegistry::Factory scenario_partitioner(const char* name, bool single_split) {
  return [name, single_split](const Json& params) -> std::unique_ptr<Partitioner> {
    return std::make_unique<AlikeSourcesAlike>(scenario_partitioner_of(name, single_split, params),
                                               scenario_setup(params));
  };
}

}  // namespace

void register_jointdnn_partitioners(PartitionerRegistry& registry) {
  registry.add(
      "jointdnn",
      "JointDNN mobile/cloud layer scheduling for latency or energy, with maxima (Eshratifar sec. 2.3-2.4)",
      scenario_schema(true), scenario_partitioner("jointdnn", false));
  registry.add("neurosurgeon", "best single mobile/cloud split point (the JointDNN baseline)",
               scenario_schema(false), scenario_partitioner("neurosurgeon", true));
}

void register_jointdnn_solvers(SolverRegistry& registry) {
  registry.add("jointdnn",
               "JointDNN shortest path over groupings and sides, residual skips (Eshratifar sec. 2.3)",
               jointdnn_schema(), jointdnn_solver(jointdnn::solve_shortest_path));
  registry.add("jointdnn-ilp", "JointDNN ILP with battery / cloud / QoS maxima, GLPK (Eshratifar sec. 2.4)",
               jointdnn_schema(), jointdnn_solver(jointdnn::solve_ilp));
  registry.add("jointdnn-labels", "JointDNN with maxima: exact Pareto label setting (faster than the ILP)",
               jointdnn_schema(), jointdnn_solver(jointdnn::solve_labels));
  registry.add("jointdnn-larac",
               "JointDNN with one maximum: LARAC Lagrangian relaxation, approximate, gap reported",
               jointdnn_schema(), solver_factory([](const Json& json) {
                 const auto problem = jointdnn::parse_problem(json);
                 return jointdnn::larac_to_json(problem, jointdnn::solve_larac(problem));
               }));
  registry.add("neurosurgeon", "best single mobile/cloud split point (the JointDNN baseline)",
               jointdnn_schema(), jointdnn_solver(jointdnn::solve_neurosurgeon));
}

}  // namespace coinfer

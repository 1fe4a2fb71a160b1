#include "partitioners/adalearner/register.hpp"

#include "partitioners/adalearner/adalearner_plan.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/functional/distributed_trainer.hpp"

namespace coinfer {
namespace {

// `workers`: "auto" (0) or an integer in [1, 1024].
int workers_param(const Json& v) {
  if (v.is_string() && v.get<std::string>() == "auto") return 0;
  if (v.is_number_integer() && v.get<std::int64_t>() >= 1 && v.get<std::int64_t>() <= 1024)
    return v.get<int>();
  throw InputError("", "partitioner.workers",
                   fmt::format("expected an integer in [1, 1024] or auto, got {}", v.dump()));
}

// AdaLearner's plans (adalearner_plan.hpp); a model its trainer cannot spread over workers (batch
// norm, lstm) or train at all is refused before any cost is measured.
class AdaLearnerPartitioner : public Partitioner {
 public:
  explicit AdaLearnerPartitioner(adalearner::AdaOptions options) : options_(options) {}
  Plan partition(const PartitionContext& context) const override {
    return adalearner::adalearner_plan(context, options_).plan;
  }
  void check_model(const Graph& graph) const override { check_distributable(graph); }

 private:
  adalearner::AdaOptions options_;
};

}  // namespace

void register_adalearner_partitioners(PartitionerRegistry& registry) {
  using adalearner::AdaScheme;
  ParamSchema schema({
      ParamSpec::value(
          "workers",
          "worker phones k (1-1024), or auto (the default): AdaLearner's scheduler picks local or k "
          "by eq. 3.8 (sec. 3.5)")
          .with_default("auto"),
      ParamSpec::integer("max_workers", "largest k the scheduler tries (unset: every device the GO reaches)")
          .range(1, 1024),
      ParamSpec::enumeration("scheme", {"fp32", "onebit", "terngrad", "auto", "local"},
                             "gradient exchange: fp32 (Fig. 3.4), 1-bit or TernGrad (Fig. 3.5), auto = eq. "
                             "3.13, local = the whole minibatch on the GO")
          .with_default("auto"),
      ParamSpec::enumeration("codec_timing", {"nominal", "measured"},
                             "encode / decode cost: nominal operation counts (deterministic) or the real "
                             "kernels timed on this host (codec_timing.hpp; not byte-identical across runs)")
          .with_default("nominal"),
      ParamSpec::integer("minibatch", "total minibatch W_comp split across the workers (sec. 3.5)")
          .with_default(128)
          .range(1, 1000000),
  });
  registry.add("adalearner",
               "AdaLearner: data-parallel training on a GO and k phones, fp32 / 1-bit / TernGrad gradients, "
               "adaptive workers and scheme (eq. 3.8-3.13)",
               std::move(schema), [](const Json& params) {
                 adalearner::AdaOptions o;
                 o.workers = workers_param(params.at("workers"));
                 o.max_workers = params.at("max_workers").is_null() ? 0 : params.at("max_workers").get<int>();
                 const std::string s = params.at("scheme").get<std::string>();
                 o.scheme = s == "fp32"       ? AdaScheme::Fp32
                            : s == "onebit"   ? AdaScheme::OneBit
                            : s == "terngrad" ? AdaScheme::TernGrad
                            : s == "local"    ? AdaScheme::Local
                                              : AdaScheme::Auto;
                 o.minibatch = params.at("minibatch").get<std::int64_t>();
                 o.measured_codecs = params.at("codec_timing").get<std::string>() == "measured";
                 return std::make_unique<AdaLearnerPartitioner>(o);
               });
}

}  // namespace coinfer

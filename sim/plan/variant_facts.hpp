#pragma once
/// What a partitioner tells schedulers and metrics about one plan variant, beyond its tasks: a
/// family's typed facts (partitioners/pipeline/pipeline_facts.hpp, partitioners/jointdnn/
/// table_facts.hpp, partitioners/adalearner/adalearner_facts.hpp) or the numbers a plan file names
/// (`PlanFileFacts`). The partitioner that writes a family's facts and the scheduler that reads
/// them include the same header; the core knows only this base:
///
///     plan.facts = std::make_shared<const PipelineFacts>(facts);           // the partitioner
///     const PipelineFacts& f = facts_of<PipelineFacts>(plan);              // the scheduler
///
/// `to_json` is what results.json prints as `plan_variants[i].metadata` and plan files carry as
/// `metadata`: an object of numbers.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "sim/core/json_access.hpp"

namespace coinfer {

struct VariantFacts {
  virtual ~VariantFacts() = default;
  /// The family, for errors: "pipeline", "jointdnn-table", ...
  virtual std::string_view family() const = 0;
  /// The facts as an object of numbers (results.json `plan_variants[i].metadata`).
  virtual Json to_json() const = 0;
  /// The variant's pre-trained accuracy nu in [0, 1] (sim/metrics/effective_accuracy.hpp), if known.
  virtual std::optional<double> accuracy() const { return std::nullopt; }
};

/// The `metadata` mapping of a plan file (sim/plan/plan_json.hpp): names to finite numbers, of no
/// family; `accuracy`, when given, is the variant's accuracy.
struct PlanFileFacts final : VariantFacts {
  static constexpr std::string_view kFamily = "plan file";
  std::map<std::string, double> values;

  explicit PlanFileFacts(std::map<std::string, double> v) : values(std::move(v)) {}
  std::string_view family() const override { return kFamily; }
  Json to_json() const override { return values; }
  std::optional<double> accuracy() const override {
    const auto it = values.find("accuracy");
    return it == values.end() ? std::nullopt : std::optional<double>(it->second);
  }
};

}  // namespace coinfer

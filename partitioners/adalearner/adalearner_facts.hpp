#pragma once
/// The facts of an `adalearner` plan (adalearner_plan.hpp writes them): the worker count and
/// scheme it chose and the eq. 3.8 estimate behind the choice ([AdaLearner §3.5]).
///
///     AdaLearnerFacts f;
///     f.workers = 4;  f.onebit = true;  f.estimate_s = 0.8;  ...
///     plan.facts = std::make_shared<const AdaLearnerFacts>(f);
///
/// results.json prints them as `workers`, `onebit` (1 for a quantized scheme), `estimate_s`,
/// `compute_s`, `transfer_s`, `wakeup_s`, `codec_s`, `merge_s`, `minibatch`, `message_bytes` and,
/// when the plan came from a choice, `auto_workers` and `auto_scheme` (1 when that part was chosen).
#include <cstdint>
#include <optional>

#include "sim/plan/plan.hpp"

namespace coinfer::adalearner {

struct AdaLearnerFacts final : VariantFacts {
  static constexpr std::string_view kFamily = "adalearner";
  struct Choice {
    bool workers = false;  ///< the worker count was chosen (sec. 3.5), not given
    bool scheme = false;   ///< the scheme was chosen (eq. 3.13), not given
  };
  int workers = 0;  ///< 0: local training on the GO
  bool onebit = false;
  double estimate_s = 0.0;  ///< eq. 3.8: compute_s + transfer_s + wakeup_s + codec_s
  double compute_s = 0.0;
  double transfer_s = 0.0;
  double wakeup_s = 0.0;
  double codec_s = 0.0;
  double merge_s = 0.0;  ///< the GO's merge (sum and SGD update)
  std::int64_t minibatch = 0;
  double message_bytes = 0.0;    ///< one gradient or update message
  std::optional<Choice> choice;  ///< nullopt: the `local` scheme, nothing chosen

  std::string_view family() const override { return kFamily; }

  Json to_json() const override {
    Json out = {{"workers", static_cast<double>(workers)},
                {"onebit", onebit ? 1.0 : 0.0},
                {"estimate_s", estimate_s},
                {"compute_s", compute_s},
                {"transfer_s", transfer_s},
                {"wakeup_s", wakeup_s},
                {"codec_s", codec_s},
                {"merge_s", merge_s},
                {"minibatch", static_cast<double>(minibatch)},
                {"message_bytes", message_bytes}};
    if (choice) {
      out["auto_workers"] = choice->workers ? 1.0 : 0.0;
      out["auto_scheme"] = choice->scheme ? 1.0 : 0.0;
    }
    return out;
  }
};

}  // namespace coinfer::adalearner

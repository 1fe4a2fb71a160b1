#pragma once
/// The facts of a `pipeline` plan variant (pipeline_partitioner.hpp writes them; the
/// `adaptive-compression` scheduler reads them): per split point its position, what it sends and
/// its compression ratio, and the variant's T_p and accuracy nu ([HuK §IV]).
///
///     PipelineFacts f;
///     f.splits = {{40, 5000.0, 4.0, 1}, {90, 2000.0, 1.0, 3}};   // gamma 4 at split 1; tasks[1], tasks[3]
///     f.tp_fps = 46.2;  f.nu = 0.885;
///     plan.facts = std::make_shared<const PipelineFacts>(f);
///
/// results.json prints them as `gamma`, `split` (the compressed split, 1-based), `data_bytes`,
/// `bytes`, `bytes_k` and `split_k` per split k, `tp_fps`, `overhead`, `overhead_macs`, `accuracy`
/// (when known) and `gamma_k` for a split other than `split` that compresses.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "sim/plan/plan.hpp"

namespace coinfer {

struct PipelineFacts final : VariantFacts {
  static constexpr std::string_view kFamily = "pipeline";
  struct Split {
    std::size_t last_layer = 0;  ///< 1-based position of the last layer before it
    double bytes = 0.0;          ///< D_k / gamma_k: what the variant sends there
    double gamma = 1.0;          ///< its compression ratio (1: uncompressed)
    std::size_t transfer = 0;    ///< index in the plan's tasks of the transfer that sends it
  };
  std::vector<Split> splits;       ///< split points 1..n-1 in pipeline order
  std::size_t compress_split = 1;  ///< the split the compressors sit at (1-based; any when none)
  double data_bytes = 0.0;         ///< D of `compress_split`, uncompressed
  double bytes = 0.0;              ///< what the variant sends at `compress_split`
  double tp_fps = 0.0;             ///< T_p: 1 / the slowest compute stage
  double overhead = 0.0;           ///< compressor device time over the model's on the first device
  double overhead_macs = 0.0;      ///< compressor MACs over the model's
  std::optional<double> nu;        ///< pre-trained accuracy, when the scenario gives it

  std::string_view family() const override { return kFamily; }
  std::optional<double> accuracy() const override { return nu; }

  /// gamma at the compressed split (1 when it is not one of `splits`).
  double gamma() const {
    return compress_split >= 1 && compress_split <= splits.size() ? splits[compress_split - 1].gamma : 1.0;
  }

  Json to_json() const override {
    Json out = {{"gamma", gamma()},
                {"split", static_cast<double>(compress_split)},
                {"data_bytes", data_bytes},
                {"bytes", bytes},
                {"tp_fps", tp_fps},
                {"overhead", overhead},
                {"overhead_macs", overhead_macs}};
    for (std::size_t k = 1; k <= splits.size(); ++k) {
      const Split& s = splits[k - 1];
      out[fmt::format("bytes_{}", k)] = s.bytes;
      out[fmt::format("split_{}", k)] = static_cast<double>(s.last_layer);
      if (k != compress_split && s.gamma != 1.0) out[fmt::format("gamma_{}", k)] = s.gamma;
    }
    if (nu) out["accuracy"] = *nu;
    return out;
  }
};

}  // namespace coinfer

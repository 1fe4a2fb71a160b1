#pragma once
/// The `pipeline` partitioner of Hu & Krishnamachari ([HuK §IV]): a
/// linear chain of devices, one compute stage per device, one transfer per split point, split
/// points by `split-dp` (eq. 2) and, optionally, autoencoder compressors (Table I) at one split
/// point, as plan variants carrying their pre-trained accuracy.
///
/// Units: `units: blocks` (default) splits only between blocks (pipeline_units), as the paper
/// splits MobileNet-v2 between its 19 layers (stem, 17 inverted-residual blocks, last conv); a
/// block without ops joins the one before it (the input: the one after), so no device idles;
/// `units: layers` may cut anywhere, e.g. inside a block (then residual shortcuts cross too).
/// Layers are the model's layers in topological order (the input layer included, with its zero
/// ops); `splits` s_1 < .. < s_{n-1} are 1-based positions in that order: device i runs positions
/// s_{i-1}+1 .. s_i. Split point i carries every tensor produced at or before s_i and read after it
/// (the split layer's output and, in a DAG model, tensors crossing it such as a residual add's
/// shortcut), from device i to device i+1 (an earlier device's tensor is relayed along the chain).
///
/// Eq. 2's inputs come from the calibrations, never typed in: `ops: macs` gives layer j its MACs
/// and device i the speed C_i = model MACs / device time of the whole model; `ops: time` gives
/// layer j its host time and C_i = model host time / device time (the device's speed-up over the
/// host). Compute tasks then last the cost model's device time of their layer range.
///
/// Variants: `compressors: [2, 4, 8]` adds one plan per gamma (encoder layers at the end of the
/// stage before split `compress_split`, decoder layers at the start of the one after, the split's
/// transfer carrying the code); variant 0 is the one of `default_gamma` (1: uncompressed), the
/// others follow in the order 1, compressors. Each variant carries its `PipelineFacts`
/// (pipeline_facts.hpp): per split point its position, what it sends and its ratio, D of the
/// compressed split, T_p (1 / its slowest compute stage), the compressor's overhead and nu (from
/// the `accuracy` mapping, when given).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/scenario/partitioner.hpp"

namespace coinfer {

struct PipelineParams {
  std::vector<std::string> devices;  ///< in pipeline order
  std::vector<std::size_t> splits;   ///< empty: auto (split-dp)
  bool ops_macs = true;              ///< eq. 2's ops: MACs (true) or host time
  bool blocks = true;                ///< auto splits only between blocks (see pipeline_units)
  std::vector<std::int64_t> compressors;
  std::size_t compress_split = 1;           ///< 1-based split point the compressors sit at
  std::int64_t default_gamma = 1;           ///< gamma of variant 0 (1: uncompressed)
  std::map<std::int64_t, double> accuracy;  ///< gamma -> nu (1: uncompressed); may be empty
  std::string network;                      ///< "" = the first network joining two devices
};

/// Reads the resolved `partitioner:` parameters; throws `InputError` naming `partitioner.<key>`.
PipelineParams pipeline_params_from_json(const Json& params);

/// The units eq. 2 splits between, as the 1-based last position of each: every layer (`blocks`
/// false), or blocks: runs of consecutive layers whose names share the prefix before their last
/// '.' (MobileNet-v2's `features.3.expand`, `features.3.dw`, ... form block `features.3`, one of
/// the paper's 19 layers; a name without '.' is a block of its own).
std::vector<std::size_t> pipeline_units(const Graph& graph, bool blocks);

/// Split points of eq. 2 for `params.devices` on `context`'s costs (1-based positions).
/// Throws `InputError` at `partitioner.devices` when there are more devices than layers.
std::vector<std::size_t> pipeline_auto_splits(const PartitionContext& context, const PipelineParams& params);

/// Every plan variant (see above); variant 0 first.
std::vector<Plan> pipeline_plans(const PartitionContext& context, const PipelineParams& params);

/// Registers `pipeline`.
void register_pipeline_partitioners(PartitionerRegistry& registry);

}  // namespace coinfer

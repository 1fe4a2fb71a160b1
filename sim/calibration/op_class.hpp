#pragma once
/// Op classes: the granularity at which a calibration file says how much faster or slower a
/// device is than the host. Every OpKind of the graph IR maps to exactly one class, here and
/// nowhere else, so calibration files, the fit and the cost model agree.
///
/// | class       | ops                                                        |
/// |-------------|------------------------------------------------------------|
/// | conv        | conv2d                                                     |
/// | depthwise   | depthwise_conv2d                                           |
/// | deconv      | conv_transpose2d                                           |
/// | fc          | fc with dense weights (sparsity 0)                         |
/// | sparse_fc   | fc with pruned weights (sparsity > 0; CSR SpMV kernel)     |
/// | pool        | max_pool, avg_pool, global_avg_pool                        |
/// | elementwise | relu, relu6, sigmoid, tanh, leaky_relu, dropout, add, softmax |
/// | norm        | batch_norm, lrn                                            |
/// | lstm        | lstm                                                       |
/// | other       | input, flatten, concat, upsample (data movement)           |
///
///     const OpClass c = op_class_of(graph.layer(3));   // OpClass::Conv
///     op_class_name(c) == "conv";
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/graph/layer.hpp"

namespace coinfer {

enum class OpClass { Conv, Depthwise, Deconv, Fc, SparseFc, Pool, Elementwise, Norm, Lstm, Other };

inline constexpr std::size_t kOpClassCount = 10;

/// Class of an op kind; an fc op is `Fc` here (use `op_class_of(layer)` to see sparsity).
OpClass op_class_of(OpKind op);
/// Class of a layer: like `op_class_of(op)`, but an fc layer with `sparsity > 0` is `SparseFc`.
OpClass op_class_of(const Layer& layer);

/// JSON name of a class (`conv`, `sparse_fc`, ...).
std::string_view op_class_name(OpClass c);
/// Inverse of `op_class_name`; nullopt for an unknown name.
std::optional<OpClass> op_class_from_name(std::string_view name);
/// Every class, in declaration order.
const std::vector<OpClass>& all_op_classes();
/// Every class name, in declaration order (for error messages).
std::vector<std::string> op_class_names();

}  // namespace coinfer

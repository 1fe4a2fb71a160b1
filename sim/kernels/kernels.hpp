#pragma once
/// Every kernel of sim/kernels (one include for users of the whole library).
#include "sim/kernels/activation.hpp"
#include "sim/kernels/conv.hpp"
#include "sim/kernels/dense.hpp"
#include "sim/kernels/gemm.hpp"
#include "sim/kernels/layer_runner.hpp"
#include "sim/kernels/lstm.hpp"
#include "sim/kernels/normalization.hpp"
#include "sim/kernels/png_compress.hpp"
#include "sim/kernels/pool.hpp"
#include "sim/kernels/quantize.hpp"
#include "sim/kernels/tensor.hpp"
#include "sim/kernels/tensor_ops.hpp"

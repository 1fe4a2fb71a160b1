#pragma once
/// NumPy `.npy` files of float32 values, the exchange format of `coinfer infer --input/--output`:
///
///     Tensor x = read_npy("x.npy");          // shape as stored, e.g. [1, 3, 224, 224]
///     write_npy("y.npy", y);                  // format 1.0, '<f4', C order
///
/// Reads format 1.0-3.0 headers with dtype '<f4' (or '|f4'), C order; anything else is an `InputError`
/// naming the file and what was found.
#include <string>

#include "sim/kernels/tensor.hpp"

namespace coinfer {

Tensor read_npy(const std::string& file);
/// Writes atomically (a temporary file renamed into place). Throws `Error` when it cannot.
void write_npy(const std::string& file, const Tensor& tensor);

}  // namespace coinfer

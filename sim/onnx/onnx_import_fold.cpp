// The importer's constants: Constant nodes, and PyTorch's shape arithmetic folded (onnx_importer.hpp).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include <fmt/format.h>

#include "sim/core/checked_math.hpp"
#include "sim/core/error.hpp"
#include "sim/onnx/lstm_gates.hpp"
#include "sim/onnx/onnx_importer.hpp"
#include "sim/onnx/onnx_model_file.hpp"

namespace coinfer::onnx_import_detail {

using onnx_file::int_values;

void Importer::map_constant(onnx::NodeProto& n) {
  auto* a = const_cast<onnx::AttributeProto*>(attr(n, "value"));
  if (!a || !a->has_t()) fail(n, "only a Constant with a tensor 'value' is supported");
  a->mutable_t()->set_name(n.output(0));
  values_[n.output(0)] = Value{"", {}, {0, 0}, a->mutable_t()};
}

void Importer::set_ints(const std::string& name, const Shape& dims, const std::vector<std::int64_t>& v) {
  onnx::TensorProto& t = folded_.emplace_back();
  t.set_name(name);
  t.set_data_type(onnx::TensorProto_DataType_INT64);
  for (auto d : dims) t.add_dims(d);
  for (auto x : v) t.add_int64_data(x);
  values_[name] = Value{"", {}, {0, 0}, &t};
}

void Importer::map_shape(const onnx::NodeProto& n) {
  const Value in = activation(n, 0);
  std::vector<std::int64_t> dims{1};
  dims.insert(dims.end(), in.shape.begin(), in.shape.end());
  if (!in.onnx_dims.empty()) dims = in.onnx_dims;
  const auto rank = static_cast<std::int64_t>(dims.size());
  const auto at = [rank](std::int64_t v) { return std::clamp(v < 0 ? v + rank : v, std::int64_t{0}, rank); };
  const std::int64_t start = at(int_attr(n, "start", 0)), end = at(int_attr(n, "end", rank));
  std::vector<std::int64_t> v(dims.begin() + start, dims.begin() + std::max(start, end));
  set_ints(n.output(0), {static_cast<std::int64_t>(v.size())}, v);
}

bool Importer::is_int_constant(const onnx::NodeProto& n, int input) {
  if (input >= n.input_size() || n.input(input).empty()) return false;
  const Value& v = value(n.input(input));
  return !v.is_activation() && (v.constant->data_type() == onnx::TensorProto_DataType_INT64 ||
                                v.constant->data_type() == onnx::TensorProto_DataType_INT32);
}

bool Importer::fold(const onnx::NodeProto& n) {
  const std::string& op = n.op_type();
  if (op == "Gather" && is_int_constant(n, 0) && is_int_constant(n, 1) && int_attr(n, "axis", 0) == 0) {
    const auto data = ints_of(n, 0), indices = ints_of(n, 1);
    const auto size = static_cast<std::int64_t>(data.size());
    std::vector<std::int64_t> v;
    for (auto i : indices) {
      if (i < -size || i >= size) fail(n, fmt::format("index {} is outside [{}, {})", i, -size, size));
      v.push_back(data[static_cast<std::size_t>(i < 0 ? i + size : i)]);
    }
    const auto dims = onnx_file::dims_of(*constant(n, 1));
    set_ints(n.output(0), dims, v);
    return true;
  }
  if (op == "ConstantOfShape" && is_int_constant(n, 0)) return fold_constant_of_shape(n);
  if (op == "Where" && is_int_constant(n, 0) && is_int_constant(n, 1) && is_int_constant(n, 2)) {
    const auto c = ints_of(n, 0), a = ints_of(n, 1), b = ints_of(n, 2);
    const std::size_t size = std::max({c.size(), a.size(), b.size()});
    for (const auto* v : {&c, &a, &b})
      if (v->size() != size && v->size() != 1)
        fail(n, "folds integer constants of one size, or single values");
    const auto at = [](const std::vector<std::int64_t>& v, std::size_t i) {
      return v.size() == 1 ? v[0] : v[i];
    };
    std::vector<std::int64_t> out(size);
    for (std::size_t i = 0; i < size; ++i) out[i] = at(c, i) ? at(a, i) : at(b, i);
    set_ints(n.output(0), {static_cast<std::int64_t>(size)}, out);
    return true;
  }
  if (op == "Expand" && !value(n.input(0)).is_activation() && is_int_constant(n, 1)) return fold_expand(n);
  if ((op != "Add" && op != "Sub" && op != "Mul" && op != "Div" && op != "Equal") || !is_int_constant(n, 0) ||
      !is_int_constant(n, 1))
    return false;
  const auto a = ints_of(n, 0), b = ints_of(n, 1);
  if (a.size() != b.size() && a.size() != 1 && b.size() != 1)
    fail(n, "folds integer constants of one size, or one of them a single value");
  const std::size_t size = std::max(a.size(), b.size());
  std::vector<std::int64_t> v(size);
  for (std::size_t i = 0; i < size; ++i) {
    const std::int64_t x = a[a.size() == 1 ? 0 : i], y = b[b.size() == 1 ? 0 : i];
    std::optional<std::int64_t> r;
    if (op == "Add") r = checked_add(x, y);
    if (std::int64_t d = 0; op == "Sub" && !__builtin_sub_overflow(x, y, &d)) r = d;
    if (op == "Mul") r = checked_mul(x, y);
    if (op == "Div" && y != 0 && !(x == INT64_MIN && y == -1)) r = x / y;
    if (op == "Equal") r = x == y ? 1 : 0;  // a bool tensor, held as 0 and 1
    if (!r) fail(n, fmt::format("folding {} {} {} does not give an int64", x, op, y));
    v[i] = *r;
  }
  const auto dims = onnx_file::dims_of(*constant(n, a.size() >= b.size() ? 0 : 1));
  set_ints(n.output(0), dims, v);
  return true;
}

bool Importer::fold_constant_of_shape(const onnx::NodeProto& n) {
  const auto dims = ints_of(n, 0);
  std::int64_t count = 1;
  for (auto d : dims) {
    const auto next = d >= 0 ? checked_mul(count, d) : std::nullopt;
    if (!next || *next > (1 << 20))
      fail(n, fmt::format("shape [{}] is not a small non-negative shape", fmt::join(dims, ", ")));
    count = *next;
  }
  std::int64_t fill = 0;
  if (const auto* a = attr(n, "value"); a && a->has_t()) {
    if (a->t().data_type() != onnx::TensorProto_DataType_INT64 &&
        a->t().data_type() != onnx::TensorProto_DataType_INT32)
      return false;
    std::vector<std::int64_t> v;
    try {
      v = int_values(a->t(), dir_);
    } catch (const InputError& e) {
      fail(n, e.path() + ": " + e.message());
    }
    if (v.size() != 1) fail(n, "value must hold one element");
    fill = v[0];
  }
  set_ints(n.output(0), Shape(dims.begin(), dims.end()),
           std::vector<std::int64_t>(static_cast<std::size_t>(count), fill));
  return true;
}

bool Importer::fold_expand(const onnx::NodeProto& n) {
  const Value data = value(n.input(0));
  const Shape dims = onnx_file::dims_of(*data.constant);
  const auto shape = ints_of(n, 1);
  bool same = shape.size() <= dims.size();
  for (std::size_t i = 0; same && i < shape.size(); ++i) {
    const auto d = dims[dims.size() - shape.size() + i];
    same = shape[i] == 1 || shape[i] == d;
  }
  if (!same)
    fail(n, fmt::format("expands a constant {} to [{}]: only an Expand that keeps the constant's shape is "
                        "supported",
                        shape_to_string(dims), fmt::join(shape, ", ")));
  values_[n.output(0)] = data;
  return true;
}

}  // namespace coinfer::onnx_import_detail

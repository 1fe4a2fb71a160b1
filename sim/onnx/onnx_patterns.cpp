// Recognises PyTorch's decomposed LayerNorm and GELU (onnx_patterns.hpp).
#include "sim/onnx/onnx_patterns.hpp"

#include <cmath>

namespace coinfer::onnx_patterns {
namespace {

// The node reading `tensor`, when it has exactly `count` readers and one of them is of type `op`
// (with `other` then the input of that node that is not `tensor`; -1 for a unary node).
struct Step {
  int index = -1;
  const onnx::NodeProto* node = nullptr;
  std::string other;  // the node's other input, if it has two
};

std::optional<Step> reader(const GraphView& g, const std::string& tensor, const std::string& op,
                           std::size_t count = 1) {
  auto it = g.readers.find(tensor);
  if (it == g.readers.end() || it->second.size() != count) return std::nullopt;
  for (int i : it->second) {
    const onnx::NodeProto& n = g.graph.node(i);
    if (n.op_type() != op || !n.domain().empty() || n.output_size() < 1) continue;
    Step s{i, &n, {}};
    if (n.input_size() == 2) s.other = n.input(0) == tensor ? n.input(1) : n.input(0);
    return s;
  }
  return std::nullopt;
}

bool scalar_is(const GraphView& g, const std::string& name, double want, double tolerance) {
  const auto v = g.scalar(name);
  return v && std::abs(*v - want) <= tolerance;
}

std::vector<std::int64_t> ints_attr(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return {a.ints().begin(), a.ints().end()};
  return {};
}

std::int64_t int_attr(const onnx::NodeProto& n, const std::string& name, std::int64_t fallback) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return a.i();
  return fallback;
}

// A ReduceMean over the last axis that keeps it (axes as an attribute, below opset 18).
bool mean_of_last_axis(const onnx::NodeProto& n) {
  return n.op_type() == "ReduceMean" && n.input_size() == 1 &&
         ints_attr(n, "axes") == std::vector<std::int64_t>{-1} && int_attr(n, "keepdims", 1) == 1;
}

}  // namespace

std::optional<LayerNorm> layer_norm_at(const GraphView& g, int reduce_mean) {
  const onnx::NodeProto& first = g.graph.node(reduce_mean);
  if (!mean_of_last_axis(first)) return std::nullopt;
  const std::string& x = first.input(0);
  const auto sub = reader(g, first.output(0), "Sub");
  if (!sub || sub->node->input(0) != x || sub->node->input(1) != first.output(0)) return std::nullopt;
  const std::string& centred = sub->node->output(0);
  const auto pow = reader(g, centred, "Pow", 2);
  const auto div = reader(g, centred, "Div", 2);
  if (!pow || !div || pow->node->input(0) != centred || !scalar_is(g, pow->other, 2.0, 0.0) ||
      div->node->input(0) != centred)
    return std::nullopt;
  const auto variance = reader(g, pow->node->output(0), "ReduceMean");
  if (!variance || !mean_of_last_axis(*variance->node)) return std::nullopt;
  const auto add_eps = reader(g, variance->node->output(0), "Add");
  if (!add_eps) return std::nullopt;
  const auto eps = g.scalar(add_eps->other);
  if (!eps || !(*eps > 0.0f)) return std::nullopt;
  const auto sqrt = reader(g, add_eps->node->output(0), "Sqrt");
  if (!sqrt) return std::nullopt;
  const auto div_reads = reader(g, sqrt->node->output(0), "Div");
  if (!div_reads || div_reads->index != div->index || div->node->input(1) != sqrt->node->output(0))
    return std::nullopt;
  const auto scale = reader(g, div->node->output(0), "Mul");
  if (!scale || !g.is_constant(scale->other)) return std::nullopt;
  const auto shift = reader(g, scale->node->output(0), "Add");
  if (!shift || !g.is_constant(shift->other)) return std::nullopt;
  LayerNorm m;
  m.nodes = {reduce_mean, sub->index, pow->index,   variance->index, add_eps->index,
             sqrt->index, div->index, scale->index, shift->index};
  m.input = x;
  m.output = shift->node->output(0);
  m.scale = scale->other;
  m.shift = shift->other;
  m.epsilon = *eps;
  return m;
}

std::optional<Gelu> gelu_at(const GraphView& g, int div) {
  const onnx::NodeProto& first = g.graph.node(div);
  if (first.op_type() != "Div" || first.input_size() != 2 ||
      !scalar_is(g, first.input(1), std::sqrt(2.0), 1e-6))
    return std::nullopt;
  const std::string& x = first.input(0);
  const auto erf = reader(g, first.output(0), "Erf");
  if (!erf) return std::nullopt;
  const auto plus_one = reader(g, erf->node->output(0), "Add");
  if (!plus_one || !scalar_is(g, plus_one->other, 1.0, 0.0)) return std::nullopt;
  const auto times_x = reader(g, plus_one->node->output(0), "Mul");
  if (!times_x || times_x->other != x) return std::nullopt;
  const auto half = reader(g, times_x->node->output(0), "Mul");
  if (!half || !scalar_is(g, half->other, 0.5, 0.0)) return std::nullopt;
  return Gelu{{div, erf->index, plus_one->index, times_x->index, half->index}, x, half->node->output(0)};
}

std::vector<int> Attention::inner_nodes() const {
  std::vector<int> v{transpose_in, in_proj,       in_bias,     scale,    scores,      softmax,
                     context,      transpose_out, reshape_out, out_proj, reshape_back};
  for (std::size_t i = 0; i < 3; ++i) v.insert(v.end(), {slices[i], reshapes[i], transposes[i]});
  return v;
}

std::optional<Attention> attention_at(const GraphView& g, int transpose) {
  using Perm = std::vector<std::int64_t>;
  const onnx::NodeProto& first = g.graph.node(transpose);
  if (first.op_type() != "Transpose" || ints_attr(first, "perm") != Perm{1, 0, 2}) return std::nullopt;
  Attention m;
  m.input = first.input(0);
  m.transpose_in = transpose;
  const auto proj = reader(g, first.output(0), "MatMul");
  if (!proj || proj->node->input(0) != first.output(0) || !g.is_constant(proj->other)) return std::nullopt;
  const auto bias = reader(g, proj->node->output(0), "Add");
  if (!bias || !g.is_constant(bias->other)) return std::nullopt;
  m.in_proj = proj->index;
  m.in_bias = bias->index;
  m.packed = bias->node->output(0);
  // P's readers: three Slices, and Shape nodes (PyTorch's arithmetic for the Slices' bounds).
  auto it = g.readers.find(m.packed);
  if (it == g.readers.end()) return std::nullopt;
  std::vector<int> slices;
  for (int i : it->second) {
    const auto& op = g.graph.node(i).op_type();
    if (op == "Slice" && g.graph.node(i).input(0) == m.packed)
      slices.push_back(i);
    else if (op != "Shape")
      return std::nullopt;
  }
  if (slices.size() != 3) return std::nullopt;
  // Each Slice -> Reshape -> Transpose; k's Transpose is (1, 2, 0), q's is read by the scaling Div.
  std::optional<Step> q_scale;
  int q = -1, k = -1, v = -1;
  std::array<int, 3> reshape{}, turn{};
  for (std::size_t s = 0; s < 3; ++s) {
    const auto r = reader(g, g.graph.node(slices[s]).output(0), "Reshape");
    if (!r || r->node->input(0) != g.graph.node(slices[s]).output(0)) return std::nullopt;
    const auto t = reader(g, r->node->output(0), "Transpose");
    if (!t) return std::nullopt;
    reshape[s] = r->index;
    turn[s] = t->index;
    const Perm perm = ints_attr(*t->node, "perm");
    if (perm == Perm{1, 2, 0}) {
      k = static_cast<int>(s);
    } else if (perm == Perm{1, 0, 2}) {
      if (auto d = reader(g, t->node->output(0), "Div"); d && d->node->input(0) == t->node->output(0)) {
        q = static_cast<int>(s);
        q_scale = d;
      } else {
        v = static_cast<int>(s);
      }
    } else {
      return std::nullopt;
    }
  }
  if (q < 0 || k < 0 || v < 0) return std::nullopt;
  const auto role = [&](int s) { return std::array<int, 3>{slices[s], reshape[s], turn[s]}; };
  for (int r = 0; r < 3; ++r) {
    const auto ids = role(std::array<int, 3>{q, k, v}[r]);
    m.slices[r] = ids[0];
    m.reshapes[r] = ids[1];
    m.transposes[r] = ids[2];
  }
  m.scale = q_scale->index;
  const auto out = [&](int node) -> const std::string& { return g.graph.node(node).output(0); };
  const auto scores = reader(g, out(m.scale), "MatMul");
  if (!scores || scores->node->input(0) != out(m.scale) || scores->node->input(1) != out(m.transposes[1]) ||
      g.readers.at(out(m.transposes[1])).size() != 1)
    return std::nullopt;
  const auto softmax = reader(g, out(scores->index), "Softmax");
  if (!softmax) return std::nullopt;
  const auto context = reader(g, out(softmax->index), "MatMul");
  if (!context || context->node->input(0) != out(softmax->index) ||
      context->node->input(1) != out(m.transposes[2]) || g.readers.at(out(m.transposes[2])).size() != 1)
    return std::nullopt;
  m.scores = scores->index;
  m.softmax = softmax->index;
  m.context = context->index;
  const auto t_out = reader(g, out(m.context), "Transpose");
  if (!t_out || ints_attr(*t_out->node, "perm") != Perm{1, 0, 2}) return std::nullopt;
  const auto r_out = reader(g, out(t_out->index), "Reshape");
  if (!r_out || r_out->node->input(0) != out(t_out->index)) return std::nullopt;
  const auto gemm = reader(g, out(r_out->index), "Gemm");
  if (!gemm || gemm->node->input(0) != out(r_out->index)) return std::nullopt;
  const auto r_back = reader(g, out(gemm->index), "Reshape");
  if (!r_back || r_back->node->input(0) != out(gemm->index)) return std::nullopt;
  const auto t_back = reader(g, out(r_back->index), "Transpose");
  if (!t_back || ints_attr(*t_back->node, "perm") != Perm{1, 0, 2}) return std::nullopt;
  m.transpose_out = t_out->index;
  m.reshape_out = r_out->index;
  m.out_proj = gemm->index;
  m.reshape_back = r_back->index;
  m.transpose_back = t_back->index;
  m.output = out(m.transpose_back);
  return m;
}

}  // namespace coinfer::onnx_patterns

#include "partitioners/jointdnn/jointdnn_graph.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::jointdnn {
namespace {

constexpr std::uint8_t kOnMobile = 1;  // bit sets of the sides holding an output
constexpr std::uint8_t kOnCloud = 2;

std::uint8_t side_bit(Side s) { return s == Side::mobile ? kOnMobile : kOnCloud; }

/// Producers whose output a group starting at layer i may still need: the open sources at
/// boundary i-1 plus layer i-1 itself, with the sides that hold each output.
struct Producers {
  std::array<int, kMaxOpenSkips + 1> layer{};
  std::array<std::uint8_t, kMaxOpenSkips + 1> sides{};
  int count = 0;

  int index_of(int a) const {
    for (int t = 0; t < count; ++t)
      if (layer[t] == a) return t;
    return -1;  // unreachable for a well-formed graph
  }
};

// Per boundary j (0..layers): the skip sources a < j whose output a layer after j still needs.
std::vector<std::vector<int>> open_sources(const Problem& problem) {
  std::vector<int> last_target(problem.layers + 1, -1);
  for (const auto& s : problem.skips)
    last_target[s.from_layer] = std::max(last_target[s.from_layer], s.to_layer);
  std::vector<std::vector<int>> open(problem.layers + 1);
  for (int j = 0; j <= problem.layers; ++j)
    for (int a = 0; a < j; ++a)
      if (last_target[a] > j) open[j].push_back(a);
  return open;
}

}  // namespace

int most_open_skips(const Problem& problem) {
  std::size_t most = 0;
  for (const auto& open : open_sources(problem)) most = std::max(most, open.size());
  return static_cast<int>(most);
}

JointDnnGraph::JointDnnGraph(const Problem& problem)
    : problem_(problem),
      layers_(problem.layers),
      open_(open_sources(problem)),
      sources_of_(problem.layers + 1),
      states_(problem.layers + 1) {
  for (const auto& s : problem.skips) sources_of_[s.to_layer].push_back(s.from_layer);
  for (int j = 0; j <= layers_; ++j) {
    const auto width = static_cast<int>(open_[j].size());
    if (width > kMaxOpenSkips)
      throw InputError(
          "", "skips",
          fmt::format("{} skip sources are open after layer {}; the jointdnn graph grows as 3^open "
                      "and accepts at most {}: use jointdnn-ilp (solver ilp; solver auto picks it)",
                      width, j, kMaxOpenSkips));
    std::size_t states = 2;
    for (int t = 0; t < width; ++t) states *= 3;
    states_[j] = states;
  }
}

void JointDnnGraph::edges_from(int boundary, std::size_t code, std::vector<Edge>& out) const {
  out.clear();
  const Problem& p = problem_;
  const int first = boundary + 1;
  // Decode the node: side of layer `boundary`, then one base-3 digit per open source.
  Producers start;
  std::size_t rest = code / 2;
  for (int a : open_[boundary]) {
    start.layer[start.count] = a;
    start.sides[start.count++] = static_cast<std::uint8_t>(rest % 3 + 1);
    rest /= 3;
  }
  start.layer[start.count] = boundary;
  start.sides[start.count++] = code % 2 == 0 ? kOnMobile : kOnCloud;

  for (Side s : {Side::mobile, Side::cloud}) {
    const std::uint8_t bit = side_bit(s);
    Producers prod = start;
    Cost paid;  // crossings and weight downloads so far, for groups [first..k]
    // Table 1: EU / ED -- a consumer on side s needs producer t's output there; pay once.
    auto need = [&](int t) {
      if (prod.sides[t] & bit) return;
      const int a = prod.layer[t];
      const bool up = prod.sides[t] == kOnMobile;
      paid.latency_s += up ? p.upload_time_s[a] : p.download_time_s[a];
      if (p.has_energy()) paid.energy_j += up ? p.upload_energy_j[a] : p.download_energy_j[a];
      prod.sides[t] |= bit;
    };
    if (p.reads_previous(first)) need(prod.count - 1);  // layer `first` consumes layer `boundary`
    for (int k = first; k <= layers_; ++k) {
      for (int a : sources_of_[k])
        if (a < first) need(prod.index_of(a));  // sources inside the group are on side s already
      if (s == Side::cloud) {
        paid.latency_s += p.weight_download_time_s[k - 1];
        paid.energy_j += p.weight_download_energy_j[k - 1];
      }
      Edge e;
      e.last = k;
      e.on = s;
      e.cost = paid;
      const double t = p.group_time_s(first, k, s);
      e.cost.latency_s += t;
      e.cost.energy_j += p.group_energy_j(first, k, s);
      if (s == Side::cloud) e.cost.cloud_time_s += t;
      if (k == layers_ && s == Side::cloud) {  // the result must end on the mobile
        e.cost.latency_s += p.download_time_s[k];
        if (p.has_energy()) e.cost.energy_j += p.download_energy_j[k];
      }
      // Encode node (k, code'): sources before the group keep their sides, later ones sit on s.
      std::size_t digits = 0;
      std::size_t scale = 1;
      for (int a : open_[k]) {
        const std::uint8_t sides = a < first ? prod.sides[prod.index_of(a)] : bit;
        digits += static_cast<std::size_t>(sides - 1) * scale;
        scale *= 3;
      }
      e.to_code = (s == Side::mobile ? 0 : 1) + 2 * digits;
      out.push_back(e);
    }
  }
}

}  // namespace coinfer::jointdnn

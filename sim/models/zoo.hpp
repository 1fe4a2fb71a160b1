#pragma once
/// The model zoo: named builders for the networks the source papers use.
///
///     Graph g = build_zoo_model("vgg16");          // shape-inferred
///     Graph h = load_model("models/tiny.json");    // a zoo name or a JSON model file
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/graph/graph.hpp"

namespace coinfer {

struct ZooEntry {
  std::string name;
  std::string summary;  ///< which published architecture it follows
  std::function<Graph()> build;
};

/// Every zoo model, in the order `coinfer models` lists them.
const std::vector<ZooEntry>& zoo();
bool is_zoo_model(std::string_view name);
/// Throws `InputError("", "model", "unknown model 'x'; known: ...")` for an unknown name.
Graph build_zoo_model(std::string_view name);
/// A zoo name, or else a path to a JSON model file.
Graph load_model(const std::string& name_or_file);

// One builder per architecture family (sim/models/<family>.cpp).
Graph make_lenet5();
Graph make_vgg16();

}  // namespace coinfer

#include "sim/models/zoo.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/graph/graph_json.hpp"

namespace coinfer {

const std::vector<ZooEntry>& zoo() {
  static const std::vector<ZooEntry> entries{
      {"lenet5", "LeNet-5 (LeCun et al. 1998), 1x32x32 input, 10 classes", make_lenet5},
      {"vgg16", "VGG-16 (Simonyan & Zisserman 2015, configuration D), 3x224x224, 1000 classes", make_vgg16},
  };
  return entries;
}

bool is_zoo_model(std::string_view name) {
  for (const auto& e : zoo())
    if (e.name == name) return true;
  return false;
}

Graph build_zoo_model(std::string_view name) {
  std::vector<std::string> names;
  for (const auto& e : zoo()) {
    if (e.name == name) return e.build();
    names.push_back(e.name);
  }
  throw InputError("", "model", fmt::format("unknown model '{}'; known: {} (or a .json model file)", name,
                                            fmt::join(names, ", ")));
}

Graph load_model(const std::string& name_or_file) {
  if (is_zoo_model(name_or_file)) return build_zoo_model(name_or_file);
  if (name_or_file.find('/') != std::string::npos || name_or_file.ends_with(".json"))
    return load_model_file(name_or_file);
  return build_zoo_model(name_or_file);
}

}  // namespace coinfer

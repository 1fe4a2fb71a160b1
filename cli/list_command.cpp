// `coinfer list [CATEGORY] [--json]`: what a scenario can name. Partitioners and schedulers with
// every parameter (the registries' schemas, the same tables that validate scenarios), solvers,
// the model zoo, the shipped devices and the keys of a platform file's networks.
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/builtin_registries.hpp"
#include "cli/commands.hpp"
#include "cli/shipped_devices.hpp"
#include "sim/calibration/calibration_json.hpp"
#include "sim/core/error.hpp"
#include "sim/models/zoo.hpp"
#include "sim/platform/network_keys.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

// Each category is a JSON document (what `--json` prints) and a table drawn from that document,
// so the two cannot disagree.
struct Category {
  std::string name;
  std::string heading;
  std::function<Json()> to_json;
  std::function<std::string(const Json&)> table;
};

template <class Base>
Json registry_json(const Registry<Base>& registry) {
  Json out = Json::array();
  for (const auto& name : registry.names()) {
    Json entry{
        {"name", name}, {"summary", registry.summary(name)}, {"params", registry.params(name).to_json()}};
    if (!registry.params(name).documented_in().empty())
      entry["problem"] = registry.params(name).documented_in();
    out.push_back(std::move(entry));
  }
  return out;
}

std::string indent(const std::string& text, const std::string& prefix) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    out += prefix + text.substr(start, end - start + 1);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

std::string components_table(const Json& components) {
  std::size_t width = 0;
  for (const auto& c : components) width = std::max(width, c.at("name").get<std::string>().size());
  std::string out;
  for (const auto& c : components) {
    if (!out.empty()) out += "\n";
    out += fmt::format("{:<{}}  {}\n", c.at("name").get<std::string>(), width,
                       c.at("summary").get<std::string>());
    if (c.at("params").empty()) {
      out += "  (no parameters)\n";
      continue;
    }
    TextTable t({"parameter", "type", "default", "meaning"});
    for (const auto& p : c.at("params")) {
      const auto spec = ParamSpec::from_json(p);
      t.add_row({spec.name, spec.type_text(), spec.default_text(), spec.meaning});
    }
    out += indent(t.str(), "  ");
  }
  return out;
}

std::string solvers_table(const Json& solvers) {
  TextTable t({"solver", "what it does", "problem JSON documented in"});
  for (const auto& s : solvers)
    t.add_row({s.at("name").get<std::string>(), s.at("summary").get<std::string>(), s.value("problem", "")});
  return t.str();
}

Json models_json() {
  Json out = Json::array();
  for (const auto& e : zoo()) {
    const Graph g = e.build();
    out.push_back({{"name", e.name},
                   {"input", g.layer(g.input_layers().front()).output_shape},
                   {"layers", g.size()},
                   {"params", g.total_params()},
                   {"macs", g.total_macs()},
                   {"summary", e.summary}});
  }
  return out;
}

std::string models_table(const Json& models) {
  TextTable t({"model", "input", "layers", "architecture"}, {false, false, true, false});
  for (const auto& m : models)
    t.add_row({m.at("name").get<std::string>(), shape_to_string(m.at("input").get<Shape>()),
               std::to_string(m.at("layers").get<std::size_t>()), m.at("summary").get<std::string>()});
  return t.str();
}

// "vgg16 latency 15809 ms", "convnet train_step (batch 150) 10 s", "DERIVED: alexnet latency 600 ms".
std::string reference_text(const ReferenceFigure& r) {
  std::string out;
  for (const char* mark : {"ESTIMATE", "DERIVED"})
    if (r.source.starts_with(mark)) out = std::string(mark) + ": ";
  out += fmt::format("{} {}", std::filesystem::path(r.model).stem().string(), r.quantity);
  if (r.batch > 1) out += fmt::format(" (batch {})", r.batch);
  return out + fmt::format(" {} {}", r.value, r.unit);
}

Json devices_json() {
  Json out = Json::array();
  const auto dir = std::filesystem::path(shipped_calibration_dir());
  for (const auto& name : shipped_device_names()) {
    const auto c = load_calibration_file((dir / (name + ".json")).string());
    Json fitted = Json::array(), checks = Json::array();
    for (const auto& r : c.references) (r.fitted ? fitted : checks).push_back(reference_text(r));
    out.push_back({{"name", c.name},
                   {"kind", device_kind_name(c.kind)},
                   {"precision", precision_name(c.precision)},
                   {"idle_w", c.power.idle_w},
                   {"busy_w", c.power.busy_w},
                   {"fit_basis", c.fit ? c.fit->host_basis : ""},
                   {"fitted_to", fitted},
                   {"checks", checks},
                   {"file", c.file}});
  }
  return out;
}

std::string devices_table(const Json& devices) {
  TextTable t({"device", "kind", "precision", "busy W", "fitted to (checks)"},
              {false, false, false, true, false});
  for (const auto& d : devices) {
    auto figures = fmt::format("{}", fmt::join(d.at("fitted_to").get<std::vector<std::string>>(), "; "));
    for (const auto& c : d.at("checks")) figures += fmt::format("; (check) {}", c.get<std::string>());
    t.add_row({d.at("name").get<std::string>(), d.at("kind").get<std::string>(),
               d.at("precision").get<std::string>(), fmt::format("{}", d.at("busy_w").get<double>()),
               figures});
  }
  return t.str();
}

Json networks_json() {
  Json kinds = Json::array(), keys = Json::array();
  for (const auto& k : network_kinds()) kinds.push_back({{"kind", k.name}, {"meaning", k.meaning}});
  for (const auto& k : network_keys())
    keys.push_back({{"key", k.key}, {"applies_to", k.applies_to}, {"meaning", k.meaning}});
  return {{"kinds", kinds}, {"keys", keys}};
}

std::string networks_table(const Json& networks) {
  TextTable kinds({"kind", "meaning"});
  for (const auto& k : networks.at("kinds"))
    kinds.add_row({k.at("kind").get<std::string>(), k.at("meaning").get<std::string>()});
  TextTable keys({"key", "applies to", "meaning"});
  for (const auto& k : networks.at("keys"))
    keys.add_row({k.at("key").get<std::string>(), k.at("applies_to").get<std::string>(),
                  k.at("meaning").get<std::string>()});
  return kinds.str() + "\n" + keys.str();
}

const std::vector<Category>& categories() {
  static const std::vector<Category> all{
      {"partitioners", "partitioners: `partitioner: {name: NAME, PARAMETER: VALUE, ...}` in a scenario",
       [] { return registry_json(builtin_partitioners()); }, components_table},
      {"schedulers", "schedulers: `scheduler: {name: NAME, PARAMETER: VALUE, ...}` in a scenario",
       [] { return registry_json(builtin_schedulers()); }, components_table},
      {"solvers", "solvers: `coinfer solve NAME problem.json`",
       [] { return registry_json(builtin_solvers()); }, solvers_table},
      {"models", "models: `model: NAME` in a scenario (or a model JSON file)", models_json, models_table},
      {"devices", "devices: `calibration: calibration/NAME.json` in a platform file, `--device NAME`",
       devices_json, devices_table},
      {"networks", "networks: `networks: [{name, kind, members, ...}]` in a platform file", networks_json,
       networks_table},
  };
  return all;
}

const Category& category_by_name(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& c : categories()) {
    if (c.name == name) return c;
    names.push_back(c.name);
  }
  throw InputError("", "list", fmt::format("unknown category '{}'; known: {}", name, fmt::join(names, ", ")));
}

void run_list(const std::string& category, bool json) {
  std::vector<const Category*> chosen;
  if (category.empty())
    for (const auto& c : categories()) chosen.push_back(&c);
  else
    chosen.push_back(&category_by_name(category));
  Json doc = Json::object();
  for (const auto* c : chosen) doc[c->name] = c->to_json();
  if (json) {
    std::cout << doc.dump(2) << "\n";
    return;
  }
  for (std::size_t i = 0; i < chosen.size(); ++i)
    std::cout << (i > 0 ? "\n" : "") << chosen[i]->heading << "\n\n"
              << chosen[i]->table(doc[chosen[i]->name]);
}

}  // namespace

void add_list_command(CLI::App& app) {
  struct Options {
    std::string category;
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "list",
      "List partitioners, schedulers, solvers (with every parameter), models, devices or network keys");
  cmd->add_option("category", o->category,
                  "partitioners, schedulers, solvers, models, devices or networks (default: every one)");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { run_list(o->category, o->json); });
}

}  // namespace coinfer::cli

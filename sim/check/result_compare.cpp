#include "sim/check/result_compare.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::check {
namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == sep) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

std::string some_keys(const Json& node) {
  std::vector<std::string> keys;
  if (node.is_object())
    for (const auto& [k, v] : node.items()) keys.push_back(k);
  else if (node.is_array())
    for (std::size_t i = 0; i < node.size(); ++i) keys.push_back(std::to_string(i));
  if (keys.size() > 12) {
    keys.resize(12);
    keys.push_back("...");
  }
  return fmt::format("{}", fmt::join(keys, ", "));
}

struct Walk {
  const MetricSpec& spec;
  std::string label_prefix;  // "bodp-2/" or ""
  std::vector<MetricValue>& out;
};

// Follows `segs[i..]` from `node`; `at` is the concrete path so far, `wild` whether a `*` led here.
void walk(const Walk& w, const Json& node, const std::vector<std::string>& segs, std::size_t i,
          const std::string& at, bool wild) {
  if (i == segs.size()) {
    if (node.is_structured())
      throw InputError(
          "", w.spec.path,
          fmt::format("'{}{}' is {} in the results; name one of its keys ({}) or use {}.*", w.label_prefix,
                      at, node.is_object() ? "an object" : "an array", some_keys(node), at));
    w.out.push_back({w.label_prefix + at, node});
    return;
  }
  const auto join = [&](const std::string& key) { return at.empty() ? key : at + "." + key; };
  if (segs[i] == "*") {
    if (node.is_object())
      for (const auto& [key, child] : node.items()) walk(w, child, segs, i + 1, join(key), true);
    else if (node.is_array())
      for (std::size_t k = 0; k < node.size(); ++k)
        walk(w, node[k], segs, i + 1, join(std::to_string(k)), true);
    else if (!wild)
      throw InputError("", w.spec.path,
                       fmt::format("'{}{}' is not an object: '*' names nothing", w.label_prefix, at));
    return;
  }
  const Json* child = nullptr;
  if (node.is_object() && node.contains(segs[i])) child = &node[segs[i]];
  if (node.is_array() && !segs[i].empty() && std::all_of(segs[i].begin(), segs[i].end(), ::isdigit)) {
    const auto k = std::stoul(segs[i]);
    if (k < node.size()) child = &node[k];
  }
  if (child != nullptr) return walk(w, *child, segs, i + 1, join(segs[i]), wild);
  if (wild) return;  // this branch of a `*` has no such key
  throw InputError(
      "", w.spec.path,
      fmt::format(
          "no '{}' in the results{}{}", join(segs[i]),
          w.label_prefix.empty() ? "" : " of '" + w.label_prefix.substr(0, w.label_prefix.size() - 1) + "'",
          node.is_structured() ? fmt::format(" (there: {})", some_keys(node)) : ""));
}

std::string labels_of(const RunResults& r) {
  std::vector<std::string> labels;
  for (const auto& [label, doc] : r.runs) labels.push_back(label);
  if (labels.size() > 12) {
    labels.resize(12);
    labels.push_back("...");
  }
  return fmt::format("{}", fmt::join(labels, ", "));
}

bool single_run(const RunResults& r) { return r.runs.size() == 1 && r.runs.front().first.empty(); }

// Numbers pass within the tolerance, other values when equal.
bool within(const Json& base, const Json& now, const Tolerance& t, std::string& detail) {
  if (base.is_number() && now.is_number()) {
    const double b = base.get<double>(), n = now.get<double>();
    const double allowed = std::max(t.absolute, t.relative * std::fabs(b));
    if (std::fabs(n - b) <= allowed) return true;
    detail = fmt::format("off by {:.3g}, tolerance {:.3g}", std::fabs(n - b), allowed);
    return false;
  }
  if (base == now) return true;
  detail = "changed";
  return false;
}

}  // namespace

std::string value_text(const Json& value) {
  if (value.is_number_integer()) return value.dump();
  if (value.is_number()) return fmt::format("{:.10g}", value.get<double>());
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

std::pair<std::string, std::string> split_metric(const std::string& name, bool labelled) {
  const auto slash = name.find('/');
  if (!labelled || slash == std::string::npos) return {"", name};
  return {name.substr(0, slash), name.substr(slash + 1)};
}

std::vector<MetricValue> expand_metric(const MetricSpec& spec, const RunResults& results) {
  std::vector<MetricValue> out;
  const bool labelled = !single_run(results);
  const auto [label, key] = split_metric(spec.pattern, labelled);
  if (labelled && spec.pattern.find('/') == std::string::npos)
    throw InputError("", spec.path,
                     fmt::format("'{}': name a {} first ('{}/{}', or '*/{}'); there are: {}", spec.pattern,
                                 results.flat ? "run" : "compare variant", results.runs.front().first, key,
                                 key, labels_of(results)));
  if (!labelled) {
    try {
      walk(Walk{spec, "", out}, results.runs.front().second, split(key, '.'), 0, "", false);
    } catch (const InputError& e) {
      if (spec.pattern.find('/') == std::string::npos) throw;
      throw InputError("", spec.path,
                       e.message() +
                           "; the scenario has no compare variants, so a metric is a key path of its "
                           "results.json without a label");
    }
    return out;
  }
  bool label_found = false;
  for (const auto& [run_label, doc] : results.runs) {
    if (label != "*" && label != run_label) continue;
    label_found = true;
    const std::string prefix = run_label + "/";
    if (results.flat) {
      if (!doc.contains(key))
        throw InputError("", spec.path,
                         fmt::format("'{}': results.csv has no column '{}' (columns: {})", spec.pattern, key,
                                     some_keys(doc)));
      out.push_back({prefix + key, doc[key]});
      continue;
    }
    walk(Walk{spec, prefix, out}, doc, split(key, '.'), 0, "", label == "*");
  }
  if (!label_found)
    throw InputError("", spec.path,
                     fmt::format("'{}': no {} '{}' (there are: {})", spec.pattern,
                                 results.flat ? "run" : "compare variant", label, labels_of(results)));
  return out;
}

bool metric_matches(const std::string& pattern, const std::string& name, bool labelled, bool flat) {
  const auto [pl, pk] = split_metric(pattern, labelled);
  const auto [nl, nk] = split_metric(name, labelled);
  if (pl != "*" && pl != nl) return false;
  if (flat) return pk == nk;
  const auto a = split(pk, '.'), b = split(nk, '.');
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != "*" && a[i] != b[i]) return false;
  return true;
}

ResultComparison compare_results(const Check& check, const RunResults& results,
                                 const BaselineFile* baseline) {
  ResultComparison cmp;
  std::set<std::string> seen;
  for (const auto& spec : check.result()->metrics) {
    std::vector<MetricValue> found;
    try {
      found = expand_metric(spec, results);
    } catch (const InputError&) {
      // Named by the baseline but gone from the results: the results changed, not the suite.
      const Json* old = baseline != nullptr ? baseline->metric(spec.pattern) : nullptr;
      if (old == nullptr) throw;
      if (seen.insert(spec.pattern).second)
        cmp.rows.push_back({check.name, spec.pattern, value_text(*old), "missing", "-", Verdict::Regression,
                            "not in the results"});
      continue;
    }
    if (found.empty() &&
        (baseline == nullptr ||
         std::none_of(baseline->metrics.begin(), baseline->metrics.end(), [&](const auto& m) {
           return metric_matches(spec.pattern, m.first, !single_run(results), results.flat);
         })))
      throw InputError("", spec.path, fmt::format("'{}' names nothing in the results", spec.pattern));
    std::set<std::string> here;
    for (const auto& [name, value] : found) {
      here.insert(name);
      if (!seen.insert(name).second) continue;
      cmp.values.emplace_back(name, value);
      const Json* old = baseline != nullptr ? baseline->metric(name) : nullptr;
      CheckRow row{check.name, name, old ? value_text(*old) : "-", value_text(value), "-", Verdict::New, ""};
      if (old != nullptr) {
        if (value.is_number() && !old->is_number())  // a hand-edited baseline, not a changed result
          throw InputError(baseline->path, "metrics." + name,
                           fmt::format("expected a number (the results hold {}), got the {} {}",
                                       value_text(value), old->type_name(),
                                       old->is_string() ? "'" + old->get<std::string>() + "'" : old->dump()));
        row.verdict = within(*old, value, spec.tolerance, row.detail) ? Verdict::Ok : Verdict::Regression;
        if (old->is_number() && value.is_number())
          row.change = change_percent(old->get<double>(), value.get<double>());
      } else {
        row.detail = "no baseline value";
      }
      cmp.rows.push_back(std::move(row));
    }
    if (baseline != nullptr)
      for (const auto& [name, old] : baseline->metrics)
        if (!here.count(name) && metric_matches(spec.pattern, name, !single_run(results), results.flat) &&
            seen.insert(name).second)
          cmp.rows.push_back(
              {check.name, name, value_text(old), "missing", "-", Verdict::Regression, "not in the results"});
  }
  return cmp;
}

}  // namespace coinfer::check

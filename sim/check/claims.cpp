#include "sim/check/claims.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "sim/check/plain_name.hpp"
#include "sim/check/result_runner.hpp"
#include "sim/core/error.hpp"
#include "sim/report/share.hpp"
#include "sim/scenario/yaml_json.hpp"

namespace coinfer::check {
namespace {

namespace fs = std::filesystem;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// `*` matches any run of characters, everything else itself.
bool glob_match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<std::string> string_list(const Json& obj, const char* key, const std::string& path) {
  std::vector<std::string> out;
  const Json* v = json_find(obj, key, path);
  if (!v) return out;
  const auto p = join_path(path, key);
  if (!v->is_array() || v->empty()) throw InputError("", p, "expected a non-empty list of texts");
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string()) throw InputError("", index_path(p, i), "expected a text");
    out.push_back((*v)[i].get<std::string>());
  }
  return out;
}

std::vector<RowFilter> filters(const Json& obj, const char* key, const std::string& path) {
  std::vector<RowFilter> out;
  const Json* v = json_find(obj, key, path);
  if (!v) return out;
  const auto p = join_path(path, key);
  if (!v->is_object() || v->empty()) throw InputError("", p, "expected a map of column: value");
  for (const auto& [column, value] : v->items()) {
    const auto cp = join_path(p, column);
    const bool range = value.is_array() && value.size() == 2 && value[0].is_number() && value[1].is_number();
    bool values = value.is_array() && !value.empty() && !range;
    if (values)
      for (const Json& e : value) values = values && (e.is_number() || e.is_string());
    if (!range && !values && !value.is_number() && !value.is_string())
      throw InputError("", cp, "expected a number, a text, a [low, high] range or a list of values");
    out.push_back({column, value});
  }
  return out;
}

Reduce parse_reduce(const Json& ours, const std::string& path) {
  if (!json_find(ours, "reduce", path)) return Reduce::Only;
  const auto r = json_enum(ours, "reduce", path, {"only", "max", "min", "mean"});
  return r == "max" ? Reduce::Max : r == "min" ? Reduce::Min : r == "mean" ? Reduce::Mean : Reduce::Only;
}

OursSpec parse_ours(const Json& claim, const std::string& path, bool sweep) {
  const auto p = join_path(path, "ours");
  const Json& ours = json_at(claim, "ours", path);
  if (!ours.is_object()) throw InputError("", p, "expected a map");
  OursSpec o;
  o.reduce = parse_reduce(ours, p);
  if (!sweep) {
    json_reject_unknown_keys(ours, p, {"row", "reduce"});
    o.row = json_string(ours, "row", p);
    return o;
  }
  json_reject_unknown_keys(
      ours, p, {"metric", "of", "where", "group_by", "subject", "against", "better", "as", "reduce"});
  o.metric = json_string(ours, "metric", p);
  o.where = filters(ours, "where", p);
  o.group_by = string_list(ours, "group_by", p);
  o.subject = filters(ours, "subject", p);
  o.against = filters(ours, "against", p);
  o.lower_is_better = json_string_or(ours, "better", p, "lower") == "lower";
  if (json_find(ours, "better", p)) json_enum(ours, "better", p, {"lower", "higher"});
  if (json_find(ours, "as", p)) {
    const auto as =
        json_enum(ours, "as", p, {"gain_pct", "difference", "ratio", "share_pct", "remainder_pct"});
    o.as = as == "difference"      ? OursSpec::As::Difference
           : as == "ratio"         ? OursSpec::As::Ratio
           : as == "share_pct"     ? OursSpec::As::SharePct
           : as == "remainder_pct" ? OursSpec::As::RemainderPct
                                   : OursSpec::As::GainPct;
  }
  const bool share = o.as == OursSpec::As::SharePct || o.as == OursSpec::As::RemainderPct;
  if (share) {
    o.of = json_string(ours, "of", p);
    if (!o.subject.empty() || !o.group_by.empty() || !o.against.empty())
      throw InputError(
          "", join_path(p, "as"),
          "share_pct and remainder_pct divide each row's metric by its 'of' column; they take no "
          "subject, against or group_by");
    return o;
  }
  if (json_find(ours, "of", p)) throw InputError("", join_path(p, "of"), kOfNeedsShare);
  if (o.subject.empty() && (!o.group_by.empty() || !o.against.empty() || json_find(ours, "as", p)))
    throw InputError("", join_path(p, "subject"), "group_by, against and as compare a subject row: name it");
  return o;
}

HoldsSpec parse_holds(const Json& claim, const std::string& path) {
  HoldsSpec h;
  h.paper = json_optional_number(claim, "paper", path);
  const Json* holds = json_find(claim, "holds", path);
  if (holds) {
    const auto p = join_path(path, "holds");
    if (!holds->is_object()) throw InputError("", p, "expected a map with at_least and/or at_most");
    json_reject_unknown_keys(*holds, p, {"at_least", "at_most"});
    h.at_least = json_optional_number(*holds, "at_least", p);
    h.at_most = json_optional_number(*holds, "at_most", p);
    if (!h.at_least && !h.at_most) throw InputError("", p, "expected at_least and/or at_most");
  }
  if (h.paper && holds)
    throw InputError("", join_path(path, "holds"),
                     "a claim is judged by its paper number or by holds, not both");
  if (!h.paper && !holds) throw InputError("", path, "expected paper (a number) or holds (a bound)");
  if (json_find(claim, "tolerance_pct", path)) {
    if (!h.paper)
      throw InputError("", join_path(path, "tolerance_pct"), "only a paper number has a tolerance");
    h.tolerance_pct = json_number(claim, "tolerance_pct", path, 0.0, 1e6);
  }
  return h;
}

Claim parse_claim(const Json& doc, const std::string& path, const fs::path& dir) {
  if (!doc.is_object()) throw InputError("", path, "expected a map");
  json_reject_unknown_keys(doc, path,
                           {"id", "claim", "source", "cause", "scenario", "scenarios", "sweep", "ours",
                            "paper", "tolerance_pct", "holds", "per"});
  Claim c;
  c.path = path;
  c.id = json_string(doc, "id", path);
  if (!is_plain_name(c.id))
    throw InputError("", join_path(path, "id"), "expected a name of letters, digits and _-.+");
  c.claim = json_string(doc, "claim", path);
  c.source = json_string(doc, "source", path);
  c.cause = json_string_or(doc, "cause", path, "");
  const int kinds = (json_find(doc, "scenario", path) ? 1 : 0) + (json_find(doc, "scenarios", path) ? 1 : 0) +
                    (json_find(doc, "sweep", path) ? 1 : 0);
  if (kinds != 1) throw InputError("", path, "expected exactly one of scenario, scenarios or sweep");
  std::vector<std::string> files;
  if (json_find(doc, "scenarios", path)) {
    files = string_list(doc, "scenarios", path);
  } else {
    c.sweep = json_find(doc, "sweep", path) != nullptr;
    files.push_back(json_string(doc, c.sweep ? "sweep" : "scenario", path));
  }
  for (const auto& f : files) c.files.push_back((dir / f).lexically_normal().string());
  c.ours = parse_ours(doc, path, c.sweep);
  c.holds = parse_holds(doc, path);
  return c;
}

// One of per's values: a number or a text, named by itself ({:g} for a number), or `{value, name}`
// for a value that cannot name a claim (a file's path).
std::pair<Json, std::string> per_value(const Json& v, const std::string& path) {
  if (v.is_number()) return {v, fmt::format("{:g}", v.get<double>())};
  if (v.is_string()) return {v, v.get<std::string>()};
  if (!v.is_object()) throw InputError("", path, "expected a number, a text or a map with value and name");
  json_reject_unknown_keys(v, path, {"value", "name"});
  const Json& value = json_at(v, "value", path);
  if (!value.is_number() && !value.is_string())
    throw InputError("", join_path(path, "value"), "expected a number or a text");
  return {value, json_string(v, "name", path)};
}

// `per: {column, values, label}` on a sweep claim: one claim per value, its `where` also keeping the
// rows whose column equals that value; id `<id>-<value>`, statement `<label, {} = value>: <claim>`.
std::vector<Claim> expand_per(const Json& doc, const Claim& c) {
  const Json* per = json_find(doc, "per", c.path);
  if (!per) return {c};
  const auto p = join_path(c.path, "per");
  if (!c.sweep)
    throw InputError("", p, "per repeats a sweep claim over a column's values; this claim reads a scenario");
  if (!per->is_object()) throw InputError("", p, "expected a map with column, values and label");
  json_reject_unknown_keys(*per, p, {"column", "values", "label"});
  const auto column = json_string(*per, "column", p);
  const Json& values = json_at(*per, "values", p);
  const auto vp = join_path(p, "values");
  if (!values.is_array() || values.empty())
    throw InputError("", vp, "expected a non-empty list of numbers, texts or {value, name} maps");
  const auto label = json_string_or(*per, "label", p, column + " = {}");
  const auto slot = label.find("{}");
  if (slot == std::string::npos)
    throw InputError("", join_path(p, "label"), "expected a text with {} where each value goes");
  std::vector<Claim> out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto [v, text] = per_value(values[i], index_path(vp, i));
    Claim e = c;
    e.id = c.id + "-" + text;
    if (!is_plain_name(e.id))
      throw InputError("", index_path(vp, i),
                       fmt::format("makes the id '{}'; expected letters, digits and _-.+", e.id));
    e.claim = std::string(label).replace(slot, 2, text) + ": " + c.claim;
    e.ours.where.push_back({column, v});
    out.push_back(std::move(e));
  }
  return out;
}

// Whether a sweep cell passes a filter: equal number or text, inside a [low, high] range, or equal
// to one value of a list.
bool cell_passes(const Json& cell, const Json& want) {
  if (want.is_array() && want.size() == 2 && want[0].is_number() && want[1].is_number())
    return cell.is_number() && cell.get<double>() >= want[0].get<double>() &&
           cell.get<double>() <= want[1].get<double>();
  if (want.is_array()) {
    for (const Json& w : want)
      if (cell_passes(cell, w)) return true;
    return false;
  }
  if (want.is_number()) return cell.is_number() && cell.get<double>() == want.get<double>();
  return cell.is_string() && cell.get<std::string>() == want.get<std::string>();
}

bool row_passes(const Json& row, const std::vector<RowFilter>& fs) {
  for (const auto& f : fs) {
    const auto it = row.find(f.column);
    if (it == row.end() || !cell_passes(*it, f.value)) return false;
  }
  return true;
}

double reduce(const std::vector<double>& values, Reduce how) {
  if (values.empty()) return kNaN;
  switch (how) {
    case Reduce::Only:
      return values.front();
    case Reduce::Max:
      return *std::max_element(values.begin(), values.end());
    case Reduce::Min:
      return *std::min_element(values.begin(), values.end());
    case Reduce::Mean: {
      double sum = 0.0;
      for (const double v : values) sum += v;
      return sum / static_cast<double>(values.size());
    }
  }
  return kNaN;
}

std::string reduce_hint(std::size_t n) {
  return fmt::format("{} values matched; say how to reduce them (reduce: max, min or mean)", n);
}

std::vector<double> report_values(const Claim& c, const std::vector<RunResults>& runs,
                                  const std::string& file) {
  std::vector<double> out;
  std::set<std::string> names;
  for (const auto& r : runs)
    for (const auto& [label, doc] : r.runs) {
      if (label != kReportRun) continue;
      for (const Json& row : doc.at("rows")) {
        const auto name = row.at("name").get<std::string>();
        names.insert(name);
        if (!glob_match(c.ours.row, name)) continue;
        const Json& v = row.at("ours");
        out.push_back(v.is_number() ? v.get<double>() : kNaN);
      }
    }
  if (names.empty()) throw InputError(file, join_path(c.path, "scenario"), "the scenario has no report rows");
  if (out.empty())
    throw InputError(
        file, join_path(c.path, "ours.row"),
        fmt::format("no report row matches '{}'; rows: {}", c.ours.row, fmt::join(names, " | ")));
  return out;
}

double column(const Json& row, const std::string& name, const Claim& c, const std::string& file) {
  const auto it = row.find(name);
  if (it == row.end())
    throw InputError(file, join_path(c.path, "ours.metric"), fmt::format("no column '{}'", name));
  return it->is_number() ? it->get<double>() : kNaN;
}

std::vector<double> sweep_values(const Claim& c, const RunResults& r, const std::string& file) {
  std::vector<const Json*> rows;
  for (const auto& [label, doc] : r.runs)
    if (row_passes(doc, c.ours.where)) rows.push_back(&doc);
  if (!r.runs.empty())
    for (const auto& list : {c.ours.where, c.ours.subject, c.ours.against})
      for (const auto& f : list)
        if (!r.runs.front().second.contains(f.column))
          throw InputError(file, c.path + ".ours", fmt::format("the sweep has no column '{}'", f.column));
  std::vector<double> out;
  if (c.ours.subject.empty()) {
    for (const Json* row : rows) {
      const double v = column(*row, c.ours.metric, c, file);
      if (c.ours.of.empty()) {
        out.push_back(v);
        continue;
      }
      const auto of = row->find(c.ours.of);
      if (of == row->end())
        throw InputError(file, join_path(c.path, "ours.of"), fmt::format("no column '{}'", c.ours.of));
      const double whole = of->is_number() ? of->get<double>() : kNaN;
      out.push_back(share_pct(v, whole, c.ours.as == OursSpec::As::RemainderPct));
    }
    return out;
  }
  // Groups in first-seen order, keyed by the group_by cells' text.
  std::vector<std::pair<std::string, std::vector<const Json*>>> groups;
  for (const Json* row : rows) {
    std::string key;
    for (const auto& g : c.ours.group_by) {
      const auto it = row->find(g);
      if (it == row->end())
        throw InputError(file, c.path + ".ours.group_by", fmt::format("no column '{}'", g));
      key += it->dump() + "\x1f";
    }
    auto found = std::find_if(groups.begin(), groups.end(), [&](const auto& gr) { return gr.first == key; });
    if (found == groups.end()) {
      groups.emplace_back(key, std::vector<const Json*>{});
      found = std::prev(groups.end());
    }
    found->second.push_back(row);
  }
  for (const auto& [key, members] : groups) {
    const Json* subject = nullptr;
    double best = kNaN;
    for (const Json* row : members) {
      if (row_passes(*row, c.ours.subject)) {
        if (subject)
          throw InputError(file, c.path + ".ours.subject",
                           "several rows of one group match the subject; group by more columns");
        subject = row;
        continue;
      }
      if (!c.ours.against.empty() && !row_passes(*row, c.ours.against)) continue;
      const double v = column(*row, c.ours.metric, c, file);
      if (std::isnan(v)) continue;
      if (std::isnan(best) || (c.ours.lower_is_better ? v < best : v > best)) best = v;
    }
    if (!subject || std::isnan(best)) continue;
    const double s = column(*subject, c.ours.metric, c, file);
    if (c.ours.as == OursSpec::As::Difference) {
      out.push_back(c.ours.lower_is_better ? best - s : s - best);
    } else if (best != 0.0 && c.ours.as == OursSpec::As::Ratio) {
      out.push_back(s / best);
    } else if (best != 0.0) {
      out.push_back(c.ours.lower_is_better ? 100.0 * (1.0 - s / best) : 100.0 * (s / best - 1.0));
    }
  }
  return out;
}

}  // namespace

Ledger parse_ledger(const Json& doc, const std::string& file) {
  try {
    if (!doc.is_object()) throw InputError("", "", "expected a map with system and claims");
    json_reject_unknown_keys(doc, "", {"system", "claims"});
    Ledger l;
    l.file = file;
    l.system = json_string(doc, "system", "");
    const Json& claims = json_at(doc, "claims", "");
    if (!claims.is_array() || claims.empty())
      throw InputError("", "claims", "expected a non-empty list of claims");
    const fs::path dir = fs::path(file).parent_path();
    std::set<std::string> ids;
    for (std::size_t i = 0; i < claims.size(); ++i) {
      for (Claim& c : expand_per(claims[i], parse_claim(claims[i], index_path("claims", i), dir))) {
        if (!ids.insert(c.id).second)
          throw InputError("", join_path(c.path, "id"), fmt::format("'{}' is already a claim's id", c.id));
        l.claims.push_back(std::move(c));
      }
    }
    return l;
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(file) : e;
  }
}

Ledger load_ledger(const std::string& file) {
  if (fs::is_directory(file)) throw InputError(file, "", "is a directory, expected a claims YAML file");
  return parse_ledger(read_yaml_file(file), file);
}

ClaimResult evaluate_claim(const Claim& claim, const std::vector<RunResults>& runs, const std::string& file) {
  std::vector<double> values;
  if (claim.sweep) {
    values = sweep_values(claim, runs.at(0), file);
  } else {
    values = report_values(claim, runs, file);
  }
  if (claim.ours.reduce == Reduce::Only && values.size() > 1)
    throw InputError(file, join_path(claim.path, "ours"), reduce_hint(values.size()));
  ClaimResult r;
  r.count = static_cast<int>(values.size());
  r.ours = reduce(values, claim.ours.reduce);
  if (std::isnan(r.ours)) return r;
  const HoldsSpec& h = claim.holds;
  if (h.paper) {
    r.held = std::abs(r.ours - *h.paper) <= h.tolerance_pct / 100.0 * std::abs(*h.paper);
  } else {
    r.held = (!h.at_least || r.ours >= *h.at_least) && (!h.at_most || r.ours <= *h.at_most);
  }
  return r;
}

std::string paper_text(const HoldsSpec& h) {
  if (h.paper) return fmt::format("{:g} +-{:g}%", *h.paper, h.tolerance_pct);
  if (h.at_least && h.at_most) return fmt::format(">= {:g} and <= {:g}", *h.at_least, *h.at_most);
  return h.at_least ? fmt::format(">= {:g}", *h.at_least) : fmt::format("<= {:g}", *h.at_most);
}

}  // namespace coinfer::check

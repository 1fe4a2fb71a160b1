#include "sim/calibration/torch_trace.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/json_access.hpp"

namespace coinfer {
namespace {

enum class EventKind { Op, Annotation, Step };

// One complete (`ph: "X"`) event of interest.
struct TraceEvent {
  std::size_t index = 0;  // in traceEvents
  EventKind kind = EventKind::Op;
  std::string name;
  std::string thread;  // pid and tid, as JSON text
  double ts_us = 0.0, dur_us = 0.0;
  double end_us() const { return ts_us + dur_us; }
};

std::string event_path(std::size_t index) { return index_path("traceEvents", index); }

const Json& trace_events(const Json& root, const std::string& file) {
  if (root.is_array()) return root;
  if (root.is_object()) {
    const auto it = root.find("traceEvents");
    if (it != root.end() && it->is_array()) return *it;
  }
  throw InputError(file, "",
                   "not a Chrome trace: expected an object with a 'traceEvents' array "
                   "(or an array of events), as torch.profiler's export_chrome_trace writes");
}

// "ProfilerStep#" followed by one or more digits.
bool is_step_name(const std::string& name) {
  constexpr std::string_view kPrefix = "ProfilerStep#";
  if (!name.starts_with(kPrefix) || name.size() == kPrefix.size()) return false;
  return std::all_of(name.begin() + kPrefix.size(), name.end(),
                     [](char ch) { return ch >= '0' && ch <= '9'; });
}

// The kind of an event, or nothing for events that are neither operators nor annotations
// (kernels, memcpys, python_function, ...).
std::optional<EventKind> event_kind(const Json& e, const std::string& name) {
  if (is_step_name(name)) return EventKind::Step;
  const auto cat = e.find("cat");
  if (cat == e.end()) return name.find("::") == std::string::npos ? EventKind::Annotation : EventKind::Op;
  if (!cat->is_string()) return std::nullopt;
  if (*cat == "cpu_op") return EventKind::Op;
  if (*cat == "user_annotation") return EventKind::Annotation;
  return std::nullopt;
}

std::vector<TraceEvent> complete_events(const Json& events) {
  std::vector<TraceEvent> out;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Json& e = events[i];
    if (!e.is_object() || e.value("ph", Json()) != "X") continue;
    const std::string path = event_path(i);
    const std::string name = json_string(e, "name", path);
    const std::optional<EventKind> kind = event_kind(e, name);
    if (!kind) continue;
    const std::string thread = e.value("pid", Json()).dump() + "/" + e.value("tid", Json()).dump();
    out.push_back({i, *kind, name, thread, json_number(e, "ts", path), json_number(e, "dur", path, 0.0)});
  }
  // Start order; at one start the longer (enclosing) event first, then the file's order.
  std::stable_sort(out.begin(), out.end(), [](const TraceEvent& a, const TraceEvent& b) {
    return a.ts_us != b.ts_us ? a.ts_us < b.ts_us : a.dur_us > b.dur_us;
  });
  return out;
}

// The operators not inside another operator of their thread (`events` in start order).
std::vector<const TraceEvent*> top_level_ops(const std::vector<TraceEvent>& events) {
  std::vector<const TraceEvent*> top;
  std::map<std::string, double> open_until_us;  // thread -> end of its open top-level operator
  for (const TraceEvent& e : events) {
    if (e.kind != EventKind::Op) continue;
    auto [it, fresh] = open_until_us.try_emplace(e.thread, e.end_us());
    if (!fresh && e.ts_us < it->second) continue;  // starts inside the open one: nested
    it->second = e.end_us();
    top.push_back(&e);
  }
  return top;
}

// A row before averaging over steps: its event and the op type.
struct Candidate {
  const TraceEvent* event = nullptr;
  std::string op_type;
};

std::vector<Candidate> candidates(const std::vector<TraceEvent>& events) {
  const std::vector<const TraceEvent*> ops = top_level_ops(events);
  std::vector<Candidate> rows;
  for (const TraceEvent& e : events)
    if (e.kind == EventKind::Annotation) rows.push_back({&e, ""});
  if (rows.empty()) {
    for (const TraceEvent* op : ops) rows.push_back({op, op->name});
    return rows;
  }
  for (Candidate& row : rows) {  // the longest top-level operator inside the annotation
    const TraceEvent& a = *row.event;
    double longest_us = -1.0;
    for (const TraceEvent* op : ops)
      if (op->thread == a.thread && op->ts_us >= a.ts_us && op->ts_us < a.end_us() &&
          op->dur_us > longest_us) {
        longest_us = op->dur_us;
        row.op_type = op->name;
      }
  }
  return rows;
}

ProfileRow checked_row(const Candidate& c, double mean_us, const std::string& file) {
  const double ms = mean_us / 1000.0;
  if (!std::isfinite(ms) || ms <= 0.0)
    throw InputError(file, event_path(c.event->index),
                     fmt::format("'{}' lasts {} us: expected a duration > 0", c.event->name, mean_us));
  return {c.event->name, c.op_type, ms, static_cast<int>(c.event->index + 1)};
}

std::string row_names(const std::vector<const Candidate*>& rows) {
  std::string names;
  for (const Candidate* c : rows) names += (names.empty() ? "" : ", ") + c->event->name;
  return names;
}

// Per step (in start order) the rows that start inside it; every step must list the same names.
std::vector<ProfileRow> mean_over_steps(const std::vector<TraceEvent>& events,
                                        const std::vector<Candidate>& rows, const std::string& file) {
  std::vector<std::vector<const Candidate*>> per_step;
  std::vector<const TraceEvent*> steps;
  for (const TraceEvent& s : events) {
    if (s.kind != EventKind::Step) continue;
    steps.push_back(&s);
    per_step.emplace_back();
    for (const Candidate& c : rows)
      if (c.event->ts_us >= s.ts_us && c.event->ts_us < s.end_us()) per_step.back().push_back(&c);
  }
  const auto& first = per_step.front();
  for (std::size_t k = 1; k < per_step.size(); ++k) {
    const bool same =
        std::equal(first.begin(), first.end(), per_step[k].begin(), per_step[k].end(),
                   [](const Candidate* a, const Candidate* b) { return a->event->name == b->event->name; });
    if (!same)
      throw InputError(
          file, event_path(steps[k]->index),
          fmt::format("{} holds [{}] but {} holds [{}]: expected every step to run the same layers",
                      steps[k]->name, row_names(per_step[k]), steps[0]->name, row_names(first)));
  }
  if (first.empty())
    throw InputError(file, event_path(steps[0]->index), fmt::format("{} holds no rows", steps[0]->name));
  std::vector<ProfileRow> out;
  for (std::size_t r = 0; r < first.size(); ++r) {
    double sum_us = 0.0;
    for (const auto& step : per_step) sum_us += step[r]->event->dur_us;
    out.push_back(checked_row(*first[r], sum_us / static_cast<double>(per_step.size()), file));
  }
  return out;
}

}  // namespace

std::vector<ProfileRow> torch_trace_rows(const std::string& text, const std::string& file) {
  const Json root = parse_json_text(text, file);
  std::vector<TraceEvent> events;
  try {
    events = complete_events(trace_events(root, file));
  } catch (const InputError& e) {
    throw e.file().empty() ? e.with_file(file) : e;
  }
  const std::vector<Candidate> rows = candidates(events);
  if (rows.empty())
    throw InputError(file, "traceEvents",
                     "no rows: expected complete ('X') user_annotation or cpu_op events (record_function "
                     "ranges or aten ops)");
  const bool stepped = std::any_of(events.begin(), events.end(),
                                   [](const TraceEvent& e) { return e.kind == EventKind::Step; });
  if (stepped) return mean_over_steps(events, rows, file);
  std::vector<ProfileRow> out;
  for (const Candidate& c : rows) out.push_back(checked_row(c, c.event->dur_us, file));
  return out;
}

}  // namespace coinfer

#include "sim/trace/chrome_trace_writer.hpp"

#include <iterator>

#include <fmt/compile.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

constexpr std::size_t kFlushBytes = 1 << 20;

// Appends `text` as the inside of a JSON string. Task ids and labels are plain ASCII almost always:
// the scan finds nothing to escape and the text is copied as it is.
void append_escaped(fmt::memory_buffer& out, std::string_view text) {
  std::size_t plain = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(text.data() + plain, text.data() + i);
    plain = i + 1;
    switch (c) {
      case '"':
        out.append(std::string_view("\\\""));
        break;
      case '\\':
        out.append(std::string_view("\\\\"));
        break;
      case '\n':
        out.append(std::string_view("\\n"));
        break;
      case '\t':
        out.append(std::string_view("\\t"));
        break;
      default:
        fmt::format_to(fmt::appender(out), "\\u{:04x}", c);
    }
  }
  out.append(text.data() + plain, text.data() + text.size());
}

std::string escaped(std::string_view text) {
  fmt::memory_buffer b;
  append_escaped(b, text);
  return fmt::to_string(b);
}

void append(fmt::memory_buffer& out, std::string_view text) {
  out.append(text.data(), text.data() + text.size());
}

}  // namespace

ChromeTraceWriter::ChromeTraceWriter(std::string path) : path_(std::move(path)), file_(path_) {
  append(buffer_, "{\"traceEvents\":[");
  for (const auto& [pid, name] : {std::pair{1, "devices"}, std::pair{2, "network"}}) {
    begin_event();
    fmt::format_to(fmt::appender(buffer_),
                   R"({{"name":"process_name","ph":"M","pid":{},"args":{{"name":"{}"}}}})", pid, name);
  }
}

void ChromeTraceWriter::begin_event() {
  append(buffer_, events_ == 0 ? "\n" : ",\n");
  ++events_;
}

void ChromeTraceWriter::flush() {
  file_.append(std::string_view(buffer_.data(), buffer_.size()));
  buffer_.clear();
}

void ChromeTraceWriter::add_track(std::size_t id, TraceGroup group, std::string_view name) {
  if (id != track_keys_.size()) throw Error(fmt::format("trace track {} declared out of order", id));
  const int pid = static_cast<int>(group);
  track_keys_.push_back(fmt::format(R"("ph":"X","pid":{},"tid":{},"ts":)", pid, id));
  begin_event();
  fmt::format_to(fmt::appender(buffer_),
                 R"({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":")", pid, id);
  append_escaped(buffer_, name);
  append(buffer_, "\"}}");
  begin_event();
  fmt::format_to(fmt::appender(buffer_),
                 R"({{"name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
                 pid, id, id);
}

void ChromeTraceWriter::add_counter(std::size_t id, TraceGroup group, std::string_view name,
                                    std::string_view series) {
  if (id != counter_head_.size()) throw Error(fmt::format("trace counter {} declared out of order", id));
  counter_head_.push_back(
      fmt::format(R"({{"name":"{}","ph":"C","pid":{},"ts":)", escaped(name), static_cast<int>(group)));
  counter_tail_.push_back(fmt::format(R"(,"args":{{"{}":)", escaped(series)));
}

void ChromeTraceWriter::slice(const TraceSlice& s) {
  begin_event();
  append(buffer_, "{\"name\":\"");
  append_escaped(buffer_, s.name);
  append(buffer_, "\",\"cat\":\"");
  append_escaped(buffer_, s.category);
  append(buffer_, "\",");
  append(buffer_, track_keys_.at(s.track));
  fmt::format_to(fmt::appender(buffer_), FMT_COMPILE(R"({},"dur":{},"args":{{"frame":{})"), s.start_s * 1e6,
                 (s.end_s - s.start_s) * 1e6, s.frame);
  if (!s.label.empty()) {
    append(buffer_, ",\"label\":\"");
    append_escaped(buffer_, s.label);
    append(buffer_, "\"");
  }
  append(buffer_, "}}");
  if (buffer_.size() >= kFlushBytes) flush();
}

void ChromeTraceWriter::sample(std::size_t id, double time_s, double value) {
  begin_event();
  append(buffer_, counter_head_.at(id));
  fmt::format_to(fmt::appender(buffer_), FMT_COMPILE("{}"), time_s * 1e6);
  append(buffer_, counter_tail_[id]);
  fmt::format_to(fmt::appender(buffer_), FMT_COMPILE("{}}}}}"), value);
  if (buffer_.size() >= kFlushBytes) flush();
}

void ChromeTraceWriter::finish() {
  if (finished_) throw Error("the trace was already finished");
  append(buffer_, "\n],\"displayTimeUnit\":\"ms\"}\n");
  flush();
  finished_ = true;
  if (!path_.empty()) file_.publish(path_);
}

void ChromeTraceWriter::publish(const std::string& path) {
  if (!finished_) throw Error("cannot publish an unfinished trace to " + path);
  file_.publish(path);
}

}  // namespace coinfer

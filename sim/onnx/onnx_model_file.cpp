#include "sim/onnx/onnx_model_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#undef MAP_TYPE  // <sys/mman.h>'s flag; onnx/defs/parser.h names an enumerator so
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include <fmt/format.h>
#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include "sim/core/checked_math.hpp"
#include "sim/core/error.hpp"

namespace coinfer::onnx_file {
namespace {

std::string tensor_path(const onnx::TensorProto& t) { return fmt::format("tensor '{}'", t.name()); }

[[noreturn]] void fail_tensor(const onnx::TensorProto& t, const std::string& message) {
  throw InputError("", tensor_path(t), message);
}

// The element count of `t`'s dimensions; nullopt for a negative one or a count past int64.
std::optional<std::int64_t> dims_count(const onnx::TensorProto& t) {
  std::int64_t n = 1;
  for (auto d : t.dims()) {
    if (d < 0) return std::nullopt;
    const auto next = checked_mul(n, d);
    if (!next) return std::nullopt;
    n = *next;
  }
  return n;
}

std::int64_t element_count(const onnx::TensorProto& t) {
  const auto n = dims_count(t);
  if (!n) fail_tensor(t, "expected non-negative dimensions whose product fits in 64 bits");
  return *n;
}

// The bytes of an external-data tensor: its `location` (relative to the model's folder), `offset`
// and `length` entries.
std::string external_bytes(const onnx::TensorProto& t, const std::string& model_dir) {
  std::string location;
  std::int64_t offset = 0, length = -1;
  for (const auto& e : t.external_data()) {
    if (e.key() == "location") location = e.value();
    if (e.key() != "offset" && e.key() != "length") continue;
    const auto v = parse_int64(e.value());
    if (!v || *v < 0)
      fail_tensor(t, fmt::format("external data {} '{}' is not a non-negative integer", e.key(), e.value()));
    (e.key() == "offset" ? offset : length) = *v;
  }
  if (location.empty()) fail_tensor(t, "external data without a 'location'");
  const auto path = std::filesystem::path(model_dir) / location;
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_tensor(t, fmt::format("its external data file '{}' cannot be opened", path.string()));
  in.seekg(0, std::ios::end);
  const std::int64_t size = in.tellg();
  if (offset > size)
    fail_tensor(t, fmt::format("external data offset {} lies past the end of '{}' ({} bytes)", offset,
                               path.string(), size));
  if (length < 0) length = size - offset;
  if (length > size - offset)
    fail_tensor(t, fmt::format("external data of {} bytes at offset {} runs past the end of '{}' ({} bytes)",
                               length, offset, path.string(), size));
  std::string bytes(static_cast<std::size_t>(length), '\0');
  in.seekg(offset);
  in.read(bytes.data(), length);
  return bytes;
}

InputError unparsable(const std::string& file) {
  return InputError(file, "",
                    "not an ONNX model: the protobuf does not parse as a ModelProto (a truncated file, or "
                    "another format)");
}

bool is_external(const onnx::TensorProto& t) {
  return t.data_location() == onnx::TensorProto_DataLocation_EXTERNAL;
}

template <typename T>
std::vector<T> from_bytes(const onnx::TensorProto& t, const std::string& bytes, std::int64_t n) {
  if (static_cast<std::int64_t>(bytes.size()) != n * static_cast<std::int64_t>(sizeof(T)))
    fail_tensor(t, fmt::format("holds {} bytes, its {} elements need {}", bytes.size(), n, n * sizeof(T)));
  std::vector<T> v(static_cast<std::size_t>(n));
  if (n > 0) std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

}  // namespace

std::int64_t max_opset() {
  return onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map().at(onnx::ONNX_DOMAIN).second;
}

std::int64_t default_opset(const onnx::ModelProto& model) {
  for (const auto& o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
  return 0;
}

namespace {

// ONNX's shape inference divides by these without checking them (a zero stride is SIGFPE inside
// libonnx), so they are checked first, on every node: strides, dilations, kernel sizes and group
// counts positive, pads non-negative.
void check_divisor_attributes(const onnx::ModelProto& model, const std::string& file) {
  const auto& nodes = model.graph().node();
  for (int i = 0; i < nodes.size(); ++i) {
    for (const auto& a : nodes[i].attribute()) {
      const bool positive = a.name() == "strides" || a.name() == "dilations" || a.name() == "kernel_shape" ||
                            a.name() == "group";
      if (!positive && a.name() != "pads") continue;
      std::vector<std::int64_t> values(a.ints().begin(), a.ints().end());
      if (a.type() == onnx::AttributeProto_AttributeType_INT) values.push_back(a.i());
      for (auto v : values)
        if (positive ? v < 1 : v < 0)
          throw InputError(
              file, index_path("graph.node", static_cast<std::size_t>(i)),
              fmt::format("node '{}' ({}): {} must be {}, got [{}]", nodes[i].name(), nodes[i].op_type(),
                          a.name(), positive ? "positive" : "non-negative", fmt::join(values, ", ")));
    }
  }
}

// Bytes per element of a tensor type with fixed-size elements; 0 for strings and unknown types.
std::int64_t element_bytes(int type) {
  using T = onnx::TensorProto;
  switch (type) {
    case T::UINT8:
    case T::INT8:
    case T::BOOL:
      return 1;
    case T::UINT16:
    case T::INT16:
    case T::FLOAT16:
    case T::BFLOAT16:
      return 2;
    case T::FLOAT:
    case T::INT32:
    case T::UINT32:
      return 4;
    case T::INT64:
    case T::UINT64:
    case T::DOUBLE:
    case T::COMPLEX64:
      return 8;
    case T::COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

// Elements the typed field of `t` holds for its type (ONNX's layout: small integer types in
// int32_data, complex numbers as two values).
std::int64_t typed_count(const onnx::TensorProto& t) {
  using T = onnx::TensorProto;
  switch (t.data_type()) {
    case T::FLOAT:
      return t.float_data_size();
    case T::COMPLEX64:
      return t.float_data_size() / 2;
    case T::DOUBLE:
      return t.double_data_size();
    case T::COMPLEX128:
      return t.double_data_size() / 2;
    case T::INT64:
      return t.int64_data_size();
    case T::UINT32:
    case T::UINT64:
      return t.uint64_data_size();
    case T::STRING:
      return t.string_data_size();
    default:
      return t.int32_data_size();
  }
}

// ONNX's checker and shape inference read a tensor's data trusting its dimensions (libonnx 1.12
// overruns a raw_data shorter than they say): every inline tensor, initializer or Constant value, must
// hold exactly as many values as its dimensions.
void check_tensor_sizes(const onnx::ModelProto& model, const std::string& file) {
  const auto check = [&](const onnx::TensorProto& t, const std::string& path) {
    if (t.data_location() == onnx::TensorProto_DataLocation_EXTERNAL) return;
    const auto count = dims_count(t);
    if (!count) throw InputError(file, path, fmt::format("tensor '{}': dimensions out of range", t.name()));
    const std::int64_t n = *count;
    const std::int64_t size = element_bytes(t.data_type());
    const bool raw = t.has_raw_data();
    const bool ok =
        raw ? size > 0 && n <= INT64_MAX / size && static_cast<std::int64_t>(t.raw_data().size()) == n * size
            : typed_count(t) == n;
    if (!ok)
      throw InputError(
          file, path,
          fmt::format("tensor '{}': its data does not hold the {} elements its dimensions say", t.name(), n));
  };
  const auto& g = model.graph();
  for (int i = 0; i < g.initializer_size(); ++i)
    check(g.initializer(i), index_path("graph.initializer", static_cast<std::size_t>(i)));
  if (g.sparse_initializer_size() > 0)
    throw InputError(file, "graph.sparse_initializer", "sparse initializers are not supported");
  for (int i = 0; i < g.node_size(); ++i)
    for (const auto& a : g.node(i).attribute()) {
      const auto path = index_path("graph.node", static_cast<std::size_t>(i));
      if (a.has_t()) check(a.t(), path);
      for (const auto& t : a.tensors()) check(t, path);
      if (a.has_g() || a.graphs_size() > 0)
        throw InputError(file, path,
                         fmt::format("node '{}' ({}) holds a subgraph (control flow); coinfer imports "
                                     "straight-line graphs only",
                                     g.node(i).name(), g.node(i).op_type()));
    }
}

// Checks a parsed model: an ONNX model of a supported opset that onnx::checker accepts; then runs
// ONNX shape inference so `graph.value_info` holds the shapes ONNX derives.
void validate(onnx::ModelProto& model, const std::string& file, const std::string& model_dir) {
  if (model.ir_version() <= 0 || !model.has_graph() || model.graph().node_size() == 0)
    throw InputError(file, "",
                     "not an ONNX model: no ir_version or no graph nodes (another protobuf message?)");
  const std::int64_t opset = default_opset(model);
  if (opset == 0) throw InputError(file, "opset_import", "imports no opset of the default ONNX domain");
  if (opset > max_opset())
    throw InputError(file, "opset_import",
                     fmt::format("opset {} is newer than this build's ONNX library supports ({} to {}); "
                                 "export with opset_version={}",
                                 opset, kMinOpset, max_opset(), max_opset()));
  if (opset < kMinOpset)
    throw InputError(file, "opset_import",
                     fmt::format("opset {} is older than coinfer reads ({} to {}); export with "
                                 "opset_version=13",
                                 opset, kMinOpset, max_opset()));
  for (const auto& o : model.opset_import())
    if (!(o.domain().empty() || o.domain() == "ai.onnx"))
      for (const auto& n : model.graph().node())
        if (n.domain() == o.domain())
          throw InputError(file, "opset_import",
                           fmt::format("node '{}' uses domain '{}'; coinfer reads the default ONNX domain "
                                       "only",
                                       n.name(), o.domain()));
  try {
    // check_model(ModelProto) would look for external data relative to the working folder: the
    // same checks, with the model's own folder.
    if (model.ir_version() > onnx::Version::IR_VERSION)
      throw InputError(file, "ir_version",
                       fmt::format("IR version {} is newer than this build's ONNX library reads ({})",
                                   model.ir_version(), static_cast<int>(onnx::Version::IR_VERSION)));
    onnx::checker::CheckerContext ctx;
    ctx.set_ir_version(static_cast<int>(model.ir_version()));
    std::unordered_map<std::string, int> imports;
    for (const auto& o : model.opset_import()) imports[o.domain()] = static_cast<int>(o.version());
    ctx.set_opset_imports(imports);
    ctx.set_model_dir(model_dir);
    onnx::checker::LexicalScopeContext scope;
    onnx::checker::check_graph(model.graph(), ctx, scope);
  } catch (const std::exception& e) {
    throw InputError(file, "", fmt::format("the ONNX checker rejects the model: {}", e.what()));
  }
  check_divisor_attributes(model, file);
  check_tensor_sizes(model, file);
  try {
    onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(),
                                       onnx::ShapeInferenceOptions(true, 1, false));
  } catch (const std::exception& e) {
    throw InputError(file, "", fmt::format("ONNX shape inference fails: {}", e.what()));
  }
}

}  // namespace

onnx::ModelProto parse_file(const std::string& file) {
  // Mapped, not read: protobuf then allocates each tensor's bytes once at their size, so the heap
  // holds the model once (a stream would grow each large string by doubling).
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd >= 0) ::close(fd);
    throw InputError(file, "", "cannot open the ONNX model file");
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size > static_cast<std::size_t>(INT_MAX)) {
    ::close(fd);
    throw InputError(
        file, "",
        fmt::format("{} bytes is more than protobuf reads (2 GiB); export the weights as external "
                    "data (torch does past 2 GiB)",
                    size));
  }
  onnx::ModelProto model;
  void* data = size ? ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0) : nullptr;
  ::close(fd);
  if (size && data == MAP_FAILED) throw InputError(file, "", "cannot map the ONNX model file into memory");
  const bool parsed = model.ParseFromArray(data, static_cast<int>(size));
  if (data) ::munmap(data, size);
  if (!parsed) throw unparsable(file);
  return model;
}

onnx::ModelProto read_model(const std::string& file) {
  onnx::ModelProto model = parse_file(file);
  validate(model, file, std::filesystem::path(file).parent_path().string());
  return model;
}

onnx::ModelProto parse_model(const std::string& bytes, const std::string& name) {
  onnx::ModelProto model;
  if (bytes.size() > static_cast<std::size_t>(INT_MAX) || !model.ParseFromString(bytes))
    throw unparsable(name);
  for (const auto& t : model.graph().initializer())
    if (is_external(t))
      throw InputError(name, fmt::format("tensor '{}'", t.name()),
                       "external data cannot be read for a model held in memory; import the file");
  validate(model, name, "");
  return model;
}

Shape dims_of(const onnx::TensorProto& t) { return Shape(t.dims().begin(), t.dims().end()); }

std::vector<std::int64_t> int_values(const onnx::TensorProto& t, const std::string& model_dir) {
  const std::int64_t n = element_count(t);
  const bool external = is_external(t);
  switch (t.data_type()) {
    case onnx::TensorProto_DataType_INT64:
      if (external || t.has_raw_data())
        return from_bytes<std::int64_t>(t, external ? external_bytes(t, model_dir) : t.raw_data(), n);
      if (t.int64_data_size() != n) fail_tensor(t, "int64_data does not match the dimensions");
      return {t.int64_data().begin(), t.int64_data().end()};
    case onnx::TensorProto_DataType_INT32: {
      if (external || t.has_raw_data()) {
        auto v = from_bytes<std::int32_t>(t, external ? external_bytes(t, model_dir) : t.raw_data(), n);
        return {v.begin(), v.end()};
      }
      if (t.int32_data_size() != n) fail_tensor(t, "int32_data does not match the dimensions");
      return {t.int32_data().begin(), t.int32_data().end()};
    }
    default:
      fail_tensor(t, "expected an int64 or int32 tensor");
  }
}

std::vector<float> float_values(const onnx::TensorProto& t, const std::string& model_dir) {
  if (t.data_type() != onnx::TensorProto_DataType_FLOAT) fail_tensor(t, "expected a float32 tensor");
  const std::int64_t n = element_count(t);
  if (is_external(t)) return from_bytes<float>(t, external_bytes(t, model_dir), n);
  if (t.has_raw_data()) return from_bytes<float>(t, t.raw_data(), n);
  if (t.float_data_size() != n) fail_tensor(t, "float_data does not match the dimensions");
  return {t.float_data().begin(), t.float_data().end()};
}

StoredArray take_floats(onnx::TensorProto& t, const std::string& model_dir) {
  StoredArray a{dims_of(t), {}};
  if (t.data_type() != onnx::TensorProto_DataType_FLOAT) fail_tensor(t, "expected a float32 tensor");
  const std::int64_t n = element_count(t);
  if (t.has_raw_data() && !is_external(t)) {
    a.bytes.swap(*t.mutable_raw_data());
    t.clear_raw_data();
    if (static_cast<std::int64_t>(a.bytes.size()) != n * 4)
      fail_tensor(t, fmt::format("holds {} bytes, its {} elements need {}", a.bytes.size(), n, n * 4));
    return a;
  }
  const std::vector<float> v = float_values(t, model_dir);
  a.bytes.assign(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
  return a;
}

}  // namespace coinfer::onnx_file

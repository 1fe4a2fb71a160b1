/// `coinfer solve NAME problem.json` for every registered solver (cli/builtin_registries.cpp):
/// the first byte picks the solver (its index in the registry's sorted names, modulo their
/// number), the rest is the problem JSON. The parser must refuse what it cannot solve with an
/// `InputError`, and the solver must answer the rest (within -timeout) with JSON that dumps.
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "fuzz/registries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  static const std::vector<std::string> names = fuzz::solvers().names();
  if (size == 0) return 0;
  const std::string& name = names[data[0] % names.size()];
  fuzz::accept_or_reject([&] {
    const Json problem = parse_json_text(fuzz::as_text(data + 1, size - 1), "fuzz-problem.json");
    const auto solver = fuzz::solvers().create(name, Json::object(), "", "solve");
    (void)solver->solve(problem).dump();
  });
  return 0;
}

#include "sim/scenario/scenario_doc.hpp"

namespace coinfer {

void expand_scenario_shorthands(Json& doc) {
  if (!doc.is_object()) return;
  for (const char* key : {"partitioner", "scheduler"})
    if (doc.contains(key) && doc[key].is_string()) doc[key] = Json{{"name", doc[key]}};
}

}  // namespace coinfer

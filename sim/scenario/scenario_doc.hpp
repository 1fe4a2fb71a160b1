#pragma once
/// Shorthands of a scenario document spelt out, so that key paths reach into them:
/// `partitioner: local` becomes `partitioner: {name: local}` (likewise `scheduler`), and
/// `--set partitioner.workers=4` or a sweep axis on `partitioner.name` then work on either form.
#include "sim/core/json_access.hpp"

namespace coinfer {

/// Rewrites the shorthands of `doc` in place (a non-object document is left alone).
void expand_scenario_shorthands(Json& doc);

}  // namespace coinfer

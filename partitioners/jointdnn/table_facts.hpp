#pragma once
/// The facts of a `jointdnn` lookup-table variant (table.hpp writes them; the `jointdnn-table`
/// scheduler reads them): the rates the variant was solved for, its analytic cost, its grid cell
/// and the platform indices of the mobile, the cloud and the network, so that the scheduler finds
/// the links the plan uses ([JointDNN §2.4.2]).
///
///     TableFacts f;
///     f.uplink_bps = 5.85e6;  f.downlink_bps = 12.4e6;  f.cell = TableFacts::Cell{0, 2};  ...
///     plan.facts = std::make_shared<const TableFacts>(f);
///
/// results.json prints them as `uplink_bps`, `downlink_bps`, `latency_s`, `energy_j`, `table_up`,
/// `table_down` (-1 for variant 0, the nominal plan), `mobile`, `cloud`, `network`.
#include <cstddef>
#include <optional>

#include "sim/plan/plan.hpp"

namespace coinfer::jointdnn {

struct TableFacts final : VariantFacts {
  static constexpr std::string_view kFamily = "jointdnn-table";
  struct Cell {
    std::size_t up = 0;    ///< index into the grid's uplink rates
    std::size_t down = 0;  ///< index into the grid's downlink rates
  };
  double uplink_bps = 0.0;  ///< the rates it was solved for
  double downlink_bps = 0.0;
  double latency_s = 0.0;  ///< its analytic cost, radio wake-up included
  double energy_j = 0.0;
  std::optional<Cell> cell;  ///< nullopt: variant 0, solved at the nominal rates
  std::size_t mobile = 0;    ///< platform device index
  std::size_t cloud = 0;     ///< platform device index
  std::size_t network = 0;   ///< platform network index

  std::string_view family() const override { return kFamily; }

  Json to_json() const override {
    const auto index = [](std::size_t i) { return static_cast<double>(i); };
    return {{"uplink_bps", uplink_bps},
            {"downlink_bps", downlink_bps},
            {"latency_s", latency_s},
            {"energy_j", energy_j},
            {"table_up", cell ? index(cell->up) : -1.0},
            {"table_down", cell ? index(cell->down) : -1.0},
            {"mobile", index(mobile)},
            {"cloud", index(cloud)},
            {"network", index(network)}};
  }
};

}  // namespace coinfer::jointdnn

#pragma once
/// A metric read as a part of a whole, as claims ledgers (`ours: {as: share_pct, of: COLUMN}`) and
/// reference reports (`{as: share_pct, of: METRIC}`) both read it.
///
///     share_pct(30, 120, false);   // 25: 30 is 25% of 120
///     share_pct(30, 120, true);    // 75: the rest
#include <cmath>

namespace coinfer {

/// 100 part / whole (`share_pct`), or 100 minus that (`remainder_pct` when `remainder`); NaN when the
/// whole is 0 or NaN.
inline double share_pct(double part, double whole, bool remainder) {
  if (whole == 0.0 || std::isnan(whole)) return std::nan("");
  const double share = 100.0 * part / whole;
  return remainder ? 100.0 - share : share;
}

/// The error for an `of` key given without `as: share_pct | remainder_pct`.
inline constexpr const char* kOfNeedsShare = "'of' is read only with 'as: share_pct' or 'as: remainder_pct'";

}  // namespace coinfer

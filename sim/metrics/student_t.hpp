#pragma once
/// Student's t distribution, for confidence intervals over a handful of seeds.
///
///     student_t_quantile(0.975, 3)   // 3.18245: a 95% interval's half-width is this x sd / sqrt(4)
namespace coinfer {

/// P(T <= t) for T ~ Student's t with `df` > 0 degrees of freedom.
double student_t_cdf(double t, double df);

/// The t with P(T <= t) = p, for 0 < p < 1 and df > 0 (to about 1e-12 relative).
double student_t_quantile(double p, double df);

}  // namespace coinfer

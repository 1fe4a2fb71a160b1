// lstm_backward (backpropagation through time): finite differences of L = sum r * lstm(x) (see
// gradient_check.hpp) for the input and every cell's W_ih, W_hh and bias, on T = 3 steps of F = 4
// features with H = 5 hidden units. The LSTM is smooth, so the central difference's truncation error
// (eps^2 / 6 * f''' with gates of slope <= 1) stays near 1e-5, well inside the tolerance.
#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "sim/core/error.hpp"
#include "sim/kernels/lstm.hpp"

using namespace coinfer;
using namespace coinfer::kernels;

namespace {

struct Form {
  std::int64_t layers;
  bool bidirectional, return_sequences, bias;
};

struct Case {
  Form form;
  Tensor x, r;
  std::vector<LstmCellWeights> cells;
  Tensor run(const Tensor& x_, const std::vector<LstmCellWeights>& cells_) const {
    return lstm(x_, cells_, form.layers, form.bidirectional, form.return_sequences);
  }
};

Case lstm_case(const Form& form, std::uint64_t seed) {
  constexpr std::int64_t kSteps = 3, kFeatures = 4, kHidden = 5;
  Case c{form, random_normal({kSteps, kFeatures}, seed), Tensor(), {}};
  const std::int64_t dirs = form.bidirectional ? 2 : 1;
  for (std::int64_t l = 0; l < form.layers; ++l)
    for (std::int64_t d = 0; d < dirs; ++d) {
      const std::int64_t in = l == 0 ? kFeatures : dirs * kHidden;
      const auto s = derive_seed(seed, std::to_string(l * dirs + d));
      c.cells.push_back(
          {random_normal({4 * kHidden, in}, derive_seed(s, "ih"), 0.0f, 0.5f),
           random_normal({4 * kHidden, kHidden}, derive_seed(s, "hh"), 0.0f, 0.5f),
           form.bias ? random_normal({4 * kHidden}, derive_seed(s, "b"), 0.0f, 0.5f) : Tensor()});
    }
  c.r = random_normal(c.run(c.x, c.cells).shape, derive_seed(seed, "r"));
  return c;
}

// Uni- and bidirectional, one and two layers, whole sequence and last step only, with and without bias.
Form form_of(int which) {
  const Form forms[] = {
      {1, false, true, true}, {1, true, true, true}, {2, true, false, true}, {2, false, false, false}};
  return forms[which];
}

void check_all_gradients(const Case& c) {
  const LstmGradients g =
      lstm_backward(c.x, c.cells, c.form.layers, c.form.bidirectional, c.form.return_sequences, c.r);
  REQUIRE(g.cells.size() == c.cells.size());
  INFO("input");
  test::check_gradient(
      g.input, [&](const Tensor& x) { return test::projection(c.run(x, c.cells), c.r); }, c.x);
  for (std::size_t k = 0; k < c.cells.size(); ++k) {
    for (auto part : {&LstmCellWeights::w_ih, &LstmCellWeights::w_hh, &LstmCellWeights::bias}) {
      INFO("cell " << k
                   << (part == &LstmCellWeights::w_ih   ? " W_ih"
                       : part == &LstmCellWeights::w_hh ? " W_hh"
                                                        : " bias"));
      if ((c.cells[k].*part).empty()) {
        CHECK((g.cells[k].*part).empty());
        continue;
      }
      auto loss = [&](const Tensor& v) {
        std::vector<LstmCellWeights> cells = c.cells;
        cells[k].*part = v;
        return test::projection(c.run(c.x, cells), c.r);
      };
      test::check_gradient(g.cells[k].*part, loss, c.cells[k].*part);
    }
  }
}

}  // namespace

TEST_CASE("lstm_backward matches finite differences for the input and every cell's weights",
          "[kernels][lstm][backward]") {
  const int which = GENERATE(0, 1, 2, 3);
  INFO("form " << which);
  check_all_gradients(lstm_case(form_of(which), 1500 + static_cast<std::uint64_t>(which)));
}

TEST_CASE("lstm_backward of the last step only equals the sequence gradient with zeros elsewhere",
          "[kernels][lstm][backward]") {
  // The last step of a bidirectional layer is h_{T-1} of the forward direction and h_0 of the
  // backward one: the same gradient arrives as a (T, 2H) dL/dy that is zero at every other step.
  Case last = lstm_case({1, true, false, true}, 1600);
  const std::int64_t h = 5, t_n = 3;
  Tensor dy_seq({t_n, 2 * h});
  for (std::int64_t k = 0; k < h; ++k) {
    dy_seq.data[static_cast<std::size_t>((t_n - 1) * 2 * h + k)] = last.r.data[static_cast<std::size_t>(k)];
    dy_seq.data[static_cast<std::size_t>(h + k)] = last.r.data[static_cast<std::size_t>(h + k)];
  }
  const LstmGradients a = lstm_backward(last.x, last.cells, 1, true, false, last.r);
  const LstmGradients b = lstm_backward(last.x, last.cells, 1, true, true, dy_seq);
  CHECK(test::max_rel_error(a.input, b.input) < 1e-6);
  CHECK(test::max_rel_error(a.cells[1].w_hh, b.cells[1].w_hh) < 1e-6);
}

TEST_CASE("lstm_backward rejects a grad_output that is not the output's shape", "[kernels][lstm][backward]") {
  const Case c = lstm_case(form_of(1), 1700);  // output (3, 10)
  CHECK_THROWS_AS(lstm_backward(c.x, c.cells, 1, true, true, Tensor({3, 5})), Error);
  CHECK_THROWS_AS(lstm_backward(c.x, c.cells, 1, true, false, Tensor({3, 10})), Error);
  CHECK_THROWS_AS(lstm_backward(c.x, c.cells, 2, true, true, c.r), Error);  // 2 cells for 2 layers x 2
}

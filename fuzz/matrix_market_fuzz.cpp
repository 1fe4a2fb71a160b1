/// Matrix Market coordinate files (partitioners/modnn/matrix_market: `matrix_file` of the mscc and
/// fgcp problems and of MoDNN's sparse weights). An accepted file's pattern, written back with
/// matrix_market_text, must read back to the same rows, columns and entries.
#include "fuzz/fuzz_support.hpp"
#include "partitioners/modnn/matrix_market.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace coinfer;
  using namespace coinfer::modnn;
  const std::string text = fuzz::as_text(data, size);
  fuzz::accept_or_reject([&] {
    // The limit the mscc / fgcp problems use (2^24 rows and columns).
    const MatrixMarketOptions options{.max_dimension = std::int64_t{1} << 24};
    const MatrixMarket m = parse_matrix_market(text, "fuzz.mtx", options);
    if (m.symmetry != MatrixMarketSymmetry::kGeneral) return;  // written back expanded, as general
    const SparsePattern pattern{m.rows, m.cols, m.entries};
    MatrixMarket again;
    try {
      again = parse_matrix_market(matrix_market_text(pattern), "fuzz-again.mtx", options);
    } catch (const Error& e) {
      std::fprintf(stderr, "fuzz: written pattern does not read back: %s\n", e.what());
      fuzz::check(false, "parse_matrix_market(matrix_market_text(p)) throws");
    }
    fuzz::check(again.rows == m.rows && again.cols == m.cols, "round trip keeps the size");
    fuzz::check(again.entries.size() == m.entries.size(), "round trip keeps the entries");
    for (std::size_t e = 0; e < m.entries.size(); ++e)
      fuzz::check(again.entries[e].row == m.entries[e].row && again.entries[e].col == m.entries[e].col,
                  "round trip keeps every entry in order");
  });
  return 0;
}

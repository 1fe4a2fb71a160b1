// Matrix Market (.mtx) input for MoDNN's sparse FC cores: round trips, every malformed file named
// by its line, symmetric expansion, and `mscc` / `fgcp` solved from a `matrix_file` giving exactly
// what the inline `entries` give.
#include "partitioners/modnn/matrix_market.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "partitioners/modnn/fgcp.hpp"
#include "partitioners/modnn/mscc.hpp"
#include "partitioners/modnn/sparse_weights.hpp"
#include "sim/core/error.hpp"
#include "tests/scratch_dir.hpp"

using namespace coinfer;
using namespace coinfer::modnn;

namespace {

/// The error `parse_matrix_market(text)` throws (fails the test when it does not throw).
InputError parse_error(const std::string& text, const MatrixMarketOptions& options = {}) {
  try {
    parse_matrix_market(text, "m.mtx", options);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError for:\n" << text);
  throw;  // not reached
}

const std::string kPattern = "%%MatrixMarket matrix coordinate pattern general\n";
const std::string kReal = "%%MatrixMarket matrix coordinate real general\n";
const std::string kInteger = "%%MatrixMarket matrix coordinate integer general\n";

}  // namespace

TEST_CASE("matrix market: a generated pattern written and read back is the same pattern", "[modnn][mtx]") {
  for (const bool shuffle : {false, true}) {
    const auto w = generate_sparse_weights(
        {.rows = 60, .cols = 45, .sparsity = 0.8, .seed = 3, .planted_blocks = 3, .shuffle = shuffle});
    auto pattern = w.pattern;
    if (shuffle) {  // file order need not be sorted: the unsorted duplicate check runs
      std::mt19937_64 rng(5);
      std::shuffle(pattern.entries.begin(), pattern.entries.end(), rng);
    }
    const auto m = parse_matrix_market(matrix_market_text(pattern, nullptr, "generated\nseed 3"), "g.mtx");
    CHECK(m.field == MatrixMarketField::kPattern);
    CHECK(m.rows == 60);
    CHECK(m.cols == 45);
    CHECK(m.entries == pattern.entries);  // in file order
    CHECK(m.values.empty());
  }
}

TEST_CASE("matrix market: weights round trip bit for bit through a real file", "[modnn][mtx]") {
  const coinfer::test::ScratchDir dir;
  const auto w = generate_sparse_weights({.rows = 40, .cols = 70, .sparsity = 0.9, .seed = 11});
  const auto file = dir.write("w.mtx", sparse_weights_mtx_text(w, "seeded Gaussian, magnitude-pruned"));
  const auto back = read_sparse_weights_mtx(file);
  CHECK(back.pattern.rows == 40);
  CHECK(back.pattern.cols == 70);
  CHECK(back.pattern.entries == w.pattern.entries);
  REQUIRE(back.values.size() == w.values.size());
  for (std::size_t e = 0; e < w.values.size(); ++e) CHECK(back.values[e] == w.values[e]);
  // A pattern file gives weights of 1.
  const auto ones = read_sparse_weights_mtx(dir.write("p.mtx", matrix_market_text(w.pattern)));
  CHECK(ones.values == std::vector<float>(w.values.size(), 1.0f));
  CHECK(read_sparse_pattern_mtx(file).entries == w.pattern.entries);
}

TEST_CASE("matrix market: comments, blank lines, CRLF, case and '+' signs are accepted", "[modnn][mtx]") {
  const std::string text =
      "%%matrixmarket MATRIX Coordinate Integer GENERAL\r\n"
      "% a comment\r\n"
      "\r\n"
      "  3 4   2\r\n"
      "1 1 +7\r\n"
      "% between entries\r\n"
      "\t3\t4\t-2\r\n";
  const auto m = parse_matrix_market(text, "m.mtx");
  CHECK(m.field == MatrixMarketField::kInteger);
  CHECK(m.entries == std::vector<NonZero>{{0, 0}, {2, 3}});
  CHECK(m.values == std::vector<double>{7, -2});
  // keep_values = false checks the values and drops them.
  CHECK(parse_matrix_market(text, "m.mtx", {.keep_values = false}).values.empty());
  // No entries at all is a valid (empty) matrix.
  CHECK(parse_matrix_market(kPattern + "2 2 0\n", "m.mtx").entries.empty());
}

TEST_CASE("matrix market: symmetric files are expanded, each mirror after its entry", "[modnn][mtx]") {
  // Lower triangle of [[1, 2, 0], [2, 0, 3], [0, 3, 4]]: (1,1)=1, (2,1)=2, (3,2)=3, (3,3)=4.
  const auto m = parse_matrix_market(
      "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 1\n2 1 2\n3 2 3\n3 3 4\n", "s.mtx");
  CHECK(m.symmetry == MatrixMarketSymmetry::kSymmetric);
  CHECK(m.entries == std::vector<NonZero>{{0, 0}, {1, 0}, {0, 1}, {2, 1}, {1, 2}, {2, 2}});
  CHECK(m.values == std::vector<double>{1, 2, 2, 3, 3, 4});
  // Skew-symmetric: the mirror's value is negated; pattern symmetric: indices only.
  const auto skew =
      parse_matrix_market("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 5\n", "k.mtx");
  CHECK(skew.entries == std::vector<NonZero>{{1, 0}, {0, 1}});
  CHECK(skew.values == std::vector<double>{5, -5});
  const auto pattern =
      parse_matrix_market("%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n1 1\n2 1\n", "p.mtx");
  CHECK(pattern.entries == std::vector<NonZero>{{0, 0}, {1, 0}, {0, 1}});
}

TEST_CASE("matrix market: every malformed file is one error naming its line", "[modnn][mtx]") {
  struct Case {
    std::string text;
    std::string line;
    std::string message;  // a substring of the message
  };
  const std::vector<Case> cases{
      {"", "line 1", "empty file"},
      {"hello\n", "line 1", "expected the Matrix Market header"},
      {"%%MatrixMarket matrix coordinate real\n", "line 1", "expected the Matrix Market header"},
      {"%%MatrixMarket matrix coordinate real general extra\n", "line 1",
       "expected the Matrix Market header"},
      {"%%MatrixMarket vector coordinate real general\n", "line 1", "object 'vector'"},
      {"%%MatrixMarket matrix array real general\n", "line 1", "format 'array' is not supported"},
      {"%%MatrixMarket matrix coordinate complex general\n", "line 1", "field 'complex' is not supported"},
      {"%%MatrixMarket matrix coordinate real hermitian\n", "line 1", "symmetry 'hermitian'"},
      {"%%MatrixMarket matrix coordinate pattern skew-symmetric\n", "line 1", "not with pattern"},
      {kPattern + "% only comments\n%\n", "line 4", "ends before the size line"},
      {kPattern + "% c\n4 4\n", "line 3", "expected the size line 'rows cols entries'"},
      {kPattern + "4 4 1 9\n", "line 2", "expected the size line"},
      {kPattern + "4 x 1\n", "line 2", "cols: expected an integer, got 'x'"},
      {kPattern + "0 4 1\n", "line 2", "rows 0 outside [1, 2147483647]"},
      {kPattern + "4 99999999999999999999 1\n", "line 2",
       "cols: integer out of range (99999999999999999999)"},
      {kPattern + "4 4 17\n", "line 2", "entries 17 outside [0, 16]"},
      {kPattern + "4 4 -1\n", "line 2", "entries -1 outside [0, 16]"},
      {"%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n", "line 2", "must be square, got 3 x 4"},
      {"%%MatrixMarket matrix coordinate real symmetric\n3 3 7\n", "line 2", "entries 7 outside [0, 6]"},
      {kPattern + "4 4 2\n1 1\n2\n", "line 4", "expected 'row col' (2 fields), got '2'"},
      {kPattern + "4 4 2\n1 1\n2 2 1.5\n", "line 4", "expected 'row col' (2 fields)"},
      {kReal + "4 4 2\n1 1 1\n2 2\n", "line 4", "expected 'row col value' (3 fields)"},
      {kPattern + "4 4 2\n1 1\n0 2\n", "line 4", "row 0 outside [1, 4]"},
      {kPattern + "4 4 2\n1 1\n% c\n5 2\n", "line 5", "row 5 outside [1, 4]"},
      {kPattern + "4 4 2\n1 1\n2 5\n", "line 4", "col 5 outside [1, 4]"},
      {kPattern + "4 4 2\n1 1\n2 -3\n", "line 4", "col -3 outside [1, 4]"},
      {kPattern + "4 4 1\n1.0 1\n", "line 3", "row: expected an integer, got '1.0'"},
      {kPattern + "4 4 1\n1 18446744073709551616\n", "line 3", "col: integer out of range"},
      {"%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1\n1 3 1\n", "line 4",
       "above the diagonal"},
      {"%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1\n", "line 3", "on the diagonal"},
      {kReal + "4 4 2\n1 1 1\n2 2 1e400\n", "line 4", "value: number out of range (1e400)"},
      {kReal + "4 4 2\n1 1 1\n2 2 -1e400\n", "line 4", "value: number out of range (-1e400)"},
      {kReal + "4 4 1\n1 1 nan\n", "line 3", "value: expected a finite number, got 'nan'"},
      {kReal + "4 4 1\n1 1 inf\n", "line 3", "value: expected a finite number, got 'inf'"},
      {kReal + "4 4 1\n1 1 1.5x\n", "line 3", "value: expected a number, got '1.5x'"},
      {kInteger + "4 4 1\n1 1 1.5\n", "line 3", "value: expected an integer, got '1.5'"},
      {kInteger + "4 4 1\n1 1 1180591620717411303424\n", "line 3", "value: integer out of range"},
      {kPattern + "4 4 3\n1 1\n2 3\n% c\n2 3\n", "line 6", "duplicate entry (2, 3), first on line 4"},
      {kPattern + "4 4 4\n4 4\n2 3\n1 1\n2 3\n", "line 6", "duplicate entry (2, 3), first on line 4"},
      {kPattern + "4 4 2\n1 1\n2 2\n3 3\n", "line 5",
       "more entries than the 2 the size line (line 2) declares"},
      {kPattern + "4 4 3\n1 1\n2 2\n", "line 4",
       "the file ends after 2 of the 3 entries the size line (line 2)"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto e = parse_error(c.text);
    CHECK(e.file() == "m.mtx");
    CHECK(e.path() == c.line);
    CHECK_THAT(e.message(), Catch::Contains(c.message));
  }
  // The caller's limits: a dimension bound, and the value range of fp32 weights.
  const auto big = parse_error(kPattern + "16777217 4 0\n", {.max_dimension = 16777216});
  CHECK(big.path() == "line 2");
  CHECK_THAT(big.message(), Catch::Contains("rows 16777217 outside [1, 16777216]"));
  const auto fp32 = parse_error(kReal + "2 2 1\n1 1 1e39\n", {.max_abs_value = 3.4028234663852886e38});
  CHECK(fp32.path() == "line 3");
  CHECK_THAT(fp32.message(), Catch::Contains("value: 1e39 outside"));
  // Duplicates may be allowed.
  CHECK(parse_matrix_market(kPattern + "2 2 2\n1 1\n1 1\n", "m.mtx", {.allow_duplicates = true})
            .entries.size() == 2);
}

TEST_CASE("matrix market: a missing file or a folder names the path", "[modnn][mtx]") {
  try {
    read_matrix_market("/nonexistent/fc6.mtx");
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(e.file() == "/nonexistent/fc6.mtx");
    CHECK_THAT(e.message(), Catch::Contains("cannot open the matrix file"));
  }
  try {
    read_matrix_market(coinfer::test::scratch_dir().string());
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK_THAT(e.message(), Catch::Contains("not a regular file"));
  }
}

namespace {

Json mscc_json(const SparsePattern& p) {
  return {{"rows", p.rows},
          {"cols", p.cols},
          {"entries", entries_to_json(p.entries)},
          {"clusters", 3},
          {"seed", 5}};
}

}  // namespace

TEST_CASE("mscc and fgcp solve: a matrix_file gives exactly what the inline entries give",
          "[modnn][mtx][solve]") {
  const coinfer::test::ScratchDir dir;
  // 3 planted blocks, shuffled, plus the generator's off-block weights; Lanczos path (min side > 400).
  for (const auto& [rows, cols] : {std::pair{90, 60}, std::pair{500, 420}}) {
    const auto w = generate_sparse_weights({.rows = rows,
                                            .cols = cols,
                                            .sparsity = 0.9,
                                            .seed = 21,
                                            .planted_blocks = 3,
                                            .block_scale = 3.0,
                                            .shuffle = true});
    dir.write("w.mtx", matrix_market_text(w.pattern));
    const Json inline_problem = mscc_json(w.pattern);
    Json file_problem = {{"matrix_file", "w.mtx"}, {"clusters", 3}, {"seed", 5}};
    INFO(rows << " x " << cols);
    CHECK(solve_mscc_json(file_problem, dir.path()) == solve_mscc_json(inline_problem));
    file_problem["rows"] = rows;  // rows / cols may be given if they agree
    file_problem["cols"] = cols;
    CHECK(solve_mscc_json(file_problem, dir.path()) == solve_mscc_json(inline_problem));

    Json fgcp = {{"worker_s_per_nonzero", {1e-6, 2e-6, 1.5e-6}},
                 {"go_s_per_nonzero", 1e-6},
                 {"throughput_bps", 1e7},
                 {"bytes_per_value", 4},
                 {"seed", 2}};
    auto fgcp_inline = fgcp, fgcp_file = fgcp;
    fgcp_inline.update(Json{{"rows", rows}, {"cols", cols}, {"entries", entries_to_json(w.pattern.entries)}});
    fgcp_file["matrix_file"] = (dir.fs_path() / "w.mtx").string();  // an absolute path ignores base_dir
    CHECK(solve_fgcp_json(fgcp_file, "/elsewhere") == solve_fgcp_json(fgcp_inline));
  }
}

TEST_CASE("mscc solve: matrix_file errors name the key, the file and the line", "[modnn][mtx][solve]") {
  const coinfer::test::ScratchDir dir;
  dir.write("ok.mtx", kPattern + "4 3 2\n1 1\n4 3\n");
  dir.write("bad.mtx", kPattern + "4 3 2\n1 1\n5 3\n");
  dir.write("huge.mtx", kPattern + "33554432 3 0\n");
  auto error = [&](const Json& p) {
    try {
      parse_mscc_problem(p, dir.path());
    } catch (const InputError& e) {
      return e;
    }
    FAIL("expected an InputError");
    throw;
  };
  const Json p = {{"matrix_file", "ok.mtx"}, {"clusters", 2}, {"seed", 1}};
  CHECK(parse_mscc_problem(p, dir.path()).pattern.entries == std::vector<NonZero>{{0, 0}, {3, 2}});
  auto with = [&](const Json& patch) {
    auto q = p;
    q.update(patch);
    return q;
  };
  const auto bad = error(with({{"matrix_file", "bad.mtx"}}));
  CHECK(bad.path() == "matrix_file");
  CHECK_THAT(bad.message(), Catch::Contains("bad.mtx: line 4: row 5 outside [1, 4]"));
  const auto huge = error(with({{"matrix_file", "huge.mtx"}}));
  CHECK_THAT(huge.message(), Catch::Contains("line 2: rows 33554432 outside [1, 16777216]"));
  CHECK(error(with({{"matrix_file", "missing.mtx"}})).path() == "matrix_file");
  CHECK(error(with({{"matrix_file", 3}})).path() == "matrix_file");
  CHECK(error(with({{"matrix_file", ""}})).path() == "matrix_file");
  CHECK(error(with({{"entries", Json::array()}})).path() == "entries");  // both given
  const auto rows = error(with({{"rows", 5}}));
  CHECK(rows.path() == "rows");
  CHECK_THAT(rows.message(), Catch::Contains("differs from the size line"));
  CHECK(error(with({{"cols", 0}})).path() == "cols");
  CHECK(error(with({{"clusters", 4}})).path() == "clusters");  // > min(4, 3), from the file's size
}

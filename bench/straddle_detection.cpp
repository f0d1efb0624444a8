// What the op families' output-straddling patches buy (ops/framework/op_straddle.hpp): cases to
// detect a probe whose error is one float32 ulp in some outputs, visible in a narrow output
// only where it straddles a rounding midpoint, with and without the straddles.
//
// usage: straddle_detection [--seeds N] [--cases N] [--probe OP/PROBE/PROPERTY]...
//
// For each probe and property (default: rms_norm's probe-plan-by-rows and probe-split-row and
// softmax's probe-plan-by-rows, under rows_independent and batch_vs_batch), each narrow dtype
// (bf16, f16: every operand of the op in it) and each of N seeds (default 10), runs the property
// on the probe over --cases generated cases (default 100) with shrinking off, once from the
// generator with straddles (op_case(OpDef)) and once without (op_case(OpDecl)), and prints per
// row: seeds detected of N and the median cases to detect, each way. Exit 0, or 2 on a usage
// error.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include <parity/core/decimal.hpp>
#include <parity/core/error.hpp>
#include <parity/core/keep_freed_memory.hpp>
#include <parity/ops/framework/op_cases.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/oracles/blas.hpp>
#include <parity/properties/gen/run_property.hpp>

namespace {

using namespace parity;

struct Row {
  std::string op, probe, property;
};

struct Tally {
  int detected = 0;
  std::vector<int> cases;
  std::string text(int seeds) const {
    if (detected == 0) return std::to_string(detected) + "/" + std::to_string(seeds) + "  -";
    std::vector<int> c = cases;
    std::sort(c.begin(), c.end());
    return std::to_string(detected) + "/" + std::to_string(seeds) + "  median " + std::to_string(c[c.size() / 2]);
  }
};

Tally measure(const ops::OpFamily& f, const Row& r, DType dt, bool straddles, int seeds, int cases) {
  ops::OpDef op = f.def();
  op.decl.dtypes = {dt};
  const rc::Gen<Case> gen = straddles ? ops::op_case(op) : ops::op_case(op.decl);
  Tally t;
  for (int s = 1; s <= seeds; ++s) {
    gen::RunConfig config{
        .cases = cases, .seed = static_cast<std::uint64_t>(s), .shrink = false, .write_reproducer = false};
    config.rerun_command = [](const std::string&, std::uint64_t, int) { return std::string(); };
    const gen::RunResult result = gen::run_property(
        r.probe, r.property, gen, [&](const Case& c) { return f.check(r.probe, r.property, c); }, config, f.rules());
    if (!result.passed && result.counterexample) {
      ++t.detected;
      t.cases.push_back(result.cases);
    }
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  keep_freed_memory();   // before any thread (core/keep_freed_memory.hpp)
  oracles::load_blas();  // before any thread (oracles/blas.hpp)
  int seeds = 10, cases = 100;
  std::vector<Row> rows;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (i + 1 == argc) throw InputError(a + " needs a value");
      const std::string v = argv[++i];
      if (a == "--seeds") seeds = static_cast<int>(decimal_in_range(v, a, 1, 1000));
      else if (a == "--cases") cases = static_cast<int>(decimal_in_range(v, a, 1, 100000));
      else if (a == "--probe") {
        const auto p = v.find('/'), q = v.rfind('/');
        if (p == std::string::npos || p == q) throw InputError("--probe: expected OP/PROBE/PROPERTY, not " + v);
        rows.push_back({v.substr(0, p), v.substr(p + 1, q - p - 1), v.substr(q + 1)});
      } else throw InputError("unknown flag " + a);
    }
    if (rows.empty())
      for (const char* prop : {"rows_independent", "batch_vs_batch"})
        for (const Row& r : {Row{"rms_norm", "probe-plan-by-rows", prop}, Row{"rms_norm", "probe-split-row", prop},
                             Row{"softmax", "probe-plan-by-rows", prop}})
          rows.push_back(r);
    std::cout << std::left << std::setw(44) << "op/probe/property" << std::setw(6) << "dtype" << std::setw(22)
              << "with straddles"
              << "without\n";
    for (const Row& r : rows) {
      const auto& f = ops::find_op_family(r.op);
      f.find_subject(r.probe);
      for (const DType dt : {DType::bf16, DType::f16}) {
        const auto& declared = f.def().decl.dtypes;
        if (std::find(declared.begin(), declared.end(), dt) == declared.end()) continue;  // not the op's
        const Tally with = measure(f, r, dt, true, seeds, cases), without = measure(f, r, dt, false, seeds, cases);
        std::cout << std::setw(44) << (r.op + "/" + r.probe + "/" + r.property) << std::setw(6) << dtype_name(dt)
                  << std::setw(22) << with.text(seeds) << without.text(seeds) << std::endl;
      }
    }
  } catch (const InputError& e) {
    std::cerr << "straddle_detection: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

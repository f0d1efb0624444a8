#pragma once
// An op's reference, written once as a template over the real type R:
//
//   struct MyOp {
//     static OpDecl declaration();
//     template <class R> static void reference(Eval<R>& e);   // reads inputs, writes outputs
//   };
//
// define_op<MyOp>() instantiates it four times: in double (the oracle), in MPFR (133 bits,
// the oracle's check), in Bounded (bounded.hpp: the per-element bound of a float evaluation
// under a subject's declared Arithmetic) and in Filtered (filtered.hpp: the cheap evaluation that
// decides most elements' verdicts before Bounded is asked). Inside a reference, write arithmetic as for any real
// (+ - * /, sqrt, rsqrt, exp, log: unqualified, from namespace parity::ops), constants as R(2),
// every sum through e.sum(n, f), which is where the declared reduction order enters, and every
// maximum through e.max(n, f). A sum of products of two matrices, sum_l a(i, l) b(l, j), may go
// through e.matmul(a, b) (operands e.matrix("x"), its .t(), or a Matrix<R> the reference built):
// the same value as e.sum over the products, bit for bit, and in Bounded a bound no smaller than
// e.sum's, its magnitudes from a BLAS (matmul.hpp). A caller that reads only some outputs names
// them (Eval's `wanted`); a reference may then skip the work of the others, asking e.wants(name),
// as PyTorch's output_mask lets a backward skip a gradient.
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <parity/core/error.hpp>
#include <parity/core/thread_pool.hpp>
#include <parity/ops/framework/bounded.hpp>
#include <parity/ops/framework/filtered.hpp>
#include <parity/ops/framework/matmul.hpp>
#include <parity/ops/framework/op_decl.hpp>

namespace parity::ops {

// The reals whose values carry an error bound (Bounded) or a lower bound of one (Filtered): a
// reference that builds a value's other admissible evaluations for its bound alone (the ways of
// Eval::covering) builds them in these; double and MPFR evaluate the first way.
template <class R>
inline constexpr bool forms_bounds = std::is_same_v<R, Bounded> || std::is_same_v<R, Filtered>;

// The exact logical values of one case's inputs (row-major), its extents and parameters, and
// every operand's and output's shape: what every instantiation of a reference reads.
struct OpValues {
  std::map<std::string, std::int64_t> extents;
  std::map<std::string, double> params = {};
  std::map<std::string, std::vector<double>> inputs = {};
  std::map<std::string, std::vector<std::int64_t>> shapes = {};
  // Each ragged extent's lengths, one per row (op_decl.hpp, ExtentDecl::ragged).
  std::map<std::string, std::vector<std::int64_t>> lengths = {};
};

template <class R>
class Eval {
 public:
  // `arithmetic`: the evaluation that Bounded bounds (unused by the other reals). `wanted`: the
  // outputs the caller reads, every one where empty.
  // Both are kept by reference: they must outlive the Eval (a temporary Arithmetic is refused).
  Eval(const OpValues& values, const Arithmetic& arithmetic, std::set<std::string> wanted = {})
      : values_(values), arithmetic_(arithmetic), wanted_(std::move(wanted)) {}
  Eval(const OpValues&, Arithmetic&&, std::set<std::string> = {}) = delete;

  // Whether the caller reads output `name`: a reference may leave an unwanted output unwritten
  // (its elements +0, or absent from outputs() where it never asks for it) and skip its work.
  bool wants(const std::string& name) const { return wanted_.empty() || wanted_.contains(name); }

  std::int64_t extent(const std::string& name) const { return at(values_.extents, name, "extent"); }
  R param(const std::string& name) const { return make(at(values_.params, name, "parameter")); }
  // Row b's length along ragged extent `name` (ExtentDecl::ragged), in [1, extent(name)]: the
  // reference reads it and leaves the output's elements past it at +0.
  std::int64_t length(const std::string& name, std::int64_t b) const {
    return at(values_.lengths, name, "ragged extent").at(static_cast<std::size_t>(b));
  }
  // A parameter's plain value, for one that selects a variant of the op (causal, a layout:
  // 0 or 1) rather than entering its arithmetic: the same in every instantiation.
  double param_value(const std::string& name) const { return at(values_.params, name, "parameter"); }

  // Element access to an input, by logical indices (one per dimension).
  class Input {
   public:
    R operator()(std::int64_t i) const { return e_->make((*data_)[static_cast<std::size_t>(i)]); }
    R operator()(std::int64_t i, std::int64_t j) const { return (*this)(i * cols_ + j); }
    // An element's plain value, for one that selects a variant (a per-row sigma of 1).
    double value(std::int64_t i) const { return (*data_)[static_cast<std::size_t>(i)]; }

   private:
    friend class Eval;
    const Eval* e_;
    const std::vector<double>* data_;
    std::int64_t cols_;
  };
  class Output {
   public:
    R& operator()(std::int64_t i) { return (*data_)[static_cast<std::size_t>(i)]; }
    R& operator()(std::int64_t i, std::int64_t j) { return (*this)(i * cols_ + j); }

   private:
    friend class Eval;
    std::vector<R>* data_;
    std::int64_t cols_;
  };

  // Whether the case has the optional input `name` (TensorDecl::present_if).
  bool has_input(const std::string& name) const { return values_.inputs.contains(name); }

  Input input(const std::string& name) const {
    Input in;
    in.e_ = this;
    in.data_ = &at(values_.inputs, name, "input");
    in.cols_ = cols(name);
    return in;
  }
  Output output(const std::string& name) {
    auto& data = outputs_[name];
    std::int64_t n = 1;
    for (auto d : at(values_.shapes, name, "output")) n *= d;
    data.assign(static_cast<std::size_t>(n), R(0));
    Output out;
    out.data_ = &data;
    out.cols_ = cols(name);
    return out;
  }

  // sum of f(0), ..., f(n - 1): in Bounded under the declared reduction order; otherwise
  // ascending.
  // With `terms` > n: these n terms as part of one reduction of `terms` terms (Bounded: its
  // depth), to be joined with the other parts by parts().
  template <class F>
  R sum(std::int64_t n, F f, std::int64_t terms = 0) const {
    if constexpr (std::is_same_v<R, Bounded>) {
      return Bounded::sum(n, f, arithmetic_, terms);
    } else if constexpr (std::is_same_v<R, Filtered>) {
      return Filtered::sum(n, f, arithmetic_, terms);
    } else {
      R s(0);
      for (std::int64_t i = 0; i < n; ++i) s += f(i);
      return s;
    }
  }

  // The sum of two parts of one reduction, each from sum(..., terms) or matmul(..., terms) with
  // the reduction's whole term count (Bounded::parts).
  R parts(const R& a, const R& b) const {
    if constexpr (std::is_same_v<R, Bounded>) return Bounded::parts(a, b);
    else if constexpr (std::is_same_v<R, Filtered>) return Filtered::parts(a, b);
    else return a + b;
  }

  // One value a subject may evaluate in several ways, each written out as a callable returning
  // R (Bounded::covering): in Bounded and Filtered (forms_bounds), every way evaluated and their
  // errors (Filtered: lower bounds of them) summed; in double and MPFR, the first way alone.
  template <class First, class... Others>
  R covering(First first, Others... others) const {
    if constexpr (forms_bounds<R>) {
      return R::covering({first(), others()...});
    } else {
      return first();
    }
  }

  // The largest of f(0), ..., f(n - 1), n >= 1; NaN if any is NaN.
  template <class F>
  R max(std::int64_t n, F f) const {
    if constexpr (std::is_same_v<R, Bounded>) {
      return Bounded::max(n, f);
    } else if constexpr (std::is_same_v<R, Filtered>) {
      return Filtered::max(n, f);
    } else {
      R m = f(0);
      for (std::int64_t i = 1; i < n && !isnan_(m); ++i) {
        const R t = f(i);
        if (isnan_(t) || t > m) m = t;
      }
      return m;
    }
  }

  // Runs f(i, j) for every i < rows, j < cols, where each call writes its own element (of an
  // Output or a Matrix<R>) and only reads what the others read: a reference's element loop. In
  // double, Bounded and Filtered on parity's pool in chunks of rows (parallel_rows; each
  // element its own, so the same values for any thread count); in MPFR on this thread, in order
  // (MPFR's and Boost's per-thread state is not relied on across the pool's threads).
  template <class F>
  void each(std::int64_t rows, std::int64_t cols, F f) const {
    const auto row = [&](std::int64_t i) {
      for (std::int64_t j = 0; j < cols; ++j) f(i, j);
    };
    if constexpr (std::is_same_v<R, double> || forms_bounds<R>) {
      parallel_rows(rows, cols, row);
    } else {
      for (std::int64_t i = 0; i < rows; ++i) row(i);
    }
  }

  // A 2-D input as a matrix operand (no copy).
  MatrixOperand<R> matrix(const std::string& name) const {
    const auto& data = at(values_.inputs, name, "input");
    const std::int64_t c = cols(name);
    return MatrixOperand<R>(data.data(), c == 0 ? 0 : std::ssize(data) / c, c, &arithmetic_);
  }
  // The rows x cols matrix of f(i, j).
  template <class F>
  Matrix<R> matrix(std::int64_t rows, std::int64_t cols, F f) const {
    Matrix<R> m(rows, cols);
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j) m(i, j) = f(i, j);
    return m;
  }
  // C(i, j) = sum_l a(i, l) b(l, j) over the a.cols() == b.rows() products: in double, MPFR and
  // Bounded the value of sum(a.cols(), [&](l) { return a(i, l) * b(l, j); }), ascending, bit for bit; in
  // Bounded a bound at least sum's, from GEMMs (matmul.hpp); in Filtered a value summed in an
  // order of its own (the BLAS's or oracles/unordered_gemm.hpp's). `terms` > a.cols(): the products as
  // part of a reduction of `terms` terms (as sum's `terms`).
  Matrix<R> matmul(const MatrixOperand<R>& a, const MatrixOperand<R>& b, std::int64_t terms = 0) const {
    if constexpr (std::is_same_v<R, double>) {
      return matmul_double(a, b);
    } else if constexpr (std::is_same_v<R, Bounded>) {
      return matmul_bounded(a, b, arithmetic_, terms);
    } else if constexpr (std::is_same_v<R, Filtered>) {
      return matmul_filtered(a, b, arithmetic_, terms);
    } else {
      if (a.cols() != b.rows()) throw InputError("matmul: the operands' inner extents differ");
      return matrix(a.rows(), b.cols(), [&](std::int64_t i, std::int64_t j) {
        return sum(a.cols(), [&](std::int64_t l) { return a(i, l) * b(l, j); });
      });
    }
  }

  std::map<std::string, std::vector<R>>& outputs() { return outputs_; }

 private:
  static bool isnan_(const R& v) { return v != v; }
  R make(double v) const {
    if constexpr (std::is_same_v<R, Bounded>) return Bounded(v, 0.0, &arithmetic_);
    else if constexpr (std::is_same_v<R, Filtered>) return Filtered(v, 0.0, 0.0, &arithmetic_);
    else return R(v);
  }
  std::int64_t cols(const std::string& name) const {
    const auto& shape = at(values_.shapes, name, "operand");
    return shape.size() == 2 ? shape[1] : 1;
  }
  template <class M>
  static const typename M::mapped_type& at(const M& m, const std::string& name, const char* what) {
    const auto it = m.find(name);
    if (it == m.end()) throw InputError(std::string("reference: no ") + what + " '" + name + "'");
    return it->second;
  }

  const OpValues& values_;
  const Arithmetic& arithmetic_;
  std::set<std::string> wanted_;
  std::map<std::string, std::vector<R>> outputs_;
};

// Each output's values, row-major.
using OutputValues = std::map<std::string, std::vector<double>>;
// Each output's double value and error bound under one Arithmetic, before the output's rounding,
// and per element whether some permitted evaluation may overflow (1; Bounded::may_overflow).
struct BoundedOutputs {
  OutputValues value, err;
  std::map<std::string, std::vector<std::uint8_t>> may_overflow;
};

// Each output's elements in Filtered (filtered.hpp: the value, the bound on any double
// evaluation's distance from the exact value, and the lower bound on Bounded's error under one
// Arithmetic), before the output's rounding, row-major. Each element refers to the Arithmetic the
// evaluation was given: arithmetic on the elements needs it alive (value(), dev(), lo() read none).
using FilteredOutputs = std::map<std::string, std::vector<Filtered>>;

// An op as the framework uses it: its declaration and its reference in the four reals.
struct OpDef {
  OpDecl decl;
  std::function<OutputValues(const OpValues&)> oracle = {};          // double
  std::function<OutputValues(const OpValues&)> multiprecision = {};  // MPFR, rounded to double
  std::function<BoundedOutputs(const OpValues&, const Arithmetic&)> bounded = {};
  std::function<FilteredOutputs(const OpValues&, const Arithmetic&)> filtered = {};
  // Whether forward_accuracy may ask the filter first: false where every bound's figures are
  // reported (the gates, gate_checks.hpp's gate_def).
  bool filter = true;
};

}  // namespace parity::ops

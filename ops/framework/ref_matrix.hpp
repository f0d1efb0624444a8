#pragma once
// The matrices of an op's reference (op_reference.hpp, Eval::matmul): Matrix<R>, a row-major
// matrix of reals (a product's result, or an operand the reference builds: s x), and
// MatrixOperand<R>, what a product reads - an input's exact values or a Matrix<R>, either
// transposed or not, without a copy.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <parity/ops/framework/bounded.hpp>
#include <parity/ops/framework/filtered.hpp>

namespace parity::ops {

template <class R>
class MatrixOperand;

template <class R>
class Matrix {
 public:
  Matrix(std::int64_t rows, std::int64_t cols)
      : rows_(rows), cols_(cols), data_(static_cast<std::size_t>(rows * cols)) {}
  // rows x cols of `data`, row-major: a matrix formed element by element without first being
  // zeroed (data.size() must be rows * cols).
  Matrix(std::int64_t rows, std::int64_t cols, std::vector<R> data) : rows_(rows), cols_(cols), data_(std::move(data)) {
    if (data_.size() != static_cast<std::size_t>(rows * cols))
      throw std::logic_error("Matrix: " + std::to_string(data_.size()) + " elements for " + std::to_string(rows) +
                             " x " + std::to_string(cols));
  }
  std::int64_t rows() const { return rows_; }
  std::int64_t cols() const { return cols_; }
  R& operator()(std::int64_t i, std::int64_t j) { return data_[static_cast<std::size_t>(i * cols_ + j)]; }
  const R& operator()(std::int64_t i, std::int64_t j) const { return data_[static_cast<std::size_t>(i * cols_ + j)]; }
  const std::vector<R>& data() const { return data_; }
  std::vector<R>& data() { return data_; }
  // This matrix transposed, as an operand (no copy; the matrix must outlive it: a temporary's
  // is refused).
  MatrixOperand<R> t() const&;
  MatrixOperand<R> t() const&& = delete;

 private:
  std::int64_t rows_, cols_;
  std::vector<R> data_;
};

// rows x cols; element (i, j) is exact[i * ld + j] (exact[j * ld + i] where transposed), an
// input's exact value, or the matrix's (i, j) (its (j, i) where transposed).
template <class R>
class MatrixOperand {
 public:
  // An input's values, stored rows x cols row-major; `arithmetic` is the one an exact Bounded or
  // Filtered carries.
  MatrixOperand(const double* exact, std::int64_t rows, std::int64_t cols, const Arithmetic* arithmetic)
      : rows_(rows), cols_(cols), ld_(cols), exact_(exact), arithmetic_(arithmetic) {}
  MatrixOperand(const Matrix<R>& m)  // NOLINT: implicit, a matrix is an operand
      : rows_(m.rows()), cols_(m.cols()), ld_(m.cols()), matrix_(&m) {}
  // A temporary would dangle in an operand kept past the expression (auto op = e.matmul(a, b).t()):
  // name the matrix first.
  MatrixOperand(const Matrix<R>&&) = delete;

  std::int64_t rows() const { return rows_; }
  std::int64_t cols() const { return cols_; }
  MatrixOperand t() const {
    MatrixOperand o = *this;
    o.trans_ = !trans_;
    std::swap(o.rows_, o.cols_);
    return o;
  }
  R operator()(std::int64_t i, std::int64_t j) const {
    const std::int64_t at = trans_ ? j * ld_ + i : i * ld_ + j;
    if (!exact_) return matrix_->data()[static_cast<std::size_t>(at)];
    if constexpr (std::is_same_v<R, Bounded>) return Bounded(exact_[at], 0.0, arithmetic_);
    else if constexpr (std::is_same_v<R, Filtered>) return Filtered(exact_[at], 0.0, 0.0, arithmetic_);
    else return R(exact_[at]);
  }
  // The stored values where they are an input's (null for a Matrix), their row stride and
  // whether the operand is their transpose: what a BLAS reads directly.
  const double* exact() const { return exact_; }
  const Matrix<R>* matrix() const { return matrix_; }
  std::int64_t ld() const { return ld_; }
  bool transposed() const { return trans_; }

 private:
  std::int64_t rows_, cols_, ld_;
  bool trans_ = false;
  const double* exact_ = nullptr;
  const Matrix<R>* matrix_ = nullptr;
  const Arithmetic* arithmetic_ = nullptr;
};

template <class R>
MatrixOperand<R> Matrix<R>::t() const& {
  return MatrixOperand<R>(*this).t();
}

}  // namespace parity::ops

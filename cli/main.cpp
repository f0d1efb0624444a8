// parity: differential testing and fuzzing of numerical kernels. See `parity --help`.
#include <parity/cli/parser.hpp>
#include <parity/core/keep_freed_memory.hpp>
#include <parity/oracles/blas.hpp>

int main(int argc, char** argv) {
  parity::keep_freed_memory();   // before any thread (core/keep_freed_memory.hpp)
  parity::oracles::load_blas();  // before any thread (oracles/blas.hpp)
  return parity::cli::run_command_line({argv + 1, argv + argc});
}

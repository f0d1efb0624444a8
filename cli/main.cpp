// parity: differential testing and fuzzing of numerical kernels. See `parity --help`.
#include <parity/cli/parser.hpp>

int main(int argc, char** argv) { return parity::cli::run_command_line({argv + 1, argv + argc}); }

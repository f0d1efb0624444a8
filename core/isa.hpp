#pragma once
// The x86-64 vector instruction sets parity's host kernels dispatch on at run time (the host
// twins' fma chains, Philox's draws). Every path of a kernel performs the same
// IEEE operations in the same order per output, so the bits never depend on the one taken.
namespace parity {

enum class Isa { portable, avx2, avx512 };

// avx512 when this CPU (and its OS) has AVX512F, else avx2 when it has AVX2 and FMA, else
// portable. Detected once per process.
Isa best_isa();

// "portable", "avx2" or "avx512".
const char* isa_name(Isa isa);

}  // namespace parity

// Compiles a function twice, with and without hardware fma, one picked at load time (GCC's
// target_clones), for scalar code whose std::fma would otherwise be a libm call (Philox's
// Box-Muller, the project's own sin, cos and log). fma is correctly rounded either way and
// nothing is contracted (-ffp-contract=off), so the bits are the same.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define PARITY_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define PARITY_FMA_CLONES
#endif

#include <parity/core/isa.hpp>

namespace parity {

Isa best_isa() {
  static const Isa isa = __builtin_cpu_supports("avx512f")                                 ? Isa::avx512
                         : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? Isa::avx2
                                                                                           : Isa::portable;
  return isa;
}

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::avx512:
      return "avx512";
    case Isa::avx2:
      return "avx2";
    case Isa::portable:
      break;
  }
  return "portable";
}

}  // namespace parity

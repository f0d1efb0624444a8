#include <parity/fuzz/feedback.hpp>

#include <array>

// Provided by libFuzzer's runtime; weak, so the plain driver links without it.
extern "C" void __sanitizer_cov_8bit_counters_init(std::uint8_t* start, std::uint8_t* stop) __attribute__((weak));
extern "C" void __sanitizer_cov_pcs_init(const std::uintptr_t* start, const std::uintptr_t* stop) __attribute__((weak));

namespace parity::fuzz {
namespace {

std::array<std::uint8_t, kConfigCounters> counters{};
std::array<bool, kConfigCounters> seen{};
// libFuzzer pairs every counter with a {pc, flags} entry; these "pcs" are the counters'
// addresses, which name them uniquely (only -print_pcs would ever show one).
std::array<std::uintptr_t, 2 * kConfigCounters> pc_table{};

}  // namespace

void register_config_counters() {
  static bool done = false;
  if (done || !__sanitizer_cov_8bit_counters_init || !__sanitizer_cov_pcs_init) return;
  done = true;
  for (std::size_t i = 0; i < kConfigCounters; ++i) pc_table[2 * i] = reinterpret_cast<std::uintptr_t>(&counters[i]);
  __sanitizer_cov_8bit_counters_init(counters.data(), counters.data() + counters.size());
  __sanitizer_cov_pcs_init(pc_table.data(), pc_table.data() + pc_table.size());
}

void observe_config(std::uint32_t config) {
  const std::size_t i = config % kConfigCounters;
  if (counters[i] != 255) ++counters[i];
  seen[i] = true;
}

std::size_t configs_seen() {
  std::size_t n = 0;
  for (bool s : seen) n += s;
  return n;
}

std::uint32_t name_id(const char* name) {
  std::uint32_t h = 2166136261u;
  for (; *name; ++name) h = (h ^ static_cast<unsigned char>(*name)) * 16777619u;
  return h;
}

}  // namespace parity::fuzz

// repro_parser_fuzzer: bytes -> a file -> read_reproducer (core/reproducer.hpp), the entry
// point of `parity replay`.
//
// Property: any file either reads as a reproducer or is refused with an InputError, never
// another exception, a crash, a leak or a hang; and a reproducer that reads prints back to
// JSON that reads as the same reproducer (reproducer_to_json o reproducer_from_json is the
// identity on what the parser accepts).
// Budget: 64 KiB per input (libFuzzer's -max_len caps it lower by default).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <parity/core/reproducer.hpp>
#include <parity/fuzz/json_case.hpp>

namespace {

constexpr const char* kHarness = "repro_parser_fuzzer";
constexpr std::size_t kMaxInputBytes = 64 * 1024;
std::filesystem::path scratch;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  scratch = std::filesystem::temp_directory_path() / ("parity-repro-fuzz-" + std::to_string(::getpid()) + ".json");
  std::atexit([] { std::remove(scratch.c_str()); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace parity;
  if (size > kMaxInputBytes) return -1;
  {
    std::ofstream out(scratch, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  Reproducer r;
  if (!fuzz::accepted([&] { r = read_reproducer(scratch); }, kHarness, "read_reproducer")) return 0;
  const std::string once = reproducer_to_json(r).dump();
  Reproducer again;
  if (!fuzz::accepted([&] { again = reproducer_from_json(nlohmann::json::parse(once)); }, kHarness,
                      "reproducer_from_json") ||
      reproducer_to_json(again).dump() != once) {
    std::cerr << "\n==parity== " << kHarness << ": a reproducer that reads does not read back the same\n  " << once
              << "\n"
              << std::flush;
    __builtin_trap();
  }
  return 0;
}

#include <parity/fuzz/json_case.hpp>

#include <iostream>
#include <typeinfo>

#include <nlohmann/json.hpp>

namespace parity::fuzz {

void trap_unexpected(const char* harness, const char* what, const std::exception& e) {
  std::cerr << "\n==parity== " << harness << ": " << what << " threw " << typeid(e).name()
            << " instead of InputError: " << e.what() << "\n"
            << std::flush;
  __builtin_trap();
}

std::optional<Case> parse_case(const std::uint8_t* data, std::size_t size, const char* harness) {
  const auto j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  std::optional<Case> c;
  accepted(
      [&] {
        const bool repro = j.is_object() && j.contains("schema") && j.contains("case");
        c = case_from_json(repro ? j.at("case") : j);
      },
      harness, "case_from_json");
  return c;
}

void require_round_trip(const Case& c, const char* harness) {
  const std::string once = case_to_json(c).dump();
  const std::string twice = case_to_json(case_from_json(nlohmann::json::parse(once))).dump();
  if (once != twice) {
    std::cerr << "\n==parity== " << harness << ": a Case does not round-trip through JSON\n  " << once << "\n  "
              << twice << "\n"
              << std::flush;
    __builtin_trap();
  }
}

double dim_or_1(const Case& c, const char* name) {
  const auto it = c.dims.find(name);
  return it == c.dims.end() || it->second < 1 ? 1.0 : static_cast<double>(it->second);
}

}  // namespace parity::fuzz

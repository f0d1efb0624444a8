#include <iomanip>
#include <iostream>
#include <sstream>

#include <parity/cli/args.hpp>
#include <parity/cli/commands.hpp>
#include <parity/core/error.hpp>
#include <parity/core/output_file.hpp>
#include <parity/properties/bridge/bridge_problem.hpp>
#include <parity/properties/bridge/bridge_record.hpp>

namespace parity::cli {
namespace {

using ordered = nlohmann::ordered_json;

std::string num(const ordered& v) {
  if (!v.is_number()) return v.is_string() ? v.get<std::string>() : "-";
  std::ostringstream s;
  s << std::setprecision(3) << v.get<double>();
  return s.str();
}

void print_comparison(const std::string& key, const ordered& c) {
  std::cout << "  " << std::left << std::setw(10) << key;
  if (c.contains("available")) {
    std::cout << "unavailable: " << c["reason"].get<std::string>() << "\n";
    return;
  }
  double worst = 0.0;
  for (const auto& [name, g] : c["parameter_gradients"].items())
    if (g["max_abs_error"].is_number()) worst = std::max(worst, g["max_abs_error"].get<double>());
  std::cout << "loss " << std::setprecision(17);
  if (c["loss_value"].is_number()) std::cout << c["loss_value"].get<double>();
  else std::cout << c["loss_value"].dump();  // "nan" or "inf", stored as text
  std::cout << "  logits err " << num(c["logits"]["max_abs_error"]) << "  loss err " << num(c["loss"]["max_abs_error"])
            << "  max grad err " << num(ordered(worst)) << "  " << c["compared_gradient_elements"].get<long>()
            << " grad elements, " << c["nonzero_manual_gradient_tensors"].get<int>() << " non-zero manual grads  "
            << (c["passed"].get<bool>() ? "PASS" : "FAIL") << "\n";
}

}  // namespace

int cmd_bridge(const Args& args) {
  if (!args.positional().empty()) throw InputError("bridge takes no positional argument (see parity bridge --help)");
  if (const auto path = args.get("--record")) check_output_path(*path, "--record");
  std::vector<std::string> command = {"parity", "bridge"};
  command.insert(command.end(), args.raw().begin(), args.raw().end());

  const auto record = properties::bridge::build_bridge_record(properties::bridge::reference_bridge_case(), command);
  const ordered& j = record.json;
  if (const auto path = args.get("--record")) properties::bridge::write_bridge_record(j, *path);

  const auto& cfg = j["config"];
  std::cout << "bridge: tiny GPT float64 on cpu, vocab " << cfg["vocab"] << " d " << cfg["d"] << " heads "
            << cfg["heads"] << " hidden " << cfg["hidden"] << " max_len " << cfg["max_len"] << " seed " << cfg["seed"]
            << ", ids " << j["ids"].dump() << " targets " << j["targets"].dump() << "\n"
            << "tolerance atol " << j["tolerance"]["atol"] << " rtol " << j["tolerance"]["rtol"] << ", LibTorch "
            << j["environment"]["libtorch"].get<std::string>() << "\n\ncomparisons (manual vs autograd)\n";
  for (const auto& [key, c] : j["comparisons"].items()) print_comparison(key, c);
  std::cout << "\nmismatch probes (each must fail its comparison)\n";
  for (const auto& [key, p] : j["failures"]["mismatch_probes"].items())
    std::cout << "  " << std::left << std::setw(30) << key << "max abs err " << std::setw(10) << num(p["max_abs_error"])
              << (p["passed"].get<bool>() ? "NOT DETECTED" : "detected") << "\n";
  std::cout << "\nrefused inputs (every path, one message)\n";
  for (const auto& r : j["failures"]["refused_inputs"])
    std::cout << "  " << std::left << std::setw(22) << r["label"].get<std::string>() << std::setw(22)
              << r["ids"].dump() + " " << (r["passed"].get<bool>() ? "" : "NOT REFUSED ALIKE  ")
              << (r["error"].is_string() ? r["error"].get<std::string>() : "computed") << "\n";
  std::cout << "\nsources: " << j["sources"].size() << " hashed";
  if (!j["sources_missing"].empty()) std::cout << ", MISSING " << j["sources_missing"].dump();
  std::cout << "\n";
  if (const auto path = args.get("--record")) std::cout << "record: " << *path << "\n";
  for (const auto& p : record.problems) std::cout << "FAILED: " << p << "\n";
  std::cout << "bridge: "
            << (record.passed ? "every comparison passes, every probe caught, every bad input refused"
                              : "SOME CHECKS FAIL")
            << "\n";
  return record.passed ? 0 : 1;
}

}  // namespace parity::cli

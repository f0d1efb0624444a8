// export_reference <reproducer>: prints, as JSON, the tensors `parity export` writes for it, as
// its family's case_tensors materialises them: {name: {"dtype", "shape", "bits"}}, in order, with
// every logical element's raw bits (row-major). export_cli_test.sh compares torch.load's view of
// the exported file against it.
#include <iostream>

#include <nlohmann/json.hpp>

#include <parity/core/dtype.hpp>
#include <parity/core/reproducer.hpp>
#include <parity/registry/families.hpp>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: export_reference <reproducer>\n";
    return 2;
  }
  const parity::Case c = parity::read_reproducer(argv[1]).failing_case;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [name, t] : parity::registry::find_family(c.family).case_tensors(c)) {
    nlohmann::json bits = nlohmann::json::array();
    for (std::int64_t i = 0; i < t.numel(); ++i) bits.push_back(t.bits_at(i));
    out.push_back(
        {{"name", name}, {"dtype", std::string(parity::dtype_name(t.dtype()))}, {"shape", t.shape()}, {"bits", bits}});
  }
  std::cout << out.dump() << "\n";
  return 0;
}

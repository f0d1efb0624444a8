#include <parity/registry/families.hpp>

#include <parity/core/error.hpp>
#include <parity/families/lora/lora_family.hpp>
#include <parity/families/model/model_runs.hpp>
#include <parity/families/trajectory/trajectory_family.hpp>
#include <parity/families/transition/transition_family.hpp>
#include <parity/ops/op_families.hpp>
#include <parity/properties/gen/bridge_runs.hpp>

namespace parity::registry {

const std::vector<const gen::Family*>& families() {
  static const std::vector<const gen::Family*> all = [] {
    std::vector<const gen::Family*> list = {&properties::lora::lora_family(), &transition::transition_family(),
                                            &gen::model_family(), &gen::trajectory_family(), &gen::bridge_family()};
    for (const gen::Family* op : ops::op_families()) list.push_back(op);
    return list;
  }();
  return all;
}

const gen::Family& find_family(const std::string& wanted) {
  std::string known;
  for (const gen::Family* f : families()) {
    if (f->name() == wanted) return *f;
    known += (known.empty() ? "" : ", ") + f->name();
  }
  throw InputError("unknown family '" + wanted + "' (this parity has: " + known + ")");
}

}  // namespace parity::registry

#include <parity/ops/op_families.hpp>

#include <stdexcept>

#include <parity/core/error.hpp>
#include <parity/ops/framework/op_family.hpp>
#include <parity/ops/shipped_op_families.hpp>

namespace parity::ops {
namespace {

struct Registered {
  std::vector<const gen::Family*> families;
  bool read = false;
};

Registered& registered() {
  static Registered r;
  return r;
}

}  // namespace

const std::vector<const gen::Family*>& op_families() {
  static const std::vector<const gen::Family*> all = [] {
    std::vector<const gen::Family*> list = shipped_op_families();
    registered().read = true;
    for (const gen::Family* f : registered().families) {
      for (const gen::Family* shipped : list)
        if (shipped->name() == f->name())
          throw InputError("register_op_family: parity has an op " + f->name() + " already");
      list.push_back(f);
    }
    return list;
  }();
  return all;
}

const OpFamily& find_op_family(const std::string& name) {
  std::string known;
  for (const gen::Family* f : op_families()) {
    if (f->name() == name) return dynamic_cast<const OpFamily&>(*f);
    known += (known.empty() ? "" : ", ") + f->name();
  }
  throw InputError("'" + name + "' is not an op family (these are: " + known + ")");
}

void register_op_family(const gen::Family& family) {
  if (registered().read)
    throw std::logic_error("register_op_family(" + family.name() + "): the op families were already read; register " +
                           "at static initialisation (PARITY_REGISTER_OP)");
  for (const gen::Family* f : registered().families)
    if (f->name() == family.name()) throw InputError("register_op_family: " + family.name() + " is registered twice");
  registered().families.push_back(&family);
}

}  // namespace parity::ops

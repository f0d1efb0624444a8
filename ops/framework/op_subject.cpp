#include <parity/ops/framework/op_subject.hpp>

#include <stdexcept>

#include <parity/core/error.hpp>

namespace parity::ops {
namespace {

struct OpList {
  std::vector<OpSubjectInfo> entries;
  bool read = false;
};

std::map<std::string, OpList>& registry() {
  static std::map<std::string, OpList> lists;
  return lists;
}

template <class M>
const typename M::mapped_type& named(const M& m, const std::string& name, const char* what) {
  const auto it = m.find(name);
  if (it == m.end()) throw InputError(std::string("op call: no ") + what + " '" + name + "'");
  return it->second;
}

}  // namespace

std::int64_t OpCall::extent(const std::string& name) const { return named(extents, name, "extent"); }
const Tensor& OpCall::input(const std::string& name) const { return named(inputs, name, "input"); }
double OpCall::param(const std::string& name) const { return named(params, name, "parameter"); }
DType OpCall::output_dtype(const std::string& name) const { return named(output_dtypes, name, "output"); }
std::vector<std::int64_t> OpCall::cu_seqlens(const std::string& name) const {
  const std::vector<std::int64_t>& lengths = named(this->lengths, name, "ragged extent");
  std::vector<std::int64_t> out = {0};
  for (const std::int64_t n : lengths) out.push_back(out.back() + n);
  return out;
}

void register_op_subject(const std::string& op, OpSubjectInfo info) {
  OpList& list = registry()[op];
  if (list.read)
    throw std::logic_error("register_op_subject(" + info.name + "): the " + op + " subject list was already read; " +
                           "register at static initialisation (PARITY_REGISTER_OP_SUBJECT)");
  if (info.name.empty()) throw InputError("register_op_subject: a subject needs a name");
  if (!info.make) throw InputError("register_op_subject(" + info.name + "): make is empty");
  for (const auto& e : list.entries)
    if (e.name == info.name)
      throw InputError("register_op_subject: '" + info.name + "' is already registered for " + op);
  if (!info.unavailable_reason) info.unavailable_reason = [] { return std::string(); };
  list.entries.push_back(std::move(info));
}

const std::vector<OpSubjectInfo>& op_subjects(const std::string& op) {
  OpList& list = registry()[op];
  list.read = true;
  return list.entries;
}

}  // namespace parity::ops

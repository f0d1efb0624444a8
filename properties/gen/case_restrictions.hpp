#pragma once
// A user's restriction of an op family's generated cases (`parity check OP --dtypes f32 --param
// layout=0`, parity_add_subject_tests(... DTYPES f32 PARAMS layout=0)): a kernel that supports
// float32 only, or one layout, is tested where it is defined rather than failing every bf16 case.
// RunConfig carries them (run_property.hpp), the op family applies them to its generator
// (ops/framework/op_family.hpp), and the rerun line repeats them; a replayed reproducer needs
// none (its case is fixed). Families other than ops refuse them.
#include <map>
#include <string>
#include <vector>

#include <parity/core/dtype.hpp>

namespace parity::gen {

struct CaseRestrictions {
  std::vector<DType> dtypes = {};             // the dtypes every dtype group may take (empty: its declared ones)
  std::map<std::string, double> params = {};  // declared parameters fixed to one value each

  bool empty() const { return dtypes.empty() && params.empty(); }
  // " --dtypes f32,bf16 --param layout=0,eps=1e-05" for those set, "" for none: a command's
  // words, each value written so that it reads back the same.
  std::string flag_words() const;
};

// "f32,bf16" as dtypes (f32, bf16, f16, f64); InputError naming `flag` for an empty, unknown or
// repeated one.
std::vector<DType> parse_dtype_list(const std::string& text, const std::string& flag);
// "NAME=VALUE,..." as parameter values (VALUE a decimal number); InputError naming `flag` for a
// malformed or repeated item.
std::map<std::string, double> parse_param_values(const std::string& text, const std::string& flag);

// Throws InputError naming --dtypes or --param when `r` restricts anything: `family` is not an op
// family, and its cases' dtypes and parameters are its own.
void refuse_restrictions(const std::string& family, const CaseRestrictions& r);

}  // namespace parity::gen

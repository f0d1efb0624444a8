#pragma once
// The machine-readable outputs of `parity check`, `probes` and `replay`: --json FILE and
// --junit FILE (either may be stdout: "-", /dev/stdout, ...), both through the project's output writer
// (core/output_file.hpp) and both checked writable before the work starts.
//   --json:  {"schema": "parity.results/1", "command", "environment" (core/build_info.hpp),
//             "counts": {"results", "failed", "skipped"}, "results": [result_json(...)]}
//   --junit: junit_xml (cli/junit_xml.hpp)
// With either on stdout, the command's human-readable text goes to stderr (human()), so that
// `parity check lora --json - | jq` reads JSON alone.
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <parity/cli/args.hpp>
#include <parity/cli/result_record.hpp>

namespace parity::cli {

class ResultOutputs {
 public:
  // Reads --json and --junit from `args` and checks them (InputError naming the flag); both on
  // stdout is refused.
  explicit ResultOutputs(const Args& args);
  // Where the command's text for a person goes: stderr when an output writes stdout
  // (writes_to_stdout), else stdout.
  std::ostream& human() const;
  // Writes every output asked for.
  void write(const std::vector<ResultRecord>& results) const;

 private:
  std::string command_;
  std::optional<std::string> json_, junit_;
};

}  // namespace parity::cli

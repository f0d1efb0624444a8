#include <parity/cli/result_outputs.hpp>

#include <iostream>

#include <parity/cli/junit_xml.hpp>
#include <parity/core/build_info.hpp>
#include <parity/core/error.hpp>
#include <parity/core/output_file.hpp>

namespace parity::cli {

ResultOutputs::ResultOutputs(const Args& args)
    : command_(args.command()), json_(args.get("--json")), junit_(args.get("--junit")) {
  if (json_ && junit_ && writes_to_stdout(*json_) && writes_to_stdout(*junit_))
    throw InputError("--junit: " + *junit_ + " is stdout, which --json " + *json_ +
                     " takes; write one of them to a file");
  if (json_) check_output_path(*json_, "--json");
  if (junit_) check_output_path(*junit_, "--junit");
}

std::ostream& ResultOutputs::human() const {
  return (json_ && writes_to_stdout(*json_)) || (junit_ && writes_to_stdout(*junit_)) ? std::cerr : std::cout;
}

void ResultOutputs::write(const std::vector<ResultRecord>& results) const {
  if (json_) {
    int failed = 0, skipped = 0;
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : results) {
      failed += r.failed;
      skipped += !r.failed && r.skipped;
      list.push_back(result_json(r));
    }
    write_json_atomically({{"schema", "parity.results/1"},
                           {"command", command_},
                           {"environment", environment_json()},
                           {"counts", {{"results", results.size()}, {"failed", failed}, {"skipped", skipped}}},
                           {"results", list}},
                          *json_);
  }
  if (junit_) write_text_atomically(junit_xml(command_, results), *junit_);
}

}  // namespace parity::cli

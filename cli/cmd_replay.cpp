#include <parity/cli/args.hpp>
#include <parity/cli/case_worker_flags.hpp>
#include <parity/cli/commands.hpp>
#include <parity/cli/result_outputs.hpp>
#include <parity/cli/torch_op_flags.hpp>
#include <parity/registry/replay.hpp>
#include <parity/registry/torch_op_registration.hpp>

namespace parity::cli {

int cmd_replay(const Args& args) {
  const auto spec = torch_op_flags(args);
  if (spec) registry::register_torch_op_for_reproducers(args.positional(), *spec);
  const ResultOutputs outputs(args);
  const auto worker = case_worker(args, spec);
  std::vector<registry::ReplayOutcome> outcomes;
  const int still_failing =
      registry::replay_reproducers(args.positional(), args.get("--subject"), outputs.human(), &outcomes, worker.get());
  std::vector<ResultRecord> records;
  for (const auto& o : outcomes) {
    ResultRecord r{.family = o.reproducer.failing_case.family,
                   .property = o.reproducer.property,
                   .subject = o.subject,
                   .status = o.status,
                   .failed = o.failures > 0,
                   .skipped = o.status == "discarded"};
    if (o.verdict.fails()) r.kind = o.verdict.kind;
    r.failing_case = o.reproducer.failing_case;
    r.detail = o.verdict.detail;
    r.map = o.verdict.map;
    r.reproducer = o.file;
    r.cases = o.runs;
    r.extra = {{"runs", o.runs}, {"failed_runs", o.failures}, {"recorded_subject", o.reproducer.subject}};
    records.push_back(r);
  }
  outputs.write(records);
  return still_failing ? 1 : 0;
}

}  // namespace parity::cli

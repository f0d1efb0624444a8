#include <iostream>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "properties/gen/replay.hpp"

namespace parity::cli {

int cmd_replay(const Argv& argv) {
  const Args args(argv, {"--subject"}, {});
  return gen::replay_reproducers(args.positional(), args.get("--subject"), std::cout) ? 1 : 0;
}

}  // namespace parity::cli

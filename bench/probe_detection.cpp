// The detection rate of parity's mismatch probes (bench/README.md): how reliably a default
// run (`ctest -L properties`, `parity check`) catches each kind of bug.
//
// usage: probe_detection [FAMILY...] [--probe NAME]... [--property NAME]... [--seeds N] [--first-seed S] [--cases N]
//                        [--no-shrink | --shrink-seeds M] [--json FILE] [--help]
//
// For every probe of every family (or of the FAMILYs named) and each of N seeds (default 20;
// seeds S .. S+N-1, S default 1, each as PARITY_SEED=s gives it), runs the family's
// subject-facing properties in rounds as `parity probes` and `parity check` do
// (gen::detect_probe, property_rounds.hpp: a failure counts only on a case the family's own
// kernel passes), with --cases cases per property (default: the family's,
// Family::cases_per_property) and shrinking off, so the cases and seconds are those to the first
// detecting case. Then, unless --no-shrink, the detecting run runs again with shrinking on (same
// seed and count, its round's: the same cases) for the size of
// the shrunk case, the product of its dims (a 0 extent counting as 1); --shrink-seeds M shrinks
// only the first M detecting seeds (shrinking an S = 128 attention case costs a minute, the
// detection itself a second), and the shrunk size is the median over those. Prints one row per
// probe: seeds detected of N; over the detecting seeds the median cases and seconds to detect
// and the median shrunk size, and the first detecting seed's shrunk extents (T=128 K=2 ...); the
// properties that detected it. --probe measures only the probes named; --property runs only the
// properties named (whether a probe's detection is one property's alone). --json writes the
// per-seed figures. Exit 0 when every probe is detected in at least 95% of the seeds (19 of 20), 1
// otherwise, 2 on a usage error.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <parity/core/decimal.hpp>
#include <parity/core/error.hpp>
#include <parity/core/keep_freed_memory.hpp>
#include <parity/core/reproducer.hpp>
#include <parity/oracles/blas.hpp>
#include <parity/properties/gen/family.hpp>
#include <parity/properties/gen/property_rounds.hpp>
#include <parity/registry/families.hpp>

namespace {

using parity::InputError;
using parity::gen::Family;

struct Options {
  std::vector<std::string> families;
  std::set<std::string> probes;         // empty: every probe
  std::vector<std::string> properties;  // empty: every subject-facing property
  int seeds = 20;
  std::uint64_t first_seed = 1;
  int cases = 0;  // 0: the properties label's default
  bool shrink = true;
  int shrink_seeds = 0;  // 0: every detecting seed
  std::optional<std::string> json;
};

// The bench's counts: plain decimal (core/decimal.hpp), at most 9 digits as before.
std::int64_t decimal(const std::string& flag, const std::string& text, std::int64_t min) {
  return static_cast<std::int64_t>(parity::decimal_in_range(text, flag, static_cast<std::uint64_t>(min), 999999999));
}

constexpr const char* kUsage =
    "usage: probe_detection [FAMILY...] [--probe NAME]... [--property NAME]... [--seeds N] [--first-seed S]\n"
    "                       [--cases N]\n"
    "                       [--no-shrink | --shrink-seeds M] [--json FILE] [--help]\n"
    "For each probe (of the FAMILYs named, else every family; --probe: only those) and seeds S..S+N-1\n"
    "(default 1..20): the family's properties (--property: only those) in rounds, --cases cases each (default the "
    "family's),\n"
    "shrinking off, until one detects it; then the detecting run again with shrinking on, for the\n"
    "first M detecting seeds (--shrink-seeds; default every one; --no-shrink: none). One row per probe:\n"
    "seeds detected, median cases and seconds to detect, median shrunk size, the detecting properties,\n"
    "the first shrunk case's extents. Exit 0: every probe detected in at least 95% of the seeds (19 of\n"
    "20); 1: not;"
    " 2: usage error.\n";

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 == argc) throw InputError(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--seeds") o.seeds = static_cast<int>(decimal(arg, value(), 1));
    else if (arg == "--first-seed") o.first_seed = static_cast<std::uint64_t>(decimal(arg, value(), 0));
    else if (arg == "--cases") o.cases = static_cast<int>(decimal(arg, value(), 1));
    else if (arg == "--no-shrink") o.shrink = false;
    else if (arg == "--shrink-seeds") o.shrink_seeds = static_cast<int>(decimal(arg, value(), 1));
    else if (arg == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--probe") o.probes.insert(value());
    else if (arg == "--property") o.properties.push_back(value());
    else if (arg == "--json") o.json = value();
    else if (arg.starts_with("-")) throw InputError("unknown flag '" + arg + "'");
    else o.families.push_back(arg);
  }
  if (!o.shrink && o.shrink_seeds) throw InputError("--no-shrink and --shrink-seeds exclude each other");
  return o;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

// The product of a case's dims, a 0 extent (no blocks, no straddles) counting as 1.
double case_size(const parity::Case& c) {
  double size = 1.0;
  for (const auto& [name, extent] : c.dims) size *= static_cast<double>(std::max<std::int64_t>(extent, 1));
  return size;
}

// "T=128 K=2 N=1 r=1": the case's extents.
std::string extents_text(const parity::Case& c) {
  std::string text;
  for (const auto& [name, extent] : c.dims) text += (text.empty() ? "" : " ") + name + "=" + std::to_string(extent);
  return text;
}

// One probe over every seed: its row of the table, and its per-seed figures in `seeds_json`.
bool measure_probe(const Family& family, const std::string& probe, const Options& o, nlohmann::json& seeds_json) {
  std::vector<double> cases, seconds, sizes;
  std::set<std::string> by;
  std::string first_shrunk = "-";
  int detected = 0, shrunk_seeds = 0;
  for (int k = 0; k < o.seeds; ++k) {
    parity::gen::RunConfig config;
    config.cases = o.cases;
    config.seed = o.first_seed + static_cast<std::uint64_t>(k);
    config.shrink = false;
    config.write_reproducer = false;
    const auto start = std::chrono::steady_clock::now();
    const auto detection = parity::gen::detect_probe(family, probe, config, o.properties);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    nlohmann::json row = {{"seed", *config.seed}, {"detected", detection.has_value()}, {"seconds", elapsed}};
    if (detection) {
      ++detected;
      by.insert(detection->property);
      cases.push_back(detection->cases_to_detect);
      seconds.push_back(elapsed);
      row["property"] = detection->property;
      row["cases_to_detect"] = detection->cases_to_detect;
      if (o.shrink && (o.shrink_seeds == 0 || shrunk_seeds < o.shrink_seeds)) {
        ++shrunk_seeds;
        config.shrink = true;
        config.cases = detection->result.case_count;  // the detecting run's count: its round's, the same cases
        const auto shrunk = family.run(probe, detection->property, config);
        if (shrunk.counterexample) {
          sizes.push_back(case_size(*shrunk.counterexample));
          if (sizes.size() == 1) first_shrunk = extents_text(*shrunk.counterexample);
          row["shrunk_case"] = shrunk.counterexample->summary();
          row["shrunk_size"] = sizes.back();
        }
      }
    }
    seeds_json.push_back(row);
  }
  std::string properties;
  for (const auto& p : by) properties += (properties.empty() ? "" : ",") + p;
  std::ostringstream seconds_text;  // its own stream: the precision stays off cout's later columns
  seconds_text << std::setprecision(3) << median(seconds);
  std::cout << std::left << std::setw(16) << family.name() << std::setw(34) << probe << std::right << std::setw(4)
            << detected << " of " << std::setw(3) << std::left << o.seeds << std::right << std::setw(10)
            << median(cases) << std::setw(10) << seconds_text.str() << std::setw(12)
            << (o.shrink ? std::to_string(static_cast<long long>(median(sizes))) : std::string("-")) << "  "
            << std::left << std::setw(36) << properties << " " << first_shrunk << std::right << "\n"
            << std::flush;
  return 20 * detected >= 19 * o.seeds;
}

}  // namespace

int main(int argc, char** argv) {
  parity::keep_freed_memory();   // before any thread (core/keep_freed_memory.hpp)
  parity::oracles::load_blas();  // before any thread (oracles/blas.hpp)
  try {
    const Options o = parse(argc, argv);
    std::vector<const Family*> selected;
    for (const auto& name : o.families) selected.push_back(&parity::registry::find_family(name));
    if (selected.empty()) selected = parity::registry::families();
    std::cout << "probe detection over seeds " << o.first_seed << ".." << o.first_seed + o.seeds - 1
              << ", cases per property:";
    for (const Family* family : selected)
      std::cout << " " << family->name() << " " << (o.cases ? o.cases : family->cases_per_property());
    std::cout << "\n"
              << std::left << std::setw(16) << "family" << std::setw(34) << "probe" << std::right << std::setw(12)
              << "detected" << std::setw(10) << "cases" << std::setw(10) << "seconds" << std::setw(12) << "shrunk size"
              << "  " << std::left << std::setw(36) << "by"
              << " first shrunk extents" << std::right << "\n";
    nlohmann::json report = nlohmann::json::array();
    bool all = true;
    for (const Family* family : selected)
      for (const auto& subject : family->subjects()) {
        if (subject.role != parity::gen::SubjectRole::probe) continue;
        if (!o.probes.empty() && !o.probes.count(subject.name)) continue;
        nlohmann::json seeds = nlohmann::json::array();
        all = measure_probe(*family, subject.name, o, seeds) && all;
        report.push_back({{"family", family->name()}, {"probe", subject.name}, {"seeds", seeds}});
      }
    if (o.json) parity::write_json_atomically({{"cases", o.cases}, {"probes", report}}, *o.json);
    std::cout << (all ? "every probe detected in at least 95% of the seeds\n"
                      : "some probe detected in fewer than 95% of the seeds\n");
    return all ? 0 : 1;
  } catch (const InputError& e) {
    std::cerr << "probe_detection: " << e.what() << "\n" << kUsage;
    return 2;
  }
}

#pragma once
// Reproducer files (schema "parity.repro/1"): a failing Case with the subject and property
// it failed, and what was observed. `parity replay FILE` re-runs it. Files are written by
// core/output_file.hpp's writer (a temporary file + rename), so a crash never leaves half a
// reproducer, and read by core/input_file.hpp's reader (a regular file of at most 4 MiB).
#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include <parity/core/case.hpp>
#include <parity/core/output_file.hpp>
#include <parity/core/verdict.hpp>

namespace parity {

inline constexpr const char* kReproSchema = "parity.repro/1";

struct Reproducer {
  std::string subject;   // e.g. "parity-host"
  std::string property;  // e.g. "rows_independent"
  Case failing_case;
  Verdict observed;  // the verdict when it was written

  friend bool operator==(const Reproducer&, const Reproducer&) = default;
};

// Also records "environment" (core/build_info.hpp: parity's version and commit, LibTorch, the
// CUDA runtime and device), which reproducer_from_json does not read back: provenance only.
nlohmann::json reproducer_to_json(const Reproducer& r);
// Throws InputError naming the field, or the schema if it is not one this parity reads. A subject
// under the former name of parity's own kernels, rlkernels-host or rlkernels-cuda, reads as
// parity-host or parity-cuda (current_subject_name): old reproducers replay on the same kernels.
Reproducer reproducer_from_json(const nlohmann::json& j);

// `name`, or the name it has now where parity's own subjects were renamed: rlkernels-host is
// parity-host, rlkernels-cuda is parity-cuda, alone or as the kernel a model or trajectory
// subject binds ("runtime-host+linear=rlkernels-host" is "runtime-host+linear=parity-host").
std::string current_subject_name(const std::string& name);

// "<family>-<property>-<subject>-<h>.json", h the FNV-1a 64 (core/stable_hash.hpp) of the case's
// canonical JSON (case_to_json(...).dump(): keys sorted, numbers in nlohmann's own shortest
// round-trip form), as 16 hex digits. The same on every machine and standard library, and
// independent of the observed verdict and the environment: the same failing case of the same
// property and subject always gets the same name, so a rerun overwrites rather than adds.
std::string reproducer_file_name(const Reproducer& r);

// Writes `r` into `dir` (created if missing) under reproducer_file_name(r); returns the path.
std::filesystem::path write_reproducer(const Reproducer& r, const std::filesystem::path& dir);
// Reads a reproducer; throws InputError "FILE: ..." for a missing file, one that is not a
// regular file or is larger than kMaxInputFileBytes, invalid JSON or a bad field.
Reproducer read_reproducer(const std::filesystem::path& path);

// The directory reproducers go to: $PARITY_REPRO_DIR, else "reports/repros".
std::filesystem::path default_repro_dir();

}  // namespace parity

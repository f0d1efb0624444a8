#pragma once
// The work and memory limits of a Case. Each family estimates, before it allocates or
// computes anything, the bytes its inputs take and the multiply-adds (or elements) one
// evaluation costs, and refuses a Case over its limit as input (exit 2) rather than running
// for minutes or being killed for memory. The limits per family are in docs/command.md.
#include <string>

namespace parity {

// 2^30 bytes (1 GiB): the inputs of one Case, as laid out. The peak of a check is a small
// multiple of it (copies, outputs, the oracle's float64 operands).
inline constexpr double kMaxCaseBytes = 0x1p30;

// Throws InputError "<field>: <quantity> is <value>, more than the limit of <limit_text>"
// when value > limit, e.g. "case.layouts: the operands as laid out take 1.2e+10 bytes, more
// than the limit of 2^30 bytes (1 GiB)".
void require_within(const std::string& field, const std::string& quantity, double value, double limit,
                    const std::string& limit_text);

// require_within for bytes against kMaxCaseBytes.
void require_case_bytes(const std::string& field, const std::string& quantity, double bytes);

}  // namespace parity

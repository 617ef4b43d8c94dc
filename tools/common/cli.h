// Command-line parsing shared by the invert tools, on CLI11.
//
// Why CLI11 rather than Abseil Flags (already a dependency of the library):
//   * our flags have dashes (--ram-mb, --max-docs); Abseil flag names are C++
//     identifiers and cannot;
//   * Abseil flags are process-global (defined at namespace scope), so a
//     parser cannot be built, run twice or tested in-process, and every
//     linked library's flags would show in --help;
//   * CLI11 gives positional arguments, per-option validators whose messages
//     name the option and its range, mutually exclusive options, and
//     generated help, with one header-only Debian package (libcli11-dev).
//
// Conventions every tool follows:
//   * a usage error (unknown flag, malformed or out-of-range value, missing
//     or conflicting arguments) prints "TOOL: MESSAGE" and a pointer to
//     --help on stderr and exits with kExitUsage (2);
//   * --help prints the generated help on stdout and exits 0;
//   * numbers are strict: decimal only, the whole value, in range, finite.
//
// CLI11 reports errors with exceptions; they never leave ParseCommandLine.
#ifndef INVERT_TOOLS_COMMON_CLI_H_
#define INVERT_TOOLS_COMMON_CLI_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "CLI/CLI.hpp"

namespace invert::tools {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Parses argv into `app`. Returns nullopt when the tool should go on, or the
// exit status to return: kExitOk after --help (printed), kExitUsage after a
// usage error (reported).
std::optional<int> ParseCommandLine(CLI::App& app, int argc, char** argv);

// Reports a usage error found after parsing ("TOOL: message" and the --help
// pointer) and returns kExitUsage.
int UsageError(const CLI::App& app, std::string_view message);

// ---- Validators. Each checks the value's text strictly and rewrites it to a
// canonical form before CLI11 converts it: CLI11 2.1's own conversion
// (strtoull/strtoll with base 0, strtold) would read "010" as octal, "-1" as
// 2^64-1 for an unsigned option, and accept "inf" and "nan".

// A decimal integer in [min, max]. Messages: "value 0 not in range [1 - 256]",
// "value abc is not an integer in [1 - 256]".
CLI::Validator UnsignedIn(uint64_t min, uint64_t max);
// A finite number (decimal or exponent notation) in [min, max], or (min, max]
// when min_exclusive. inf, nan and overflowing values are rejected.
CLI::Validator FiniteIn(double min, double max, bool min_exclusive = false);
// A count: decimal digits with an optional K, M or G suffix (powers of
// 1000, either case), in [min, max]; rewritten to plain digits.
CLI::Validator CountIn(uint64_t min, uint64_t max);

}  // namespace invert::tools

#endif  // INVERT_TOOLS_COMMON_CLI_H_

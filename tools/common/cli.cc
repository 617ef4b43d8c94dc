// Command-line parsing shared by the tools (see cli.h).
#include "common/cli.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include "absl/strings/str_format.h"

namespace invert::tools {
namespace {

std::string FormatNumber(double v) { return absl::StrFormat("%.15g", v); }

std::string RangeText(const std::string& min, const std::string& max, bool min_exclusive) {
  return absl::StrFormat("%s%s - %s]", min_exclusive ? "(" : "[", min, max);
}

// Parses all of `text` as an unsigned decimal. Returns false if it is not
// one (sign, spaces, other bases, trailing bytes); *overflow tells a number
// too large for 64 bits.
bool ParseUnsigned(std::string_view text, uint64_t* value, bool* overflow) {
  *overflow = false;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, *value, 10);
  if (text.empty() || ptr != end) return false;
  if (ec == std::errc::result_out_of_range) {
    *overflow = true;
    return false;
  }
  return ec == std::errc();
}

}  // namespace

std::optional<int> ParseCommandLine(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    return UsageError(app, e.what());
  }
  return std::nullopt;
}

int UsageError(const CLI::App& app, std::string_view message) {
  const std::string name = app.get_name();
  std::fprintf(stderr, "%s: %.*s\nrun '%s --help' for usage\n", name.c_str(),
               static_cast<int>(message.size()), message.data(), name.c_str());
  return kExitUsage;
}

CLI::Validator UnsignedIn(uint64_t min, uint64_t max) {
  const std::string range = RangeText(std::to_string(min), std::to_string(max), false);
  return CLI::Validator(
      [min, max, range](std::string& input) -> std::string {
        uint64_t value = 0;
        bool overflow = false;
        if (!ParseUnsigned(input, &value, &overflow)) {
          if (overflow) return "value " + input + " not in range " + range;
          return "value " + input + " is not an integer in " + range;
        }
        if (value < min || value > max) return "value " + input + " not in range " + range;
        input = std::to_string(value);
        return {};
      },
      "in " + range);
}

CLI::Validator FiniteIn(double min, double max, bool min_exclusive) {
  const std::string range = RangeText(FormatNumber(min), FormatNumber(max), min_exclusive);
  return CLI::Validator(
      [min, max, min_exclusive, range](std::string& input) -> std::string {
        double value = 0;
        const char* end = input.data() + input.size();
        const auto [ptr, ec] = std::from_chars(input.data(), end, value);
        if (input.empty() || ptr != end ||
            (ec != std::errc() && ec != std::errc::result_out_of_range)) {
          return "value " + input + " is not a number in " + range;
        }
        const bool below = min_exclusive ? !(value > min) : !(value >= min);
        if (ec != std::errc() || !std::isfinite(value) || below || !(value <= max)) {
          return "value " + input + " not in range " + range;
        }
        input = absl::StrFormat("%.17g", value);
        return {};
      },
      "in " + range);
}

CLI::Validator CountIn(uint64_t min, uint64_t max) {
  const std::string range = RangeText(std::to_string(min), std::to_string(max), false);
  return CLI::Validator(
      [min, max, range](std::string& input) -> std::string {
        std::string_view digits = input;
        uint64_t multiplier = 1;
        if (!digits.empty()) {
          switch (digits.back()) {
            case 'K':
            case 'k':
              multiplier = 1000;
              break;
            case 'M':
            case 'm':
              multiplier = 1000 * 1000;
              break;
            case 'G':
            case 'g':
              multiplier = 1000 * 1000 * 1000;
              break;
          }
          if (multiplier != 1) digits.remove_suffix(1);
        }
        uint64_t value = 0;
        bool overflow = false;
        if (!ParseUnsigned(digits, &value, &overflow)) {
          if (overflow) return "value " + input + " not in range " + range;
          return "value " + input + " is not a count (digits with an optional K, M or G) in " +
                 range;
        }
        if (value > max / multiplier) return "value " + input + " not in range " + range;
        value *= multiplier;
        if (value < min || value > max) return "value " + input + " not in range " + range;
        input = std::to_string(value);
        return {};
      },
      "in " + range + ", suffix K/M/G = 1e3/1e6/1e9");
}

}  // namespace invert::tools

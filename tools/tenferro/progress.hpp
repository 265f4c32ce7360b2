// A progress line on stderr for long work: "<what> <done>/<total>, <elapsed> s". On a terminal
// it is redrawn in place (at most every 0.1 s) and erased when the work ends; elsewhere each
// report is a line of its own (at most one a second, and the last step). --progress picks when
// it shows: auto (default) on a terminal (isatty of stderr) once the work has taken
// kDelaySeconds; on: from the first step, terminal or not (logs, tests); off: never.
#pragma once
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

namespace tenferro::cli {

enum class ProgressMode { automatic, on, off };

inline void add_progress_option(CLI::App* cmd, ProgressMode& mode) {
  cmd->add_option_function<std::string>(
         "--progress",
         [&mode](const std::string& v) {
           mode = v == "on" ? ProgressMode::on : v == "off" ? ProgressMode::off : ProgressMode::automatic;
         },
         "auto (default: on a terminal, for work past 1 s), on or off")
      ->check(CLI::IsMember({"auto", "on", "off"}));
}

class Progress {
 public:
  static constexpr double kDelaySeconds = 1.0;
  Progress(ProgressMode mode, std::string what, long total)
      : what_(std::move(what)), total_(total), t0_(std::chrono::steady_clock::now()),
        enabled_(mode == ProgressMode::on || (mode == ProgressMode::automatic && ::isatty(STDERR_FILENO) == 1)),
        tty_(::isatty(STDERR_FILENO) == 1),
        delay_(mode == ProgressMode::on ? 0.0 : kDelaySeconds) {}
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress() { clear(); }

  /// Reports that `done` of the total steps are done.
  void update(long done) {
    if (!enabled_) return;
    const double t = seconds();
    if (t < delay_ || (shown_ && done < total_ && t - last_ < (tty_ ? 0.1 : 1.0))) return;
    last_ = t;
    char line[160];
    const int n = std::snprintf(line, sizeof line, "%s %ld/%ld, %.1f s", what_.c_str(), done, total_, t);
    width_ = n > 0 ? static_cast<std::size_t>(n) : 0;
    std::fprintf(stderr, tty_ ? "\r%s" : "%s\n", line);
    std::fflush(stderr);
    shown_ = true;
  }
  /// Call before writing to stdout: where stdout shares the terminal, the line is erased (the
  /// next update draws it again below the output).
  void before_output() {
    if (shown_ && tty_ && ::isatty(STDOUT_FILENO) == 1) clear();
  }
  /// Erases the line on a terminal (elsewhere the lines stay, as a log).
  void clear() {
    if (!shown_ || !tty_) return;
    std::fprintf(stderr, "\r%s\r", std::string(width_, ' ').c_str());
    std::fflush(stderr);
    shown_ = false;
  }

 private:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  std::string what_;
  long total_;
  std::chrono::steady_clock::time_point t0_;
  bool enabled_, tty_;
  double delay_;
  double last_ = -1.0;
  bool shown_ = false;
  std::size_t width_ = 0;
};

}  // namespace tenferro::cli

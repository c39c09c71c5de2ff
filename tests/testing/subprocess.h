#pragma once

// Runs a program as a real child process, feeding it stdin and collecting its stdout and
// stderr without deadlocking on full pipes. End-to-end tests use it on the built binary.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace foreshock::testing {

struct ProcessResult {
  int exit_code = -1;  // the exit status, or 128 + signal number
  std::string out;
  std::string err;
};

struct ProcessOptions {
  std::string stdin_data;
  bool close_stdout_early = false;  // read nothing and close stdout at once (like `| head -0`)
  std::chrono::milliseconds timeout{60000};  // then the child is killed and the test fails
  std::string cwd;  // the child's working folder; empty: the test's
};

ProcessResult RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// Runs the built foreshock binary with `args`.
ProcessResult RunForeshock(const std::vector<std::string>& args, const ProcessOptions& options = {});

}  // namespace foreshock::testing

namespace foreshock::testing {

// A child process the test talks to while it runs: write to its stdin, wait for lines on
// its stdout. Killed (SIGKILL) if still running when destroyed.
class ChildProcess {
 public:
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  void Write(const std::string& data);
  void CloseStdin();
  // The next complete stdout line, or nullopt if none arrived within `timeout`.
  std::optional<std::string> ReadLine(std::chrono::milliseconds timeout);
  // Waits for exit; returns the exit status (128 + signal when killed).
  int Wait();

 private:
  int pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  std::string buffered_;
};

}  // namespace foreshock::testing

namespace foreshock::testing {

// Starts the built foreshock with `args` in the background, its stdout and stderr appended
// to the given files. Returns its pid.
int StartForeshock(const std::vector<std::string>& args, const std::string& out_path,
                   const std::string& err_path);
// Sends `signal` and waits; returns the exit status (128 + signal when killed).
int StopProcess(int pid, int signal);
// Polls `done` every 20 ms until it holds or `timeout` passes; returns its last value.
bool WaitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout);

}  // namespace foreshock::testing

#include "testing/subprocess.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <set>
#include <thread>

#include "testing/test_paths.h"

namespace foreshock::testing {
namespace {

void SetNonBlocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// Forks and execs `argv` with the given descriptors as its stdin, stdout and stderr (-1:
// inherited), in folder `cwd` (empty: this process's). Returns the child's pid.
pid_t Spawn(const std::vector<std::string>& argv, int in, int out, int err, const std::string& cwd = "") {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
  if (in >= 0) ::dup2(in, STDIN_FILENO);
  if (out >= 0) ::dup2(out, STDOUT_FILENO);
  if (err >= 0) ::dup2(err, STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  ::execvp(args[0], args.data());  // a bare name is looked up in PATH
  ::_exit(127);
}

}  // namespace

ProcessResult RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options) {
  ::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe failed";
    return {};
  }
  const pid_t pid = Spawn(argv, in[0], out[1], err[1], options.cwd);
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (options.close_stdout_early) {
    ::close(out[0]);
    out[0] = -1;
  }
  SetNonBlocking(in[1]);
  ProcessResult result;
  size_t written = 0;
  if (options.stdin_data.empty()) {
    ::close(in[1]);
    in[1] = -1;
  }
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  while (out[0] >= 0 || err[0] >= 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ADD_FAILURE() << "child timed out: " << argv[0];
      break;
    }
    pollfd fds[3] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}, {in[1], POLLOUT, 0}};
    if (::poll(fds, 3, 100) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        (i == 0 ? result.out : result.err).append(buf, static_cast<size_t>(got));
      } else if (got == 0 || errno != EAGAIN) {
        ::close(fds[i].fd);
        (i == 0 ? out[0] : err[0]) = -1;
      }
    }
    if (in[1] >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t put = ::write(in[1], options.stdin_data.data() + written,
                                  options.stdin_data.size() - written);
      if (put > 0) written += static_cast<size_t>(put);
      if (put < 0 && errno != EAGAIN) written = options.stdin_data.size();
      if (written == options.stdin_data.size()) {
        ::close(in[1]);
        in[1] = -1;
      }
    }
  }
  if (in[1] >= 0) ::close(in[1]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

ProcessResult RunForeshock(const std::vector<std::string>& args, const ProcessOptions& options) {
  std::vector<std::string> argv = {kForeshockBinary};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProcess(argv, options);
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  ::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe failed";
    return;
  }
  pid_ = Spawn(argv, in[0], out[1], -1);
  ::close(in[0]);
  ::close(out[1]);
  stdin_fd_ = in[1];
  stdout_fd_ = out[0];
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    Wait();
  }
  CloseStdin();
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
}

void ChildProcess::Write(const std::string& data) {
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t put = ::write(stdin_fd_, data.data() + done, data.size() - done);
    if (put <= 0) {
      ADD_FAILURE() << "write to child failed";
      return;
    }
    done += static_cast<size_t>(put);
  }
}

void ChildProcess::CloseStdin() {
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  stdin_fd_ = -1;
}

std::optional<std::string> ChildProcess::ReadLine(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (const size_t newline = buffered_.find('\n'); newline != std::string::npos) {
      std::string line = buffered_.substr(0, newline);
      buffered_.erase(0, newline + 1);
      return line;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd fd{stdout_fd_, POLLIN, 0};
    if (::poll(&fd, 1, static_cast<int>(left.count())) <= 0) continue;
    char buf[4096];
    const ssize_t got = ::read(stdout_fd_, buf, sizeof buf);
    if (got <= 0) return std::nullopt;
    buffered_.append(buf, static_cast<size_t>(got));
  }
}

int ChildProcess::Wait() {
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace foreshock::testing

namespace foreshock::testing {

namespace {

// Children started with StartForeshock and not stopped yet. A test that fails an ASSERT
// before StopProcess would leave its watcher running for ever: at the end of every test,
// whatever is left is killed.
std::mutex g_started_mutex;
std::set<pid_t> g_started;

class KillLeftoverChildren final : public ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo& /*test*/) override {
    std::set<pid_t> left;
    {
      std::lock_guard lock(g_started_mutex);
      left.swap(g_started);
    }
    for (pid_t pid : left) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  }
};

const bool g_listener_added = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new KillLeftoverChildren);
  return true;
}();

}  // namespace

int StartForeshock(const std::vector<std::string>& args, const std::string& out_path,
                   const std::string& err_path) {
  const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  std::vector<std::string> argv = {kForeshockBinary};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t pid = Spawn(argv, -1, out, err);
  ::close(out);
  ::close(err);
  std::lock_guard lock(g_started_mutex);
  g_started.insert(pid);
  return pid;
}

int StopProcess(int pid, int signal) {
  {
    std::lock_guard lock(g_started_mutex);
    g_started.erase(pid);
  }
  ::kill(pid, signal);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool WaitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

}  // namespace foreshock::testing

#include "deliver/exec_command.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

#include "base/command_words.h"
#include "base/write_all.h"
#include "sink/alert_json.h"

extern char** environ;

namespace foreshock {

ExecDestination::ExecDestination(std::string command, Duration timeout) : name_("exec:" + command), timeout_(timeout) {
  auto words = CommandWords(command);  // checked by the caller; a bad one is "no command"
  if (words.ok()) argv_ = std::move(words).value();
}

namespace {

// How much of each run's output is passed on; the rest is counted and dropped, so a chatty
// or runaway command cannot fill the journal.
constexpr size_t kMaxShownOutput = 64 * 1024;

// Reads what the command wrote so far (non-blocking), keeping up to the cap in *shown.
void DrainOutput(int fd, std::string* shown, size_t* dropped) {
  char buffer[16 * 1024];
  ssize_t got;
  while ((got = ::read(fd, buffer, sizeof buffer)) > 0) {
    const size_t keep = std::min(static_cast<size_t>(got), kMaxShownOutput - std::min(kMaxShownOutput, shown->size()));
    shown->append(buffer, keep);
    *dropped += static_cast<size_t>(got) - keep;
  }
}

}  // namespace

SendResult ExecDestination::Send(const nlohmann::json& alert) {
  if (argv_.empty()) return SendResult::Reject("exec: no command");
  const std::optional<std::string> failed = Run(alert);
  return failed ? SendResult::Retry(*failed) : SendResult::Ok();
}

std::optional<std::string> ExecDestination::Run(const nlohmann::json& alert) {
  int to_child[2];
  int from_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
  if (::pipe2(from_child, O_CLOEXEC) != 0) {
    ::close(to_child[0]);
    ::close(to_child[1]);
    return std::string("pipe: ") + std::strerror(errno);
  }
  ::fcntl(from_child[0], F_SETFL, O_NONBLOCK);  // only our end: the command writes as to any pipe
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, from_child[1], STDERR_FILENO);
  std::vector<char*> argv;
  for (std::string& word : argv_) argv.push_back(word.data());
  argv.push_back(nullptr);
  // foreshock ignores SIGPIPE and its threads block signals; the command starts afresh.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigset_t none;
  sigemptyset(&defaults);
  for (int signal : {SIGPIPE, SIGTERM, SIGINT, SIGHUP}) sigaddset(&defaults, signal);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(to_child[0]);
  ::close(from_child[1]);
  if (spawned != 0) {
    ::close(to_child[1]);
    ::close(from_child[0]);
    return name_ + ": cannot run: " + std::strerror(spawned);
  }
  std::string body = DumpAlertJson(alert);
  body.push_back('\n');
  (void)WriteAll(to_child[1], body, name_);  // a command that ignores its stdin may close it early
  ::close(to_child[1]);
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  std::string shown;
  size_t dropped = 0;
  std::optional<std::string> failed;
  int status = 0;
  while (true) {
    pollfd output{from_child[0], POLLIN, 0};
    ::poll(&output, 1, 5);
    DrainOutput(from_child[0], &shown, &dropped);
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      failed = name_ + ": waitpid: " + std::strerror(errno);
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      failed = name_ + ": killed after " + FormatDuration(timeout_);
      break;
    }
  }
  DrainOutput(from_child[0], &shown, &dropped);  // what it wrote just before exiting
  ::close(from_child[0]);
  (void)WriteAll(STDERR_FILENO, shown, "stderr");
  if (dropped > 0) {
    spdlog::warn("{}: {} more bytes of its output not shown (at most {} KiB of each run are)", name_, dropped,
                 kMaxShownOutput / 1024);
  }
  if (failed) return failed;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return std::nullopt;
  if (WIFEXITED(status)) return name_ + ": exited with status " + std::to_string(WEXITSTATUS(status));
  return name_ + ": killed by signal " + std::to_string(WTERMSIG(status));
}

}  // namespace foreshock

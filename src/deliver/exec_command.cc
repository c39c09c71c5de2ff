#include "deliver/exec_command.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <thread>

#include "base/write_all.h"
#include "sink/alert_json.h"

extern char** environ;

namespace foreshock {

ExecDestination::ExecDestination(std::string command, Duration timeout) : name_("exec:" + command), timeout_(timeout) {
  std::istringstream words(command);
  for (std::string word; words >> word;) argv_.push_back(word);
}

SendResult ExecDestination::Send(const nlohmann::json& alert) {
  if (argv_.empty()) return SendResult::Reject("exec: no command");
  int to_child[2];
  if (::pipe2(to_child, O_CLOEXEC) != 0) return SendResult::Retry(std::string("pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
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
  if (spawned != 0) {
    ::close(to_child[1]);
    return SendResult::Retry(name_ + ": cannot run: " + std::strerror(spawned));
  }
  std::string body = DumpAlertJson(alert);
  body.push_back('\n');
  (void)WriteAll(to_child[1], body, name_);  // a command that ignores its stdin may close it early
  ::close(to_child[1]);
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return SendResult::Retry(name_ + ": waitpid: " + std::strerror(errno));
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return SendResult::Retry(name_ + ": killed after " + FormatDuration(timeout_));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return SendResult::Ok();
  if (WIFEXITED(status)) return SendResult::Retry(name_ + ": exited with status " + std::to_string(WEXITSTATUS(status)));
  return SendResult::Retry(name_ + ": killed by signal " + std::to_string(WTERMSIG(status)));
}

}  // namespace foreshock

#pragma once

// ExecDestination runs a command for each alert with the alert's JSON on its stdin: the
// escape hatch for receivers foreshock does not speak (a pager CLI, a chat script). The
// command is split into words with shell-like quoting (base/command_words.h) and run
// directly, never through a shell, so nothing is expanded and nothing in an alert can be
// interpreted as shell syntax. Its stdout and stderr go to foreshock's stderr
// (stdout carries alerts only), at most 64 KiB of each run; the rest is counted and dropped. Exit status 0 means delivered; anything else, or running longer
// than the timeout (then it is killed), is retried.

#include <optional>
#include <string>
#include <vector>

#include "deliver/destination.h"

namespace foreshock {

class ExecDestination final : public Destination {
 public:
  ExecDestination(std::string command, Duration timeout);

  std::string_view name() const override { return name_; }
  SendResult Send(const nlohmann::json& alert) override;

 private:
  // Runs the command once; why it failed, or nullopt when it exited 0.
  std::optional<std::string> Run(const nlohmann::json& alert);

  std::string name_;
  std::vector<std::string> argv_;
  Duration timeout_;
};

}  // namespace foreshock

#include "app/main.h"

#include <signal.h>

#include <exception>
#include <iostream>

#include "app/verb.h"

#ifndef FORESHOCK_VERSION
#define FORESHOCK_VERSION "unknown"
#endif

namespace foreshock::app {
namespace {

void PrintHelp() {
  std::cout << "foreshock " FORESHOCK_VERSION
               " - finds the log lines that come before Elasticsearch outages\n\n"
               "Usage: foreshock VERB [OPTIONS] [ARGS]\n\nVerbs:\n";
  for (const Verb& verb : Verbs()) {
    std::cout << "  " << verb.name << std::string(10 - verb.name.size(), ' ') << verb.summary
              << "\n";
  }
  std::cout << "\nRun 'foreshock VERB --help' for a verb's options.\n"
               "Every verb reads a config file with --config FILE ([VERB] sections); "
               "'foreshock --print-config [VERB] [--config FILE]' shows the effective settings.\n"
               "Exit codes: 0 ok, 1 an alert fired (only with --fail-on-alert), 2 error, 3 some inputs could not be read in full.\n";
}

}  // namespace

const std::vector<Verb>& Verbs() {
  static const std::vector<Verb> verbs = {
      {"scan", "read log files or stdin to the end and print alerts as JSON lines", RunScan},
      {"replay", "postmortem: merge archived logs of many nodes by event time, with a summary and an HTML timeline",
       RunReplay},
      {"watch", "follow log files through rotation and restarts (the sidecar)", RunWatch},
      {"catalog", "list, explain, lint and test the precursor catalog", RunCatalog},
      {"match", "show which patterns hit each record and what they captured", RunMatch},
      {"baseline", "learn what a cluster normally says (build, merge, show), for --baseline", RunBaseline},
  };
  return verbs;
}

const Verb* FindVerb(std::string_view name) {
  for (const Verb& verb : Verbs()) {
    if (verb.name == name) return &verb;
  }
  return nullptr;
}

int Main(int argc, char** argv) {
  // A closed stdout must end the run quietly, not kill it: writes then fail with EPIPE.
  ::signal(SIGPIPE, SIG_IGN);
  try {
    const Args all(argv + 1, argv + argc);
    if (all.empty()) {
      PrintHelp();
      return kExitError;
    }
    const std::string& first = all.front();
    if (first == "--help" || first == "-h" || first == "help") {
      PrintHelp();
      return kExitOk;
    }
    if (first == "--version" || first == "-V") {
      std::cout << "foreshock " FORESHOCK_VERSION "\n";
      return kExitOk;
    }
    if (first == "--print-config") {
      // `foreshock --print-config [VERB] [OPTIONS]`: the sidecar's settings unless a verb is named.
      Args rest(all.begin() + 1, all.end());
      const bool names_verb = !rest.empty() && FindVerb(rest.front()) != nullptr;
      const Verb* verb = FindVerb(names_verb ? rest.front() : "watch");
      if (names_verb) rest.erase(rest.begin());
      rest.push_back("--print-config");
      return verb->run(rest);
    }
    if (const Verb* verb = FindVerb(first)) return verb->run(Args(all.begin() + 1, all.end()));
    return UsageError("unknown verb '" + first + "' (try 'foreshock --help')");
  } catch (const std::exception& e) {
    std::cerr << "foreshock: internal error: " << e.what() << "\n";
    return kExitError;
  }
}

}  // namespace foreshock::app

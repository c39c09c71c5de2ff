#pragma once

// The foreshock command line: verbs (scan, catalog, ...), their options and exit codes.
// main.cc only calls Main(); everything else lives in foreshock_core so tests run the same
// code the binary does.
//
// Exit codes: 0 success (also a closed stdout); 1 only with --fail-on-alert when an alert
// at warning or above fired; 2 a usage, configuration, catalog or input error, with a
// one-line reason on stderr; 3 the run finished, but some inputs were damaged, missing or
// unreadable (each named on stderr and passed over).

namespace foreshock::app {

// kExitDamaged: scan or replay finished, but some inputs were corrupt, truncated, missing or
// unreadable.
enum ExitCode : int { kExitOk = 0, kExitAlert = 1, kExitError = 2, kExitDamaged = 3 };

int Main(int argc, char** argv);

}  // namespace foreshock::app

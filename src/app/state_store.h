#pragma once

// The --state-dir of `foreshock watch`: one file, state.json, holding for every followed
// file its identity and the offset up to which its lines were fully processed, and the
// correlator's memory. It is replaced atomically (temporary file, optional fsync, rename), so
// a crash at any moment leaves either the old or the new state, never a torn one.

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "base/result.h"
#include "input/tail_source.h"

namespace foreshock::app {

struct SavedState {
  std::map<std::string, FilePosition> files;
  nlohmann::json correlation;  // Correlator::SaveState(); null when none was saved
  nlohmann::json self;         // SelfMonitor::SaveState(); null when none was saved
};

// nullopt when the directory holds no state yet. An unreadable, corrupt or newer state file
// is an error naming what is wrong (it is not silently replaced: that would re-send alerts).
Result<std::optional<SavedState>> LoadState(const std::string& dir);

// Renames an unusable state.json to state.json.unusable-<UTC time> (kept for a look, never
// read again); returns the new name. `watch --reset-state` then starts afresh.
Result<std::string> SetStateAside(const std::string& dir);

// `durable`: fsync the file and the directory (shutdown, periodic); without it the state
// survives a crash of foreshock but maybe not of the machine.
Status SaveState(const std::string& dir, const SavedState& state, bool durable);

}  // namespace foreshock::app

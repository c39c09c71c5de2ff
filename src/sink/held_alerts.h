#pragma once

// HeldAlerts knows which alerts a JSON-lines output file (stdout redirected to a file,
// `--output file:`) already holds, so that the file never gets one twice: a restarted
// `watch` regenerates the alerts of the lines it reads again, and when the previous run could
// not journal what it sent (its state dir on a full disk), only the file itself can tell.
// The identities (AlertIdentity(): fingerprint, action, stage, event time, so a genuine
// repeat cannot share one) of the alerts in the file's last 16 MiB are read once, at the
// first alert, then kept up to date with what is written, up to the newest 100,000. A pipe
// or terminal holds nothing that can be read back: every alert goes.

#include <deque>
#include <optional>
#include <string>
#include <unordered_set>

#include "correlate/alert.h"

namespace foreshock {

class HeldAlerts {
 public:
  static constexpr size_t kTailBytes = 16 << 20;
  static constexpr size_t kMaxRemembered = 100000;

  // Whether the file open (write-only) as `fd` holds `alert` already; if not, it is noted as
  // written (the caller writes it now).
  bool HoldsOrNote(int fd, const Alert& alert);
  // The descriptor now names another file (reopened after logrotate).
  void Forget() { read_.reset(); }

 private:
  void Remember(std::string identity);

  std::optional<bool> read_;  // set once the file was looked at: whether it can be read back
  std::unordered_set<std::string> identities_;
  std::deque<std::string> order_;  // oldest first, for the bound
};

}  // namespace foreshock

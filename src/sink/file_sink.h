#pragma once

// FileSink appends each alert as one line of JSON (the alert schema) to a file, the
// `--output file:PATH` destination. Every alert is one write(2) on an O_APPEND descriptor,
// so several writers and `tail -f` see whole lines. Reopen() (on SIGHUP) closes and opens
// the path again, so logrotate can move the file away. An alert the file already holds is
// not written again (HeldAlerts).

#include <memory>
#include <string>

#include "base/result.h"
#include "sink/held_alerts.h"
#include "sink/sink.h"

namespace foreshock {

class FileSink final : public Sink {
 public:
  // Opens (creates) `path` for appending.
  static Result<std::unique_ptr<FileSink>> Open(const std::string& path);
  ~FileSink() override;

  std::string_view name() const override { return name_; }
  Status Emit(const Alert& alert) override;
  // Opens the path again; the old descriptor is kept when that fails.
  Status Reopen();

 private:
  FileSink(std::string path, int fd) : path_(std::move(path)), name_("file:" + path_), fd_(fd) {}

  std::string path_;
  std::string name_;
  int fd_;
  HeldAlerts held_;
};

}  // namespace foreshock

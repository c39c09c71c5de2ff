#pragma once

// FanOutSink hands each alert to every configured output in turn (`--output` may be given
// several times). One output failing does not keep the alert from the others: each is
// tried, and the first error is returned once all were. A closed stdout stops the run only
// when it is the sole output.

#include <memory>
#include <vector>

#include "sink/sink.h"

namespace foreshock {

class FanOutSink final : public Sink {
 public:
  explicit FanOutSink(std::vector<std::unique_ptr<Sink>> outputs) : outputs_(std::move(outputs)) {}

  std::string_view name() const override { return "outputs"; }
  Status Emit(const Alert& alert) override;
  Status EmitUnlessHeld(const Alert& alert) override;

 private:
  Status EmitToEach(const Alert& alert, bool unless_held);

  std::vector<std::unique_ptr<Sink>> outputs_;
};

}  // namespace foreshock

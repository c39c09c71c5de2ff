#pragma once

// A Sink that keeps every alert it is given, in order, for tests to look at.

#include <vector>

#include "sink/sink.h"

namespace foreshock::testing {

class CollectingSink final : public Sink {
 public:
  explicit CollectingSink(std::vector<Alert>* alerts) : alerts_(alerts) {}
  std::string_view name() const override { return "collect"; }
  Status Emit(const Alert& alert) override {
    alerts_->push_back(alert);
    return Status();
  }

 private:
  std::vector<Alert>* alerts_;
};

}  // namespace foreshock::testing

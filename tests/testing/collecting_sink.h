#pragma once

// A Sink that keeps every alert it is given, in order, for tests to look at.

#include <memory>
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

// A Pipeline's sinks: one CollectingSink into *alerts.
inline std::vector<std::unique_ptr<Sink>> SinksCollectingInto(std::vector<Alert>* alerts) {
  std::vector<std::unique_ptr<Sink>> sinks;
  sinks.push_back(std::make_unique<CollectingSink>(alerts));
  return sinks;
}

}  // namespace foreshock::testing

#pragma once

// A Destination is a receiver that foreshock reaches over the network or a process:
// Alertmanager, a webhook, a command. It only knows how to hand over one alert; queueing,
// retries, spooling and ordering belong to DeliveryQueue, which calls it from one worker
// thread. To support a new receiver, implement this interface.

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/status.h"
#include "base/time.h"

namespace foreshock {

// What a failed Send means for the alert.
enum class Failure {
  kRetry,   // the receiver is down or busy: try again later, keep the order
  kReject,  // the receiver refused this alert for good (4xx): set it aside, go on
};

struct SendResult {
  Status status;
  Failure failure = Failure::kRetry;  // when !status.ok()

  static SendResult Ok() { return {}; }
  static SendResult Retry(std::string why) { return {Status::IoError(std::move(why)), Failure::kRetry}; }
  static SendResult Reject(std::string why) { return {Status::IoError(std::move(why)), Failure::kReject}; }
};

class Destination {
 public:
  virtual ~Destination() = default;
  Destination(const Destination&) = delete;
  Destination& operator=(const Destination&) = delete;

  // "alertmanager:http://...", as given to --output.
  virtual std::string_view name() const = 0;
  // Hands over one alert (the alert schema's JSON).
  virtual SendResult Send(const nlohmann::json& alert) = 0;
  // Receivers that forget (Alertmanager) are reminded of what is still firing this often;
  // zero for the others.
  virtual Duration refresh_interval() const { return Duration(0); }
  virtual SendResult Refresh() { return SendResult::Ok(); }

 protected:
  Destination() = default;
};

}  // namespace foreshock

// DeliveryQueue after a run killed while delivering: an alert that run had already spooled
// goes out once, from the spool, even when the journal makes the next run emit it again.

#include "deliver/delivery_queue.h"

#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "testing/temp_dir.h"

namespace foreshock {
namespace {

// A receiver that is down (every send fails, to be retried) or up (records each alert's
// message).
class RecordingDestination final : public Destination {
 public:
  RecordingDestination(bool up, std::vector<std::string>* received, std::mutex* mutex)
      : up_(up), received_(received), mutex_(mutex) {}
  std::string_view name() const override { return "recording"; }
  SendResult Send(const nlohmann::json& alert) override {
    if (!up_) return SendResult::Retry("down");
    std::lock_guard lock(*mutex_);
    received_->push_back(alert.value("message", ""));
    return SendResult::Ok();
  }

 private:
  bool up_;
  std::vector<std::string>* received_;
  std::mutex* mutex_;
};

class DeliveryQueueTest : public ::testing::Test {
 protected:
  DeliveryQueueTest() { rule_.id = "test.each"; }
  Alert MakeAlert(const std::string& fingerprint, const std::string& message) {
    Alert alert;
    alert.rule = &rule_;
    alert.action = Alert::Action::kFiring;
    alert.time = std::chrono::sys_days(std::chrono::year(2026) / 11 / 29) + std::chrono::hours(2);
    alert.fingerprint = fingerprint;
    alert.stage = 1;
    alert.message = message;
    return alert;
  }
  std::unique_ptr<DeliveryQueue> Queue(bool up) {
    auto spool = Spool::Open(dir_.path() + "/spool", 1 << 20);
    EXPECT_TRUE(spool.ok());
    return std::make_unique<DeliveryQueue>(std::make_unique<RecordingDestination>(up, &received_, &mutex_),
                                           std::move(spool).value(), RetryPolicy{std::chrono::milliseconds(5),
                                                                                  std::chrono::milliseconds(5)},
                                           "");
  }
  std::vector<std::string> Received() {
    std::lock_guard lock(mutex_);
    return received_;
  }

  testing::TempDir dir_;
  Rule rule_;
  std::mutex mutex_;
  std::vector<std::string> received_;
};

TEST_F(DeliveryQueueTest, AnAlertSpooledBeforeACrashIsNotSpooledAgainWhenEmittedUnlessHeld) {
  const Alert spooled = MakeAlert("f00d", "spooled before the crash");
  {
    auto down = Queue(/*up=*/false);
    ASSERT_TRUE(down->Emit(spooled).ok());
  }  // killed: the alert stays in the spool
  auto up = Queue(/*up=*/true);
  EXPECT_EQ(up->Drain(std::chrono::seconds(5)), 0u);
  ASSERT_EQ(Received(), std::vector<std::string>{"spooled before the crash"}) << "delivered from the spool";
  // The journal of the killed run had it "being sent": the new run emits it unless held.
  ASSERT_TRUE(up->EmitUnlessHeld(spooled).ok());
  // One it had not spooled goes out, even unless held.
  ASSERT_TRUE(up->EmitUnlessHeld(MakeAlert("beef", "never spooled")).ok());
  EXPECT_EQ(up->Drain(std::chrono::seconds(5)), 0u);
  EXPECT_EQ(Received(), (std::vector<std::string>{"spooled before the crash", "never spooled"}));
  // And Emit() itself still always delivers (the journal asks it only for alerts it never sent).
  ASSERT_TRUE(up->Emit(spooled).ok());
  EXPECT_EQ(up->Drain(std::chrono::seconds(5)), 0u);
  EXPECT_EQ(Received().size(), 3u);
}

}  // namespace
}  // namespace foreshock

// JournaledSink across a simulated SIGKILL: the journal a killed run left behind, with the
// alert it was sending marked "being sent", and the outputs as that run left them.

#include "sink/journaled_sink.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "sink/alert_json.h"
#include "sink/json_lines_sink.h"
#include "testing/temp_dir.h"

namespace foreshock {
namespace {

using testing::ReadFile;
using testing::TempDir;

class JournaledSinkTest : public ::testing::Test {
 protected:
  JournaledSinkTest() {
    rule_.id = "test.each";
    alert_.rule = &rule_;
    alert_.action = Alert::Action::kFiring;
    alert_.time = std::chrono::sys_days(std::chrono::year(2026) / 11 / 29) + std::chrono::hours(2);
    alert_.fingerprint = "f00d";
    alert_.stage = 1;
    alert_.message = "precursor 34";
    output_path_ = dir_.path() + "/alerts.jsonl";
    journal_path_ = dir_.path() + "/sent.journal";
  }
  ~JournaledSinkTest() override {
    if (output_fd_ >= 0) ::close(output_fd_);
  }

  // The previous run's journal: it began sending alert_ (and, if `finished`, completed it).
  void JournalFromKilledRun(bool finished) {
    const std::string key = "f00d firing 1 " + std::to_string(alert_.time.time_since_epoch().count());
    dir_.Write("sent.journal", "? " + key + "\n" + (finished ? key + "\n" : ""));
  }
  // stdout redirected to a file, write-only as a shell opens it, holding `contents`.
  std::unique_ptr<JournaledSink> SinkOverFile(const std::string& contents) {
    dir_.Write("alerts.jsonl", contents);
    output_fd_ = ::open(output_path_.c_str(), O_WRONLY | O_APPEND);
    return std::make_unique<JournaledSink>(journal_path_, std::make_unique<JsonLinesSink>(output_fd_),
                                           [] { return true; });
  }
  int CountInOutput() const {
    const std::string text = ReadFile(output_path_);
    int count = 0;
    for (size_t at = text.find("precursor 34"); at != std::string::npos; at = text.find("precursor 34", at + 1)) ++count;
    return count;
  }

  TempDir dir_;
  Rule rule_;
  Alert alert_;
  std::string output_path_;
  std::string journal_path_;
  int output_fd_ = -1;
};

TEST_F(JournaledSinkTest, KilledAfterWritingTheAlertItIsNotWrittenAgain) {
  JournalFromKilledRun(/*finished=*/false);
  auto sink = SinkOverFile("{\"not\":\"an alert\"}\n" + AlertToJsonLine(alert_));
  ASSERT_TRUE(sink->Emit(alert_).ok());
  EXPECT_EQ(CountInOutput(), 1);
}

TEST_F(JournaledSinkTest, KilledBeforeWritingTheAlertItIsWrittenNow) {
  JournalFromKilledRun(/*finished=*/false);
  Alert other = alert_;
  other.stage = 2;  // the same group's earlier stage is not this alert
  auto sink = SinkOverFile(AlertToJsonLine(other));
  ASSERT_TRUE(sink->Emit(alert_).ok());
  EXPECT_EQ(CountInOutput(), 2);
  EXPECT_NE(ReadFile(output_path_).find(AlertToJsonLine(alert_)), std::string::npos);
}

TEST_F(JournaledSinkTest, AnAlertJournaledAsSentIsSuppressed) {
  JournalFromKilledRun(/*finished=*/true);
  auto sink = SinkOverFile("");
  ASSERT_TRUE(sink->Emit(alert_).ok());
  EXPECT_EQ(CountInOutput(), 0);
  EXPECT_EQ(sink->suppressed(), 1u);
}

TEST_F(JournaledSinkTest, APipeCannotBeReadBackSoTheAlertIsSentAgainNeverLost) {
  JournalFromKilledRun(/*finished=*/false);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  {
    JournaledSink sink(journal_path_, std::make_unique<JsonLinesSink>(pipe_fds[1]), [] { return true; });
    ASSERT_TRUE(sink.Emit(alert_).ok());
  }
  ::close(pipe_fds[1]);
  char buffer[4096];
  const ssize_t got = ::read(pipe_fds[0], buffer, sizeof buffer);
  ::close(pipe_fds[0]);
  ASSERT_GT(got, 0);
  EXPECT_EQ(std::string(buffer, static_cast<size_t>(got)), AlertToJsonLine(alert_));
}

TEST_F(JournaledSinkTest, EveryAlertIsMarkedBeingSentBeforeItIsSent) {
  auto sink = SinkOverFile("");
  ASSERT_TRUE(sink->Emit(alert_).ok());
  const std::string key = "f00d firing 1 " + std::to_string(alert_.time.time_since_epoch().count());
  EXPECT_EQ(ReadFile(journal_path_), "? " + key + "\n" + key + "\n");
  // A second run that finds this journal suppresses the alert.
  JournaledSink restarted(journal_path_, std::make_unique<JsonLinesSink>(output_fd_), [] { return true; });
  ASSERT_TRUE(restarted.Emit(alert_).ok());
  EXPECT_EQ(CountInOutput(), 1);
}

// An alert some output holds in memory only (its spool hit a full disk) is not journaled as
// sent: a run killed before the spool was written produces it again, and it goes out.
TEST_F(JournaledSinkTest, AnAlertNotHeldDurablyStaysBeingSentSoARestartSendsItAgain) {
  dir_.Write("alerts.jsonl", "");
  output_fd_ = ::open(output_path_.c_str(), O_WRONLY | O_APPEND);
  {
    JournaledSink sink(journal_path_, std::make_unique<JsonLinesSink>(output_fd_), [] { return false; });
    ASSERT_TRUE(sink.Emit(alert_).ok());
  }
  const std::string key = "f00d firing 1 " + std::to_string(alert_.time.time_since_epoch().count());
  EXPECT_EQ(ReadFile(journal_path_), "? " + key + "\n");
  JournaledSink restarted(journal_path_, std::make_unique<JsonLinesSink>(output_fd_), [] { return true; });
  ASSERT_TRUE(restarted.Emit(alert_).ok());
  EXPECT_EQ(CountInOutput(), 1) << "a JSON-lines file that got it is not written twice; a spool that did not, is";
}

}  // namespace
}  // namespace foreshock

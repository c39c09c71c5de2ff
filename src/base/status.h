#pragma once

// Status is the outcome of an operation that can fail: OK, or a code plus a message
// written for the person reading foreshock's stderr. It is a cheap value type; an OK
// status holds no allocation. Used at every stage boundary instead of exceptions.

#include <string>
#include <utility>

namespace foreshock {

class [[nodiscard]] Status {
 public:
  enum class Code { kOk, kInvalidArgument, kNotFound, kIoError, kParseError, kInternal,
                    kClosed };  // kClosed: the reader went away (stdout piped to head)

  Status() = default;  // OK

  static Status InvalidArgument(std::string message) {
    return Status(Code::kInvalidArgument, std::move(message));
  }
  static Status NotFound(std::string message) {
    return Status(Code::kNotFound, std::move(message));
  }
  // Appends strerror(errno_value) to the message when errno_value is non-zero.
  static Status IoError(std::string message, int errno_value = 0);
  static Status ParseError(std::string message) {
    return Status(Code::kParseError, std::move(message));
  }
  static Status Closed(std::string message) { return Status(Code::kClosed, std::move(message)); }
  static Status Internal(std::string message) {
    return Status(Code::kInternal, std::move(message));
  }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}

  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace foreshock

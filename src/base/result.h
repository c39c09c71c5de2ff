#pragma once

// Result<T> holds either a value or a non-OK Status (std::expected by hand, until C++23).

#include <cassert>
#include <optional>
#include <utility>

#include "base/status.h"

namespace foreshock {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT: implicit by design
    assert(!status_.ok());
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  // REQUIRES: ok()
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

#define FORESHOCK_RETURN_IF_ERROR(expr)         \
  do {                                          \
    ::foreshock::Status status_macro_ = (expr); \
    if (!status_macro_.ok()) return status_macro_; \
  } while (false)

}  // namespace foreshock

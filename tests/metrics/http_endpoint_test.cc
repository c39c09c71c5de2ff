#include "metrics/http_endpoint.h"

#include <gtest/gtest.h>

namespace foreshock {
namespace {

TEST(ListenAddressTest, WhatPeopleWriteBecomesWhatCivetwebBinds) {
  EXPECT_EQ(*ParseListenAddress(":9745"), "0.0.0.0:9745") << "every interface, as Prometheus writes it";
  EXPECT_EQ(*ParseListenAddress("localhost:9745"), "127.0.0.1:9745");
  EXPECT_EQ(*ParseListenAddress("127.0.0.1:9745"), "127.0.0.1:9745");
  EXPECT_EQ(*ParseListenAddress("[::1]:9745"), "[::1]:9745");
  for (const char* bad : {"9745", "localhost:", "localhost:http", ":0", ":65536", "[::1:9745"}) {
    EXPECT_FALSE(ParseListenAddress(bad).ok()) << bad;
  }
  EXPECT_NE(ParseListenAddress("no-such-host.invalid:9745").status().message().find("cannot resolve"),
            std::string::npos);
}

}  // namespace
}  // namespace foreshock

#pragma once

// How a destination's URL is shown anywhere it can be read: logs, metrics labels, folder
// names, self-alerts. Webhook URLs carry secrets (user:password@, ?token=..., the path
// of a Slack or Teams hook), so only the scheme, host and port are shown, followed by a short
// hash of the rest: two destinations stay told apart, and nothing that opens the door leaks.

#include <string>
#include <string_view>

namespace foreshock {

// "https://user:pw@hooks.example.com:8443/T0/B1/XYZ?token=a" -> "https://hooks.example.com:8443/<redacted 1a2b3c4d>".
// A URL with nothing after the host is returned as it is; text that is not a URL is hashed whole.
std::string RedactedUrl(std::string_view url);

}  // namespace foreshock

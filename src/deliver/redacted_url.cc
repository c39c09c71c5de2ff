#include "deliver/redacted_url.h"

#include <cinttypes>
#include <cstdio>

#include "base/fnv1a.h"

namespace foreshock {

std::string RedactedUrl(std::string_view url) {
  char hash[20];
  std::snprintf(hash, sizeof hash, "%08" PRIx32, static_cast<uint32_t>(Fnv1a(url) >> 32));
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return std::string("<redacted ") + hash + ">";
  const size_t authority_begin = scheme_end + 3;
  const size_t authority_end = std::min(url.find_first_of("/?#", authority_begin), url.size());
  std::string_view authority = url.substr(authority_begin, authority_end - authority_begin);
  const bool has_userinfo = authority.rfind('@') != std::string_view::npos;
  if (has_userinfo) authority.remove_prefix(authority.rfind('@') + 1);
  std::string shown = std::string(url.substr(0, authority_begin)) + std::string(authority);
  const std::string_view rest = url.substr(authority_end);
  if (!has_userinfo && (rest.empty() || rest == "/")) return shown + std::string(rest);
  return shown + "/<redacted " + hash + ">";
}

}  // namespace foreshock

#pragma once

// CurlLibrary loads libcurl the first time an HTTP destination is configured, not when the
// program starts. Linked in, libcurl brings some thirty shared libraries (TLS, LDAP, SSH,
// Kerberos, IDN) whose loading and symbol binding cost about 20 ms at every start, which a
// `scan` of a small file, or a run that only writes to stdout, never needs. It owns the
// library handle, runs curl_global_init once, and hands out the entry points HttpClient
// uses. The library's SONAME is the one the build found (FORESHOCK_LIBCURL_SONAME).

#include <curl/curl.h>

#include "base/result.h"

namespace foreshock {

struct CurlLibrary {
  decltype(&curl_easy_init) easy_init;
  decltype(&curl_easy_cleanup) easy_cleanup;
  decltype(&curl_easy_reset) easy_reset;
  decltype(&curl_easy_setopt) easy_setopt;
  decltype(&curl_easy_perform) easy_perform;
  decltype(&curl_easy_getinfo) easy_getinfo;
  decltype(&curl_easy_strerror) easy_strerror;
  decltype(&curl_slist_append) slist_append;
  decltype(&curl_slist_free_all) slist_free_all;

  // The loaded library, or why it cannot be loaded (the same answer on every call; the
  // first call loads it and is thread-safe).
  static Result<const CurlLibrary*> Get();
};

}  // namespace foreshock

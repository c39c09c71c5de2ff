#include "deliver/curl_library.h"

#include <dlfcn.h>

#include <string>
#include <type_traits>

namespace foreshock {
namespace {

Result<const CurlLibrary*> Load() {
  void* handle = dlopen(FORESHOCK_LIBCURL_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) return Status::NotFound(std::string("HTTP destinations need libcurl: ") + dlerror());
  static CurlLibrary library;
  decltype(&curl_global_init) global_init = nullptr;
  std::string missing;
  auto resolve = [&](auto* entry, const char* name) {
    void* symbol = dlsym(handle, name);
    if (symbol == nullptr) missing += std::string(missing.empty() ? " " : ", ") + name;
    *entry = reinterpret_cast<std::remove_pointer_t<decltype(entry)>>(symbol);
  };
  resolve(&global_init, "curl_global_init");
  resolve(&library.easy_init, "curl_easy_init");
  resolve(&library.easy_cleanup, "curl_easy_cleanup");
  resolve(&library.easy_reset, "curl_easy_reset");
  resolve(&library.easy_setopt, "curl_easy_setopt");
  resolve(&library.easy_perform, "curl_easy_perform");
  resolve(&library.easy_getinfo, "curl_easy_getinfo");
  resolve(&library.easy_strerror, "curl_easy_strerror");
  resolve(&library.slist_append, "curl_slist_append");
  resolve(&library.slist_free_all, "curl_slist_free_all");
  if (!missing.empty()) return Status::NotFound(std::string(FORESHOCK_LIBCURL_SONAME) + " lacks" + missing);
  if (const CURLcode code = global_init(CURL_GLOBAL_DEFAULT); code != CURLE_OK) {
    return Status::Internal(std::string("curl_global_init failed: ") + library.easy_strerror(code));
  }
  return &library;  // the handle stays open for the life of the process
}

}  // namespace

Result<const CurlLibrary*> CurlLibrary::Get() {
  static const Result<const CurlLibrary*> loaded = Load();
  return loaded;
}

}  // namespace foreshock

// Fuzzes the catalog loader (YAML parsing, schema checks, RE2 compilation, rule wiring) with
// the input as one catalog file. Property: a catalog either loads with no errors, or fails
// with at least one error that names the file and says what is wrong; nothing in between.

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "catalog/catalog_loader.h"
#include "fuzz_check.h"

using namespace foreshock;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int fd = memfd_create("catalog.yaml", 0);
  FUZZ_CHECK(fd >= 0);
  size_t written = 0;
  while (written < size) {
    const ssize_t n = write(fd, data + written, size - written);
    FUZZ_CHECK(n > 0);
    written += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  LoadReport report;
  auto catalog = LoadCatalog({CatalogSource{path, CatalogSource::Layer::kUser}}, &report);
  close(fd);
  FUZZ_CHECK((catalog == nullptr) == report.has_errors());
  for (const Diagnostic& diagnostic : report.diagnostics()) {
    FUZZ_CHECK(!diagnostic.message.empty());
    FUZZ_CHECK(diagnostic.where.file == path);
  }
  return 0;
}

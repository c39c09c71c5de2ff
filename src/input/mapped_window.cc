#include "input/mapped_window.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>

namespace foreshock {
namespace {

// The windows mapped now, for the SIGBUS handler: a slot is claimed by a CAS on `begin` and
// its range published by `end`; the handler only reads them (lock-free, signal-safe).
struct Slot {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
  std::atomic<bool> cut{false};
};
std::array<Slot, MappedWindow::kMaxWindows> g_slots;
struct sigaction g_previous {};
uintptr_t g_page_bytes = 4096;

void OnSigbus(int /*signal*/, siginfo_t* info, void* /*context*/) {
  const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Slot& slot : g_slots) {
    const uintptr_t begin = slot.begin.load(std::memory_order_acquire);
    const uintptr_t end = slot.end.load(std::memory_order_acquire);
    if (begin == 0 || address < begin || address >= end) continue;
    // The file ends before this page now: zeros from here to the window's end, and the
    // faulting read is retried on them.
    const uintptr_t page = address & ~(g_page_bytes - 1);
    void* zeros = ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros != MAP_FAILED) {
      slot.cut.store(true, std::memory_order_release);
      return;
    }
    break;
  }
  // Not a window's: the action SIGBUS had before, which a faulting access meets when it is
  // retried, and a signal sent by kill() (no fault to retry) is sent again to meet.
  ::sigaction(SIGBUS, &g_previous, nullptr);
  if (info->si_code <= 0) ::raise(SIGBUS);
}

void InstallHandlerOnce() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    g_page_bytes = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    struct sigaction action {};
    action.sa_sigaction = OnSigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &g_previous);
  });
}

int ClaimSlot(uintptr_t begin, uintptr_t end) {
  for (size_t i = 0; i < g_slots.size(); ++i) {
    uintptr_t free = 0;
    if (g_slots[i].begin.compare_exchange_strong(free, begin, std::memory_order_acq_rel)) {
      g_slots[i].cut.store(false, std::memory_order_relaxed);
      g_slots[i].end.store(end, std::memory_order_release);
      return static_cast<int>(i);
    }
  }
  return -1;
}

}  // namespace

bool MappedWindow::Map(int fd, uint64_t offset, uint64_t file_size) {
  Unmap();
  if (offset >= file_size) return false;
  InstallHandlerOnce();
  const uint64_t page_offset = offset & ~static_cast<uint64_t>(g_page_bytes - 1);
  const auto skip = static_cast<size_t>(offset - page_offset);
  const size_t bytes = static_cast<size_t>(std::min<uint64_t>(kWindowBytes, file_size - offset));
  const size_t mapped = (skip + bytes + g_page_bytes - 1) & ~(g_page_bytes - 1);
  // Populated at once: one call maps the pages the scan is about to touch, where faulting
  // them in one by one costs more.
  void* mapping = ::mmap(nullptr, mapped, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, static_cast<off_t>(page_offset));
  if (mapping == MAP_FAILED) return false;
  const auto begin = reinterpret_cast<uintptr_t>(mapping);
  slot_ = ClaimSlot(begin, begin + mapped);
  if (slot_ < 0) {
    ::munmap(mapping, mapped);
    return false;
  }
  mapping_ = mapping;
  mapped_bytes_ = mapped;
  view_ = std::string_view(static_cast<const char*>(mapping) + skip, bytes);
  return true;
}

void MappedWindow::Unmap() {
  if (mapping_ == nullptr) return;
  Slot& slot = g_slots[static_cast<size_t>(slot_)];
  slot.end.store(0, std::memory_order_release);
  ::munmap(mapping_, mapped_bytes_);
  slot.begin.store(0, std::memory_order_release);
  mapping_ = nullptr;
  mapped_bytes_ = 0;
  view_ = {};
  slot_ = -1;
}

bool MappedWindow::cut() const {
  return slot_ >= 0 && g_slots[static_cast<size_t>(slot_)].cut.load(std::memory_order_acquire);
}

}  // namespace foreshock

#pragma once

// Where a source's reads land in memory. The kernel copies a read from the page cache with
// `rep movsb`, which AMD's Zen cores run several times slower when destination and source
// stand less than 64 bytes apart in their pages. File pages start on the page grid, and so,
// give or take a 16-byte header, does every buffer as large as a read chunk (malloc maps
// those): reading 1 GiB into one cost 0.5 s of system time instead of 0.1 s (AMD EPYC). So
// sources read into memory half a page off the grid.

#include <cstddef>
#include <cstdint>

namespace foreshock {

// How many bytes every source asks read() for at once.
inline constexpr size_t kReadChunkBytes = 256 * 1024;
inline constexpr size_t kPageBytes = 4096;

// How far past `at` the next address half a page off the page grid is: less than a page, so a
// buffer with kPageBytes to spare holds its full size from there.
inline size_t OffGridPad(const char* at) {
  const auto address = reinterpret_cast<uintptr_t>(at);
  return (kPageBytes / 2 - address % kPageBytes + kPageBytes) % kPageBytes;
}

}  // namespace foreshock

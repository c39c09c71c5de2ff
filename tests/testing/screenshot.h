#pragma once

// A rendered page as tests look at it: a PNG screenshot read into RGBA pixels (libpng), so
// a test can count the pixels of a colour it drew (an outage band, a plotted line).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace foreshock::testing {

struct Screenshot {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgba;  // row by row

  // Pixels within `tolerance` (per channel) of the colour, in rows [from_row, to_row).
  size_t CountNear(uint8_t r, uint8_t g, uint8_t b, int tolerance, uint32_t from_row = 0,
                   uint32_t to_row = UINT32_MAX) const;
  // The first row holding such a pixel, if any.
  std::optional<uint32_t> FirstRowWith(uint8_t r, uint8_t g, uint8_t b, int tolerance) const;
};

std::optional<Screenshot> ReadPng(const std::string& path);

}  // namespace foreshock::testing

// Table rendering: widths in code points, so UTF-8 names still line up.
#include "cli/table.h"

#include <algorithm>

namespace plx::cli {

namespace {

size_t Width(const std::string& s) {
  return static_cast<size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xc0) != 0x80; }));
}

}  // namespace

void Table::AddRow(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

std::string Table::Render(int indent) const {
  std::vector<size_t> widths(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = Width(columns_[c].title);
    for (const auto& row : rows_)
      widths[c] = std::max(widths[c], Width(row[c]));
  }
  std::string out;
  auto line = [&](auto cell) {
    std::string l(static_cast<size_t>(indent), ' ');
    for (size_t c = 0; c < columns_.size(); ++c) {
      const std::string& s = cell(c);
      const std::string pad(widths[c] - Width(s), ' ');
      if (c > 0) l += "  ";
      l += columns_[c].align == Align::kRight ? pad + s : s + pad;
    }
    while (!l.empty() && l.back() == ' ')
      l.pop_back();
    out += l;
    out += '\n';
  };
  line([&](size_t c) -> const std::string& { return columns_[c].title; });
  for (const auto& row : rows_)
    line([&](size_t c) -> const std::string& { return row[c]; });
  return out;
}

}  // namespace plx::cli

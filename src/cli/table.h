// Table: aligned text columns for human output (`parallax info`, `stats`).
#pragma once

#include <string>
#include <vector>

namespace plx::cli {

class Table {
 public:
  enum class Align { kLeft, kRight };
  struct Column {
    std::string title;
    Align align = Align::kLeft;
  };

  explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

  /// Adds a row; missing cells are empty, extra cells are ignored.
  void AddRow(std::vector<std::string> cells);
  size_t rows() const { return rows_.size(); }

  /// The header and rows, each line indented by `indent` spaces, columns two
  /// spaces apart, no trailing spaces.
  std::string Render(int indent = 2) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace plx::cli

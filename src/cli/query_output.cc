#include "cli/query_output.h"

#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include "cli/table.h"

namespace plx::cli {

StatusOr<std::unique_ptr<query::QueryEngine>> OpenQueryEngine(const store::TraceStore& store,
                                                              PipelineProgress& progress) {
  return query::QueryEngine::Open(store,
                                  [&progress](const char* what, uint64_t done, uint64_t total) {
                                    progress.Update(what, done, total);
                                    if (done >= total) progress.End();
                                  });
}

namespace {

class TablePrinter : public query::RowSink {
 public:
  explicit TablePrinter(std::FILE* out) : out_(out) {}
  void Begin(const std::vector<std::string>& columns) override {
    std::vector<Table::Column> titles;
    for (const std::string& c : columns)
      titles.push_back({c});
    table_ = std::make_unique<Table>(std::move(titles));
  }
  void Row(const std::vector<query::Value>& values) override {
    std::vector<std::string> cells;
    for (const query::Value& v : values)
      cells.push_back(QueryCellText(v));
    table_->AddRow(std::move(cells));
  }
  void End(bool truncated) override {
    const size_t n = table_->rows();
    fmt::print(out_, "{}", table_->Render(0));
    fmt::print(out_, "({} row{}{})\n", n, n == 1 ? "" : "s", truncated ? ", more not shown" : "");
    std::fflush(out_);
  }

 private:
  std::FILE* out_;
  std::unique_ptr<Table> table_;
};

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

class CsvPrinter : public query::RowSink {
 public:
  explicit CsvPrinter(std::FILE* out) : out_(out) {}
  void Begin(const std::vector<std::string>& columns) override { Line(columns); }
  void Row(const std::vector<query::Value>& values) override {
    std::vector<std::string> cells;
    for (const query::Value& v : values)
      cells.push_back(QueryCellText(v));
    Line(cells);
  }
  void End(bool) override { std::fflush(out_); }

 private:
  void Line(const std::vector<std::string>& cells) {
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i)
      line += (i ? "," : "") + CsvField(cells[i]);
    fmt::print(out_, "{}\r\n", line);
  }
  std::FILE* out_;
};

class JsonPrinter : public query::RowSink {
 public:
  explicit JsonPrinter(std::FILE* out) : out_(out) {}
  void Begin(const std::vector<std::string>& columns) override {
    columns_ = columns;
    rows_ = 0;
    fmt::print(out_, "[");
  }
  void Row(const std::vector<query::Value>& values) override {
    nlohmann::ordered_json o = nlohmann::ordered_json::object();
    for (size_t i = 0; i < values.size(); ++i) {
      const query::Value& v = values[i];
      switch (v.kind) {
        case query::Value::kInt:
          o[columns_[i]] = v.i;
          break;
        case query::Value::kReal:
          o[columns_[i]] = v.d;
          break;
        case query::Value::kText:
          o[columns_[i]] = v.s;
          break;
        default:
          o[columns_[i]] = nullptr;
      }
    }
    fmt::print(out_, "{}\n  {}", rows_++ ? "," : "",
               o.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  }
  void End(bool) override {
    fmt::print(out_, "{}]\n", rows_ ? "\n" : "");
    std::fflush(out_);
  }

 private:
  std::FILE* out_;
  std::vector<std::string> columns_;
  uint64_t rows_ = 0;
};

}  // namespace

std::string QueryCellText(const query::Value& v) {
  switch (v.kind) {
    case query::Value::kInt:
      return std::to_string(v.i);
    case query::Value::kReal:
      return fmt::format("{}", v.d);
    case query::Value::kText:
      return v.s;
    default:
      return "";
  }
}

std::unique_ptr<query::RowSink> MakeQueryPrinter(QueryFormat format, std::FILE* out) {
  switch (format) {
    case QueryFormat::kCsv:
      return std::make_unique<CsvPrinter>(out);
    case QueryFormat::kJson:
      return std::make_unique<JsonPrinter>(out);
    default:
      return std::make_unique<TablePrinter>(out);
  }
}

}  // namespace plx::cli

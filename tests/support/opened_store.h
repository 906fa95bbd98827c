// Test helpers for the store tests (header only; link plx_store): a trace
// file opened as a trace store, with the warnings the open gave, and whole
// files read and written as bytes (to damage indexes).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "format/trace_file.h"
#include "store/trace_store.h"

namespace plx::store {

struct Opened {
  std::unique_ptr<format::TraceFile> file;
  std::unique_ptr<TraceStore> store;  // null when the open failed (a failed expectation)
  std::vector<std::string> warnings;
};

inline std::unique_ptr<Opened> Open(const std::string& path, IndexSettings index = {}) {
  auto out = std::make_unique<Opened>();
  auto file = format::TraceFile::Open(path);
  EXPECT_TRUE(file.ok()) << file.status().message();
  if (!file.ok()) return out;
  out->file = std::move(*file);
  StoreOptions options;
  options.index = index;
  Opened* o = out.get();
  options.warn = [o](const std::string& line) { o->warnings.push_back(line); };
  auto store = TraceStore::Open(*out->file, options);
  EXPECT_TRUE(store.ok()) << store.status().message();
  if (store.ok()) out->store = std::move(*store);
  return out;
}

inline std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

}  // namespace plx::store

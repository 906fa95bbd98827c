// Resources: thread count and memory budget defaults, and byte sizes as
// people write them.
#include "base/resources.h"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <string>

#include "base/thread_pool.h"

namespace plx {

size_t Resources::Threads() const {
  return threads > 0 ? threads : HardwareThreads();
}

uint64_t Resources::Memory() const {
  return memory_bytes > 0 ? memory_bytes : DefaultMemoryBudget();
}

uint64_t PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
}

uint64_t DefaultMemoryBudget() {
  const uint64_t ram = PhysicalMemoryBytes();
  return ram > 0 ? ram / 4 : uint64_t{1} << 30;
}

StatusOr<uint64_t> ParseByteSize(std::string_view text) {
  const std::string original(text);
  auto bad = [&] {
    return InvalidArgument("'" + original + "' is not a size (examples: 4G, 512M, 1.5GiB, 100000)");
  };
  while (!text.empty() && text.back() == ' ')
    text.remove_suffix(1);
  size_t digits = 0;
  while (digits < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.'))
    ++digits;
  if (digits == 0) return bad();
  const std::string number(text.substr(0, digits));
  if (number.find('.') != number.rfind('.') || number == ".") return bad();
  std::string unit(text.substr(digits));
  while (!unit.empty() && unit.front() == ' ')
    unit.erase(unit.begin());
  for (char& c : unit)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && unit.back() == 'b') unit.pop_back();
  if (unit.size() > 1 && unit.back() == 'i') unit.pop_back();
  double scale = 1;
  if (unit.empty() || unit == "b") {
    scale = 1;
  } else if (unit == "k") {
    scale = 1024.0;
  } else if (unit == "m") {
    scale = 1024.0 * 1024;
  } else if (unit == "g") {
    scale = 1024.0 * 1024 * 1024;
  } else if (unit == "t") {
    scale = 1024.0 * 1024 * 1024 * 1024;
  } else {
    return bad();
  }
  const double value = std::stod(number) * scale;
  if (!std::isfinite(value) || value < 1 || value >= 1.8e19) return bad();
  return static_cast<uint64_t>(value);
}

}  // namespace plx

// perf_event_open groups and their ring buffers: the sample layout follows
// from sample_type TIME|CPU|READ and read_format GROUP|TOTAL_TIME_ENABLED|
// TOTAL_TIME_RUNNING (perf_event_open(2)).
#include "counters/perf_group.h"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "base/strings.h"

namespace plx::counters {
namespace {

constexpr size_t kReadHeaderWords = 3;  // nr, time_enabled, time_running

int OpenEvent(uint32_t type, uint64_t config, int group_fd, uint64_t period_ns) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = type;
  attr.config = config;
  attr.read_format =
      PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  attr.exclude_hv = 1;
  // The leader starts disabled and is enabled once the group is complete:
  // members added to a running group would only start at the thread's next
  // context switch (seen: a task-clock sampler silent for 25 ms of CPU time).
  attr.disabled = group_fd < 0 ? 1 : 0;
  attr.use_clockid = 1;  // sample times on CLOCK_MONOTONIC; members must match the leader
  attr.clockid = CLOCK_MONOTONIC;
  if (period_ns > 0) {
    attr.sample_period = period_ns;
    attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_READ;
  }
  // User and kernel counts where allowed (perf_event_paranoid <= 1, root,
  // CAP_PERFMON), else user-space only (allowed up to perf_event_paranoid 2).
  // A sampling leader that excluded the kernel would also skip every sample
  // whose period ends in a system call.
  int fd = static_cast<int>(
      ::syscall(SYS_perf_event_open, &attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC));
  if (fd < 0 && (errno == EACCES || errno == EPERM)) {
    attr.exclude_kernel = 1;
    fd = static_cast<int>(
        ::syscall(SYS_perf_event_open, &attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC));
  }
  return fd;
}

int Paranoid() {
  FILE* f = std::fopen("/proc/sys/kernel/perf_event_paranoid", "r");
  if (f == nullptr) return -100;
  int v = -100;
  if (std::fscanf(f, "%d", &v) != 1) v = -100;
  std::fclose(f);
  return v;
}

}  // namespace

std::string OpenFailure(const std::string& name, int err) {
  std::string why;
  switch (err) {
    case EACCES:
    case EPERM: {
      const int p = Paranoid();
      why = p == -100 ? std::string("not allowed by the kernel")
                      : StrFormat(
                            "not allowed: kernel.perf_event_paranoid is %d; user-space "
                            "counts need 2 or less (sysctl kernel.perf_event_paranoid=2) "
                            "or CAP_PERFMON",
                            p);
      break;
    }
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
      why =
          "not supported by this CPU or kernel (virtual machines often have no hardware "
          "counters)";
      break;
    case ENOSYS:
      why = "this kernel has no perf_event_open";
      break;
    case EINVAL:
      why = "rejected by the kernel (no such event code on this CPU?)";
      break;
    case EMFILE:
    case ENFILE:
      why = "too many open files";
      break;
    default:
      why = "cannot be opened";
  }
  return StrFormat("counter '%s' unavailable: %s (perf_event_open: %s)", name.c_str(), why.c_str(),
                   std::strerror(err));
}

bool PerfGroup::Open(const std::vector<EventSpec>& events, uint64_t period_ns, size_t ring_pages,
                     std::string* error) {
  Close();
  const size_t n = events.size() < kMaxEvents ? events.size() : kMaxEvents;
  slot_.assign(events.size(), -1);
  // The leader is a counting event that is not a clock: software events in a
  // group led by task-clock or cpu-clock were seen to lose their counts.
  // Clocks follow, and last the task-clock member whose samples carry the
  // values of the whole group (PERF_SAMPLE_READ with PERF_FORMAT_GROUP).
  std::vector<size_t> order;
  for (size_t i = 0; i < n; ++i)
    if (!events[i].is_time) order.push_back(i);
  for (size_t i = 0; i < n; ++i)
    if (events[i].is_time) order.push_back(i);
  for (size_t i : order) {
    const int fd = OpenEvent(events[i].type, events[i].config, leader_, 0);
    if (fd < 0) {
      if (error->empty()) *error = OpenFailure(events[i].name, errno);
      continue;
    }
    if (leader_ < 0) leader_ = fd;
    fds_.push_back(fd);
    slot_[i] = static_cast<int>(members_++);
  }
  if (period_ns == 0) return Enable();
  const EventSpec clock = TaskClock();
  const int sampler = OpenEvent(clock.type, clock.config, leader_, period_ns);
  if (sampler < 0) {
    *error = "no periodic samples: " + OpenFailure(clock.name, errno);
    return Enable();
  }
  if (leader_ < 0) leader_ = sampler;
  fds_.push_back(sampler);
  ++members_;
  const long page = ::sysconf(_SC_PAGESIZE);
  int mmap_errno = 0;
  for (size_t pages = ring_pages; pages >= 1 && ring_ == nullptr; pages /= 2) {
    void* m = ::mmap(nullptr, (pages + 1) * static_cast<size_t>(page), PROT_READ | PROT_WRITE,
                     MAP_SHARED, sampler, 0);
    if (m != MAP_FAILED) {
      ring_ = m;
      ring_bytes_ = pages * static_cast<size_t>(page);
    } else {
      mmap_errno = errno;
    }
  }
  if (ring_ == nullptr && error->empty())
    *error = StrFormat(
        "no periodic samples: the kernel refused the sample buffer (mmap: %s; "
        "see kernel.perf_event_mlock_kb and ulimit -l)",
        std::strerror(mmap_errno));
  return Enable();
}

bool PerfGroup::Enable() {
  if (leader_ < 0) return false;
  if (::ioctl(leader_, PERF_EVENT_IOC_ENABLE, 0) == 0) return true;
  Close();
  return false;
}

void PerfGroup::Close() {
  if (ring_ != nullptr) ::munmap(ring_, ring_bytes_ + static_cast<size_t>(::sysconf(_SC_PAGESIZE)));
  ring_ = nullptr;
  ring_bytes_ = 0;
  for (int fd : fds_)
    ::close(fd);
  fds_.clear();
  slot_.clear();
  leader_ = -1;
  members_ = 0;
  tail_ = 0;
  given_ = 0;
}

bool PerfGroup::Values(const uint64_t* group, size_t words, uint64_t* values) const {
  if (words < kReadHeaderWords || group[0] != members_ || words < kReadHeaderWords + members_)
    return false;
  // Raw counts, not scaled by time_enabled / time_running: in samples those
  // times disagree with a read(2)'s (seen: enabled 4.9 ms, running 1.0 ms for
  // a thread that ran all along), and scaled values would not be monotonic.
  if (group[2] == 0) return false;  // never on a CPU: no counts to give
  for (size_t i = 0; i < slot_.size(); ++i)
    if (slot_[i] >= 0) values[i] = group[kReadHeaderWords + static_cast<size_t>(slot_[i])];
  return true;
}

bool PerfGroup::Read(uint64_t* values) const {
  if (leader_ < 0) return false;
  uint64_t buf[kReadHeaderWords + kMaxEvents + 1];
  const ssize_t got = ::read(leader_, buf, sizeof buf);
  if (got <= 0) return false;
  return Values(buf, static_cast<size_t>(got) / 8, values);
}

void PerfGroup::CopyOut(uint64_t pos, void* dst, size_t n) const {
  const char* data = static_cast<const char*>(ring_) + ::sysconf(_SC_PAGESIZE);
  const size_t at = static_cast<size_t>(pos % ring_bytes_);
  const size_t first = n < ring_bytes_ - at ? n : ring_bytes_ - at;
  std::memcpy(dst, data + at, first);
  if (first < n) std::memcpy(static_cast<char*>(dst) + first, data, n - first);
}

bool PerfGroup::pending() const {
  if (ring_ == nullptr) return false;
  const auto* meta = static_cast<const perf_event_mmap_page*>(ring_);
  return __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE) != tail_;
}

bool PerfGroup::NextSample(RingSample* out) {
  if (ring_ == nullptr) return false;
  auto* meta = static_cast<perf_event_mmap_page*>(ring_);
  const uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  while (tail_ < head) {
    perf_event_header h;
    CopyOut(tail_, &h, sizeof h);
    if (h.size < sizeof h || h.size > ring_bytes_) {  // cannot happen; never loop on it
      tail_ = head;
      break;
    }
    uint64_t body[4 + kReadHeaderWords + kMaxEvents + 1] = {};
    const size_t want = h.size - sizeof h < sizeof body ? h.size - sizeof h : sizeof body;
    CopyOut(tail_ + sizeof h, body, want);
    tail_ += h.size;
    if (h.type == PERF_RECORD_LOST) {
      lost_ += body[1];  // {id, lost}
    } else if (h.type == PERF_RECORD_SAMPLE && want >= 16) {
      out->time_ns = body[0];
      out->cpu = static_cast<uint32_t>(body[1]);
      out->valid = Values(body + 2, want / 8 - 2, out->values);
      return true;
    }
  }
  if (tail_ != given_) {  // give the space read back to the kernel
    __atomic_store_n(&meta->data_tail, tail_, __ATOMIC_RELEASE);
    given_ = tail_;
  }
  return false;
}

uint64_t PerfGroup::TakeLost() {
  const uint64_t n = lost_;
  lost_ = 0;
  return n;
}

}  // namespace plx::counters

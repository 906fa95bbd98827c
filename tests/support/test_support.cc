// Test helpers: temp dirs, build/source paths, running child programs.
#include "support/test_support.h"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace plx::testing {

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "plx-test-XXXXXX").string();
  char* p = ::mkdtemp(tmpl.data());
  path_ = p ? p : "/tmp";
}

TempDir::~TempDir() {
  std::error_code ec;
  if (path_ != "/tmp") std::filesystem::remove_all(path_, ec);
}

// The environment variable wins, then the directory this build was configured with.
static std::string Under(const char* var, const char* fallback, const std::string& relative) {
  const char* base = std::getenv(var);
  if (base == nullptr || *base == 0) base = fallback;
  return std::string(base) + "/" + relative;
}

std::string BuildPath(const std::string& relative) {
  return Under("PLX_BINARY_DIR", PLX_BINARY_DIR_DEFAULT, relative);
}
std::string SourcePath(const std::string& relative) {
  return Under("PLX_SOURCE_DIR", PLX_SOURCE_DIR_DEFAULT, relative);
}

namespace {
// Starts argv with stdout and stderr on a pipe; returns the pid (or -1) and the read end.
int Spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env, int* out_fd) {
  int pipefd[2];
  if (::pipe(pipefd) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipefd[1], 2);
  posix_spawn_file_actions_addclose(&actions, pipefd[0]);
  // `env` entries replace inherited ones of the same name.
  auto name_of = [](const std::string& e) { return e.substr(0, e.find('=')); };
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) {
    std::string entry(*e);
    bool replaced = false;
    for (const std::string& x : env)
      replaced = replaced || name_of(x) == name_of(entry);
    if (!replaced) envs.push_back(std::move(entry));
  }
  for (const std::string& e : env)
    envs.push_back(e);
  std::vector<char*> args, envp;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const std::string& e : envs)
    envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid;
  int rc = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipefd[1]);
  if (rc != 0) {
    ::close(pipefd[0]);
    return -1;
  }
  *out_fd = pipefd[0];
  return pid;
}

void Reap(int pid, RunResult* result) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status)) result->exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result->signal = WTERMSIG(status);
}
}  // namespace

RunResult RunProgramStdout(const std::vector<std::string>& argv) {
  std::string command;
  for (const std::string& a : argv) {
    command += command.empty() ? "'" : " '";
    for (char c : a)
      command += c == '\'' ? std::string("'\\''") : std::string(1, c);
    command += "'";
  }
  return RunProgram({"/bin/sh", "-c", command + " 2>/dev/null"});
}

RunResult RunProgram(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  RunResult result;
  int fd = -1;
  int pid = Spawn(argv, env, &fd);
  if (pid < 0) {
    result.exit_code = 127;
    result.output = "cannot start " + argv[0];
    return result;
  }
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0)
    result.output.append(buf, n);
  ::close(fd);
  Reap(pid, &result);
  return result;
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv,
                           const std::vector<std::string>& env) {
  pid_ = Spawn(argv, env, &fd_);
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    Wait();
  }
}

bool ChildProcess::ReadLine(std::string* line, int timeout_ms) {
  for (;;) {
    size_t nl = buffered_.find('\n');
    if (nl != std::string::npos) {
      *line = buffered_.substr(0, nl);
      buffered_.erase(0, nl + 1);
      return true;
    }
    struct pollfd pfd = {fd_, POLLIN, 0};
    if (fd_ < 0 || ::poll(&pfd, 1, timeout_ms) <= 0) return false;
    char buf[4096];
    ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n <= 0) return false;
    buffered_.append(buf, n);
  }
}

void ChildProcess::Signal(int sig) {
  if (pid_ > 0) ::kill(pid_, sig);
}

bool ChildProcess::Running() const {
  if (pid_ <= 0) return false;
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0)
    return false;
  return info.si_pid == 0;  // WNOHANG: no state change yet
}

RunResult ChildProcess::Wait() {
  RunResult result;
  if (pid_ <= 0) return result;
  result.output = buffered_;
  buffered_.clear();
  char buf[4096];
  ssize_t n;
  while (fd_ >= 0 && (n = ::read(fd_, buf, sizeof buf)) > 0)
    result.output.append(buf, n);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  Reap(pid_, &result);
  pid_ = -1;
  return result;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace plx::testing

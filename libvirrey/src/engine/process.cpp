#include "virrey/engine/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>

namespace virrey::engine {

namespace {
// The longest line kept from an engine; a longer one is cut (an engine that
// writes without newlines cannot grow our memory).
constexpr std::size_t kMaxLine = 1 << 16;

// The children running, for kill_running_processes: slots a signal handler
// may read (lock-free atomics in storage that never moves). A child beyond
// the slots is only not killed that way.
std::array<std::atomic<pid_t>, 256> running_children{};
static_assert(std::atomic<pid_t>::is_always_lock_free);

void track(pid_t pid) {
  for (auto& slot : running_children) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pid)) return;
  }
}

void untrack(pid_t pid) {
  for (auto& slot : running_children) {
    pid_t expected = pid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}
}  // namespace

void kill_running_processes() noexcept {
  for (auto& slot : running_children)
    if (const pid_t pid = slot.load(); pid > 0) ::kill(pid, SIGKILL);
}

Process::~Process() { kill(); }

Status Process::start(const std::vector<std::string>& argv) {
  // A write to an engine that died must fail (EPIPE), not end virrey.
  static const bool sigpipe_ignored = [] { return signal(SIGPIPE, SIG_IGN) != SIG_ERR; }();
  (void)sigpipe_ignored;
  kill();
  if (argv.empty()) return Error{ErrorKind::InvalidArgument, "no engine program"};
  int in_pipe[2], out_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) return Error{ErrorKind::Io, std::strerror(errno)};
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    close(in_pipe[0]);
    close(in_pipe[1]);
    return Error{ErrorKind::Io, std::strerror(errno)};
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) close(fd);
    return Error{ErrorKind::Io, std::strerror(errno)};
  }
  if (pid == 0) {
    // The child: only async-signal-safe calls until exec.
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 2);
    execv(args[0], args.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  track(pid);
  pid_ = pid;
  to_child_ = in_pipe[1];
  from_child_ = out_pipe[0];
  fcntl(from_child_, F_SETFL, fcntl(from_child_, F_GETFL) | O_NONBLOCK);
  buffer_.clear();
  eof_ = false;
  return {};
}

bool Process::write_line(std::string_view line) {
  if (to_child_ < 0) return false;
  std::string out(line);
  out += '\n';
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::write(to_child_, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

Process::ReadStatus Process::read_line(std::string& line, Clock::time_point deadline) {
  for (;;) {
    const auto nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      line.assign(buffer_, 0, nl);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      buffer_.erase(0, nl + 1);
      return ReadStatus::Line;
    }
    if (buffer_.size() > kMaxLine) {
      line = buffer_.substr(0, kMaxLine);
      buffer_.clear();
      return ReadStatus::Line;
    }
    if (eof_ || from_child_ < 0) return ReadStatus::Closed;
    const auto now = Clock::now();
    if (now >= deadline) return ReadStatus::Timeout;
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    pollfd p{from_child_, POLLIN, 0};
    const int r = poll(&p, 1, int(std::min<long long>(ms + 1, 1 << 30)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;  // the deadline is checked above
    char chunk[4096];
    const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
    if (n > 0)
      buffer_.append(chunk, std::size_t(n));
    else if (n == 0 || (errno != EAGAIN && errno != EINTR))
      eof_ = true;
  }
}

void Process::kill() {
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  to_child_ = from_child_ = -1;
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    untrack(pid_);
  }
  pid_ = -1;
  buffer_.clear();
  eof_ = true;
}

}  // namespace virrey::engine

// Errors as values, the one vocabulary of the library: a kind that callers
// (and exit codes) can act on, and a message for people. Status is success or
// an Error; Result<T> holds a value or an Error. Bad input on a data path is
// reported this way, never thrown.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace virrey {

enum class ErrorKind : std::uint8_t {
  NotADatabase,  // the path holds something that is not a virrey database
  NewerSchema,   // written by a newer virrey (schema or hash table we do not know)
  OlderSchema,   // written by an older virrey: `virrey db upgrade` rebuilds it
  Busy,          // another process is writing the database
  Io,            // the file system failed (missing, unwritable, disk full, ...)
  Corrupt,       // stored bytes that do not decode
  NotFound,      // no such game
  InvalidArgument,
};

struct Error {
  ErrorKind kind = ErrorKind::Io;
  std::string message;
};

// Success, or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error e) : error_(std::move(e)) {}  // NOLINT: implicit, so `return Error{...}` works
  bool ok() const { return !error_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return *error_; }

 private:
  std::optional<Error> error_;
};

// A value, or an Error.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT
  Result(Error e) : v_(std::move(e)) {}      // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }
  Status status() const { return ok() ? Status{} : Status{error()}; }

 private:
  std::variant<T, Error> v_;
};

}  // namespace virrey

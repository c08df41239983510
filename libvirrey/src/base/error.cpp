#include "virrey/base/error.hpp"

namespace virrey {

std::string_view error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::NotADatabase: return "not-a-database";
    case ErrorKind::NewerSchema: return "newer-schema";
    case ErrorKind::OlderSchema: return "older-schema";
    case ErrorKind::Busy: return "busy";
    case ErrorKind::Io: return "io";
    case ErrorKind::Corrupt: return "corrupt";
    case ErrorKind::NotFound: return "not-found";
    case ErrorKind::InvalidArgument: return "invalid-argument";
  }
  return "unknown";
}

}  // namespace virrey

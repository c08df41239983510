// Content fingerprints of inputs, so that importing the same file again (under
// any name) is recognised without reading it through the validator.
#pragma once

#include <string>

#include "virrey/store/database.hpp"

namespace virrey::store {

// A 128-bit hash of the file's bytes as stored (compressed inputs are hashed
// compressed) and of the default variant the games are read with. Fails for
// standard input ("-") and unreadable files (Io).
Result<Fingerprint> fingerprint_file(const std::string& path, Variant default_variant);

std::string fingerprint_hex(const Fingerprint& fp);

}  // namespace virrey::store

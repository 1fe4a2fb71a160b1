#pragma once
/// SHA-256 (FIPS 180-4, the same function as FIPS 180-2): provenance of input files, so a result
/// can name the exact bytes it was computed from.
///
///     sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
#include <string>
#include <string_view>

namespace coinfer {

/// The SHA-256 digest of `bytes`, as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

}  // namespace coinfer

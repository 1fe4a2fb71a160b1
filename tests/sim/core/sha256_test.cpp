// SHA-256 against the example messages of FIPS 180-2 (appendix B) and NIST's test vectors.
#include <string>

#include <catch2/catch.hpp>

#include "sim/core/sha256.hpp"

using namespace coinfer;

TEST_CASE("sha256 of the empty message is NIST's vector") {
  // NIST CAVS SHA256ShortMsg, Len = 0
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST_CASE("sha256 of 'abc' is FIPS 180-2 appendix B.1") {
  // one block: 'abc', 0x80, zeros, length 24 bits
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("sha256 of the 448-bit message is FIPS 180-2 appendix B.2") {
  // 56 bytes: the padding's 0x80 and the length no longer fit, so a second block holds the length
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("sha256 of one million 'a' is FIPS 180-2 appendix B.3") {
  // 15625 full blocks, then a padding block: exercises a length above 2^16 bits
  CHECK(sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256 of a 55-byte and a 64-byte message match the reference") {
  // 55 bytes is the longest message whose padding fits its own block; 64 bytes fills one block
  // exactly, so the padding takes a whole second block. References: coreutils sha256sum.
  CHECK(sha256_hex(std::string(55, 'a')) ==
        "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  CHECK(sha256_hex(std::string(64, 'a')) ==
        "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

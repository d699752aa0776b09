// A small stable 64-bit hash (FNV-1a) for the fingerprints written into mapping files.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace rankmap {

/// Feeds values in a fixed byte order, so the digest is the same on every platform and run.
class StableHash {
 public:
  void bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
      state_ ^= p[i];
      state_ *= 0x100000001b3ULL;
    }
  }
  void u64(std::uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
    bytes(b, 8);
  }
  void f64(double v) {
    if (v == 0) v = 0;  // +0 and -0 hash alike
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    u64(bits);
  }
  std::uint64_t digest() const { return state_; }

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

/// 16 lowercase hex digits.
inline std::string hash_to_hex(std::uint64_t h) {
  static const char* digits = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) s[i] = digits[h & 15];
  return s;
}

}  // namespace rankmap

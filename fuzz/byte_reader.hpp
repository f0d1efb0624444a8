#pragma once
// Reading and writing the harnesses' byte formats. A ByteReader never fails: past the end of
// its input it reads zeros, so every byte string decodes to some Case (libFuzzer may hand a
// harness any length, including 0). A ByteWriter is its inverse, used to encode seeds.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace parity::fuzz {

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  // The next byte, or 0 past the end.
  std::uint8_t u8() { return pos_ < bytes_.size() ? bytes_[pos_++] : std::uint8_t{0}; }
  // Little-endian integers of 2, 3, 4 or 8 bytes.
  std::uint16_t u16() { return static_cast<std::uint16_t>(uint(2)); }
  std::uint32_t u24() { return static_cast<std::uint32_t>(uint(3)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(uint(4)); }
  std::uint64_t u64() { return uint(8); }
  // Bytes not yet read (0 past the end).
  std::size_t remaining() const { return pos_ < bytes_.size() ? bytes_.size() - pos_ : 0; }

 private:
  std::uint64_t uint(int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= static_cast<std::uint64_t>(u8()) << (8 * i);
    return v;
  }
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

class ByteWriter {
 public:
  void u8(std::uint8_t v) { bytes_.push_back(v); }
  void u16(std::uint16_t v) { uint(v, 2); }
  void u24(std::uint32_t v) { uint(v, 3); }
  void u32(std::uint32_t v) { uint(v, 4); }
  void u64(std::uint64_t v) { uint(v, 8); }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  void uint(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) bytes_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  std::vector<std::uint8_t> bytes_;
};

}  // namespace parity::fuzz

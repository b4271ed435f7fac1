// The .dgn file of a learned player's network: its bytes and how they are read.
//
// Network file (.dgn), every number little-endian (docs/learning.md "Weights file"):
//   char[4] "DGNN"; u32 format = 1 or 2; u32 feature_version = kLearnVersion;
//   u32 state_dim; u32 action_dim; u32 layers L (hidden, 1..8); u32 width[L];
//   float32 margin (the switching rule, learned_pick; finite, >= 0);
//   format 2 only: u32 decides, bit 0 set: the network also makes the R11 decisions (tribute,
//     return, take, offer, anti-tribute); no other bit (a format-1 file: 0);
//   u32 meta_len; meta_len bytes of UTF-8 JSON (how the model was made);
//   float32 arrays in PyTorch's Linear layout (weight [out][in] row-major, then bias [out]):
//     layer 0: in = state_dim + action_dim (the input is [state features, action features]),
//     layer k: in = width[k-1], out = width[k]; output layer: in = width[L-1], out = 1;
//   u64 FNV-1a hash of every byte before it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace daguai {

// A model file that is not one (bad magic, sizes, hash, non-finite weights, other feature
// version, not a regular file, too large): Python ModelError, a ValueError.
struct ModelError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

constexpr int kMaxModelLayers = 8;
constexpr int kMaxModelWidth = 4096;
constexpr std::size_t kMaxModelMeta = std::size_t(1) << 20;

// The file's closing hash: FNV-1a (64 bits) of `n` bytes.
std::uint64_t dgn_hash(const char* data, std::size_t n);

// The unsigned little-endian number in the `bytes` bytes at p (1..8): the one decode loop of
// the format (u32 fields, float32 bits, the u64 hash).
inline std::uint64_t read_le(const char* p, int bytes) {
  std::uint64_t v = 0;
  for (int k = 0; k < bytes; ++k) v |= std::uint64_t(std::uint8_t(p[k])) << (8 * k);
  return v;
}

// Reads fields in order from bytes [0, end) of a .dgn file (ModelError "model file:
// truncated in WHAT" past the end).
class DgnReader {
 public:
  DgnReader(const std::string& b, std::size_t end) : b_(b), end_(end) {}
  std::uint32_t u32(const char* what);
  // n float32 values, each finite.
  void floats(std::size_t n, std::vector<float>* out, const char* what);
  std::string bytes(std::size_t n, const char* what);
  std::size_t pos() const { return pos_; }

 private:
  void need(std::size_t n, const char* what) const;
  const std::string& b_;
  std::size_t end_, pos_ = 0;
};

// The fields both network files (.dgn, and value.hpp's .dgv) read in the same way; `file` names
// the kind in the messages ("model file", "value file").
//   u32 format, one of first_format..format (first_format defaults to format), and u32 feature
//   version, the one this engine computes (ModelError "FILE: format F, this engine reads format
//   W" / "FILE: made for feature version V, this engine computes version W"); returns the format;
std::uint32_t read_versions(DgnReader& r, const char* file, std::uint32_t format,
                            std::uint32_t version, std::uint32_t first_format = 0);
//   u32 layers L (1..kMaxModelLayers), then L u32 widths (1..kMaxModelWidth);
std::vector<int> read_widths(DgnReader& r, const char* file);
//   u32 meta_len (at most kMaxModelMeta), then meta_len bytes.
std::string read_meta(DgnReader& r, const char* file);

// The bytes of the .dgn file at `path`, read only when it is a regular file (not a FIFO,
// a device or a folder, also behind a symlink) of at most kMaxModelFile bytes that starts
// with the magic ("DGNN"; a value network's file: "DGNV", value.hpp): ModelError naming the
// problem before any read of its size.
constexpr std::size_t kMaxModelFile = std::size_t(512) << 20;
std::string read_model_file(const std::string& path, const char* magic = "DGNN");

}  // namespace daguai

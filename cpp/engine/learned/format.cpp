#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include <daguai/learned/format.hpp>

namespace daguai {

std::uint64_t dgn_hash(const char* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= std::uint8_t(p[i]);
    h *= 0x100000001b3ULL;
  }
  return h;
}

void DgnReader::need(std::size_t n, const char* what) const {
  if (n > end_ - pos_) throw ModelError(std::string("model file: truncated in ") + what);
}

std::uint32_t DgnReader::u32(const char* what) {
  need(4, what);
  const std::uint32_t v = std::uint32_t(read_le(b_.data() + pos_, 4));
  pos_ += 4;
  return v;
}

void DgnReader::floats(std::size_t n, std::vector<float>* out, const char* what) {
  if (n > (end_ - pos_) / 4) throw ModelError(std::string("model file: truncated in ") + what);
  out->resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t v = std::uint32_t(read_le(b_.data() + pos_ + 4 * i, 4));
    float f;
    std::memcpy(&f, &v, 4);
    if (!std::isfinite(f))
      throw ModelError(std::string("model file: non-finite weight in ") + what);
    (*out)[i] = f;
  }
  pos_ += 4 * n;
}

std::string DgnReader::bytes(std::size_t n, const char* what) {
  need(n, what);
  std::string s = b_.substr(pos_, n);
  pos_ += n;
  return s;
}

std::uint32_t read_versions(DgnReader& r, const char* file, std::uint32_t format,
                            std::uint32_t version, std::uint32_t first_format) {
  if (first_format == 0) first_format = format;
  const std::uint32_t f = r.u32("format");
  if (f < first_format || f > format)
    throw ModelError(
        std::string(file) + ": format " + std::to_string(f) + ", this engine reads format " +
        (first_format == format ? std::to_string(format)
                                : std::to_string(first_format) + " to " + std::to_string(format)));
  if (const std::uint32_t v = r.u32("feature version"); v != version)
    throw ModelError(std::string(file) + ": made for feature version " + std::to_string(v) +
                     ", this engine computes version " + std::to_string(version));
  return f;
}

std::vector<int> read_widths(DgnReader& r, const char* file) {
  const std::uint32_t layers = r.u32("layers");
  if (layers < 1 || layers > std::uint32_t(kMaxModelLayers))
    throw ModelError(std::string(file) + ": " + std::to_string(layers) + " hidden layers (1.." +
                     std::to_string(kMaxModelLayers) + " allowed)");
  std::vector<int> widths;
  for (std::uint32_t k = 0; k < layers; ++k) {
    const std::uint32_t w = r.u32("widths");
    if (w < 1 || w > std::uint32_t(kMaxModelWidth))
      throw ModelError(std::string(file) + ": layer width " + std::to_string(w) + " (1.." +
                       std::to_string(kMaxModelWidth) + " allowed)");
    widths.push_back(int(w));
  }
  return widths;
}

std::string read_meta(DgnReader& r, const char* file) {
  const std::uint32_t meta_len = r.u32("meta length");
  if (meta_len > kMaxModelMeta)
    throw ModelError(std::string(file) + ": metadata longer than 1 MiB");
  return r.bytes(meta_len, "metadata");
}

namespace {

// Closes a file descriptor on every way out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

std::string io_problem(const std::string& what, const std::string& path) {
  return "model file: cannot " + what + " '" + path + "' (" + std::strerror(errno) + ")";
}

}  // namespace

std::string read_model_file(const std::string& path, const char* magic) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat of the open file (not of
  // the path) judges what is really read, a symlink's target included.
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) throw ModelError(io_problem("open", path));
  struct stat st{};
  if (::fstat(f.fd, &st) != 0) throw ModelError(io_problem("stat", path));
  if (!S_ISREG(st.st_mode))
    throw ModelError("model file: '" + path + "' is not a regular file (" +
                     (S_ISDIR(st.st_mode)    ? "a folder"
                      : S_ISFIFO(st.st_mode) ? "a FIFO"
                      : S_ISCHR(st.st_mode)  ? "a device"
                                             : "not a file") +
                     ")");
  if (std::uint64_t(st.st_size) > kMaxModelFile)
    throw ModelError("model file: '" + path + "' is " + std::to_string(st.st_size) +
                     " bytes, more than the " + std::to_string(kMaxModelFile >> 20) +
                     " MiB a .dgn file can be");
  std::string bytes(std::size_t(st.st_size), '\0');
  std::size_t got = 0;
  while (got < bytes.size()) {
    // the magic first: a large file that is not a model is refused after 4 bytes
    const std::size_t want =
        got < 4 ? std::min<std::size_t>(4, bytes.size()) - got : bytes.size() - got;
    const ssize_t n = ::read(f.fd, bytes.data() + got, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw ModelError(io_problem("read", path));
    if (n == 0) break;  // the file shrank while read: the parser reports the truncation
    got += std::size_t(n);
    if (got == 4 && std::memcmp(bytes.data(), magic, 4) != 0)
      throw ModelError("model file: '" + path + "' is not a " +
                       (std::memcmp(magic, "DGNN", 4) == 0 ? ".dgn" : ".dgv") +
                       " file (bad magic)");
  }
  bytes.resize(got);
  return bytes;
}

}  // namespace daguai

// An append-only log whose copies share their past. Elements live in fixed-size chunks of
// kChunk, allocated whole (one allocation per chunk, none per element); full chunks are
// immutable nodes of a persistent list (newest first), so sealing a chunk is O(1).
//
// The chunk being filled (the tail) is shared by copies too: a log appends in place only to a
// tail it owns (the log that allocated it, or moved from it); a copy reads the first n_
// elements of the same chunk, which the owner never changes again (it only writes beyond
// them), and takes a chunk of its own, copying those n_ elements, when it first appends. So
// copying a log costs two reference counts whatever its length, and an append is one store.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace daguai {

template <class T, std::size_t kChunk>
class SharedLog {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "SharedLog stores its elements as raw copies");

 public:
  SharedLog() = default;
  SharedLog(const SharedLog& o) : head_(o.head_), tail_(o.tail_), n_(o.n_) {}
  SharedLog(SharedLog&& o) noexcept
      : head_(std::move(o.head_)), tail_(std::move(o.tail_)), n_(o.n_), owned_(o.owned_) {
    o.n_ = 0;
    o.owned_ = false;
  }
  SharedLog& operator=(const SharedLog& o) {
    if (this != &o) {
      head_ = o.head_;
      tail_ = o.tail_;
      n_ = o.n_;
      owned_ = false;
    }
    return *this;
  }
  SharedLog& operator=(SharedLog&& o) noexcept {
    if (this != &o) {
      head_ = std::move(o.head_);
      tail_ = std::move(o.tail_);
      n_ = o.n_;
      owned_ = o.owned_;
      o.n_ = 0;
      o.owned_ = false;
    }
    return *this;
  }

  void push_back(const T& x) {
    append_in_place([&](void* slot) { ::new (slot) T(x); });
  }
  // Appends an element written in place: write(void* slot) constructs it there (placement
  // new), with no temporary to copy (push_back copies x this way). A tail this log does not
  // own is first copied into a chunk of its own; a full chunk is sealed.
  template <class W>
  [[gnu::always_inline]] void append_in_place(W&& write) {
    if (!owned_) [[unlikely]]
      own_tail();
    write(static_cast<void*>(tail_->slot(n_)));
    if (++n_ == kChunk) [[unlikely]]
      seal();
  }
  std::size_t size() const { return sealed() + n_; }
  bool empty() const { return size() == 0; }
  const T& back() const { return n_ ? tail_->at(n_ - 1) : head_->at(kChunk - 1); }
  // Random access: O(1) in the tail, otherwise a walk over the sealed chunks.
  const T& operator[](std::size_t i) const {
    const std::size_t s = sealed();
    if (i >= s) return tail_->at(i - s);
    const Node* n = head_.get();
    while (n->before > i) n = n->prev.get();
    return n->at(i - n->before);
  }
  // Calls f(element) for elements [start, size()) in order.
  template <class F>
  void for_each_from(std::size_t start, F&& f) const {
    std::vector<const Node*> nodes;
    for (const Node* n = head_.get(); n && n->before + kChunk > start; n = n->prev.get())
      nodes.push_back(n);
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
      for (std::size_t k = (*it)->before < start ? start - (*it)->before : 0; k < kChunk; ++k)
        f((*it)->at(k));
    const std::size_t s = sealed();
    for (std::size_t k = start > s ? start - s : 0; k < n_; ++k) f(tail_->at(k));
  }

 private:
  // A chunk: kChunk slots written in order (no element is constructed before it is pushed);
  // prev / before are set when it is sealed.
  struct Node {
    Node() {}  // user-provided: make_shared leaves the slots unwritten
    std::shared_ptr<const Node> prev;
    std::size_t before = 0;  // elements in older chunks
    alignas(T) unsigned char raw[sizeof(T) * kChunk];
    void* slot(std::size_t k) { return raw + k * sizeof(T); }
    const T& at(std::size_t k) const {
      return *std::launder(reinterpret_cast<const T*>(raw + k * sizeof(T)));
    }
  };
  std::size_t sealed() const { return head_ ? head_->before + kChunk : 0; }
  // A chunk of this log's own, holding the n_ elements of the (shared) tail read so far.
  [[gnu::noinline]] void own_tail() {
    std::shared_ptr<Node> t = std::make_shared<Node>();
    for (std::size_t k = 0; k < n_; ++k) ::new (t->slot(k)) T(tail_->at(k));
    tail_ = std::move(t);
    owned_ = true;
  }
  [[gnu::noinline]] void seal() {
    tail_->prev = std::move(head_);
    tail_->before = tail_->prev ? tail_->prev->before + kChunk : 0;
    head_ = std::move(tail_);
    n_ = 0;
    owned_ = false;
  }

  std::shared_ptr<const Node> head_;
  std::shared_ptr<Node> tail_;  // written only while owned_
  std::size_t n_ = 0;           // elements in the tail
  bool owned_ = false;
};

}  // namespace daguai

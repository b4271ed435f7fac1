// An append-only log whose copies share their past. Full chunks are immutable nodes of a
// persistent list (newest first), so sealing a chunk is O(1) and copying a log costs one
// reference count plus at most kChunk elements, whatever its length: GameState copies stay
// cheap over a whole match.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace daguai {

template <class T, std::size_t kChunk>
class SharedLog {
 public:
  void push_back(const T& x) {
    if (tail_.capacity() < kChunk) tail_.reserve(kChunk);
    tail_.push_back(x);
    if (tail_.size() == kChunk) {
      head_ = std::make_shared<const Node>(Node{std::move(tail_), head_, sealed()});
      tail_ = std::vector<T>();
    }
  }
  std::size_t size() const { return sealed() + tail_.size(); }
  bool empty() const { return size() == 0; }
  const T& back() const { return tail_.empty() ? head_->items.back() : tail_.back(); }
  // Random access: O(1) in the tail, otherwise a walk over the sealed chunks.
  const T& operator[](std::size_t i) const {
    const std::size_t s = sealed();
    if (i >= s) return tail_[i - s];
    const Node* n = head_.get();
    while (n->before > i) n = n->prev.get();
    return n->items[i - n->before];
  }
  // Calls f(element) for elements [start, size()) in order.
  template <class F>
  void for_each_from(std::size_t start, F&& f) const {
    std::vector<const Node*> nodes;
    for (const Node* n = head_.get(); n && n->before + kChunk > start; n = n->prev.get())
      nodes.push_back(n);
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it)
      for (std::size_t k = (*it)->before < start ? start - (*it)->before : 0; k < kChunk; ++k)
        f((*it)->items[k]);
    const std::size_t s = sealed();
    for (std::size_t k = start > s ? start - s : 0; k < tail_.size(); ++k) f(tail_[k]);
  }

 private:
  struct Node {
    std::vector<T> items;  // exactly kChunk
    std::shared_ptr<const Node> prev;
    std::size_t before;  // elements in older chunks
  };
  std::size_t sealed() const { return head_ ? head_->before + kChunk : 0; }
  std::shared_ptr<const Node> head_;
  std::vector<T> tail_;
};

}  // namespace daguai

// Safety of bound objects: one per-object lock for objects with mutable state, and a
// TypeError for instances that were never initialized (cls.__new__(cls) without __init__).
//
// Threads. Python threads may share a native object, and a bound method that releases the
// GIL (BatchEnv.step) lets another thread enter the same object meanwhile: before this lock,
// BatchEnv.candidates() then read legal-action vectors that step was rewriting (a
// heap-buffer-overflow). So every bound method of a stateful object (GameState, BatchEnv,
// PolicyRunner) starts with
//     const Guard guard(&object);          // or Guard guard(&a, &b) for two objects
// and holds the object's lock until it returns. Value types (Hand, Play, Action, CoreRules)
// and ActionList are never changed after construction and need no lock.
//
// The lock is one of kStripes recursive mutexes picked by the object's address, so engine
// types need no extra member; two objects that share a stripe only wait for each other.
// Deadlock freedom: a thread that must wait releases the GIL first (the holder may need
// the GIL to finish), two objects are locked in stripe order, and a thread re-entering an
// object it holds (a Python callback during conversion) passes (recursive mutex).
#pragma once

#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <typeinfo>

namespace daguai::bind {

namespace py = pybind11;

class Guard {
 public:
  explicit Guard(const void* a) : n_(1) {
    stripes_[0] = stripe(a);
    lock_all();
  }
  Guard(const void* a, const void* b) : n_(2) {
    int x = stripe(a), y = stripe(b);
    if (x == y) n_ = 1;
    if (y < x) std::swap(x, y);
    stripes_[0] = x;
    stripes_[1] = y;
    lock_all();
  }
  ~Guard() {
    for (int k = n_ - 1; k >= 0; --k) locks()[std::size_t(stripes_[k])].m.unlock();
  }
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;

 private:
  static constexpr int kStripes = 64;
  struct alignas(64) Stripe {
    std::recursive_mutex m;
  };
  static std::array<Stripe, kStripes>& locks() {
    static std::array<Stripe, kStripes> table;
    return table;
  }
  static int stripe(const void* p) {
    const auto x = std::uint64_t(reinterpret_cast<std::uintptr_t>(p)) >> 4;
    return int((x * 0x9E3779B97F4A7C15ULL) >> 58);  // top 6 bits: 0..63
  }
  // Called with the GIL held (at the top of a bound method).
  void lock_all() {
    for (int k = 0; k < n_; ++k) {
      std::recursive_mutex& m = locks()[std::size_t(stripes_[k])].m;
      if (m.try_lock()) continue;
      py::gil_scoped_release nogil;  // the holder may need the GIL to finish
      m.lock();
    }
  }
  int stripes_[2] = {0, 0};
  int n_;
};

// A member function as a bound method that holds the object's lock during the call (for
// results returned by value; a lambda with a Guard line does the same for longer bodies).
template <class C, class R, class... A>
auto locked(R (C::*f)(A...) const) {
  return [f](const C& c, A... a) -> R {
    const Guard guard(&c);
    return (c.*f)(a...);
  };
}
template <class C, class R, class... A>
auto locked(R (C::*f)(A...)) {
  return [f](C& c, A... a) -> R {
    const Guard guard(&c);
    return (c.*f)(a...);
  };
}

// pybind11 allocates the C++ value of an instance lazily, with this type's operator_new,
// when a method receives an instance whose __init__ never ran; that is the only use of the
// hook, so raising there turns "reads garbage / segfaults" into a TypeError.
template <class T>
void* uninitialized_instance(std::size_t) {
  const py::detail::type_info* ti = py::detail::get_type_info(typeid(T));
  const std::string name = ti ? ti->type->tp_name : "daguai object";
  throw py::type_error(name +
                       " object (or subclass) is not initialized: it was made with __new__ "
                       "without __init__; create it by calling the class");
}

template <class T>
void forbid_uninitialized() {
  py::detail::get_type_info(typeid(T))->operator_new = &uninitialized_instance<T>;
}

// What every bound class gets, after its py::class_ definition: forbid_uninitialized, and,
// unless the class pickles itself, a __reduce__ that raises TypeError. Without it pickle
// protocols 0 and 1 (copyreg) call pybind11's base type, which aborts the process.
template <class T>
void harden(py::module_& m, const char* name) {
  forbid_uninitialized<T>();
  py::object cls = m.attr(name);
  if (cls.attr("__dict__").contains("__reduce__")) return;
  const std::string qual = py::str(m.attr("__name__")).cast<std::string>() + "." + name;
  py::setattr(cls, "__reduce__",
              py::cpp_function(
                  [qual](py::handle) -> py::object {
                    throw py::type_error("cannot pickle '" + qual + "' object");
                  },
                  py::name("__reduce__"), py::is_method(cls)));
}

}  // namespace daguai::bind

// SmallVector<T, N>: a vector with inline storage for N elements, for the short int64 lists of
// shapes, strides and axes (STYLE.md B3, as MLX's Shape). Copying or building one with at most N
// elements allocates nothing, which keeps the per-op host path (TensorView copies, new outputs)
// free of heap traffic.
//
// Contract:
// - T is trivially copyable and trivially default constructible; elements move by memcpy.
// - The subset of std::vector that tenferro uses, with std::vector's meaning: same member
//   names, size_type std::size_t, raw-pointer iterators, value-initialized (zeroed) new elements
//   from SmallVector(n) and resize(n), at() throws std::out_of_range.
// - Storage: up to N elements inline; beyond N one heap block (capacity at least doubles on
//   growth). A heap block is kept until destruction or until a move takes it; clear() and shrinking
//   keep the capacity. A copy holds only what it needs: inline when size() <= N.
// - Iterator/pointer invalidation is std::vector's, plus: moving or swapping an inline vector
//   copies the elements, so pointers into the source do not follow them.
// - Comparison is lexicographic (==, <=>); a std::vector<T> converts implicitly, so a shape
//   compares with and is initialized from a std::vector<std::int64_t> as before.
// - operator<< prints "[a, b, c]" (error messages stream shapes).
#pragma once
#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace tenferro {

template <class T, std::size_t N> class SmallVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_default_constructible_v<T>,
                "SmallVector holds trivial element types only");
  static_assert(N > 0);

 public:
  using value_type = T;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  SmallVector() noexcept {}  // user-provided: `SmallVector{}` does not zero the inline buffer
  explicit SmallVector(size_type n) { resize(n); }
  SmallVector(size_type n, const T& value) { assign(n, value); }
  SmallVector(std::initializer_list<T> il) { assign(il.begin(), il.end()); }
  template <std::input_iterator It> SmallVector(It first, It last) { assign(first, last); }
  SmallVector(const std::vector<T>& v) { assign(v.begin(), v.end()); }  // NOLINT: implicit on purpose
  SmallVector(const SmallVector& o) { assign(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept { take(o); }
  ~SmallVector() { release(); }

  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> il) {
    assign(il.begin(), il.end());
    return *this;
  }

  void assign(size_type n, const T& value) {
    const T v = value;  // may alias an element
    clear();
    reserve(n);
    std::fill_n(data_, n, v);
    size_ = n;
  }
  template <std::input_iterator It> void assign(It first, It last) {
    if constexpr (std::forward_iterator<It>) {
      const auto n = static_cast<size_type>(std::distance(first, last));
      if (n > cap_) {  // the source is not inside *this (it is larger than our capacity)
        clear();
        grow(n);
      }
      std::copy(first, last, data_);  // a subrange of *this moves down, which std::copy allows
      size_ = n;
    } else {
      clear();
      for (; first != last; ++first) push_back(*first);
    }
  }
  void assign(std::initializer_list<T> il) { assign(il.begin(), il.end()); }

  // ---- access ----
  size_type size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  size_type capacity() const noexcept { return cap_; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  T& operator[](size_type i) noexcept { return data_[i]; }
  const T& operator[](size_type i) const noexcept { return data_[i]; }
  T& at(size_type i) { return data_[checked(i)]; }
  const T& at(size_type i) const { return data_[checked(i)]; }
  T& front() noexcept { return data_[0]; }
  const T& front() const noexcept { return data_[0]; }
  T& back() noexcept { return data_[size_ - 1]; }
  const T& back() const noexcept { return data_[size_ - 1]; }

  iterator begin() noexcept { return data_; }
  const_iterator begin() const noexcept { return data_; }
  const_iterator cbegin() const noexcept { return data_; }
  iterator end() noexcept { return data_ + size_; }
  const_iterator end() const noexcept { return data_ + size_; }
  const_iterator cend() const noexcept { return data_ + size_; }
  reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
  const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
  reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }

  // ---- modifiers ----
  void reserve(size_type n) {
    if (n > cap_) grow(n);
  }
  void clear() noexcept { size_ = 0; }
  void push_back(const T& value) {
    const T v = value;  // may alias an element that growing frees
    make_room(size_ + 1);
    data_[size_++] = v;
  }
  template <class... A> T& emplace_back(A&&... a) {
    push_back(T(std::forward<A>(a)...));
    return back();
  }
  void pop_back() noexcept { --size_; }
  void resize(size_type n) { resize(n, T{}); }
  void resize(size_type n, const T& value) {
    if (n > size_) {
      const T v = value;
      make_room(n);
      std::fill(data_ + size_, data_ + n, v);
    }
    size_ = n;
  }
  iterator insert(const_iterator pos, const T& value) { return insert(pos, size_type{1}, value); }
  iterator insert(const_iterator pos, size_type n, const T& value) {
    const T v = value;
    const size_type i = open_gap(pos, n);
    std::fill_n(data_ + i, n, v);
    return data_ + i;
  }
  /// @pre [first, last) is not inside *this (as for std::vector).
  template <std::forward_iterator It> iterator insert(const_iterator pos, It first, It last) {
    const size_type i = open_gap(pos, static_cast<size_type>(std::distance(first, last)));
    std::copy(first, last, data_ + i);
    return data_ + i;
  }
  iterator insert(const_iterator pos, std::initializer_list<T> il) { return insert(pos, il.begin(), il.end()); }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const auto i = static_cast<size_type>(first - data_), j = static_cast<size_type>(last - data_);
    std::memmove(data_ + i, data_ + j, (size_ - j) * sizeof(T));
    size_ -= j - i;
    return data_ + i;
  }
  void swap(SmallVector& o) noexcept {
    SmallVector t(std::move(o));
    o = std::move(*this);
    *this = std::move(t);
  }
  friend void swap(SmallVector& a, SmallVector& b) noexcept { a.swap(b); }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend auto operator<=>(const SmallVector& a, const SmallVector& b) {
    return std::lexicographical_compare_three_way(a.begin(), a.end(), b.begin(), b.end());
  }
  friend std::ostream& operator<<(std::ostream& os, const SmallVector& v) {
    os << "[";
    for (size_type i = 0; i < v.size_; ++i) os << (i ? ", " : "") << v.data_[i];
    return os << "]";
  }

 private:
  size_type checked(size_type i) const {
    if (i >= size_) throw std::out_of_range("SmallVector::at: index out of range");
    return i;
  }
  bool on_heap() const noexcept { return data_ != inline_; }
  /// Moves the elements to a heap block of `n` >= size_ elements.
  void grow(size_type n) {
    T* p = std::allocator<T>().allocate(n);
    if (size_) std::memcpy(p, data_, size_ * sizeof(T));
    release();
    data_ = p;
    cap_ = n;
  }
  void make_room(size_type n) {
    if (n > cap_) grow(std::max(n, 2 * cap_));
  }
  /// Shifts [pos, end) right by n (growing first); returns pos as an index.
  size_type open_gap(const_iterator pos, size_type n) {
    const auto i = static_cast<size_type>(pos - data_);
    make_room(size_ + n);
    std::memmove(data_ + i + n, data_ + i, (size_ - i) * sizeof(T));
    size_ += n;
    return i;
  }
  void release() noexcept {
    if (on_heap()) std::allocator<T>().deallocate(data_, cap_);
    data_ = inline_;
    cap_ = N;
  }
  /// Takes o's elements (its heap block, or a copy of its inline ones); o is left empty.
  void take(SmallVector& o) noexcept {
    size_ = o.size_;
    if (o.on_heap()) {
      data_ = o.data_;
      cap_ = o.cap_;
      o.data_ = o.inline_;
      o.cap_ = N;
    } else if (size_) {
      std::memcpy(inline_, o.inline_, size_ * sizeof(T));
    }
    o.size_ = 0;
  }

  T* data_ = inline_;
  size_type size_ = 0;
  size_type cap_ = N;
  T inline_[N];
};

}  // namespace tenferro

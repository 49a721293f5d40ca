// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

namespace remat {

/// A value most owners leave empty, kept out of line: one pointer where the value would be,
/// allocated on the first edit. Reads of an empty one see a default T. Copies are deep.
/// Why: a node held its rarely set texts inline (352 bytes a node, 3 MB for gpt_n48), and every
/// pass over the nodes paid for them in memory to clear and in cache.
template <class T> class OutOfLine {
public:
    OutOfLine() = default;
    OutOfLine(const OutOfLine& other)
        : m_value(other.m_value ? std::make_unique<T>(*other.m_value) : nullptr)
    { }
    OutOfLine& operator=(const OutOfLine& other)
    {
        if (this != &other)
            m_value = other.m_value ? std::make_unique<T>(*other.m_value) : nullptr;
        return *this;
    }
    OutOfLine(OutOfLine&&) noexcept = default;
    OutOfLine& operator=(OutOfLine&&) noexcept = default;
    ~OutOfLine() = default;

    const T& operator*() const { return m_value ? *m_value : empty(); }
    const T* operator->() const { return &**this; }
    /// The value to change, made when there was none.
    T& edit()
    {
        if (!m_value)
            m_value = std::make_unique<T>();
        return *m_value;
    }

private:
    static const T& empty()
    {
        static const T value {};
        return value;
    }

    std::unique_ptr<T> m_value;
};

} // namespace remat

// SPDX-License-Identifier: MIT
#include "cli/command_arena.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace remat::command_arena {
namespace {

constexpr std::uintptr_t kAlignment = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

// Written once by start(), before any other thread runs; read by every allocation after.
std::uintptr_t g_begin = 0;
std::uintptr_t g_end = 0;
std::atomic<std::uintptr_t> g_next {0};

} // namespace

bool start(std::size_t bytes)
{
    if (g_end != 0 || bytes < kAlignment)
        return false;
    void* region = std::malloc(bytes);
    if (!region)
        return false;
    g_begin = reinterpret_cast<std::uintptr_t>(region);
    g_end = g_begin + bytes;
    g_next.store((g_begin + kAlignment - 1) & ~(kAlignment - 1), std::memory_order_relaxed);
    return true;
}

void* allocate(std::size_t bytes) noexcept
{
    if (bytes > kLargestBlock || g_end == 0)
        return nullptr;
    // Zero bytes still get a block of their own, as operator new must give.
    const std::uintptr_t rounded = bytes == 0 ? kAlignment : (bytes + kAlignment - 1) & ~(kAlignment - 1);
    const std::uintptr_t at = g_next.fetch_add(rounded, std::memory_order_relaxed);
    // A full region stays full: g_next only grows, so later calls fail here too.
    if (at > g_end || g_end - at < rounded)
        return nullptr;
    return reinterpret_cast<void*>(at);
}

bool owns(const void* block) noexcept
{
    return reinterpret_cast<std::uintptr_t>(block) - g_begin < g_end - g_begin;
}

} // namespace remat::command_arena

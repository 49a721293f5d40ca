// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

namespace remat::command_arena {

/// Small blocks for a one-shot headless command: handed out from one region in order and never
/// given back, since the command ends with _Exit. glibc's malloc spends about 40 ns a block on
/// free lists such a command never uses; gpt_n48's `partition` makes 67k small blocks (the
/// node names, shapes and lists), 6% of its run. The program's operator new asks here first
/// (command_arena_new.cpp), and its operator delete leaves alone what lies in the region.

/// The largest block taken from the region: bigger ones (the file's text, the parser's tape,
/// whole-graph vectors) stay with malloc, which gives their memory to the next ones once freed.
inline constexpr std::size_t kLargestBlock = 4096;

/// Takes a region of `bytes` from malloc. Once per process, before a second thread exists; false
/// if it already ran or malloc refused.
bool start(std::size_t bytes);

/// A block of `bytes` aligned as operator new's are, or nullptr when the region is not started,
/// the block is too big or the region is full (the caller then uses malloc). Any thread.
void* allocate(std::size_t bytes) noexcept;

/// Whether `block` lies in the region (and so must not be given to free).
bool owns(const void* block) noexcept;

} // namespace remat::command_arena

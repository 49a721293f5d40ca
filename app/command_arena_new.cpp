// SPDX-License-Identifier: MIT
// The command line's operator new and delete: small blocks from the command arena once main()
// started it for a headless command on a large input (cli/command_arena.h), malloc otherwise.
// Only this program has them; the desktop program and the tests keep the library's own.
// Sanitizer builds keep theirs too, so that their allocators still see every block.
#include "cli/command_arena.h"

#include <cstdlib>
#include <new>

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)

namespace {

void* allocateOrThrow(std::size_t bytes)
{
    if (void* block = remat::command_arena::allocate(bytes))
        return block;
    for (;;) {
        if (void* block = std::malloc(bytes == 0 ? 1 : bytes))
            return block;
        const std::new_handler handler = std::get_new_handler();
        if (!handler)
            throw std::bad_alloc();
        handler();
    }
}

void release(void* block) noexcept
{
    if (!remat::command_arena::owns(block))
        std::free(block);
}

} // namespace

void* operator new(std::size_t bytes)
{
    return allocateOrThrow(bytes);
}

void* operator new[](std::size_t bytes)
{
    return allocateOrThrow(bytes);
}

void operator delete(void* block) noexcept
{
    release(block);
}

void operator delete[](void* block) noexcept
{
    release(block);
}

void operator delete(void* block, std::size_t) noexcept
{
    release(block);
}

void operator delete[](void* block, std::size_t) noexcept
{
    release(block);
}

#endif

// SPDX-License-Identifier: MIT
// Compiled into the programs of a ThreadSanitizer build only (ui/CMakeLists.txt).
//
// QProcess starts its child with clone(CLONE_VM | CLONE_VFORK): until it execs, the child runs in
// our memory on our thread's TLS. GCC 12's TSan intercepts clone() as a fork and runs its
// after-fork bookkeeping in that child, that is on our own state: race detection stays off for
// the thread that started the process, and the next thread start dies ("starting new threads
// after multi-threaded fork"). Every race after the first layout worker went unseen. A vfork-style
// child only execs, so it goes straight to glibc; any other clone still goes through TSan.
#include <dlfcn.h>
#include <sched.h>
#include <sys/types.h>

#include <cstdarg>

namespace {

using CloneFunction = int (*)(int (*)(void*), void*, int, void*, ...);

CloneFunction cloneIn(void* library)
{
    return reinterpret_cast<CloneFunction>(dlsym(library, "clone"));
}

} // namespace

extern "C" int clone(int (*fn)(void*), void* stack, int flags, void* arg, ...) noexcept
{
    va_list rest;
    va_start(rest, arg);
    pid_t* parentTid = va_arg(rest, pid_t*);
    void* tls = va_arg(rest, void*);
    pid_t* childTid = va_arg(rest, pid_t*);
    va_end(rest);
    static const CloneFunction glibc = cloneIn(dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD));
    static const CloneFunction sanitizer = cloneIn(RTLD_NEXT);
    const bool vforkLike = (flags & CLONE_VM) && (flags & CLONE_VFORK);
    return (vforkLike ? glibc : sanitizer)(fn, stack, flags, arg, parentTid, tls, childTid);
}

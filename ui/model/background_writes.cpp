// SPDX-License-Identifier: MIT
#include "model/background_writes.h"

#include "model/thread_handoff.h"

#include <QThreadPool>

namespace remat::ui::BackgroundWrites {
namespace {

/// One thread: jobs run one at a time, in the order they were posted. The pool's destructor
/// waits for what is left when the process ends.
struct WritePool : QThreadPool {
    WritePool() { setMaxThreadCount(1); }
};

QThreadPool& pool()
{
    static WritePool writes;
    return writes;
}

char g_written; ///< what the jobs did happens before flush() returns (TSan sees no Qt lock)

} // namespace

void post(std::function<void()> job)
{
    startInPool(pool(), [job = std::move(job)] {
        job();
        handoff::handingOver(&g_written);
        handoff::handedOver();
    });
}

void flush()
{
    pool().waitForDone();
    handoff::takingOver(&g_written);
}

} // namespace remat::ui::BackgroundWrites

// SPDX-License-Identifier: MIT
#include "model/background_writes.h"

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

} // namespace

void post(std::function<void()> job)
{
    pool().start(std::move(job));
}

void flush()
{
    pool().waitForDone();
}

} // namespace remat::ui::BackgroundWrites

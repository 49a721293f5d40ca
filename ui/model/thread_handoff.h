// SPDX-License-Identifier: MIT
#pragma once

#include "model/background_pool.h"

#include <QMetaObject>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <utility>

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
#endif

namespace remat::ui {

/// Work crosses threads only through these: a job into a thread pool, a result back through the
/// GUI thread's event queue. Qt orders each handoff before the other thread takes it over with
/// locks inside Qt, which Debian builds without ThreadSanitizer; in a TSan build these say so,
/// and Qt's own copy of the job (read only after the takeover) is not recorded. Elsewhere they
/// are the plain Qt calls.
namespace handoff {
inline char guiQueue; ///< every queued call of ours goes to the GUI thread
inline char poolQueues; ///< one address for all pools: coarser than Qt's lock per pool
#if defined(__SANITIZE_THREAD__)
inline void handingOver(void* queue)
{
    __tsan_release(queue);
    __tsan_ignore_thread_begin();
}
inline void handedOver()
{
    __tsan_ignore_thread_end();
}
inline void takingOver(void* queue)
{
    __tsan_acquire(queue);
}
#else
inline void handingOver(void*)
{ }
inline void handedOver()
{ }
inline void takingOver(void*)
{ }
#endif
} // namespace handoff

/// Runs `function` on `context`'s thread from its event queue: how our workers hand their results
/// back to the GUI thread (heaptrack's pattern; see GraphOpener::open for why not a QFuture).
template <typename Function> void queueCall(QObject* context, Function function)
{
    auto call = [function = std::move(function)]() mutable {
        handoff::takingOver(&handoff::guiQueue);
        function();
    };
    handoff::handingOver(&handoff::guiQueue);
    QMetaObject::invokeMethod(context, std::move(call), Qt::QueuedConnection);
    handoff::handedOver();
}

/// QThreadPool::start(function).
template <typename Function> void startInPool(QThreadPool& pool, Function function)
{
    std::function<void()> job = [function = std::move(function)]() mutable {
        handoff::takingOver(&handoff::poolQueues);
        function();
    };
    handoff::handingOver(&handoff::poolQueues);
    pool.start(std::move(job));
    handoff::handedOver();
}

/// QtConcurrent::run(function) on backgroundPool(), never on Qt's global pool (see there).
template <typename Function> auto runConcurrently(Function function)
{
    auto job = [function = std::move(function)]() mutable {
        handoff::takingOver(&handoff::poolQueues);
        return function();
    };
    handoff::handingOver(&handoff::poolQueues);
    auto future = QtConcurrent::run(&backgroundPool(), std::move(job));
    handoff::handedOver();
    return future;
}

} // namespace remat::ui

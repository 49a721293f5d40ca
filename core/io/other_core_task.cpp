// SPDX-License-Identifier: MIT
#include "io/other_core_task.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <pthread.h>
#include <sched.h>

namespace remat {

struct OtherCoreTask::State {
    std::function<void()> work;
    std::atomic<bool> claimed {false}; ///< whoever sets it runs the work
    std::mutex mutex;
    std::condition_variable doneChanged;
    bool done = false;

    void runIfUnclaimed()
    {
        if (claimed.exchange(true))
            return;
        work();
        const std::lock_guard lock(mutex);
        done = true;
        doneChanged.notify_all();
    }
};

namespace {

/// Every CPU the caller may use but its current one; false when there is no other.
bool otherCpus(cpu_set_t& cpus)
{
    if (sched_getaffinity(0, sizeof cpus, &cpus) != 0)
        return false;
    const int current = sched_getcpu();
    if (current >= 0 && current < CPU_SETSIZE)
        CPU_CLR(current, &cpus);
    return CPU_COUNT(&cpus) > 0;
}

} // namespace

void* OtherCoreTask::runOnThread(void* state)
{
    const std::unique_ptr<std::shared_ptr<State>> owned(static_cast<std::shared_ptr<State>*>(state));
    (*owned)->runIfUnclaimed();
    return nullptr;
}

OtherCoreTask::OtherCoreTask(std::function<void()> work)
    : m_state(std::make_shared<State>())
{
    m_state->work = std::move(work);
    cpu_set_t cpus;
    if (!otherCpus(cpus))
        return; // finish() runs the work here
    // Placed from its start: a thread moved there only after it started may first take this
    // CPU from its creator (seen: the creator queued 1.5 ms behind it while the other CPU idled).
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0)
        return;
    // Detached and holding the state: if it only starts after finish() ran the work, it finds
    // the work claimed and ends without touching anything else.
    auto* state = new std::shared_ptr<State>(m_state);
    pthread_t thread;
    if (pthread_attr_setaffinity_np(&attributes, sizeof cpus, &cpus) != 0
        || pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED) != 0
        || pthread_create(&thread, &attributes, &runOnThread, state) != 0)
        delete state; // no thread to be had: finish() runs the work here
    pthread_attr_destroy(&attributes);
}

OtherCoreTask::~OtherCoreTask()
{
    finish();
}

void OtherCoreTask::runHereUnlessStarted()
{
    m_state->runIfUnclaimed();
}

void OtherCoreTask::finish()
{
    m_state->runIfUnclaimed();
    std::unique_lock lock(m_state->mutex);
    m_state->doneChanged.wait(lock, [this] { return m_state->done; });
}

} // namespace remat

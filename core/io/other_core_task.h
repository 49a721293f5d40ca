// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <memory>

namespace remat {

/// Runs one piece of work on a new thread kept off the caller's CPU, while the caller goes on.
/// Linux starts a new thread on its creator's CPU and, on a small VM, leaves it queued there for
/// milliseconds while the other CPU idles: a thread meant to overlap 1 ms of work must be placed.
/// finish() waits for the work; if the thread has not started by then (every other CPU busy),
/// the caller does the work itself, so it never waits on a thread that cannot run.
class OtherCoreTask {
public:
    explicit OtherCoreTask(std::function<void()> work);
    ~OtherCoreTask(); ///< finish()
    OtherCoreTask(const OtherCoreTask&) = delete;
    OtherCoreTask& operator=(const OtherCoreTask&) = delete;

    /// Returns once the work is done, here or there. The work must not throw.
    void finish();
    /// Does the work here if the other thread has not started it, else returns at once (the
    /// work may still be running there).
    void runHereUnlessStarted();

private:
    struct State;
    static void* runOnThread(void* state); ///< takes a std::shared_ptr<State>* made with new
    std::shared_ptr<State> m_state;
};

} // namespace remat

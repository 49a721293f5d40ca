// SPDX-License-Identifier: MIT
#include "model/background_priority.h"

#include <QtGlobal>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#endif

namespace remat::ui {

void lowerThreadPriority()
{
#ifdef Q_OS_LINUX
    thread_local bool lowered = false;
    if (lowered)
        return;
    lowered = true;
    // On Linux the nice value is per thread: PRIO_PROCESS with a thread id changes that thread only.
    constexpr int kBackgroundNice = 5;
    const auto thread = static_cast<id_t>(gettid());
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, thread);
    if (errno == 0)
        setpriority(PRIO_PROCESS, thread, std::min(current + kBackgroundNice, 19));
#endif
}

} // namespace remat::ui

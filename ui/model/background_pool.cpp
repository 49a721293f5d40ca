// SPDX-License-Identifier: MIT
#include "model/background_pool.h"

#include <QThreadPool>

namespace remat::ui {

QThreadPool& backgroundPool()
{
    // Destroyed at exit, after waiting for what is left (each job checks whether it is stale).
    static QThreadPool pool;
    return pool;
}

} // namespace remat::ui

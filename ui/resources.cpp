// SPDX-License-Identifier: MIT
#include "resources.h"

#include <QtGlobal>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initRematUiResources()
{
    Q_INIT_RESOURCE(remat_ui);
}

namespace remat::ui {

void initResources()
{
    initRematUiResources();
}

} // namespace remat::ui

// SPDX-License-Identifier: MIT
// libFuzzer target: what a layout cache file and the layout worker's pipe carry. The first byte
// chooses the reader; a request and a result that both read are then checked against each other
// (layoutMismatch), as the cache does before anything indexes into a stored layout.
#include "layout/layout_check.h"
#include "layout/layout_types.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 5)
        return 0;
    // Bytes 1..4: where the request ends and the result begins.
    const std::size_t split = (std::size_t(data[1]) | std::size_t(data[2]) << 8 | std::size_t(data[3]) << 16
                                  | std::size_t(data[4]) << 24)
        % (size - 4);
    const char* body = reinterpret_cast<const char*>(data + 5);
    const QByteArray requestBytes = QByteArray::fromRawData(body, qsizetype(split));
    const QByteArray resultBytes = QByteArray::fromRawData(body + split, qsizetype(size - 5 - split));

    remat::ui::LayoutRequest request;
    remat::ui::LayoutResult result;
    QString error;
    if (data[0] % 2 == 0) {
        remat::ui::LayoutResult::deserialize(
            QByteArray::fromRawData(body, qsizetype(size - 5)), result, &error);
        return 0;
    }
    if (remat::ui::LayoutRequest::deserialize(requestBytes, request, &error)
        && remat::ui::LayoutResult::deserialize(resultBytes, result, &error))
        remat::ui::layoutMismatch(request, result);
    return 0;
}

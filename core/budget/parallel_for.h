// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace remat {

/// Runs work(0..count-1) on up to `threads` threads (0: one per hardware thread), the calling
/// thread included. Stops handing out items once `cancel` is set. The first exception a worker
/// throws is rethrown here after every thread has finished.
inline void parallelFor(std::size_t count, int threads, const std::function<void(std::size_t)>& work,
    const std::atomic<bool>* cancel = nullptr)
{
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const auto workers = std::min<std::size_t>(static_cast<std::size_t>(threads), count);
    std::atomic<std::size_t> next {0};
    std::atomic<bool> failed {false};
    std::exception_ptr error;
    std::mutex errorMutex;
    const auto loop = [&] {
        for (;;) {
            if (failed.load() || (cancel && cancel->load()))
                return;
            const std::size_t i = next.fetch_add(1);
            if (i >= count)
                return;
            try {
                work(i);
            } catch (...) {
                const std::lock_guard lock(errorMutex);
                if (!error)
                    error = std::current_exception();
                failed = true;
            }
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < workers; ++t)
        pool.emplace_back(loop);
    loop();
    for (auto& thread : pool)
        thread.join();
    if (error)
        std::rethrow_exception(error);
}

} // namespace remat
